package tasks

// tasks/get, tasks/cancel and tasks/update, the tasks extension's methods.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/mcp/generation"
	"github.com/snowluma/snowluma-mcp/internal/task"
)

// Params are the params of tasks/get, tasks/update and tasks/cancel.
type Params struct {
	mcp.ParamsBase
	TaskID         *string         `json:"taskId"`
	InputResponses json.RawMessage `json:"inputResponses,omitempty"`
}

// ack is the empty answer of tasks/update and tasks/cancel.
type ack struct {
	mcp.ResultBase
	ResultType string `json:"resultType"`
}

// AddMethods registers tasks/get, tasks/update and tasks/cancel.
// tasks/list and tasks/result no longer exist in the extension and are
// never registered, so they get -32601. The SDK has none of them (SDK
// contract test: TestSDKHasNoTaskMethods).
func AddMethods(s *mcp.Server, runner *task.Runner) {
	lookup := func(p *Params) (task.Record, error) {
		if p == nil || !generation.MetaDeclaresTasks(p.Meta) {
			return task.Record{}, ErrNeedsTasks
		}
		if p.TaskID == nil {
			return task.Record{}, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "params.taskId is required"}
		}
		rec, err := runner.Store().Get(*p.TaskID)
		if errors.Is(err, task.ErrNotFound) {
			return rec, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf(
				"unknown task %s: this server's task directory has no task with that id (ids of another task directory are unknown here); list_tasks shows the tasks it has", fault.Quote(*p.TaskID))}
		}
		return rec, err
	}
	must(mcp.AddReceivingCustomMethod(s, "tasks/get", func(ctx context.Context, _ *mcp.ServerSession, p *Params) (*state, error) {
		rec, err := lookup(p)
		if err != nil {
			return nil, err
		}
		return detailed(runner.Store(), rec)
	}))
	must(mcp.AddReceivingCustomMethod(s, "tasks/cancel", func(ctx context.Context, _ *mcp.ServerSession, p *Params) (*ack, error) {
		rec, err := lookup(p)
		if err != nil {
			return nil, err
		}
		if _, err := runner.Cancel(rec.ID); err != nil {
			return nil, err
		}
		return &ack{ResultType: "complete"}, nil
	}))
	must(mcp.AddReceivingCustomMethod(s, "tasks/update", func(ctx context.Context, _ *mcp.ServerSession, p *Params) (*ack, error) {
		// No background entry ever asks for input, so no task has an
		// outstanding input request: the extension says to acknowledge
		// and ignore responses to keys that are not outstanding.
		if _, err := lookup(p); err != nil {
			return nil, err
		}
		return &ack{ResultType: "complete"}, nil
	}))
}

// detailed is a task as tasks/get returns it: a completed task carries the
// stored tool result exactly as tools/call rendered it; a failed one its
// error. A stored result that cannot be read or proven intact is an error,
// never an empty success.
func detailed(store *task.Store, rec task.Record) (*state, error) {
	w := wireTask(rec)
	if rec.Status == task.Completed {
		body, err := store.Result(rec)
		if err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf(
				"the stored result of task %s cannot be read (%v); the transfer did complete, so do not simply rerun it: check the download directory or the remote side, and restore or move aside the damaged file", rec.ID, err)}
		}
		w.Result = body
	}
	return &state{ResultType: "complete", Task: w}, nil
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}
