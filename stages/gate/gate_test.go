package gate

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/pipeline"
	"github.com/snowluma/snowluma-mcp/stages/stagetest"
)

var (
	docsTool   = stagetest.Docs
	readTool   = &pipeline.Tool{Spec: pipeline.Spec{Name: "get_runtime_info", MinMode: config.ModeRead, Actions: pipeline.NoActions}}
	queryTool  = stagetest.Query
	invokeTool = stagetest.Invoke
)

func TestGate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		mode        config.Mode
		tool        *pipeline.Tool
		actionName  string
		code        fault.Code // "" means allowed
		action      string     // resolved action when allowed
		nothingSent bool
	}{
		{"allows docs tools in docs mode", config.ModeDocs, docsTool, "", "", "", false},
		{"allows docs tools in write mode", config.ModeWrite, docsTool, "", "", "", false},
		{"refuses a read tool in docs mode", config.ModeDocs, readTool, "", fault.CodeModeDenied, "", true},
		{"refuses query_action in docs mode", config.ModeDocs, queryTool, "get_status", fault.CodeModeDenied, "", true},
		{"allows a read-only action through query_action", config.ModeRead, queryTool, "get_status", "", "get_status", false},
		{"allows query_action in write mode", config.ModeWrite, queryTool, "get_status", "", "get_status", false},
		{"resolves an alias", config.ModeRead, queryTool, "get_ptt_text", "", "fetch_ptt_text", false},
		{"refuses a write action through query_action", config.ModeWrite, queryTool, "send_group_msg", fault.CodeWrongTool, "", false},
		{"refuses a stream action through query_action", config.ModeWrite, queryTool, "test_download_stream", fault.CodeWrongTool, "", false},
		{"refuses invoke_action in read mode", config.ModeRead, invokeTool, "get_status", fault.CodeModeDenied, "", true},
		{"refuses invoke_action in docs mode", config.ModeDocs, invokeTool, "get_status", fault.CodeModeDenied, "", true},
		{"allows a write action through invoke_action", config.ModeWrite, invokeTool, "send_group_msg", "", "send_group_msg", false},
		{"allows a stream action through invoke_action", config.ModeWrite, invokeTool, "test_download_stream", "", "test_download_stream", false},
		{"refuses an unknown action by name", config.ModeWrite, invokeTool, "send_nukes", fault.CodeUnknownAction, "", false},
		{"refuses a case variant of a name", config.ModeRead, queryTool, "GET_STATUS", fault.CodeUnknownAction, "", false},
		{"refuses a missing action", config.ModeRead, queryTool, "", fault.CodeInvalidArgument, "", false},
		{"refuses a missing action on invoke_action", config.ModeWrite, invokeTool, "", fault.CodeInvalidArgument, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := stagetest.Ungated(tt.tool, tt.actionName, "")
			o := stagetest.Run(context.Background(), New(tt.mode, stagetest.Catalog()), c, nil)
			if tt.code != "" {
				require.Error(t, o.Err)
				assert.Equal(t, tt.code, fault.CodeOf(o.Err))
				assert.Equal(t, tt.nothingSent, fault.NothingSent(o.Err))
				assert.False(t, o.Reached(), "a refused call goes no further")
				assert.Nil(t, c.Action)
				return
			}
			require.NoError(t, o.Err)
			assert.True(t, o.Reached())
			if tt.action == "" {
				assert.Nil(t, c.Action)
				return
			}
			require.NotNil(t, c.Action)
			assert.Equal(t, tt.action, c.Action.Name)
		})
	}
}

func TestGateMessages(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		mode       config.Mode
		tool       *pipeline.Tool
		actionName string
		want       string
	}{
		{"names the tool and the mode", config.ModeRead, invokeTool, "send_group_msg", "invoke_action is not available in read mode"},
		{"says where to find action names", config.ModeRead, queryTool, "", "arguments.action is required"},
		{"quotes an unknown name", config.ModeRead, queryTool, "send_nukes", `unknown action "send_nukes"`},
		{"points a write action to invoke_action", config.ModeWrite, queryTool, "send_group_msg", "send_group_msg is a write action"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			o := stagetest.Run(context.Background(), New(tt.mode, stagetest.Catalog()), stagetest.Ungated(tt.tool, tt.actionName, ""), nil)
			require.Error(t, o.Err)
			assert.Contains(t, o.Err.Error(), tt.want)
		})
	}
}

func TestGateDecidesTheModeAtRegistration(t *testing.T) {
	t.Parallel()
	tool := &pipeline.Tool{Spec: pipeline.Spec{Name: "invoke_action", MinMode: config.ModeWrite, Actions: pipeline.AnyAction}}
	// The refusal never needs the handler it wraps: it is fixed when the
	// tool is registered, whatever the call says.
	h := New(config.ModeRead, stagetest.Catalog()).Wrap(tool, nil)
	require.NotNil(t, h)
	tool.MinMode = config.ModeDocs // a later change to the declaration does not reopen it
	for _, name := range []string{"", "get_status", "send_group_msg"} {
		_, err := h(context.Background(), stagetest.Ungated(tool, name, ""))
		require.Error(t, err, name)
		assert.Equal(t, fault.CodeModeDenied, fault.CodeOf(err), name)
		assert.True(t, fault.NothingSent(err), "a mode refusal comes before anything is sent")
	}
}

func TestGatePassesToolsWithoutActionsStraightThrough(t *testing.T) {
	t.Parallel()
	gate := New(config.ModeWrite, stagetest.Catalog())
	assert.True(t, stagetest.Skips(gate, docsTool), "the gate returns next unchanged")
	c := stagetest.Ungated(docsTool, "send_nukes", "")
	o := stagetest.Run(context.Background(), gate, c, stagetest.Answer(&pipeline.Result{Payload: "next"}, nil))
	require.NoError(t, o.Err)
	assert.Equal(t, "next", o.Result.Payload)
	assert.Nil(t, c.Action, "no action is resolved for a tool that runs none")
}
