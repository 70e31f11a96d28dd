package e2e

// Plumbing for the background-task tests: a write-mode environment with
// the test's own task directory, requests that declare the tasks
// extension, and polling a task to its end. The raw driver is used
// throughout because the SDK client has no tasks support (it refuses a
// resultType of "task").

import (
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

const tasksExt = "io.modelcontextprotocol/tasks"

// taskEnv is streamEnv with a fresh SNOWLUMA_MCP_TASK_DIR.
func taskEnv(t testing.TB, kv ...string) (map[string]string, streamDirs, string) {
	t.Helper()
	env, dirs := streamEnv(t, kv...)
	dir := filepath.Join(t.TempDir(), "tasks")
	return with(env, "SNOWLUMA_MCP_TASK_DIR", dir), dirs, dir
}

// tasksMeta is the modern _meta triple declaring the tasks extension.
func tasksMeta() map[string]any {
	m := modernMeta(modern)
	m["io.modelcontextprotocol/clientCapabilities"] = map[string]any{"extensions": map[string]any{tasksExt: map[string]any{}}}
	return m
}

// withMeta returns p with _meta set to meta.
func withMeta(p map[string]any, meta map[string]any) map[string]any {
	out := map[string]any{"_meta": meta}
	for k, v := range p {
		out[k] = v
	}
	return out
}

// wireTask is a task object as tools/call and tasks/get return it.
type wireTask struct {
	ResultType     string          `json:"resultType"`
	TaskID         string          `json:"taskId"`
	Status         string          `json:"status"`
	StatusMessage  string          `json:"statusMessage"`
	CreatedAt      string          `json:"createdAt"`
	LastUpdatedAt  string          `json:"lastUpdatedAt"`
	TTLMs          json.RawMessage `json:"ttlMs"`
	PollIntervalMs *int            `json:"pollIntervalMs"`
	Result         json.RawMessage `json:"result"`
	Error          *rpcError       `json:"error"`
}

func decodeTask(t testing.TB, m rawMessage) wireTask {
	t.Helper()
	require.Nil(t, m.Error, "%s", m)
	var w wireTask
	require.NoError(t, json.Unmarshal(m.Result, &w), "%s", m)
	return w
}

// startTask calls invoke_action_background for action with params (the
// tag marks the fake's requests) and returns the raw answer.
func startTask(r *rawServer, action string, params map[string]any, tag, faults string) rawMessage {
	r.t.Helper()
	p := map[string]any{}
	for k, v := range params {
		p[k] = v
	}
	marker := "tag:" + tag
	if faults != "" {
		marker += "," + faults
	}
	p[fake.Marker] = marker
	return r.request("tools/call", withMeta(map[string]any{"name": "invoke_action_background",
		"arguments": map[string]any{"action": action, "params": p}}, tasksMeta()))
}

// getTask sends tasks/get.
func getTask(r *rawServer, id string) rawMessage {
	r.t.Helper()
	return r.request("tasks/get", withMeta(map[string]any{"taskId": id}, tasksMeta()))
}

// awaitTask polls tasks/get at the advised interval until the task ends.
// The bound is a safety net against a hang, not an assertion about speed.
func awaitTask(t testing.TB, r *rawServer, id string) wireTask {
	t.Helper()
	deadline := time.Now().Add(safety)
	for {
		w := decodeTask(t, getTask(r, id))
		if w.Status != "working" {
			return w
		}
		require.True(t, time.Now().Before(deadline), "task %s never ended", id)
		time.Sleep(20 * time.Millisecond)
	}
}

// listTasks calls list_tasks and returns its structured result.
func listTasks(t testing.TB, r *rawServer, args map[string]any) (taskList, diagnostics) {
	t.Helper()
	m := r.request("tools/call", withMeta(map[string]any{"name": "list_tasks", "arguments": args}, tasksMeta()))
	res, diag := structured(t, m)
	var l taskList
	if string(res) != "null" {
		require.NoError(t, json.Unmarshal(res, &l))
	}
	return l, diag
}

type taskList struct {
	Tasks []struct {
		TaskID string `json:"taskId"`
		Status string `json:"status"`
		Action string `json:"action"`
	} `json:"tasks"`
	NextCursor string `json:"nextCursor"`
}
