package handlers

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/schema"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

func TestPreviewMessageDrafts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		args    string
		action  string
		params  string // the exact invoke_action params
		preview string
	}{
		{"builds a group message as one text segment", `{"message_type":"group","target_id":20001,"text":"Hello"}`,
			"send_group_msg", `{"group_id":20001,"message":[{"type":"text","data":{"text":"Hello"}}]}`,
			"To group 20001 (群聊)\nText: 5 characters, sent literally: the text segment of invoke_action.params.message"},
		{"builds a private message to user_id", `{"message_type":"private","target_id":10001,"text":"hi"}`,
			"send_private_msg", `{"user_id":10001,"message":[{"type":"text","data":{"text":"hi"}}]}`,
			"To user 10001 (私聊)\nText: 2 characters, sent literally: the text segment of invoke_action.params.message"},
		{"puts a reply segment with a string id first", `{"message_type":"group","target_id":20001,"text":"Hello","reply_to":-123456}`,
			"send_group_msg", `{"group_id":20001,"message":[{"type":"reply","data":{"id":"-123456"}},{"type":"text","data":{"text":"Hello"}}]}`,
			"To group 20001 (群聊)\nReplying to message -123456 (回复)\nText: 5 characters, sent literally: the text segment of invoke_action.params.message"},
		{"keeps a CQ code look-alike as literal text", `{"message_type":"group","target_id":20001,"text":"[CQ:at,qq=all] 你好"}`,
			"send_group_msg", `{"group_id":20001,"message":[{"type":"text","data":{"text":"[CQ:at,qq=all] 你好"}}]}`,
			"To group 20001 (群聊)\nText: 17 characters, sent literally: the text segment of invoke_action.params.message"},
		{"keeps HTML as literal text", `{"message_type":"private","target_id":1,"text":"<img src=x onerror=alert(1)>"}`,
			"send_private_msg", `{"user_id":1,"message":[{"type":"text","data":{"text":"<img src=x onerror=alert(1)>"}}]}`,
			"To user 1 (私聊)\nText: 28 characters, sent literally: the text segment of invoke_action.params.message"},
		{"takes the largest safe integer and integral floats", `{"message_type":"group","target_id":9007199254740991,"text":"x","reply_to":2147483647.0}`,
			"send_group_msg", `{"group_id":9007199254740991,"message":[{"type":"reply","data":{"id":"2147483647"}},{"type":"text","data":{"text":"x"}}]}`,
			"To group 9007199254740991 (群聊)\nReplying to message 2147483647 (回复)\nText: 1 characters, sent literally: the text segment of invoke_action.params.message"},
		{"reads quoted ids as the actions do", `{"message_type":"group","target_id":"20001","text":"x","reply_to":"-123"}`,
			"send_group_msg", `{"group_id":20001,"message":[{"type":"reply","data":{"id":"-123"}},{"type":"text","data":{"text":"x"}}]}`,
			"To group 20001 (群聊)\nReplying to message -123 (回复)\nText: 1 characters, sent literally: the text segment of invoke_action.params.message"},
		{"takes the smallest 32-bit reply id", `{"message_type":"private","target_id":5.0,"text":"x","reply_to":-2147483648}`,
			"send_private_msg", `{"user_id":5,"message":[{"type":"reply","data":{"id":"-2147483648"}},{"type":"text","data":{"text":"x"}}]}`,
			"To user 5 (私聊)\nReplying to message -2147483648 (回复)\nText: 1 characters, sent literally: the text segment of invoke_action.params.message"},
	}
	cat := deps(t, config.ModeWrite).Catalog
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tool := PreviewMessage(deps(t, config.ModeWrite))
			// As the arguments stage reads them (QuotedIDs): quoted ids first.
			read, err := schema.MustCompile(string(tool.InputSchema)).Normalize(json.RawMessage(tt.args), "arguments")
			require.NoError(t, err)
			v, err := call(t, tool, string(read), nil)
			require.NoError(t, err)
			m := v.(map[string]any)
			inv := m["invoke_action"].(map[string]any)
			assert.Equal(t, tt.action, inv["action"])
			assert.JSONEq(t, tt.params, string(mustMarshal(t, inv["params"])))
			assert.Equal(t, tt.preview, m["preview"])
			assert.Equal(t, true, m["can_send"])
			var args struct {
				Text string `json:"text"`
			}
			require.NoError(t, json.Unmarshal([]byte(tt.args), &args))
			assert.Equal(t, float64(len([]rune(args.Text))), m["characters"])
			assert.Equal(t, 1, strings.Count(string(mustMarshal(t, m)), string(mustMarshal(t, args.Text))),
				"the text appears once in the draft: in invoke_action's text segment")
			// The arguments must pass the action's own contract, as the
			// params stage will check them when invoke_action runs.
			a, ok := cat.Lookup(tt.action)
			require.True(t, ok)
			val, err := schema.Compile(a.InputSchema)
			require.NoError(t, err)
			assert.NoError(t, val.Validate(mustMarshal(t, inv["params"]), "params"))
		})
	}
}

