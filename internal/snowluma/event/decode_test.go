package event

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Frames as SnowLuma sends them: meta events from its
// packages/onebot/src/instance.ts, the others from
// packages/onebot/src/event-converter/.
const (
	lifecycle    = `{"time":1764664200,"self_id":10001,"post_type":"meta_event","meta_event_type":"lifecycle","sub_type":"connect","status":{"online":true,"good":true}}`
	heartbeat    = `{"time":1764664230,"self_id":10001,"post_type":"meta_event","meta_event_type":"heartbeat","status":{"online":true,"good":true},"interval":30000}`
	groupMessage = `{"time":1764664201,"self_id":10001,"post_type":"message","message_type":"group","sub_type":"normal","message_id":2137770485,"message_seq":12345,"group_id":123456789,"user_id":10002,"message":[{"type":"text","data":{"text":" hi"}}],"raw_message":" hi","font":0,"sender":{"user_id":10002,"nickname":"Alice","card":"","role":"member","sex":"unknown","age":0},"anonymous":null}`
	privMessage  = `{"time":1764664202,"self_id":10001,"post_type":"message","message_type":"private","sub_type":"friend","message_id":-1264852461,"message_seq":678,"user_id":10002,"message":[{"type":"text","data":{"text":"hello"}}],"raw_message":"hello","font":0,"sender":{"user_id":10002,"nickname":"Alice","sex":"unknown","age":0}}`
	sentMessage  = `{"time":1764664203,"self_id":10001,"post_type":"message_sent","message_type":"group","sub_type":"normal","message_id":1064864907,"message_seq":12346,"group_id":123456789,"user_id":10001,"message":[{"type":"text","data":{"text":"pong"}}],"raw_message":"pong","font":0,"anonymous":null}`
	recall       = `{"time":1764664204,"self_id":10001,"post_type":"notice","notice_type":"group_recall","group_id":123456789,"operator_id":10003,"user_id":10002,"message_id":2137770485}`
	friendReq    = `{"time":1764664207,"self_id":10001,"post_type":"request","request_type":"friend","user_id":10004,"comment":"hi, add me","flag":"u_Xy12AbCdEf"}`
)

func TestDecodeAcceptsSnowLumaFrames(t *testing.T) {
	cases := []struct {
		name, frame string
		kind        Kind
		group, user int64
		hasGroup    bool
	}{
		{"lifecycle connect is meta", lifecycle, KindMeta, 0, 0, false},
		{"heartbeat is meta", heartbeat, KindMeta, 0, 0, false},
		{"group message carries group and user", groupMessage, KindMessage, 123456789, 10002, true},
		{"private message has no group", privMessage, KindMessage, 0, 10002, false},
		{"message_sent counts as message", sentMessage, KindMessage, 123456789, 10001, true},
		{"notice", recall, KindNotice, 123456789, 10002, true},
		{"request", friendReq, KindRequest, 0, 10004, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e, err := Decode([]byte(c.frame))
			require.NoError(t, err)
			assert.Equal(t, int64(10001), e.SelfID)
			assert.Equal(t, c.kind, e.Kind)
			assert.Equal(t, c.group, e.GroupID)
			assert.Equal(t, c.hasGroup, e.HasGroup)
			assert.Equal(t, c.user, e.UserID)
			assert.Equal(t, c.frame, string(e.Raw), "the frame is kept byte for byte")
		})
	}
}

func TestDecodeRefusesMalformedFrames(t *testing.T) {
	cases := []struct{ name, frame, why string }{
		{"empty", ``, "not a JSON object"},
		{"array", `[1]`, "not a JSON object"},
		{"truncated", `{"self_id":10001,`, "not a valid JSON object"},
		{"invalid UTF-8", "{\"self_id\":10001,\"x\":\"\xff\"}", "UTF-8"},
		{"no time", `{"self_id":10001,"post_type":"notice"}`, "time is missing"},
		{"no self_id", `{"time":1,"post_type":"notice"}`, "self_id is missing"},
		{"string self_id", `{"time":1,"self_id":"10001","post_type":"notice"}`, "self_id must be an integer"},
		{"fractional self_id", `{"time":1,"self_id":10001.5,"post_type":"notice"}`, "self_id must be an integer"},
		{"zero self_id", `{"time":1,"self_id":0,"post_type":"notice"}`, "positive"},
		{"huge self_id", `{"time":1,"self_id":99999999999999999999,"post_type":"notice"}`, "self_id must be an integer"},
		{"no post_type", `{"time":1,"self_id":10001}`, "post_type is missing"},
		{"unknown post_type", `{"time":1,"self_id":10001,"post_type":"gossip"}`, "unknown post_type"},
		{"meta without type", `{"time":1,"self_id":10001,"post_type":"meta_event"}`, "meta_event_type"},
		{"string group_id", `{"time":1,"self_id":10001,"post_type":"notice","group_id":"1"}`, "group_id must be an integer"},
		{"object user_id", `{"time":1,"self_id":10001,"post_type":"notice","user_id":{}}`, "user_id must be an integer"},
		{"numeric sub_type", `{"time":1,"self_id":10001,"post_type":"notice","sub_type":3}`, "sub_type"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Decode([]byte(c.frame))
			require.ErrorIs(t, err, ErrMalformed)
			assert.Contains(t, err.Error(), c.why)
		})
	}
}

