package tasks

// The tasks extension's shapes on the wire: a task's fields, the handle
// tools/call answers with, tasks/get's answer, and the flat encoding they
// and notifications/tasks share.

import (
	"encoding/json"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/snowluma/snowluma-mcp/internal/task"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// fields are a task as the extension shows it. ttlMs is always null:
// results are kept until the user deletes them.
type fields struct {
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

// pollInterval is the polling pace every task handle advises.
const pollInterval = 1000

// handleFields are a task handle's fields on the wire.
func handleFields(h *pipeline.TaskHandle) fields {
	return fields{TaskID: h.ID, Status: task.Status(h.Status), StatusMessage: h.StatusMessage,
		CreatedAt: stamp(h.CreatedAt), LastUpdatedAt: stamp(h.UpdatedAt), PollIntervalMs: pollInterval}
}

// wireTask is a stored task's fields on the wire: its handle's, and the
// error of a failed one.
func wireTask(r task.Record) fields {
	f := handleFields(handleOf(r))
	f.Error = r.Error
	return f
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// handle is tools/call's answer when it started a task.
type handle struct {
	mcp.ResultBase
	ResultType string `json:"resultType"`
	Task       fields
}

func (h *handle) MarshalJSON() ([]byte, error) { return flat(h.Meta, h.ResultType, h.Task) }

// state is tasks/get's answer.
type state = handle

// flat writes {_meta?, resultType?, ...task fields}: the extension's task
// results and notifications are flat objects, not a nested "task". A
// notification has no resultType.
func flat(meta mcp.Meta, resultType string, t fields) ([]byte, error) {
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