func TestPreviewMessageCanSendOnlyInWriteMode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		mode config.Mode
		want bool
	}{
		{"docs mode cannot send", config.ModeDocs, false},
		{"read mode cannot send", config.ModeRead, false},
		{"write mode can send", config.ModeWrite, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v, err := call(t, PreviewMessage(deps(t, tt.mode)), `{"message_type":"group","target_id":1,"text":"x"}`, nil)
			require.NoError(t, err)
			m := v.(map[string]any)
			assert.Equal(t, tt.want, m["can_send"])
			assert.Equal(t, string(tt.mode), m["mode"])
			assert.NotEmpty(t, m["note"])
		})
	}
}

// TestPreviewMessageRefusesBadDrafts runs the schema (as the arguments
// stage does) and then the handler, so every refusal a caller can meet is
// here, with the words it gets.
func TestPreviewMessageRefusesBadDrafts(t *testing.T) {
	t.Parallel()
	tool := PreviewMessage(deps(t, config.ModeWrite))
	val, err := schema.Compile(tool.InputSchema)
	require.NoError(t, err)
	tests := []struct {
		name, args, says string
	}{
		{"refuses an unknown message type", `{"message_type":"discuss","target_id":1,"text":"x"}`, "message_type"},
		{"refuses a zero target", `{"message_type":"group","target_id":0,"text":"x"}`, "target_id"},
		{"refuses a negative target", `{"message_type":"group","target_id":-5,"text":"x"}`, "target_id"},
		{"refuses a target beyond 2^53-1", `{"message_type":"group","target_id":9007199254740993,"text":"x"}`, "target_id"},
		{"refuses a fractional target", `{"message_type":"group","target_id":1.5,"text":"x"}`, "target_id"},
		{"refuses a quoted target with blanks", `{"message_type":"group","target_id":" 20001","text":"x"}`, `arguments.target_id: want an integer, or a string of its decimal digits (such as "20001"); the string " 20001" is neither`},
		{"refuses a quoted hex target", `{"message_type":"group","target_id":"0x4E21","text":"x"}`, `the string "0x4E21" is neither`},
		{"refuses a quoted zero target", `{"message_type":"group","target_id":"0","text":"x"}`, "arguments.target_id: minimum violated"},
		{"refuses a quoted reply id with a plus", `{"message_type":"group","target_id":1,"text":"x","reply_to":"+5"}`, `the string "+5" is neither`},
		{"refuses empty text", `{"message_type":"group","target_id":1,"text":""}`, "text"},
		{"refuses blank text", `{"message_type":"group","target_id":1,"text":" \n\t"}`, "text is blank"},
		{"refuses a zero reply id", `{"message_type":"group","target_id":1,"text":"x","reply_to":0}`, "reply_to is 0"},
		{"refuses a reply id beyond 32 bits", `{"message_type":"group","target_id":1,"text":"x","reply_to":2147483648}`, "reply_to"},
		{"refuses a reply id below 32 bits", `{"message_type":"group","target_id":1,"text":"x","reply_to":-2147483649}`, "reply_to"},
		{"refuses a missing text", `{"message_type":"group","target_id":1}`, "text"},
		{"refuses unknown arguments", `{"message_type":"group","target_id":1,"text":"x","auto_escape":true}`, "auto_escape"},
		{"refuses text longer than a QQ message carries", `{"message_type":"group","target_id":1,"text":"` + strings.Repeat("长", 5001) + `"}`,
			"arguments.text: maxLength violated: the string has 5001 characters and must have at most 5000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			// As the arguments stage reads them: quoted ids first.
			require.True(t, tool.QuotedIDs)
			args, err := val.Normalize(json.RawMessage(tt.args), "arguments")
			if err == nil {
				err = val.Validate(args, "arguments")
			}
			if err == nil {
				_, err = handle(context.Background(), tool, &pipeline.Call{Request: pipeline.Request{Tool: tool, Arguments: args}})
				assert.Equal(t, fault.CodeInvalidArgument, fault.CodeOf(err))
				assert.Contains(t, fault.NextOf(err), "Call preview_message again", "the next step names this tool, not get_action")
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.says)
		})
	}
}

func TestPreviewMessageDeclaresItsPanel(t *testing.T) {
	t.Parallel()
	tool := PreviewMessage(deps(t, config.ModeDocs))
	assert.Equal(t, config.ModeDocs, tool.MinMode, "runs in every mode")
	assert.Equal(t, pipeline.NoActions, tool.Actions, "never contacts SnowLuma")
	ui := tool.Meta["ui"].(map[string]any)
	assert.Regexp(t, `^ui://`, ui["resourceUri"])
	assert.Equal(t, ui["resourceUri"], tool.Meta["ui/resourceUri"])
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}

func TestPreviewMessageTakesTheLongestQQText(t *testing.T) {
	t.Parallel()
	tool := PreviewMessage(deps(t, config.ModeWrite))
	args := `{"message_type":"group","target_id":1,"text":"` + strings.Repeat("长", 5000) + `"}`
	require.NoError(t, schema.MustCompile(string(tool.InputSchema)).Validate(json.RawMessage(args), "arguments"))
	v, err := call(t, tool, args, nil)
	require.NoError(t, err)
	assert.Equal(t, float64(5000), v.(map[string]any)["characters"])
}
