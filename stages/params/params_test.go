package params

import (
	"context"
	"encoding/json"
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
	queryTool  = &pipeline.Tool{Spec: pipeline.Spec{Name: "query_action", Mode: config.ModeRead, Actions: pipeline.ReadActions}}
	invokeTool = &pipeline.Tool{Spec: pipeline.Spec{Name: "invoke_action", Mode: config.ModeWrite, Actions: pipeline.AnyAction}}
)

func TestParams(t *testing.T) {
	t.Parallel()
	cat, err := catalog.Load()
	require.NoError(t, err)
	getMsg, _ := cat.Lookup("get_msg")
	upload, _ := cat.Lookup("upload_file_stream")
	status, _ := cat.Lookup("get_status")
	tests := []struct {
		name    string
		tool    *pipeline.Tool
		action  *catalog.Action
		params  string // "" means nil
		built   bool
		wantErr string // "" means the call goes through
	}{
		{"passes valid params through unchanged", queryTool, getMsg, `{"message_id":-1559550018}`, false, ""},
		{"accepts the empty object that stands for absent params", queryTool, status, `{}`, false, ""},
		{"leaves params to an automatic upload", invokeTool, upload, "", true, ""},
		{"skips built params even when they would not fit", invokeTool, upload, `{"nonsense":true}`, true, ""},
		{"checks explicit upload params", invokeTool, upload, `{}`, false, `params: required: missing properties: ["stream_id"]`},
		{"refuses a missing required param", queryTool, getMsg, `{}`, false, `params: required: missing properties: ["message_id"]`},
		{"refuses message_id 0", queryTool, getMsg, `{"message_id":0}`, false, "params.message_id: this value is not allowed here"},
		{"refuses a string message_id", queryTool, getMsg, `{"message_id":"12"}`, false, "params.message_id: want integer, got string"},
		{"names the action and where to read its parameters", invokeTool, getMsg, `{}`, false, "invalid params for get_msg (get_action shows its parameters)"},
		{"refuses a null param readably", queryTool, getMsg, `{"message_id":null}`, false, "params.message_id: want integer, got null"},
		{"refuses params that are not JSON", invokeTool, getMsg, `{`, false, "params: not valid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			reached := false
			h := New().Wrap(tt.tool, func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
				reached = true
				return &pipeline.Result{}, nil
			})
			var params json.RawMessage
			if tt.params != "" {
				params = json.RawMessage(tt.params)
			}
			c := &pipeline.Call{Request: pipeline.Request{Tool: tt.tool}, Resolved: pipeline.Resolved{ActionName: tt.action.Name, Action: tt.action, Params: params, ParamsBuilt: tt.built}}
			_, err := h(context.Background(), c)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Equal(t, fault.CodeInvalidArgument, fault.CodeOf(err))
				assert.Contains(t, err.Error(), tt.wantErr)
				assert.False(t, reached, "a refused call goes no further")
				return
			}
			require.NoError(t, err)
			assert.True(t, reached)
			assert.Equal(t, params, c.Params, "the stage checks params, it never rewrites them")
		})
	}
}

func TestParamsChecksEveryCallNotOnlyTheFirst(t *testing.T) {
	t.Parallel()
	cat, err := catalog.Load()
	require.NoError(t, err)
	getMsg, _ := cat.Lookup("get_msg")
	h := New().Wrap(queryTool, func(context.Context, *pipeline.Call) (*pipeline.Result, error) { return &pipeline.Result{}, nil })
	for _, p := range []string{`{"message_id":1}`, `{"message_id":0}`, `{"message_id":2}`} {
		_, err := h(context.Background(), &pipeline.Call{Request: pipeline.Request{Tool: queryTool}, Resolved: pipeline.Resolved{Action: getMsg, Params: json.RawMessage(p)}})
		if p == `{"message_id":0}` {
			assert.Equal(t, fault.CodeInvalidArgument, fault.CodeOf(err), p)
		} else {
			assert.NoError(t, err, p)
		}
	}
}

func TestParamsPassesToolsWithoutActionsStraightThrough(t *testing.T) {
	t.Parallel()
	docs := &pipeline.Tool{Spec: pipeline.Spec{Name: "list_actions", Mode: config.ModeDocs, Actions: pipeline.NoActions}}
	next := func(context.Context, *pipeline.Call) (*pipeline.Result, error) {
		return &pipeline.Result{Payload: "next"}, nil
	}
	h := New().Wrap(docs, next)
	assert.Equal(t, reflect.ValueOf(next).Pointer(), reflect.ValueOf(h).Pointer(), "the stage returns next unchanged")
	c := &pipeline.Call{Request: pipeline.Request{Tool: docs}, Resolved: pipeline.Resolved{Params: json.RawMessage(`not json`)}}
	r, err := h(context.Background(), c)
	require.NoError(t, err)
	assert.Equal(t, "next", r.Payload)
	assert.Equal(t, json.RawMessage(`not json`), c.Params, "untouched")
}
