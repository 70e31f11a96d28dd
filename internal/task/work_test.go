package task

import (
	"context"

	"github.com/snowluma/snowluma-mcp/pipeline"
)

// The tests write a task's run as a pipeline handler, as the server's
// tools are, and run it through the same adaptation the server makes
// (cmd/snowluma-mcp/internal/server/tasks/work.go): a call whose hooks are
// the task's, and its result as the record reads it.

// workOf runs h on a call of invoke_action with the task's hooks.
func workOf(h pipeline.Handler) Work {
	return func(ctx context.Context, hooks Hooks) (Result, error) {
		c := &pipeline.Call{Request: pipeline.Request{Tool: &pipeline.Tool{Spec: pipeline.Spec{Name: "invoke_action"}}},
			Hooks: pipeline.Hooks{Notify: hooks.Progress, Queued: hooks.Queued, Trail: hooks.Trail}}
		res, err := h(ctx, c)
		if res == nil {
			return nil, err
		}
		return testResult{res}, err
	}
}

// testResult is a pipeline result as a task's record reads it.
type testResult struct{ r *pipeline.Result }

func (t testResult) Failed() bool            { return t.r.IsError }
func (t testResult) Outcome() string         { return string(t.r.Diagnostics.Outcome) }
func (t testResult) Message() string         { return t.r.Diagnostics.Message }
func (t testResult) Stored() ([]byte, error) { return Render(pipeline.Render(t.r)) }

// startOf starts a task of invoke_action_background for
// download_file_stream that runs h.
func startOf(r *Runner, h pipeline.Handler) (Record, error) {
	return r.Start("invoke_action_background", "download_file_stream", workOf(h))
}
