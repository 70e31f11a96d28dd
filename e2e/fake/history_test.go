package fake_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/e2e/fake"
	"github.com/snowluma/snowluma-mcp/internal/schema"
)

// okData posts an action, requires success and checks the data against the
// action's returnsSchema.
func okData(t *testing.T, action, params string) json.RawMessage {
	t.Helper()
	var env struct {
		Status string          `json:"status"`
		Data   json.RawMessage `json:"data"`
	}
	r := post(t, `{"action":"`+action+`","params":`+params+`}`, nil)
	require.NoError(t, json.Unmarshal([]byte(r.body), &env))
	require.Equal(t, "ok", env.Status, r.body)
	cat, err := catalog.Load()
	require.NoError(t, err)
	a, ok := cat.Lookup(action)
	require.True(t, ok)
	v, err := schema.Compile(a.ReturnsSchema)
	require.NoError(t, err)
	require.NoError(t, v.Validate(env.Data, "data"))
	return env.Data
}

func text(s string) json.RawMessage {
	return json.RawMessage(fmt.Sprintf(`[{"type":"text","data":{"text":%q}}]`, s))
}

func TestReceivedMessagesMakeAHistory(t *testing.T) {
	t.Parallel()
	const group = 555000111
	var ids []int32
	for i, from := range []int64{10002, 10009, fake.SelfID, 10002} {
		id, frame := srv.Receive(fake.Incoming{Group: group, From: from, Nick: "n", Message: text(fmt.Sprint(i)), Raw: fmt.Sprint(i)})
		ids = append(ids, id)
		var ev map[string]any
		require.NoError(t, json.Unmarshal([]byte(frame), &ev))
		want := "message"
		if from == fake.SelfID {
			want = "message_sent"
		}
		assert.Equal(t, want, ev["post_type"])
		assert.Equal(t, float64(group), ev["group_id"])
	}
	raws := func(data json.RawMessage) []string {
		var h struct {
			Messages []struct {
				Raw string `json:"raw_message"`
			} `json:"messages"`
		}
		require.NoError(t, json.Unmarshal(data, &h))
		var out []string
		for _, m := range h.Messages {
			out = append(out, m.Raw)
		}
		return out
	}
	assert.Equal(t, []string{"0", "1", "2", "3"}, raws(okData(t, "get_group_msg_history", fmt.Sprintf(`{"group_id":%d}`, group))), "oldest first")
	assert.Equal(t, []string{"2", "3"}, raws(okData(t, "get_group_msg_history", fmt.Sprintf(`{"group_id":%d,"count":2}`, group))))
	assert.Equal(t, []string{"0", "1"}, raws(okData(t, "get_group_msg_history", fmt.Sprintf(`{"group_id":%d,"message_id":%d}`, group, ids[1]))), "up to the anchor")
	assert.Empty(t, raws(okData(t, "get_group_msg_history", `{"group_id":555000112}`)))
	okData(t, "get_msg", fmt.Sprintf(`{"message_id":%d}`, ids[1]))

	_, _ = srv.Receive(fake.Incoming{From: 555000113, Nick: "p", Message: json.RawMessage(`"hi [CQ:face,id=14]"`), Raw: "hi [CQ:face,id=14]"})
	assert.Equal(t, []string{"hi [CQ:face,id=14]"}, raws(okData(t, "get_friend_msg_history", `{"user_id":555000113}`)), "a CQ-code body is stored as it came")
}

func TestForwardsNestOtherSenders(t *testing.T) {
	t.Parallel()
	inner := srv.Forward([]fake.Node{{UserID: 10009, Nick: "M", Content: text("deep")}})
	outer := srv.Forward([]fake.Node{
		{UserID: 10002, Nick: "A", Content: text("top")},
		{UserID: 10009, Nick: "M", Content: json.RawMessage(`[{"type":"forward","data":{"id":"` + inner + `"}}]`)},
	})
	var got struct {
		Messages []struct {
			UserID  int64           `json:"user_id"`
			Message json.RawMessage `json:"message"`
		} `json:"messages"`
	}
	require.NoError(t, json.Unmarshal(okData(t, "get_forward_msg", `{"id":"`+outer+`"}`), &got))
	require.Len(t, got.Messages, 2)
	assert.Equal(t, int64(10002), got.Messages[0].UserID)
	assert.Contains(t, string(got.Messages[1].Message), inner)
	okData(t, "get_forward_msg", `{"id":"`+inner+`"}`)
	assert.Contains(t, post(t, `{"action":"get_forward_msg","params":{"id":"nope"}}`, nil).body, `"retcode":100`)
}

