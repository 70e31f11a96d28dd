package server

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/mcp/server/generation"
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
		{"a modern request declaring the extension", mcp.Meta{generation.ProtocolVersionKey: generation.ModernVersion,
			"io.modelcontextprotocol/clientCapabilities": caps(map[string]any{generation.TasksExtension: map[string]any{}})}, true},
		{"a modern request declaring other extensions", mcp.Meta{generation.ProtocolVersionKey: generation.ModernVersion,
			"io.modelcontextprotocol/clientCapabilities": caps(map[string]any{"io.modelcontextprotocol/ui": map[string]any{}})}, false},
		{"a modern request without capabilities", mcp.Meta{generation.ProtocolVersionKey: generation.ModernVersion}, false},
		{"a legacy version declaring the extension", mcp.Meta{generation.ProtocolVersionKey: "2025-11-25",
			"io.modelcontextprotocol/clientCapabilities": caps(map[string]any{generation.TasksExtension: map[string]any{}})}, false},
		{"no _meta at all", nil, false},
		{"capabilities of the wrong type", mcp.Meta{generation.ProtocolVersionKey: generation.ModernVersion, "io.modelcontextprotocol/clientCapabilities": "tasks"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, generation.MetaDeclaresTasks(tt.meta))
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

const tasksMetaJSON = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":` + tasksCaps + `}`

func TestTaskMethodsAnswerFromTheStore(t *testing.T) {
	t.Parallel()
	o := listOptions(t, false)
	store := o.Tasks
	working, err := store.Create("invoke_action_background", "download_file")
	require.NoError(t, err)
	done, err := store.Create("invoke_action_background", "download_file")
	require.NoError(t, err)
	_, err = store.Complete(done.ID, []byte(`{"content":[{"type":"text","text":"saved"}]}`), "saved")
	require.NoError(t, err)
	damaged, err := store.Create("invoke_action_background", "download_file")
	require.NoError(t, err)
	_, err = store.Complete(damaged.ID, []byte(`{"content":[]}`), "saved")
	require.NoError(t, err)
	results, err := filepath.Glob(filepath.Join(o.Config.TaskDir, "*", damaged.ID+".result"))
	require.NoError(t, err)
	require.Len(t, results, 1)
	require.NoError(t, os.WriteFile(results[0], []byte(`{"content":["x"]}`), 0o600))
	peer := speak(t, New(o).Server)

	type answer struct {
		result string // a JSON object the answer must equal in the named fields
		code   int64
		why    string
	}
	tests := []struct {
		name, method, params string
		want                 answer
	}{
		{"get of a working task", "tasks/get", `{` + tasksMetaJSON + `,"taskId":"` + working.ID + `"}`,
			answer{result: `{"resultType":"complete","taskId":"` + working.ID + `","status":"working"}`}},
		{"get of a completed task carries its stored result", "tasks/get", `{` + tasksMetaJSON + `,"taskId":"` + done.ID + `"}`,
			answer{result: `{"status":"completed","result":{"content":[{"type":"text","text":"saved"}]}}`}},
		{"a result that cannot be proven intact is an error", "tasks/get", `{` + tasksMetaJSON + `,"taskId":"` + damaged.ID + `"}`,
			answer{code: jsonrpc.CodeInternalError, why: "do not simply rerun it"}},
		{"an unknown task", "tasks/get", `{` + tasksMetaJSON + `,"taskId":"nope"}`,
			answer{code: jsonrpc.CodeInvalidParams, why: "unknown task"}},
		{"no taskId", "tasks/get", `{` + tasksMetaJSON + `}`,
			answer{code: jsonrpc.CodeInvalidParams, why: "params.taskId is required"}},
		{"without the declaration", "tasks/get", `{` + modernMetaJSON + `,"taskId":"` + working.ID + `"}`,
			answer{code: codeMissingCapability, why: "needs the tasks extension"}},
		{"cancel is acknowledged", "tasks/cancel", `{` + tasksMetaJSON + `,"taskId":"` + working.ID + `"}`,
			answer{result: `{"resultType":"complete"}`}},
		{"cancel of an unknown task", "tasks/cancel", `{` + tasksMetaJSON + `,"taskId":"nope"}`,
			answer{code: jsonrpc.CodeInvalidParams, why: "unknown task"}},
		{"update is acknowledged and ignored", "tasks/update", `{` + tasksMetaJSON + `,"taskId":"` + working.ID + `","inputResponses":{"k":{}}}`,
			answer{result: `{"resultType":"complete"}`}},
		{"update without the declaration", "tasks/update", `{` + modernMetaJSON + `,"taskId":"` + working.ID + `"}`,
			answer{code: codeMissingCapability}},
		{"tasks/list no longer exists", "tasks/list", `{` + tasksMetaJSON + `}`,
			answer{code: jsonrpc.CodeMethodNotFound}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := peer.call(tt.method, tt.params)
			if tt.want.code != 0 {
				var je *jsonrpc.Error
				require.ErrorAs(t, r.Error, &je)
				assert.Equal(t, tt.want.code, je.Code)
				assert.Contains(t, je.Message, tt.want.why)
				return
			}
			require.Nil(t, r.Error)
			var got, want map[string]any
			require.NoError(t, json.Unmarshal(r.Result, &got))
			require.NoError(t, json.Unmarshal([]byte(tt.want.result), &want))
			for k, v := range want {
				assert.Equal(t, v, got[k], k)
			}
		})
	}
}
