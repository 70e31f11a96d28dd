package e2e

// The task lifecycle at the wire: refusals that never create a task,
// cooperative cancellation with the synchronous path's cleanup, the cap on
// running tasks, list_tasks paging, and the lifecycle methods' errors.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

func TestABackgroundUploadOfARefusedFileCreatesNoTask(t *testing.T) {
	t.Parallel()
	env, dirs, _ := taskEnv(t)
	r := startRaw(t, modern, env)
	outside := writeFile(t, dirs.root, "outside.bin", []byte("x"))
	m := startUploadTask(r, outside)
	assert.NotContains(t, m.fields(t), "taskId", "%s", m)
	_, diag := structured(t, m)
	assert.Equal(t, "failed", diag.Outcome)
	assert.Equal(t, "invalid_argument", diag.Kind)
	assert.Contains(t, diag.Message, "outside the upload root")
	l, _ := listTasks(t, r, map[string]any{})
	assert.Empty(t, l.Tasks)
}

func TestRefusedBackgroundCallsCreateNoTask(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		action string
		params map[string]any
		kind   string
		says   string
	}{
		{"an ordinary action points to invoke_action", "send_private_msg", map[string]any{"user_id": 10001, "message": "hi"}, "wrong_tool", "Run it with invoke_action"},
		{"a missing required param is not asked for", "upload_file_stream", map[string]any{"chunk_index": 0}, "invalid_argument", "stream_id"},
		{"an unknown action", "no_such_action", map[string]any{}, "unknown_action", `unknown action "no_such_action"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			env, _, _ := taskEnv(t)
			r := startRaw(t, modern, env)
			tag := newTag(t)
			m := startTask(r, tt.action, tt.params, tag, "")
			f := m.fields(t)
			assert.NotContains(t, f, "taskId", "no task handle: %s", m)
			var body struct {
				IsError bool `json:"isError"`
			}
			require.NoError(t, json.Unmarshal(m.Result, &body))
			assert.True(t, body.IsError, "a tool error: %s", m)
			_, diag := structured(t, m)
			assert.Equal(t, "failed", diag.Outcome, "nothing reached SnowLuma")
			assert.Equal(t, tt.kind, diag.Kind)
			require.NotEmpty(t, tt.says, "every row names what the message must say")
			assert.Contains(t, diag.Message, tt.says)
			assert.Empty(t, snow.ByTag(tag))
			l, _ := listTasks(t, r, map[string]any{})
			assert.Empty(t, l.Tasks, "no task was recorded")
		})
	}
}

// partialWithData reports whether the download dir holds a partial file
// with at least one chunk in it.
func partialWithData(t *testing.T, dir string) bool {
	for _, n := range entries(t, dir) {
		if info, err := os.Stat(filepath.Join(dir, n)); err == nil && strings.HasPrefix(n, partialPrefix) && info.Size() > 0 {
			return true
		}
	}
	return false
}

// waitFor polls cond; the bound is a safety net, not an assertion.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(safety)
	for !cond() {
		require.True(t, time.Now().Before(deadline), "never happened: %s", what)
		time.Sleep(10 * time.Millisecond)
	}
}

func TestCancellingATaskStopsTheTransferAndCleansUp(t *testing.T) {
	t.Parallel()
	env, dirs, _ := taskEnv(t)
	r := startRaw(t, modern, env)
	tag := newTag(t)
	h := decodeTask(t, startTask(r, "download_file_stream", map[string]any{"file": fake.FileSeed, "chunk_size": 10000}, tag, "slowframes:300"))
	waitFor(t, "a partial file with data", func() bool { return partialWithData(t, dirs.download) })
	c := r.request("tasks/cancel", withMeta(map[string]any{"taskId": h.TaskID}, tasksMeta()))
	require.Nil(t, c.Error, "%s", c)
	assert.JSONEq(t, `{"resultType":"complete"}`, string(stripMeta(t, c.Result)), "an empty acknowledgement")
	end := awaitTask(t, r, h.TaskID)
	assert.Equal(t, "cancelled", end.Status, "%+v", end)
	assert.Contains(t, end.StatusMessage, "cancelled on request")
	assert.Contains(t, end.StatusMessage, "its partial download file was removed, so nothing of it is left on the MCP host")
	assert.Contains(t, end.StatusMessage, "does not undo")
	assert.NotContains(t, end.StatusMessage, "context canceled", "said in the user's words")
	assertNoPartial(t, dirs.download)
	assert.Empty(t, entries(t, dirs.download), "the partial download was removed")
	assert.Len(t, snow.ByTag(tag), 1, "nothing is retried")
	again := r.request("tasks/cancel", withMeta(map[string]any{"taskId": h.TaskID}, tasksMeta()))
	require.Nil(t, again.Error, "cancelling an ended task is acknowledged")
	assert.Equal(t, "cancelled", decodeTask(t, getTask(r, h.TaskID)).Status, "and changes nothing")
}

func stripMeta(t *testing.T, raw json.RawMessage) json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(raw, &m))
	delete(m, "_meta")
	out, err := json.Marshal(m)
	require.NoError(t, err)
	return out
}

func TestAFifthRunningTaskIsRefusedAtOnce(t *testing.T) {
	t.Parallel()
	env, dirs, _ := taskEnv(t)
	r := startRaw(t, modern, env)
	var ids []string
	for range 4 {
		h := decodeTask(t, startTask(r, "download_file_stream", map[string]any{"file": fake.FileSeed, "chunk_size": 10000}, newTag(t), "slowframes:2000"))
		ids = append(ids, h.TaskID)
	}
	tag := newTag(t)
	m := startTask(r, "download_file_stream", map[string]any{"file": fake.FileHello}, tag, "")
	assert.NotContains(t, m.fields(t), "taskId", "%s", m)
	_, diag := structured(t, m)
	assert.Equal(t, "failed", diag.Outcome)
	assert.Equal(t, "limit", diag.Kind)
	assert.Contains(t, diag.Message, "4 background tasks are already running")
	assert.Contains(t, diag.Message, "nothing was sent to SnowLuma")
	assert.Empty(t, snow.ByTag(tag))
	l, _ := listTasks(t, r, map[string]any{})
	assert.Len(t, l.Tasks, 4, "the refused one was not recorded")
	for _, id := range ids {
		require.Nil(t, r.request("tasks/cancel", withMeta(map[string]any{"taskId": id}, tasksMeta())).Error)
	}
	for _, id := range ids {
		assert.Equal(t, "cancelled", awaitTask(t, r, id).Status)
	}
	assertNoPartial(t, dirs.download)
	// With the slots free again, a new task starts.
	h := decodeTask(t, startTask(r, "download_file_stream", map[string]any{"file": fake.FileHello}, newTag(t), ""))
	assert.Equal(t, "completed", awaitTask(t, r, h.TaskID).Status)
}

func TestTaskMethodErrors(t *testing.T) {
	t.Parallel()
	env, _, _ := taskEnv(t)
	r := startRaw(t, modern, env)
	h := decodeTask(t, startTask(r, "download_file_stream", map[string]any{"file": fake.FileHello}, newTag(t), ""))
	awaitTask(t, r, h.TaskID)
	foreign := strings.Repeat("ab", 16)
	tests := []struct {
		name   string
		method string
		params map[string]any
		code   int
		says   string
	}{
		{"tasks/get of an unknown id", "tasks/get", withMeta(map[string]any{"taskId": foreign}, tasksMeta()), -32602, "unknown task"},
		{"tasks/cancel of an unknown id", "tasks/cancel", withMeta(map[string]any{"taskId": foreign}, tasksMeta()), -32602, "unknown task"},
		{"tasks/update of an unknown id", "tasks/update", withMeta(map[string]any{"taskId": foreign, "inputResponses": map[string]any{}}, tasksMeta()), -32602, "unknown task"},
		{"a malformed id", "tasks/get", withMeta(map[string]any{"taskId": "../../etc/passwd"}, tasksMeta()), -32602, "unknown task"},
		{"no id", "tasks/get", withMeta(map[string]any{}, tasksMeta()), -32602, "taskId is required"},
		{"a request without the extension", "tasks/get", withMeta(map[string]any{"taskId": h.TaskID}, modernMeta(modern)), -32021, "tasks extension"},
		{"tasks/result is not served", "tasks/result", withMeta(map[string]any{"taskId": h.TaskID}, tasksMeta()), -32601, "tasks/result"},
		{"tasks/list is not served", "tasks/list", withMeta(map[string]any{}, tasksMeta()), -32601, "tasks/list"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := r.request(tt.method, tt.params)
			require.NotNil(t, m.Error, "%s", m)
			assert.Equal(t, tt.code, m.Error.Code, "%s", m)
			require.NotEmpty(t, tt.says, "every row names what the message must say")
			assert.Contains(t, m.Error.Message, tt.says)
		})
	}
	t.Run("tasks/update of a known task is acknowledged and changes nothing", func(t *testing.T) {
		m := r.request("tasks/update", withMeta(map[string]any{"taskId": h.TaskID,
			"inputResponses": map[string]any{"x": map[string]any{"action": "accept", "content": map[string]any{}}}}, tasksMeta()))
		require.Nil(t, m.Error, "%s", m)
		assert.JSONEq(t, `{"resultType":"complete"}`, string(stripMeta(t, m.Result)))
		assert.Equal(t, "completed", decodeTask(t, getTask(r, h.TaskID)).Status)
	})
}

func TestListTasksPagesMetadataOnly(t *testing.T) {
	t.Parallel()
	env, _, _ := taskEnv(t)
	r := startRaw(t, modern, env)
	var ids []string
	for range 3 {
		h := decodeTask(t, startTask(r, "download_file_stream", map[string]any{"file": fake.FileHello}, newTag(t), ""))
		awaitTask(t, r, h.TaskID)
		ids = append([]string{h.TaskID}, ids...)
	}
	first, diag := listTasks(t, r, map[string]any{"limit": 2})
	assert.Equal(t, "success", diag.Outcome)
	require.Len(t, first.Tasks, 2)
	require.NotEmpty(t, first.NextCursor, "more remain")
	second, _ := listTasks(t, r, map[string]any{"limit": 2, "cursor": first.NextCursor})
	require.Len(t, second.Tasks, 1)
	assert.Empty(t, second.NextCursor, "the last page has no cursor")
	got := []string{first.Tasks[0].TaskID, first.Tasks[1].TaskID, second.Tasks[0].TaskID}
	assert.Equal(t, ids, got, "newest first, each once")
	all, _ := listTasks(t, r, map[string]any{})
	assert.Len(t, all.Tasks, 3, "the default page (50) holds them all")
	assert.Equal(t, "completed", all.Tasks[0].Status)
	assert.Equal(t, "download_file_stream", all.Tasks[0].Action)
	raw := r.request("tools/call", withMeta(map[string]any{"name": "list_tasks", "arguments": map[string]any{}}, tasksMeta()))
	assert.NotContains(t, string(raw.Line), "saved_file", "never a result body")
	for _, bad := range []map[string]any{{"limit": 0}, {"limit": 101}, {"cursor": "bm90IGEgY3Vyc29y"}} {
		_, diag := listTasks(t, r, bad)
		assert.Equal(t, "invalid_argument", diag.Kind, "%v", bad)
	}
}
