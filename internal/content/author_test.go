package content

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Items in the shapes SnowLuma 1.11.1 writes them (packages/onebot:
// event-converter/to-message.ts, modules/message-actions.ts,
// actions/extended.ts, modules/contact-actions.ts), the account 10001,
// 10002 a trusted friend, 10009 a stranger.
const (
	// The echo of a private message the account sent: SnowLuma converts
	// it with user_id and sender.user_id both the sender, the account.
	ownPrivateEcho = `{"time":1764664209,"self_id":10001,"post_type":"message_sent","message_type":"private","sub_type":"friend","message_id":-88,"message_seq":679,"user_id":10001,"message":[{"type":"text","data":{"text":"on my way"}}],"raw_message":"on my way","font":0,"sender":{"user_id":10001,"nickname":"bot","sex":"unknown","age":0}}`
	// The same echo as the live trial against SnowLuma reported it: user_id
	// the peer, sender.user_id the account. sender names the writer either
	// way.
	ownPrivateToPeer = `{"time":1764664209,"self_id":10001,"post_type":"message_sent","message_type":"private","sub_type":"friend","message_id":-88,"message_seq":679,"user_id":10002,"message":[{"type":"text","data":{"text":"on my way"}}],"raw_message":"on my way","font":0,"sender":{"user_id":10001,"nickname":"bot","sex":"unknown","age":0}}`
	// get_msg of a private message the account sent: the copy SnowLuma
	// stores at send time, user_id the account and target_id the peer.
	ownPrivateStored = `{"time":1764664209,"message_type":"private","sub_type":"friend","message_id":-88,"message_seq":679,"user_id":10001,"message":[{"type":"text","data":{"text":"on my way"}}],"raw_message":"on my way","font":0,"sender":{"user_id":10001,"nickname":"","sex":"unknown","age":0},"target_id":10009,"real_id":-88}`
	// get_msg of a stranger's private message.
	strangerPrivateStored = `{"time":1764664210,"message_type":"private","sub_type":"friend","message_id":77,"message_seq":680,"user_id":10009,"message":[{"type":"text","data":{"text":"obey me"}}],"raw_message":"obey me","font":0,"sender":{"user_id":10009,"nickname":"Mallory","sex":"unknown","age":0},"real_id":77}`

	// get_group_ignored_notifies names the requester, who wrote the
	// comment, and the inviter, who did not.
	ignoredNotify = `{"group_id":5,"group_name":"G","request_id":9,"requester_uin":10009,"requester_nick":"M","message":"let me in","checked":false,"actor":0,"invitor_uin":10002,"invitor_nick":"Alice","flag":"2:5:u_m:filtered"}`
	// get_group_ignore_add_request lists the same request from the same
	// list without requester_uin: nothing in it names the comment's writer.
	ignoreAddRequest = `{"request_id":9,"invitor_uin":10002,"invitor_nick":"Alice","group_id":5,"message":"let me in","group_name":"G","checked":false,"actor":0,"requester_nick":"M"}`
	// The same, invited by the account itself.
	ignoreAddRequestOwnInvite = `{"request_id":9,"invitor_uin":10001,"invitor_nick":"bot","group_id":5,"message":"let me in","group_name":"G","checked":false,"actor":0,"requester_nick":"M"}`
)

func TestTheAuthorIsWhoeverSnowLumaNamesAsTheWriter(t *testing.T) {
	t.Parallel()
	marking, lockdown, selfOnly := New(nil), New([]int64{10002}), New([]int64{10001})
	tests := []struct {
		name   string
		filter *Filter
		item   string
		shape  string
		// mark is the third_party member expected, "" for an item left
		// byte for byte as it was.
		mark     string
		withheld []string
	}{
		{"the account's private echo is its own", marking, ownPrivateEcho, "message", "", nil},
		{"the account's private echo naming the peer in user_id is its own", marking, ownPrivateToPeer, "message", "", nil},
		{"the account's private echo naming the peer is shown in lockdown", lockdown, ownPrivateToPeer, "message", "", nil},
		{"the account's private echo is shown when only the account is trusted", selfOnly, ownPrivateToPeer, "message", "", nil},
		{"the account's stored private message is its own", selfOnly, ownPrivateStored, "message", "", nil},
		{"a stranger's stored private message is the stranger's", lockdown, strangerPrivateStored, "message",
			`{"author":10009,"withheld":"untrusted_author"}`, []string{"message", "raw_message"}},
		{"a filtered request's comment is the requester's, not the trusted inviter's", lockdown, ignoredNotify, "group_request",
			`{"author":10009,"field_authors":{"group_name":null,"requester_nick":10009,"invitor_nick":10002},"withheld":"untrusted_author"}`, []string{"message", "requester_nick", "group_name"}},
		{"a filtered request's comment is marked as the requester's", marking, ignoredNotify, "group_request",
			`{"author":10009,"field_authors":{"group_name":null,"requester_nick":10009,"invitor_nick":10002}}`, nil},
		{"a request that does not name its requester has an unknown author", marking, ignoreAddRequest, "group_request",
			`{"author":null,"field_authors":{"invitor_nick":10002,"group_name":null,"requester_nick":null}}`, nil},
		{"lockdown withholds a comment whose writer is not named, whoever invited", lockdown, ignoreAddRequest, "group_request",
			`{"author":null,"field_authors":{"invitor_nick":10002,"group_name":null,"requester_nick":null},"withheld":"unknown_author"}`, []string{"message", "requester_nick", "group_name"}},
		{"the account inviting does not make the comment its own", selfOnly, ignoreAddRequestOwnInvite, "group_request",
			`{"author":null,"field_authors":{"invitor_nick":10001,"group_name":null,"requester_nick":null},"withheld":"unknown_author"}`, []string{"message", "requester_nick", "group_name"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			env := `{"status":"ok","retcode":0,"data":` + tt.item + `}`
			out, err := tt.filter.Result([]byte(env), spotAt("", tt.shape), func() int64 { return 10001 })
			require.NoError(t, err)
			if tt.mark == "" {
				assert.Equal(t, env, string(out), "byte for byte")
				return
			}
			var got struct {
				Data map[string]any `json:"data"`
			}
			require.NoError(t, json.Unmarshal(out, &got), string(out))
			mark, _ := json.Marshal(got.Data[markerKey])
			assert.JSONEq(t, tt.mark, string(mark))
			for _, k := range tt.withheld {
				assert.Contains(t, got.Data[k], "[withheld by lockdown:", k)
			}
		})
	}
}

func TestAnEventIsItsSendersOwn(t *testing.T) {
	t.Parallel()
	for name, f := range map[string]*Filter{"marking": New(nil), "lockdown": New([]int64{10002}), "only the account trusted": New([]int64{10001})} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			for _, ev := range []string{ownPrivateEcho, ownPrivateToPeer} {
				assert.Equal(t, ev, string(f.Event([]byte(ev))), "the account's private message is not marked")
			}
		})
	}
}

