package tasks

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/mcp/generation"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// metaOf is a request's _meta: modern or legacy, declaring the tasks
// extension or not.
func metaOf(modern, declares bool) mcp.Meta {
	if !modern {
		return nil
	}
	caps := map[string]any{}
	if declares {
		caps["extensions"] = map[string]any{generation.TasksExtension: map[string]any{}}
	}
	return mcp.Meta{generation.ProtocolVersionKey: generation.ModernVersion, generation.ClientCapabilitiesKey: caps}
}

func TestGateShowsAndServesTheTaskToolsPerRequest(t *testing.T) {
	t.Parallel()
	tool := func(name string, tasks, detaches bool) *pipeline.Tool {
		tl := &pipeline.Tool{}
		tl.Name, tl.Tasks, tl.Detaches = name, tasks, detaches
		return tl
	}
	tools := map[string]*pipeline.Tool{
		"query_action":             tool("query_action", false, false),
		"invoke_action_background": tool("invoke_action_background", true, true),
		"list_tasks":               tool("list_tasks", true, false),
	}
	var reached []string
	started := &handle{ResultType: "task"}
	gate := Gate(tools, func(_ context.Context, req *mcp.CallToolRequest) (mcp.Result, error) {
		reached = append(reached, "background "+req.Params.Name)
		return started, nil
	})
	listed := &mcp.ListToolsResult{Tools: []*mcp.Tool{{Name: "query_action"}, {Name: "invoke_action_background"}, {Name: "list_tasks"}}}
	caps := &mcp.ServerCapabilities{Extensions: map[string]any{"other": map[string]any{}}}
	next := gate(func(_ context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case "tools/list":
			return listed, nil
		case "server/discover":
			return &mcp.DiscoverResult{Capabilities: caps}, nil
		}
		reached = append(reached, "next "+req.(*mcp.CallToolRequest).Params.Name)
		return &mcp.CallToolResult{}, nil
	})
	ctx := context.Background()
	call := func(name string, meta mcp.Meta) (mcp.Result, error) {
		return next(ctx, "tools/call", &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: name, Meta: meta}})
	}
	names := func(meta mcp.Meta) []string {
		res, err := next(ctx, "tools/list", &mcp.ListToolsRequest{Params: &mcp.ListToolsParams{Meta: meta}})
		require.NoError(t, err)
		var out []string
		for _, tl := range res.(*mcp.ListToolsResult).Tools {
			out = append(out, tl.Name)
		}
		return out
	}

	assert.Equal(t, []string{"query_action", "invoke_action_background", "list_tasks"}, names(metaOf(true, true)))
	assert.Equal(t, []string{"query_action"}, names(metaOf(true, false)))
	assert.Equal(t, []string{"query_action"}, names(metaOf(false, false)))
	assert.Len(t, listed.Tools, 3, "the SDK's list is copied, never edited")

	res, err := call("invoke_action_background", metaOf(true, true))
	require.NoError(t, err)
	assert.Same(t, started, res, "a declared start is handed off")
	_, err = call("list_tasks", metaOf(true, true))
	require.NoError(t, err)
	_, err = call("query_action", nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"background invoke_action_background", "next list_tasks", "next query_action"}, reached)

	_, err = call("list_tasks", metaOf(true, false))
	assert.Equal(t, ErrNeedsTasks, err, "a modern request is told what it lacks")
	_, err = call("invoke_action_background", metaOf(false, false))
	var je *jsonrpc.Error
	require.ErrorAs(t, err, &je)
	assert.Equal(t, int64(jsonrpc.CodeInvalidParams), je.Code)
	assert.Contains(t, je.Message, `unknown tool "invoke_action_background"`, "a legacy one does not know the tool")
	assert.Len(t, reached, 3, "neither refusal reached a handler")

	discover := func(meta mcp.Meta) string {
		res, err := next(ctx, "server/discover", &mcp.ServerRequest[*mcp.DiscoverParams]{Params: &mcp.DiscoverParams{Meta: meta}})
		require.NoError(t, err)
		b, err := json.Marshal(res.(*mcp.DiscoverResult).Capabilities.Extensions)
		require.NoError(t, err)
		return string(b)
	}
	assert.JSONEq(t, `{"other":{},"io.modelcontextprotocol/tasks":{}}`, discover(metaOf(true, true)))
	assert.JSONEq(t, `{"other":{}}`, discover(metaOf(true, false)))
	assert.Len(t, caps.Extensions, 1, "the SDK's capabilities are copied, never edited")
}
