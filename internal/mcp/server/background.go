package server

// The background hand-off: a Detaches tool's call is admitted through its
// own chain and answered with a task handle; the task then runs the chain
// of the tool the Detaches tool names (Spec.Runs), which New hands to the
// runner.

import (
	"context"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/snowluma/snowluma-mcp/internal/task"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// startBackground runs a Detaches tool's chain on the request (the
// admission) and answers with the handle of the task it started, or with
// the tool error that refused it.
func startBackground(t *pipeline.Tool, h pipeline.Handler, now func() time.Time) func(context.Context, *mcp.CallToolRequest) (mcp.Result, error) {
	return func(ctx context.Context, req *mcp.CallToolRequest) (mcp.Result, error) {
		r, err := h(ctx, newCall(t, req, now()))
		if err != nil || r == nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the tool pipeline produced no result"}
		}
		if r.Task != nil {
			return &taskHandle{ResultBase: mcp.ResultBase{Meta: r.Meta}, ResultType: "task", Task: handleFields(r.Task)}, nil
		}
		return pipeline.Render(r), nil
	}
}

// useRunner hands runner the chain its tasks run: that of the tool a
// Detaches tool names.
func useRunner(runner *task.Runner, t *pipeline.Tool, chain func(*pipeline.Tool, pipeline.Handler) pipeline.Handler) {
	runner.Use(t.Runs, chain(t.Runs, t.Runs.Handle))
}
