package gate

import (
	"context"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

var (
	docsTool   = &pipeline.Tool{Spec: pipeline.Spec{Name: "list_actions", Mode: config.ModeDocs, Actions: pipeline.NoActions}}
	readTool   = &pipeline.Tool{Spec: pipeline.Spec{Name: "get_runtime_info", Mode: config.ModeRead, Actions: pipeline.NoActions}}
	queryTool  = &pipeline.Tool{Spec: pipeline.Spec{Name: "query_action", Mode: config.ModeRead, Actions: pipeline.ReadActions}}
	invokeTool = &pipeline.Tool{Spec: pipeline.Spec{Name: "invoke_action", Mode: config.ModeWrite, Actions: pipeline.AnyAction}}
)

func TestGate(t *testing.T) {
	t.Parallel()
	cat, err := catalog.Load()
	require.NoError(t, err)
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
			reached := false
			h := New(tt.mode, cat).Wrap(tt.tool, func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
				reached = true
				return &pipeline.Result{}, nil
			})
			c := &pipeline.Call{Request: pipeline.Request{Tool: tt.tool}, Resolved: pipeline.Resolved{ActionName: tt.actionName}}
			_, err := h(context.Background(), c)
			if tt.code != "" {
				require.Error(t, err)
				assert.Equal(t, tt.code, fault.CodeOf(err))
				assert.Equal(t, tt.nothingSent, fault.NothingSent(err))
				assert.False(t, reached, "a refused call goes no further")
				assert.Nil(t, c.Action)
				return
			}
			require.NoError(t, err)
			assert.True(t, reached)
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
	cat, err := catalog.Load()
	require.NoError(t, err)
	next := func(context.Context, *pipeline.Call) (*pipeline.Result, error) { return &pipeline.Result{}, nil }
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
			_, err := New(tt.mode, cat).Wrap(tt.tool, next)(context.Background(), &pipeline.Call{Request: pipeline.Request{Tool: tt.tool}, Resolved: pipeline.Resolved{ActionName: tt.actionName}})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func TestGateDecidesTheModeAtRegistration(t *testing.T) {
	t.Parallel()
	cat, err := catalog.Load()
	require.NoError(t, err)
	tool := &pipeline.Tool{Spec: pipeline.Spec{Name: "invoke_action", Mode: config.ModeWrite, Actions: pipeline.AnyAction}}
	// The refusal never needs the handler it wraps: it is fixed when the
	// tool is registered, whatever the call says.
	h := New(config.ModeRead, cat).Wrap(tool, nil)
	require.NotNil(t, h)
	tool.Mode = config.ModeDocs // a later change to the declaration does not reopen it
	for _, name := range []string{"", "get_status", "send_group_msg"} {
		_, err := h(context.Background(), &pipeline.Call{Request: pipeline.Request{Tool: tool}, Resolved: pipeline.Resolved{ActionName: name}})
		require.Error(t, err, name)
		assert.Equal(t, fault.CodeModeDenied, fault.CodeOf(err), name)
		assert.True(t, fault.NothingSent(err), "a mode refusal comes before anything is sent")
	}
}

func TestGatePassesToolsWithoutActionsStraightThrough(t *testing.T) {
	t.Parallel()
	cat, err := catalog.Load()
	require.NoError(t, err)
	next := func(context.Context, *pipeline.Call) (*pipeline.Result, error) {
		return &pipeline.Result{Payload: "next"}, nil
	}
	h := New(config.ModeWrite, cat).Wrap(docsTool, next)
	assert.Equal(t, reflect.ValueOf(next).Pointer(), reflect.ValueOf(h).Pointer(), "the gate returns next unchanged")
	c := &pipeline.Call{Request: pipeline.Request{Tool: docsTool}, Resolved: pipeline.Resolved{ActionName: "send_nukes"}}
	r, err := h(context.Background(), c)
	require.NoError(t, err)
	assert.Equal(t, "next", r.Payload)
	assert.Nil(t, c.Action, "no action is resolved for a tool that runs none")
}
