package tasks

// The background hand-off: a Detaches tool's call is admitted through the
// admission's chain (stages.Chains.Admission) and answered with a task handle;
// the task then runs, once, the whole chain of the tool the Detaches tool
// names (Spec.Runs), the same wrapped handler its synchronous calls use.

import (
	"context"
	"io"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/snowluma/snowluma-mcp/internal/task"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// Runner is the task runner (internal/task) with what its tasks run: the
// tool the offered Detaches tool Runs, and that tool's one chain.
type Runner struct {
	*task.Runner
	runs *pipeline.Tool
	run  pipeline.Handler
}

// NewRunner builds the runner of store: its tasks run the tool that the
// offered Detaches tool Runs, on that tool's one chain (wrapped), and
// observe hears of every status change.
func NewRunner(store *task.Store, log io.Writer, offered []*pipeline.Tool, wrapped func(*pipeline.Tool) pipeline.Handler, observe func(task.Record)) *Runner {
	var runs *pipeline.Tool
	var run pipeline.Handler
	for _, t := range offered {
		if t.Detaches {
			if runs != nil && runs != t.Runs {
				panic("tasks: one task runner runs one tool, and " + t.Name + " runs another")
			}
			runs, run = t.Runs, wrapped(t.Runs)
		}
	}
	return &Runner{Runner: task.NewRunner(store, log, observe), runs: runs, run: run}
}

// Detach starts the work of an admitted background call c as a task
// (pipeline.Hooks.Detach) and returns its handle.
func (r *Runner) Detach(c *pipeline.Call) (*pipeline.TaskHandle, error) {
	rec, err := r.Start(c.Tool.Name, actionOf(c), work(r.runs, r.run, c))
	if err != nil {
		return nil, err
	}
	return handleOf(rec), nil
}

// Start runs a Detaches tool's admission chain h on a call and answers
// with the handle of the task it started, or with the tool error that
// refused it. The admission's handler starts the task through the Call
// (Call.Detach).
func Start(h pipeline.Handler, runner *Runner) func(context.Context, *pipeline.Call) (mcp.Result, error) {
	return func(ctx context.Context, c *pipeline.Call) (mcp.Result, error) {
		c.Detach = runner.Detach
		// The admission's chain holds the diagnostics stage, so it answers
		// with a result and no error (the contract on pipeline.Handler).
		r, _ := h(ctx, c)
		if r.Task != nil {
			return &handle{ResultBase: mcp.ResultBase{Meta: r.Meta}, ResultType: "task", Task: handleFields(r.Task)}, nil
		}
		return pipeline.Render(r), nil
	}
}