func TestJoinRequestsAreListed(t *testing.T) {
	t.Parallel()
	srv.JoinRequest(555000114, 10009, "M", "let me in")
	assert.Contains(t, string(okData(t, "get_group_system_msg", `{}`)), `"message":"let me in"`)
}

func TestForwardNodesHaveSnowLumasShape(t *testing.T) {
	t.Parallel()
	id := srv.Forward([]fake.Node{{UserID: 10002, Nick: "A", Content: text("p")}, {UserID: 10009, Nick: "M", Group: 555000115, Content: text("g")}})
	var got struct {
		Messages []json.RawMessage `json:"messages"`
	}
	require.NoError(t, json.Unmarshal(okData(t, "get_forward_msg", `{"id":"`+id+`"}`), &got))
	require.Len(t, got.Messages, 2)
	keys := func(raw json.RawMessage) string {
		var out []string
		dec := json.NewDecoder(strings.NewReader(string(raw)))
		_, _ = dec.Token()
		for dec.More() {
			k, _ := dec.Token()
			out = append(out, k.(string))
			var skip json.RawMessage
			require.NoError(t, dec.Decode(&skip))
		}
		return strings.Join(out, ",")
	}
	base := "self_id,user_id,time,message_id,message_seq,real_id,message_type,sender,raw_message,font,sub_type,message,message_format,post_type"
	assert.Equal(t, base, keys(got.Messages[0]), "getForwardMessage's members, in its order")
	assert.Equal(t, base+",group_id", keys(got.Messages[1]))
	assert.Contains(t, string(got.Messages[0]), `"sender":{"user_id":10002,"nickname":"A"}`)
	assert.Contains(t, string(got.Messages[1]), `"sender":{"user_id":10009,"nickname":"M","card":""}`)
	assert.Contains(t, string(got.Messages[1]), `"message_type":"group"`)
}

func TestFilteredJoinRequestsAreListedInBothShapes(t *testing.T) {
	t.Parallel()
	srv.FilterJoinRequest(fake.FilteredRequest{Group: 555000116, Requester: 10009, RequesterNick: "M", Inviter: 10002, InviterNick: "A", Comment: "filtered words"})
	notifies := string(okData(t, "get_group_ignored_notifies", `{}`))
	assert.Contains(t, notifies, `"requester_uin":10009`)
	assert.Contains(t, notifies, `"invitor_uin":10002`)
	ignored := string(okData(t, "get_group_ignore_add_request", `{}`))
	assert.Contains(t, ignored, `"message":"filtered words"`)
	assert.NotContains(t, ignored, "requester_uin", "NapCat's shape names no requester")
}

func TestAnUploadedForwardHandsTheBuildersClaimsBack(t *testing.T) {
	t.Parallel()
	var up struct {
		ResID string `json:"res_id"`
	}
	require.NoError(t, json.Unmarshal(okData(t, "upload_forward_msg",
		`{"messages":[{"type":"node","data":{"user_id":"10001","nickname":"anyone","content":"claimed"}},{"type":"node","data":{"uin":10002,"content":[{"type":"text","data":{"text":"t"}}]}}]}`), &up))
	var got struct {
		Messages []struct {
			UserID  int64           `json:"user_id"`
			Sender  json.RawMessage `json:"sender"`
			Message json.RawMessage `json:"message"`
		} `json:"messages"`
	}
	require.NoError(t, json.Unmarshal(okData(t, "get_forward_msg", `{"id":"`+up.ResID+`"}`), &got))
	require.Len(t, got.Messages, 2)
	assert.Equal(t, int64(10001), got.Messages[0].UserID)
	assert.JSONEq(t, `{"user_id":10001,"nickname":"anyone"}`, string(got.Messages[0].Sender))
	assert.JSONEq(t, `[{"type":"text","data":{"text":"claimed"}}]`, string(got.Messages[0].Message))
	assert.JSONEq(t, `{"user_id":10002,"nickname":"10002"}`, string(got.Messages[1].Sender), "the uin stands in for a missing nickname")
}
