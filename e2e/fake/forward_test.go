package fake_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

// TestAForwardedMessageIsSentAgainAsTheAccounts: forwardSingleMessage
// sends the stored message's segments again and finalizeSend stores the
// copy as the account's own, so get_msg of the copy names the account.
func TestAForwardedMessageIsSentAgainAsTheAccounts(t *testing.T) {
	t.Parallel()
	const group, stranger = 555000222, 10009
	src, _ := srv.Receive(fake.Incoming{Group: group, From: stranger, Nick: "Mallory", Message: text("a stranger's words"), Raw: "a stranger's words"})
	for _, tc := range []struct {
		action, target, kind string
		to                   int64
	}{
		{"forward_group_single_msg", "group_id", "group", 555000333},
		{"forward_friend_single_msg", "user_id", "private", 10002},
	} {
		t.Run(tc.action, func(t *testing.T) {
			var sent struct {
				MessageID int32 `json:"message_id"`
			}
			require.NoError(t, json.Unmarshal(okData(t, tc.action, fmt.Sprintf(`{"message_id":%d,%q:"%d"}`, src, tc.target, tc.to)), &sent))
			require.NotZero(t, sent.MessageID)
			kind, target, ok := srv.SentTo(sent.MessageID)
			require.True(t, ok)
			assert.Equal(t, tc.kind, kind)
			assert.Equal(t, tc.to, target)
			var copied struct {
				UserID     int64           `json:"user_id"`
				Sender     map[string]any  `json:"sender"`
				Message    json.RawMessage `json:"message"`
				RawMessage string          `json:"raw_message"`
			}
			require.NoError(t, json.Unmarshal(okData(t, "get_msg", fmt.Sprintf(`{"message_id":%d}`, sent.MessageID)), &copied))
			assert.Equal(t, int64(fake.SelfID), copied.UserID)
			assert.Equal(t, float64(fake.SelfID), copied.Sender["user_id"], "the copy names the account as its sender")
			assert.JSONEq(t, string(text("a stranger's words")), string(copied.Message))
			assert.Equal(t, "a stranger's words", copied.RawMessage)
		})
	}
}

func TestAForwardFailsAsSnowLumasDoes(t *testing.T) {
	t.Parallel()
	const group = 555000444
	file, _ := srv.Receive(fake.Incoming{Group: group, From: 10002, Message: json.RawMessage(`[{"type":"file","data":{"file":"a.zip"}}]`)})
	image, _ := srv.Receive(fake.Incoming{Group: group, From: 10002, Message: json.RawMessage(`[{"type":"image","data":{"file":"x.jpg"}}]`)})
	voice, _ := srv.Receive(fake.Incoming{Group: group, From: 10002, Message: json.RawMessage(`[{"type":"record","data":{"file":"x.silk"}}]`)})
	keyless, _ := srv.Receive(fake.Incoming{Group: group, From: 10002, Message: json.RawMessage(`[{"type":"video","data":{}}]`)})
	empty, _ := srv.Receive(fake.Incoming{Group: group, From: 10002, Message: json.RawMessage(`[]`)})
	tests := []struct {
		name, params string
		retcode      int
		wording      string
	}{
		{"a message it does not have", `{"message_id":12,"group_id":1}`, 100, "message not found: 12"},
		{"message id 0", `{"message_id":0,"group_id":1}`, 1400, "message_id: must not be 0"},
		{"no message id", `{"group_id":1}`, 1400, "message_id: is required"},
		{"no target", fmt.Sprintf(`{"message_id":%d}`, file), 1400, "group_id: is required"},
		{"a target below 1", fmt.Sprintf(`{"message_id":%d,"group_id":0}`, file), 1400, "group_id: must be >= 1"},
		{"a target that is no number", fmt.Sprintf(`{"message_id":%d,"group_id":"abc"}`, file), 1400, "group_id: expected a positive integer"},
		{"a file segment", fmt.Sprintf(`{"message_id":%d,"group_id":1}`, file), 100, "forward of file segment is not supported"},
		{"an image it has no fingerprint of", fmt.Sprintf(`{"message_id":%d,"group_id":1}`, image), 100, "forward image fingerprint not cached (legacy image or expired)"},
		{"a voice clip it has no fingerprint of", fmt.Sprintf(`{"message_id":%d,"group_id":1}`, voice), 100, "forward record fingerprint not cached"},
		{"media without a file", fmt.Sprintf(`{"message_id":%d,"group_id":1}`, keyless), 100, "forward video missing cache key"},
		{"a message without segments", fmt.Sprintf(`{"message_id":%d,"group_id":1}`, empty), 100, "message has no content"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := post(t, `{"action":"forward_group_single_msg","params":`+tt.params+`}`, nil)
			var env struct {
				Status  string          `json:"status"`
				Retcode int             `json:"retcode"`
				Data    json.RawMessage `json:"data"`
				Wording string          `json:"wording"`
			}
			require.NoError(t, json.Unmarshal([]byte(r.body), &env), r.body)
			assert.Equal(t, "failed", env.Status)
			assert.Equal(t, tt.retcode, env.Retcode)
			assert.Equal(t, tt.wording, env.Wording)
			assert.Equal(t, "null", string(env.Data))
		})
	}
}