func TestDecodeTreatsNullIDsAsAbsent(t *testing.T) {
	e, err := Decode([]byte(`{"time":1,"self_id":10001,"post_type":"notice","group_id":null,"user_id":5}`))
	require.NoError(t, err)
	assert.False(t, e.HasGroup)
	assert.True(t, e.HasUser)
}

func TestDecodeNeverEchoesALongPostType(t *testing.T) {
	_, err := Decode([]byte(`{"time":1,"self_id":10001,"post_type":"` + strings.Repeat("x", 5000) + `"}`))
	require.Error(t, err)
	assert.Less(t, len(err.Error()), 200)
}

// TestDecodeMatchesHeaderKeysExactly: a key in another spelling is not the
// header field (encoding/json would take it for one), and a header field
// carried twice, in any spelling, is refused rather than guessed at.
func TestDecodeMatchesHeaderKeysExactly(t *testing.T) {
	refused := []struct{ name, frame, why string }{
		{"account twice, the second in capitals", `{"time":1,"self_id":99999,"Self_ID":10001,"post_type":"notice"}`,
			`the frame carries self_id twice (as "self_id" and "Self_ID")`},
		{"account twice, the imitation first", `{"time":1,"SELF_ID":10001,"self_id":99999,"post_type":"notice"}`, "carries self_id twice"},
		{"account twice in the same spelling", `{"time":1,"self_id":10001,"self_id":99999,"post_type":"notice"}`, "carries self_id twice"},
		{"group twice", `{"time":1,"self_id":10001,"post_type":"notice","group_id":20002,"GROUP_ID":20001}`, "carries group_id twice"},
		{"user twice", `{"time":1,"self_id":10001,"post_type":"notice","user_id":1,"User_Id":2}`, "carries user_id twice"},
		{"post_type twice", `{"time":1,"self_id":10001,"post_type":"notice","Post_Type":"request"}`, "carries post_type twice"},
		{"a long s imitating self_id", "{\"time\":1,\"self_id\":10001,\"\u017felf_id\":99999,\"post_type\":\"notice\"}", "carries self_id twice"},
		{"a long s imitating post_type", "{\"time\":1,\"self_id\":10001,\"post_type\":\"notice\",\"po\u017ft_type\":\"request\"}", "carries post_type twice"},
		{"time twice", `{"time":1,"TIME":2,"self_id":10001,"post_type":"notice"}`, "carries time twice"},
		{"only a capitalised account is no account", `{"time":1,"Self_ID":10001,"post_type":"notice"}`, "self_id is missing"},
	}
	for _, c := range refused {
		t.Run(c.name, func(t *testing.T) {
			_, err := Decode([]byte(c.frame))
			require.ErrorIs(t, err, ErrMalformed)
			assert.Contains(t, err.Error(), c.why)
		})
	}

	t.Run("a group key in another spelling is not the group", func(t *testing.T) {
		e, err := Decode([]byte(`{"time":1,"self_id":10001,"post_type":"notice","GROUP_ID":20001,"user_id":5}`))
		require.NoError(t, err)
		assert.False(t, e.HasGroup, "only group_id is the group")
		assert.False(t, Filter{GroupIDs: []int64{20001}}.Normalize().Match(e), "a group filter never passes on an imitation")
	})
	t.Run("nested keys are not the header", func(t *testing.T) {
		e, err := Decode([]byte(`{"time":1,"self_id":10001,"post_type":"notice","sender":{"self_id":5,"Self_ID":6},"user_id":5}`))
		require.NoError(t, err)
		assert.Equal(t, int64(10001), e.SelfID)
	})
}

// TestDecodeNamesTheFieldOfTheWrongType: a valid JSON object with a header
// field of the wrong type says which field, and what arrived.
func TestDecodeNamesTheFieldOfTheWrongType(t *testing.T) {
	cases := []struct{ name, frame, why string }{
		{"numeric post_type", `{"time":1,"self_id":10001,"post_type":5}`, "post_type must be a string, not a number"},
		{"object post_type", `{"time":1,"self_id":10001,"post_type":{}}`, "post_type must be a string, not an object"},
		{"boolean meta_event_type", `{"time":1,"self_id":10001,"post_type":"meta_event","meta_event_type":true}`, "meta_event_type must be a string, not a boolean"},
		{"array sub_type", `{"time":1,"self_id":10001,"post_type":"notice","sub_type":[]}`, "sub_type must be a string, not an array"},
		{"string time", `{"time":"1","self_id":10001,"post_type":"notice"}`, "time must be an integer, not a string"},
		{"boolean self_id", `{"time":1,"self_id":true,"post_type":"notice"}`, "self_id must be an integer, not a boolean"},
		{"fractional group_id", `{"time":1,"self_id":10001,"post_type":"notice","group_id":1.5}`, "group_id must be an integer that fits 64 bits"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Decode([]byte(c.frame))
			require.ErrorIs(t, err, ErrMalformed)
			assert.Contains(t, err.Error(), c.why)
			assert.NotContains(t, err.Error(), "not a valid JSON object", "the frame is valid JSON; only a field is wrong")
		})
	}
}
