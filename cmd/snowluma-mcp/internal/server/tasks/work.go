package tasks

// The pipeline adapted to the task runner: the runner (internal/task)
// declares what a task's run needs (task.Work, task.Hooks, task.Result),
// and this file, which knows both, hands it a call of the tool the task
// stands for on that tool's chain, and reads the call's result for the
// task's record.

import (
	"context"

	"github.com/snowluma/snowluma-mcp/internal/span"
	"github.com/snowluma/snowluma-mcp/internal/task"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// work is the run of a task that c (an admitted call of a Detaches tool)
// started: the task's call asks what c asked, of the tool runs, through
// run (that tool's whole chain), and its hooks report to the task's
// record.
func work(runs *pipeline.Tool, run pipeline.Handler, c *pipeline.Call) task.Work {
	req := pipeline.Request{Tool: runs, Arguments: c.Arguments, Client: c.Client, Meta: carried(c)}
	return func(ctx context.Context, hooks task.Hooks) (task.Result, error) {
		call := &pipeline.Call{Request: req, Hooks: pipeline.Hooks{Notify: hooks.Progress, Queued: hooks.Queued, Trail: hooks.Trail}}
		res, err := run(ctx, call)
		if res == nil {
			return nil, err
		}
		return result{res}, err
	}
}

// carried makes the task's call a child of the call that started it, in
// the same trace; a progress token belongs to the request, not the task.
func carried(c *pipeline.Call) map[string]any {
	out := map[string]any{}
	if c.Span.IsValid() {
		out["traceparent"] = span.Traceparent(c.Span)
	} else if v, ok := c.Meta["traceparent"]; ok {
		out["traceparent"] = v
	}
	if v, ok := c.Meta["tracestate"]; ok {
		out["tracestate"] = v
	}
	return out
}

// result is a finished call's result as a task's record reads it.
type result struct{ r *pipeline.Result }

func (r result) Failed() bool    { return r.r.IsError }
func (r result) Outcome() string { return string(r.r.Diagnostics.Outcome) }
func (r result) Message() string { return r.r.Diagnostics.Message }

// Stored is the tool result tools/call returns to a 2026-07-28 client,
// which tasks/get hands back unchanged.
func (r result) Stored() ([]byte, error) { return task.Render(pipeline.Render(r.r)) }

// actionOf is the action an admitted call names: the catalog's name once
// resolved, else what the call asked for.
func actionOf(c *pipeline.Call) string {
	if c.Action != nil {
		return c.Action.Name
	}
	return c.ActionName
}

// handleOf is what the client that started a task is told about it.
func handleOf(r task.Record) *pipeline.TaskHandle {
	return &pipeline.TaskHandle{ID: r.ID, Status: string(r.Status), StatusMessage: r.StatusMessage,
		CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt}
}
