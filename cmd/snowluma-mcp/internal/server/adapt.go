package server

import (
	"context"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/snowluma/snowluma-mcp/internal/mcp/generation"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// adapt turns a tool's wrapped pipeline into an SDK tool handler: it copies
// what the stages need out of the request into a Call, runs the chain, and
// renders the result with pipeline.Render. Failures, panics and payload
// encoding are the stages' business; nothing here repeats them.
func adapt(t *pipeline.Tool, h pipeline.Handler) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		// The chain holds the diagnostics stage, so it answers with a result
		// and no error (the contract on pipeline.Handler).
		r, _ := h(ctx, newCall(t, req))
		return pipeline.Render(r), nil
	}
}

// newCall copies the request's arguments, _meta, client declaration,
// continuation and progress token into a Call that needs the request no
// more.
func newCall(t *pipeline.Tool, req *mcp.CallToolRequest) *pipeline.Call {
	c := &pipeline.Call{Request: pipeline.Request{Tool: t}}
	if req == nil || req.Params == nil {
		return c
	}
	p := req.Params
	c.Arguments, c.Meta = p.Arguments, p.Meta
	c.Client = pipeline.NewClient(generation.Modern(req), req.ClientCapabilities)
	c.Client.Protocol = generation.Speaks(req)
	if p.RequestState != "" || len(p.InputResponses) > 0 {
		c.Resume = &pipeline.Resume{State: p.RequestState, Responses: p.InputResponses}
	}
	if token := p.GetProgressToken(); token != nil && req.Session != nil {
		c.Notify = sessionProgress(req.Session, token)
		c.Announce = sessionAnnounce(req.Session, token)
	}
	return c
}

// sessionProgress delivers a call's progress as notifications/progress.
func sessionProgress(s *mcp.ServerSession, token any) pipeline.Notifier {
	return func(ctx context.Context, done, total int64) error {
		p := &mcp.ProgressNotificationParams{ProgressToken: token, Progress: float64(done)}
		if total > 0 {
			p.Total = float64(total)
		}
		return s.NotifyProgress(ctx, p)
	}
}

// sessionAnnounce delivers a message about a call that is not moving yet
// as notifications/progress at progress 0: it comes before any amount the
// call reports, so progress still only ever increases.
func sessionAnnounce(s *mcp.ServerSession, token any) func(context.Context, string) error {
	return func(ctx context.Context, message string) error {
		return s.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Message: message})
	}
}

// tracked counts h's calls in calls (when calls is set).
func tracked(calls *sync.WaitGroup, h mcp.ToolHandler) mcp.ToolHandler {
	if calls == nil {
		return h
	}
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		calls.Add(1)
		defer calls.Done()
		return h(ctx, req)
	}
}

// trackedStart counts a task start among the calls in flight.
func trackedStart(calls *sync.WaitGroup, h func(context.Context, *mcp.CallToolRequest) (mcp.Result, error)) func(context.Context, *mcp.CallToolRequest) (mcp.Result, error) {
	if calls == nil || h == nil {
		return h
	}
	return func(ctx context.Context, req *mcp.CallToolRequest) (mcp.Result, error) {
		calls.Add(1)
		defer calls.Done()
		return h(ctx, req)
	}
}
