package validate

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/fault"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

const execSchema = `{"type":"object","properties":{"action":{"type":"string","minLength":1},"params":{"type":"object"},
	"execution":{"type":"object","properties":{"input_file":{"type":"string"}},"required":["input_file"],"additionalProperties":false}},"required":["action"],"additionalProperties":false}`

func TestValidate(t *testing.T) {
	t.Parallel()
	cat, err := catalog.Load()
	require.NoError(t, err)
	getMsg, _ := cat.Lookup("get_msg")
	upload, _ := cat.Lookup("upload_file_stream")
	status, _ := cat.Lookup("get_status")
	tool := &pipeline.Tool{Name: "query_action", Route: pipeline.RouteQuery, InputSchema: json.RawMessage(execSchema)}
	tests := []struct {
		name       string
		action     *catalog.Action
		args       string
		wantErr    string
		wantParams string
	}{
		{"passes valid params through unchanged", getMsg, `{"action":"get_msg","params":{"message_id":-1559550018}}`, "", `{"message_id":-1559550018}`},
		{"treats absent params as an empty object", status, `{"action":"get_status"}`, "", `{}`},
		{"leaves params to an automatic upload", upload, `{"action":"upload_file_stream","execution":{"input_file":"a.txt"}}`, "", `null`},
		{"checks explicit upload params", upload, `{"action":"upload_file_stream","params":{}}`, `params: required: missing properties: ["stream_id"]`, ""},
		{"checks execution options", upload, `{"action":"upload_file_stream","execution":{"path":"a"}}`, "arguments.execution", ""},
		{"treats missing arguments as an empty object", nil, ``, `arguments: required: missing properties: ["action"]`, ""},
		{"refuses an unknown argument", status, `{"action":"get_status","extra":1}`, `arguments: unexpected additional properties ["extra"]`, ""},
		{"refuses non-object params", status, `{"action":"get_status","params":[1]}`, `arguments.params: type: [1] has type "array", want "object"`, ""},
		{"refuses a missing required param", getMsg, `{"action":"get_msg","params":{}}`, `params: required: missing properties: ["message_id"]`, ""},
		{"refuses message_id 0", getMsg, `{"action":"get_msg","params":{"message_id":0}}`, "params.message_id: this value is not allowed here", ""},
		{"refuses a string message_id", getMsg, `{"action":"get_msg","params":{"message_id":"12"}}`, `params.message_id: type: 12 has type "string", want "integer"`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			reached := false
			h := New().Wrap(func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
				reached = true
				return &pipeline.Result{}, nil
			})
			c := &pipeline.Call{Tool: tool, Action: tt.action, Arguments: json.RawMessage(tt.args)}
			_, err := h(context.Background(), c)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Equal(t, fault.CodeInvalidArgument, fault.CodeOf(err))
				assert.Contains(t, err.Error(), tt.wantErr)
				assert.False(t, reached)
				return
			}
			require.NoError(t, err)
			assert.True(t, reached)
			if tt.wantParams == "null" {
				assert.Nil(t, c.Params)
				return
			}
			assert.JSONEq(t, tt.wantParams, string(c.Params))
		})
	}
}
