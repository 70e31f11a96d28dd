package fake_test

// The fake's actions: wire-notes data shapes, SnowLuma's parameter errors,
// the message ID hash rule, and success data that validates against the
// bundled catalog's returnsSchema (so the fake cannot drift into shapes the
// real server never sends).

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/e2e/fake"
	"github.com/snowluma/snowluma-mcp/internal/schema"
)

func TestMessageIDFollowsTheHashRule(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		seq     int64
		session int64
		event   string
		want    int32
	}{
		{"positive group id", 12345, 123456789, "group_message", 2137770485},
		{"negative group id", 12340, 123456789, "group_message", -1559550018},
		{"negative private id", 678, 10002, "private_message", -1264852461},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, fake.MessageID(tt.seq, tt.session, tt.event))
		})
	}
}

func TestActionsAnswerLikeSnowLuma(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		body     string
		wantBody string // exact envelope, "" to skip
		wantData string // exact data member, "" to skip
	}{
		{name: "get_login_info names the self account", body: `{"action":"get_login_info"}`, wantBody: loginOK},
		{name: "get_status reports online and good", body: `{"action":"get_status"}`, wantBody: statusOK},
		{name: "get_version_info is SnowLuma v11", body: `{"action":"get_version_info"}`,
			wantData: `{"app_name":"SnowLuma","app_version":"1.11.1-node","protocol_version":"v11"}`},
		{name: "get_msg finds a negative id", body: `{"action":"get_msg","params":{"message_id":-1559550018}}`},
		{name: "get_msg accepts a numeric string", body: `{"action":"get_msg","params":{"message_id":"-1559550018"}}`},
		{name: "get_msg reports an unknown id as retcode 100", body: `{"action":"get_msg","params":{"message_id":42}}`,
			wantBody: `{"status":"failed","retcode":100,"data":null,"wording":"message not found"}`},
		{name: "get_msg refuses message_id 0", body: `{"action":"get_msg","params":{"message_id":0}}`,
			wantBody: `{"status":"failed","retcode":1400,"data":null,"wording":"message_id: must not be 0"}`},
		{name: "get_msg requires message_id", body: `{"action":"get_msg","params":{}}`,
			wantBody: `{"status":"failed","retcode":1400,"data":null,"wording":"message_id: is required"}`},
		{name: "get_msg refuses a non-integer", body: `{"action":"get_msg","params":{"message_id":"abc"}}`,
			wantBody: `{"status":"failed","retcode":1400,"data":null,"wording":"message_id: expected a message id"}`},
		{name: "send_group_msg requires group_id", body: `{"action":"send_group_msg","params":{"message":"hi"}}`,
			wantBody: `{"status":"failed","retcode":1400,"data":null,"wording":"group_id: is required"}`},
		{name: "send_group_msg requires message", body: `{"action":"send_group_msg","params":{"group_id":123456789}}`,
			wantBody: `{"status":"failed","retcode":1400,"data":null,"wording":"message: is required"}`},
		{name: "send_private_msg requires user_id", body: `{"action":"send_private_msg","params":{"message":"hi"}}`,
			wantBody: `{"status":"failed","retcode":1400,"data":null,"wording":"user_id: is required"}`},
		{name: "send_msg with message_type group needs group_id", body: `{"action":"send_msg","params":{"message_type":"group","message":"hi"}}`,
			wantBody: `{"status":"failed","retcode":1400,"data":null,"wording":"group_id is required"}`},
		{name: "send_msg without a group needs user_id", body: `{"action":"send_msg","params":{"message":"hi"}}`,
			wantBody: `{"status":"failed","retcode":1400,"data":null,"wording":"user_id is required"}`},
		{name: "send_msg checks message before the target", body: `{"action":"send_msg","params":{"group_id":0}}`,
			wantBody: `{"status":"failed","retcode":1400,"data":null,"wording":"message: is required"}`},
		{name: "send_msg checks every declared param before routing", body: `{"action":"send_msg","params":{"group_id":1,"user_id":"x","message":"hi"}}`,
			wantBody: `{"status":"failed","retcode":1400,"data":null,"wording":"user_id: expected a positive integer"}`},
		{name: "send_group_msg checks auto_escape", body: `{"action":"send_group_msg","params":{"group_id":1,"message":"hi","auto_escape":"maybe"}}`,
			wantBody: `{"status":"failed","retcode":1400,"data":null,"wording":"auto_escape: expected a boolean"}`},
		{name: "delete_msg reports an unknown id as retcode 100", body: `{"action":"delete_msg","params":{"message_id":42}}`,
			wantBody: `{"status":"failed","retcode":100,"data":null,"wording":"message not found or not retractable"}`},
		{name: "send_msg to a user", body: `{"action":"send_msg","params":{"user_id":10002,"message":"hi"}}`},
		{name: "get_group_list is an array", body: `{"action":"get_group_list"}`},
		{name: "get_friend_list is an array", body: `{"action":"get_friend_list"}`},
		{name: "get_file sends file_size as a decimal string", body: `{"action":"get_file","params":{"file":"` + fake.KnownFile + `"}}`},
		{name: "get_file reports an unknown file", body: `{"action":"get_file","params":{"file":"nope"}}`,
			wantBody: `{"status":"failed","retcode":100,"data":null,"wording":"file not found"}`},
		{name: "set_group_sign answers an empty object", body: `{"action":"set_group_sign","params":{"group_id":123456789}}`,
			wantBody: `{"status":"ok","retcode":0,"data":{}}`},
		{name: "the send_group_sign alias works", body: `{"action":"send_group_sign","params":{"group_id":123456789}}`,
			wantBody: `{"status":"ok","retcode":0,"data":{}}`},
		{name: "set_group_sign refuses group_id 0", body: `{"action":"set_group_sign","params":{"group_id":0}}`,
			wantBody: `{"status":"failed","retcode":1400,"data":null,"wording":"group_id: must be >= 1"}`},
		{name: "set_group_ban answers null", body: `{"action":"set_group_ban","params":{"group_id":123456789,"user_id":10002,"duration":60}}`,
			wantBody: `{"status":"ok","retcode":0,"data":null}`},
		{name: "upload_forward_msg needs messages", body: `{"action":"upload_forward_msg","params":{}}`,
			wantBody: `{"status":"failed","retcode":1400,"data":null,"wording":"message/messages is required"}`},
		{name: "upload_forward_msg checks group_id before the messages", body: `{"action":"upload_forward_msg","params":{"group_id":-1}}`,
			wantBody: `{"status":"failed","retcode":1400,"data":null,"wording":"group_id: must be >= 1"}`},
		{name: "the get_ptt_text alias reaches fetch_ptt_text", body: `{"action":"get_ptt_text","params":{"message_id":"-1264852461"}}`,
			wantData: `{"text":"你好，世界"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := post(t, tt.body, nil)
			assert.Equal(t, 200, r.status)
			if tt.wantBody != "" {
				assert.Equal(t, tt.wantBody, r.body)
			}
			var env struct {
				Status string          `json:"status"`
				Data   json.RawMessage `json:"data"`
			}
			require.NoError(t, json.Unmarshal([]byte(r.body), &env))
			if tt.wantData != "" {
				assert.Equal(t, tt.wantData, string(env.Data))
			}
			if tt.wantBody == "" {
				assert.Equal(t, "ok", env.Status, r.body)
			}
		})
	}
}

func TestSentMessagesAreStoredUntilDeleted(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		send string
		kind string
	}{
		{"a group message", `{"action":"send_group_msg","params":{"group_id":987654321,"message":"store me"}}`, "group"},
		{"a private message", `{"action":"send_private_msg","params":{"user_id":10003,"message":[{"type":"text","data":{"text":"store me"}}]}}`, "private"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var sent struct {
				Data struct {
					MessageID int32 `json:"message_id"`
				} `json:"data"`
			}
			require.NoError(t, json.Unmarshal([]byte(post(t, tt.send, nil).body), &sent))
			id := sent.Data.MessageID
			require.NotZero(t, id)
			require.True(t, srv.Stored(id))

			idJSON, err := json.Marshal(id)
			require.NoError(t, err)
			var got struct {
				Data struct {
					MessageID   int32  `json:"message_id"`
					RealID      int32  `json:"real_id"`
					MessageType string `json:"message_type"`
					RawMessage  string `json:"raw_message"`
				} `json:"data"`
			}
			require.NoError(t, json.Unmarshal([]byte(post(t, `{"action":"get_msg","params":{"message_id":`+string(idJSON)+`}}`, nil).body), &got))
			assert.Equal(t, id, got.Data.MessageID)
			assert.Equal(t, id, got.Data.RealID)
			assert.Equal(t, tt.kind, got.Data.MessageType)
			assert.Equal(t, "store me", got.Data.RawMessage)

			assert.Equal(t, `{"status":"ok","retcode":0,"data":null}`,
				post(t, `{"action":"delete_msg","params":{"message_id":`+string(idJSON)+`}}`, nil).body)
			assert.False(t, srv.Stored(id))
			assert.Equal(t, `{"status":"failed","retcode":100,"data":null,"wording":"message not found or not retractable"}`,
				post(t, `{"action":"delete_msg","params":{"message_id":`+string(idJSON)+`}}`, nil).body)
		})
	}
}

func TestUploadForwardMsgAnswersTheZeroSentinel(t *testing.T) {
	t.Parallel()
	r := post(t, `{"action":"upload_forward_msg","params":{"messages":[{"type":"node","data":{"user_id":10002,"nickname":"Alice","content":"hi"}}]}}`, nil)
	var env struct {
		Data map[string]json.RawMessage `json:"data"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.body), &env))
	assert.Equal(t, "0", string(env.Data["message_id"]))
	assert.Equal(t, env.Data["res_id"], env.Data["forward_id"])
}

