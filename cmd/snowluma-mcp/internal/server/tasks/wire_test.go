package tasks

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/task"
)

func TestTaskResultsAreFlat(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	h := &handle{ResultType: "task", Task: wireTask(task.Record{ID: "abc", Status: task.Working, CreatedAt: at, UpdatedAt: at})}
	h.Meta = mcp.Meta{"traceparent": "00-x"}
	data, err := json.Marshal(h)
	require.NoError(t, err)
	assert.JSONEq(t, `{"_meta":{"traceparent":"00-x"},"resultType":"task","taskId":"abc","status":"working",
		"createdAt":"2026-12-01T10:00:00Z","lastUpdatedAt":"2026-12-01T10:00:00Z","ttlMs":null,"pollIntervalMs":1000}`, string(data))
	failed := &state{ResultType: "complete", Task: wireTask(task.Record{ID: "abc", Status: task.Failed, CreatedAt: at, UpdatedAt: at,
		Error: &task.Error{Code: -32603, Message: "remote outcome unknown"}})}
	data, err = json.Marshal(failed)
	require.NoError(t, err)
	assert.JSONEq(t, `{"resultType":"complete","taskId":"abc","status":"failed","createdAt":"2026-12-01T10:00:00Z",
		"lastUpdatedAt":"2026-12-01T10:00:00Z","ttlMs":null,"pollIntervalMs":1000,"error":{"code":-32603,"message":"remote outcome unknown"}}`, string(data))
}