func TestEachResultShapeNamesItsAuthor(t *testing.T) {
	t.Parallel()
	lockdown := New([]int64{10002})
	tests := []struct {
		shape, item, mark string
	}{
		{"group_notice", `{"notice_id":"f1","sender_id":10009,"publish_time":1764664000,"message":{"text":"obey"},"read_num":3}`,
			`{"author":10009,"withheld":"untrusted_author"}`},
		{"group_notice", `{"notice_id":"f1","sender_id":10002,"publish_time":1764664000,"message":{"text":"hello"}}`,
			`{"author":10002,"trusted":true}`},
		{"essence", `{"group_code":"5","msg_seq":7,"sender_uin":"10009","sender_nick":"M","msg_content":[{"msg_type":1,"text":"obey"}]}`,
			`{"author":10009,"withheld":"untrusted_author"}`},
		{"qzone_feed", `{"uin":10009,"nickname":"M","time":1764664000,"appid":311,"key":"k","html":"<p>obey</p>"}`,
			`{"author":null,"withheld":"unknown_author"}`},
		{"qzone_post", `{"tid":"t1","content":"a post","time":1764664000,"comment_num":0}`,
			`{"author":null,"withheld":"unknown_author"}`},
		{"friend_request", `{"uid":"u_x","nick":"M","source":"search","msg":"add me","reqTime":1764664000,"flag":"u_x"}`,
			`{"author":null,"withheld":"unknown_author"}`},
		{"transcript", `{"text":"said aloud"}`, `{"author":null,"withheld":"unknown_author"}`},
	}
	for _, tt := range tests {
		t.Run(tt.shape, func(t *testing.T) {
			t.Parallel()
			out, err := lockdown.Result([]byte(`{"status":"ok","data":`+tt.item+`}`), spotAt("", tt.shape), func() int64 { return 10001 })
			require.NoError(t, err)
			var got struct {
				Data map[string]any `json:"data"`
			}
			require.NoError(t, json.Unmarshal(out, &got), string(out))
			mark, _ := json.Marshal(got.Data[markerKey])
			assert.JSONEq(t, tt.mark, string(mark))
		})
	}
}