// TestSuccessDataMatchesTheCatalog keeps the fake honest: every success
// shape it sends validates against the action's catalog returnsSchema.
func TestSuccessDataMatchesTheCatalog(t *testing.T) {
	t.Parallel()
	cat, err := catalog.Load()
	require.NoError(t, err)
	tests := []struct {
		action string
		params string
	}{
		{"get_login_info", `{}`},
		{"get_status", `{}`},
		{"get_version_info", `{}`},
		{"can_send_image", `{}`},
		{"get_group_list", `{}`},
		{"get_friend_list", `{}`},
		{"get_msg", `{"message_id":-1559550018}`},
		{"get_msg", `{"message_id":-1264852461}`},
		{"send_group_msg", `{"group_id":123456789,"message":"hello"}`},
		{"send_private_msg", `{"user_id":10002,"message":"hello"}`},
		{"send_msg", `{"group_id":123456789,"message":"hello"}`},
		{"get_file", `{"file":"` + fake.KnownFile + `"}`},
		{"set_group_sign", `{"group_id":123456789}`},
		{"set_group_ban", `{"group_id":123456789,"user_id":10002}`},
		{"upload_forward_msg", `{"group_id":123456789,"messages":[]}`},
		{"upload_foward_msg", `{"messages":[]}`},
		{"fetch_ptt_text", `{"message_id":"1"}`},
		{"fetch_ptt_text", `{"message_id":-1264852461}`},
		{"send_forward_msg", `{"group_id":123456789,"messages":[]}`},
		{"send_forward_msg", `{"user_id":10002,"messages":[]}`},
		{"send_forward_msg", `{"messages":[]}`},
		{"get_ai_record", `{"group_id":123456789,"character":"lucy-voice-female1","text":"hi"}`},
		{"send_group_ai_record", `{"group_id":123456789,"character":"lucy-voice-female1","text":"hi"}`},
		{"send_qzone_msg", `{"content":"hi"}`},
		{"send_packet", `{"cmd":"OidbSvcTrpcTcp.0x1234_1","data":"0801"}`},
	}
	for _, tt := range tests {
		t.Run(tt.action+" data validates against returnsSchema", func(t *testing.T) {
			t.Parallel()
			a, ok := cat.Lookup(tt.action)
			require.True(t, ok)
			v, err := schema.Compile(a.ReturnsSchema)
			require.NoError(t, err)
			r := post(t, `{"action":"`+tt.action+`","params":`+tt.params+`}`, nil)
			var env struct {
				Status string          `json:"status"`
				Data   json.RawMessage `json:"data"`
			}
			require.NoError(t, json.Unmarshal([]byte(r.body), &env))
			require.Equal(t, "ok", env.Status, r.body)
			assert.NoError(t, v.Validate(env.Data, "data"))
		})
	}
}
