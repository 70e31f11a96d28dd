package fake_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSendForwardMsgRoutesLikeSnowLuma holds the fake's send_forward_msg
// to SnowLuma's routing: message_type "group" or a group_id > 0 read with
// Math.trunc(Number(v)) picks the group, then "private" or a user_id > 0,
// else it only uploads.
func TestSendForwardMsgRoutesLikeSnowLuma(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, params string
		kind         string // "" for an upload only
		target       int64
		fails        string
	}{
		{"a group_id", `{"group_id":20001}`, "group", 20001, ""},
		{"a group_id before a user_id", `{"group_id":"20001","user_id":30003}`, "group", 20001, ""},
		{"a hex group_id as Number() reads it", `{"group_id":"0x4E21"}`, "group", 20001, ""},
		{"a binary group_id", `{"group_id":"0b100111000100001"}`, "group", 20001, ""},
		{"an octal group_id", `{"group_id":"0o47041"}`, "group", 20001, ""},
		{"a fraction truncated", `{"group_id":20001.5}`, "group", 20001, ""},
		{"a fraction in a string truncated", `{"group_id":"20001.7"}`, "group", 20001, ""},
		{"a hex float Number() cannot read goes to the user", `{"group_id":"0x4E22p0","user_id":30003}`, "private", 30003, ""},
		{"a zero group_id goes to the user", `{"group_id":0,"user_id":30003}`, "private", 30003, ""},
		{"a group_id wins over message_type private", `{"message_type":"private","group_id":20001,"user_id":30003}`, "group", 20001, ""},
		{"message_type group without a group_id is refused", `{"message_type":"group","user_id":30003}`, "", 0, "group_id is required"},
		{"message_type private without a user_id is refused", `{"message_type":"private"}`, "", 0, "user_id is required"},
		{"no target only uploads", `{}`, "", 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var p map[string]any
			require.NoError(t, json.Unmarshal([]byte(tt.params), &p))
			p["messages"] = []any{map[string]any{"type": "node", "data": map[string]any{"user_id": "10002", "nickname": "A", "content": "hi"}}}
			body, _ := json.Marshal(map[string]any{"action": "send_forward_msg", "params": p})
			r := post(t, string(body), nil)
			var env struct {
				Status  string `json:"status"`
				Wording string `json:"wording"`
				Data    struct {
					MessageID int32  `json:"message_id"`
					ResID     string `json:"res_id"`
				} `json:"data"`
			}
			require.NoError(t, json.Unmarshal([]byte(r.body), &env))
			if tt.fails != "" {
				assert.Equal(t, "failed", env.Status)
				assert.Equal(t, tt.fails, env.Wording)
				return
			}
			require.Equal(t, "ok", env.Status, r.body)
			assert.NotEmpty(t, env.Data.ResID)
			if tt.kind == "" {
				assert.Zero(t, env.Data.MessageID, "an upload has no message")
				return
			}
			kind, target, ok := srv.SentTo(env.Data.MessageID)
			require.True(t, ok)
			assert.Equal(t, tt.kind, kind)
			assert.Equal(t, tt.target, target)
		})
	}
}
