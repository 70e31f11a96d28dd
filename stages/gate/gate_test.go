package gate

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/config"
	"github.com/snowluma/snowluma-mcp/fault"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

var (
	docsTool   = &pipeline.Tool{Name: "list_actions", Access: pipeline.AccessDocs}
	queryTool  = &pipeline.Tool{Name: "query_action", Access: pipeline.AccessRead, Route: pipeline.RouteQuery}
	invokeTool = &pipeline.Tool{Name: "invoke_action", Access: pipeline.AccessWrite, Route: pipeline.RouteInvoke}
)

func TestGate(t *testing.T) {
	t.Parallel()
	cat, err := catalog.Load()
	require.NoError(t, err)
	tests := []struct {
		name   string
		mode   config.Mode
		tool   *pipeline.Tool
		args   string
		code   fault.Code // "" means allowed
		action string     // resolved action when allowed
	}{
		{"allows docs tools in docs mode", config.ModeDocs, docsTool, `{}`, "", ""},
		{"refuses query_action in docs mode", config.ModeDocs, queryTool, `{"action":"get_status"}`, fault.CodeModeDenied, ""},
		{"allows a read-only action through query_action", config.ModeRead, queryTool, `{"action":"get_status"}`, "", "get_status"},
		{"resolves an alias", config.ModeRead, queryTool, `{"action":"get_ptt_text"}`, "", "fetch_ptt_text"},
		{"refuses a write action through query_action", config.ModeWrite, queryTool, `{"action":"send_group_msg"}`, fault.CodeWrongTool, ""},
		{"refuses a stream action through query_action", config.ModeWrite, queryTool, `{"action":"test_download_stream"}`, fault.CodeWrongTool, ""},
		{"refuses invoke_action in read mode", config.ModeRead, invokeTool, `{"action":"get_status"}`, fault.CodeModeDenied, ""},
		{"allows a write action through invoke_action", config.ModeWrite, invokeTool, `{"action":"send_group_msg"}`, "", "send_group_msg"},
		{"refuses an unknown action by name", config.ModeWrite, invokeTool, `{"action":"send_nukes"}`, fault.CodeUnknownAction, ""},
		{"refuses a case variant of a name", config.ModeRead, queryTool, `{"action":"GET_STATUS"}`, fault.CodeUnknownAction, ""},
		{"refuses a missing action", config.ModeRead, queryTool, `{"params":{}}`, fault.CodeInvalidArgument, ""},
		{"refuses a non-string action", config.ModeRead, queryTool, `{"action":7}`, fault.CodeInvalidArgument, ""},
		{"refuses non-object arguments", config.ModeRead, queryTool, `[1]`, fault.CodeInvalidArgument, ""},
		{"refuses missing arguments", config.ModeRead, queryTool, ``, fault.CodeInvalidArgument, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			reached := false
			h := New(tt.mode, cat).Wrap(func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
				reached = true
				return &pipeline.Result{}, nil
			})
			c := &pipeline.Call{Tool: tt.tool, Arguments: json.RawMessage(tt.args)}
			_, err := h(context.Background(), c)
			if tt.code != "" {
				require.Error(t, err)
				assert.Equal(t, tt.code, fault.CodeOf(err))
				assert.False(t, reached, "a refused call goes no further")
				return
			}
			require.NoError(t, err)
			assert.True(t, reached)
			if tt.action != "" {
				require.NotNil(t, c.Action)
				assert.Equal(t, tt.action, c.Action.Name)
			}
		})
	}
}
