package server

// The tasks extension's wire: the task handle tools/call answers with, and
// tasks/get, tasks/cancel and tasks/update.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/task"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// startBackground runs a task-starting tool's chain on the request and
// answers with the task handle, or with the tool error that refused it.
func startBackground(t *pipeline.Tool, h pipeline.Handler, now func() time.Time) func(context.Context, *mcp.CallToolRequest) (mcp.Result, error) {
	return func(ctx context.Context, req *mcp.CallToolRequest) (mcp.Result, error) {
		r, err := h(ctx, newCall(t, req, now()))
		if err != nil || r == nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the tool pipeline produced no result"}
		}
		if rec, ok := r.Task.(task.Record); ok {
			return &taskHandle{ResultBase: mcp.ResultBase{Meta: r.Meta}, ResultType: "task", Task: wireTask(rec)}, nil
		}
		return pipeline.Render(r), nil
	}
}

// taskFields are a task as the extension shows it. ttlMs is always null:
// results are kept until the user deletes them.
type taskFields struct {
	TaskID         string          `json:"taskId"`
	Status         task.Status     `json:"status"`
	StatusMessage  string          `json:"statusMessage,omitempty"`
	CreatedAt      string          `json:"createdAt"`
	LastUpdatedAt  string          `json:"lastUpdatedAt"`
	TTLMs          *int64          `json:"ttlMs"`
	PollIntervalMs int             `json:"pollIntervalMs"`
	Result         json.RawMessage `json:"result,omitempty"`
	Error          *task.Error     `json:"error,omitempty"`
}

// wireTask is r's fields on the wire.
func wireTask(r task.Record) taskFields {
	return taskFields{TaskID: r.ID, Status: r.Status, StatusMessage: r.StatusMessage,
		CreatedAt: stamp(r.CreatedAt), LastUpdatedAt: stamp(r.UpdatedAt), PollIntervalMs: pollInterval, Error: r.Error}
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// taskHandle is tools/call's answer when it started a task.
type taskHandle struct {
	mcp.ResultBase
	ResultType string `json:"resultType"`
	Task       taskFields
}

func (h *taskHandle) MarshalJSON() ([]byte, error) { return flat(h.Meta, h.ResultType, h.Task) }

// taskState is tasks/get's answer.
type taskState = taskHandle

// flat writes {_meta?, resultType?, ...task fields}: the extension's task
// results and notifications are flat objects, not a nested "task". A
// notification has no resultType.
func flat(meta mcp.Meta, resultType string, t taskFields) ([]byte, error) {
	body, err := json.Marshal(t)
	if err != nil {
		return nil, err
	}
	head := map[string]any{}
	if resultType != "" {
		head["resultType"] = resultType
	}
	if len(meta) > 0 {
		head["_meta"] = meta
	}
	h, err := json.Marshal(head)
	if err != nil {
		return nil, err
	}
	if len(head) == 0 {
		return body, nil
	}
	return append(append(h[:len(h)-1], ','), body[1:]...), nil
}

// taskParams are the params of tasks/get, tasks/update and tasks/cancel.
type taskParams struct {
	mcp.ParamsBase
	TaskID         *string         `json:"taskId"`
	InputResponses json.RawMessage `json:"inputResponses,omitempty"`
}

// ack is the empty answer of tasks/update and tasks/cancel.
type ack struct {
	mcp.ResultBase
	ResultType string `json:"resultType"`
}

// addTaskMethods registers tasks/get, tasks/update and tasks/cancel.
// tasks/list and tasks/result no longer exist in the extension and are
// never registered, so they get -32601.
func addTaskMethods(s *mcp.Server, runner *task.Runner) {
	lookup := func(p *taskParams) (task.Record, error) {
		if p == nil || !metaDeclaresTasks(p.Meta) {
			return task.Record{}, errNeedsTasks
		}
		if p.TaskID == nil {
			return task.Record{}, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "params.taskId is required"}
		}
		rec, err := runner.Store().Get(*p.TaskID)
		if errors.Is(err, task.ErrNotFound) {
			return rec, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf(
				"unknown task %s: this server's task directory has no task with that id (ids of another server or directory are unknown here); list_tasks shows the tasks it has", fault.Quote(*p.TaskID))}
		}
		return rec, err
	}
	must(mcp.AddReceivingCustomMethod(s, "tasks/get", func(ctx context.Context, _ *mcp.ServerSession, p *taskParams) (*taskState, error) {
		rec, err := lookup(p)
		if err != nil {
			return nil, err
		}
		return detailed(runner.Store(), rec)
	}))
	must(mcp.AddReceivingCustomMethod(s, "tasks/cancel", func(ctx context.Context, _ *mcp.ServerSession, p *taskParams) (*ack, error) {
		rec, err := lookup(p)
		if err != nil {
			return nil, err
		}
		if _, err := runner.Cancel(rec.ID); err != nil {
			return nil, err
		}
		return &ack{ResultType: "complete"}, nil
	}))
	must(mcp.AddReceivingCustomMethod(s, "tasks/update", func(ctx context.Context, _ *mcp.ServerSession, p *taskParams) (*ack, error) {
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
func detailed(store *task.Store, rec task.Record) (*taskState, error) {
	w := wireTask(rec)
	if rec.Status == task.Completed {
		body, err := store.Result(rec)
		if err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf(
				"the stored result of task %s cannot be read (%v); the transfer did complete, so do not simply rerun it: check the download directory or the remote side, and restore or move aside the damaged file", rec.ID, err)}
		}
		w.Result = body
	}
	return &taskState{ResultType: "complete", Task: w}, nil
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}
