package server

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/task"
)

func TestTaskMethodsNeedTheDeclarationOnTheRequestItself(t *testing.T) {
	t.Parallel()
	caps := func(ext map[string]any) map[string]any { return map[string]any{"extensions": ext} }
	tests := []struct {
		name string
		meta mcp.Meta
		want bool
	}{
		{"a modern request declaring the extension", mcp.Meta{protocolVersionKey: ModernVersion,
			"io.modelcontextprotocol/clientCapabilities": caps(map[string]any{tasksExtension: map[string]any{}})}, true},
		{"a modern request declaring other extensions", mcp.Meta{protocolVersionKey: ModernVersion,
			"io.modelcontextprotocol/clientCapabilities": caps(map[string]any{"io.modelcontextprotocol/ui": map[string]any{}})}, false},
		{"a modern request without capabilities", mcp.Meta{protocolVersionKey: ModernVersion}, false},
		{"a legacy version declaring the extension", mcp.Meta{protocolVersionKey: "2025-11-25",
			"io.modelcontextprotocol/clientCapabilities": caps(map[string]any{tasksExtension: map[string]any{}})}, false},
		{"no _meta at all", nil, false},
		{"capabilities of the wrong type", mcp.Meta{protocolVersionKey: ModernVersion, "io.modelcontextprotocol/clientCapabilities": "tasks"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, metaDeclaresTasks(tt.meta))
		})
	}
}

func TestTaskResultsAreFlat(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	h := &taskHandle{ResultType: "task", Task: wireTask(task.Record{ID: "abc", Status: task.Working, CreatedAt: at, UpdatedAt: at})}
	h.Meta = mcp.Meta{"traceparent": "00-x"}
	data, err := json.Marshal(h)
	require.NoError(t, err)
	assert.JSONEq(t, `{"_meta":{"traceparent":"00-x"},"resultType":"task","taskId":"abc","status":"working",
		"createdAt":"2026-12-01T10:00:00Z","lastUpdatedAt":"2026-12-01T10:00:00Z","ttlMs":null,"pollIntervalMs":1000}`, string(data))
	failed := &taskState{ResultType: "complete", Task: wireTask(task.Record{ID: "abc", Status: task.Failed, CreatedAt: at, UpdatedAt: at,
		Error: &task.Error{Code: -32603, Message: "remote outcome unknown"}})}
	data, err = json.Marshal(failed)
	require.NoError(t, err)
	assert.JSONEq(t, `{"resultType":"complete","taskId":"abc","status":"failed","createdAt":"2026-12-01T10:00:00Z",
		"lastUpdatedAt":"2026-12-01T10:00:00Z","ttlMs":null,"pollIntervalMs":1000,"error":{"code":-32603,"message":"remote outcome unknown"}}`, string(data))
}
