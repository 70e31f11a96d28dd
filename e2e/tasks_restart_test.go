package e2e

// Durability with the real binary (TASK-4, TASK-5): results survive a
// restart, an unfinished task is marked failed with the remote outcome
// unknown and never replayed, another configuration is refused (also
// while a server of the directory's own runs), and damaged records stop the
// start with a message naming the file. The SIGKILL torture test lives in
// tasks_kill_test.go.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
	"github.com/snowluma/snowluma-mcp/internal/access/accesstest"
)

// kill ends the binary with SIGKILL: no cleanup, no last write.
func (r *rawServer) kill() {
	r.t.Helper()
	require.NoError(r.t, r.cmd.Process.Kill())
	<-r.exited
}

func TestTasksSurviveRestartAndUnfinishedOnesAreNeverReplayed(t *testing.T) {
	t.Parallel()
	env, dirs, _ := taskEnv(t)
	first := startRaw(t, modern, env)
	done := decodeTask(t, startTask(first, "download_file_stream", map[string]any{"file": fake.FileSeed}, newTag(t), ""))
	before := awaitTask(t, first, done.TaskID)
	require.Equal(t, "completed", before.Status)
	slowTag := newTag(t)
	slow := decodeTask(t, startTask(first, "download_file_stream", map[string]any{"file": fake.FileSeed, "chunk_size": 10000}, slowTag, "slowframes:2000"))
	waitFor(t, "the slow download under way", func() bool { return partialWithData(t, dirs.download) })
	first.kill()

	second := startRaw(t, modern, env)
	after := decodeTask(t, getTask(second, done.TaskID))
	assert.Equal(t, "completed", after.Status, "a result survives the restart")
	assert.JSONEq(t, string(before.Result), string(after.Result), "unchanged")
	lost := decodeTask(t, getTask(second, slow.TaskID))
	assert.Equal(t, "failed", lost.Status)
	require.NotNil(t, lost.Error)
	assert.Equal(t, -32603, lost.Error.Code)
	assert.Contains(t, lost.Error.Message, "remote outcome unknown")
	assert.Contains(t, lost.StatusMessage, "never replayed")
	assert.Len(t, snow.ByTag(slowTag), 1, "the unfinished transfer was not run again")
	l, _ := listTasks(t, second, map[string]any{})
	assert.Len(t, l.Tasks, 2)
	for _, task := range l.Tasks {
		assert.NotEqual(t, "working", task.Status, "nothing runs after a restart")
	}
	second.awaitStderr("1 task(s) left unfinished", "the restart settled the unfinished task")
}

func TestTheTaskDirectoryRefusesWhatItMustNotServe(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		change func(t *testing.T, env map[string]string, dir string) map[string]string
		says   []string
	}{
		{"another token while a server of the directory's own runs", func(t *testing.T, env map[string]string, _ string) map[string]string {
			r := startRaw(t, modern, env)
			require.Nil(t, r.request("tools/list", withMeta(map[string]any{}, tasksMeta())).Error)
			return with(env, "SNOWLUMA_MCP_TOKEN", wrongToken)
		}, []string{"different mode, endpoint or token", "Choose a new SNOWLUMA_MCP_TASK_DIR"}},
		{"another token", func(t *testing.T, env map[string]string, _ string) map[string]string {
			return with(env, "SNOWLUMA_MCP_TOKEN", wrongToken)
		}, []string{"different mode, endpoint or token", "Choose a new SNOWLUMA_MCP_TASK_DIR"}},
		{"another endpoint", func(t *testing.T, env map[string]string, _ string) map[string]string {
			return with(env, "SNOWLUMA_MCP_ENDPOINT", "http://127.0.0.1:1/")
		}, []string{"different mode, endpoint or token"}},
		{"a corrupt record", func(t *testing.T, env map[string]string, dir string) map[string]string {
			p := recordFiles(t, dir)[0]
			require.NoError(t, os.WriteFile(p, []byte(`{"v":1,"taskId":`), 0o600))
			return env
		}, []string{"corrupt task record", ".json: ", "restore the file or move it aside"}},
		{"a record open to other users", func(t *testing.T, env map[string]string, dir string) map[string]string {
			require.NoError(t, os.Chmod(recordFiles(t, dir)[0], 0o644))
			return env
		}, []string{"mode 0644", "chmod 600"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			env, _, dir := taskEnv(t)
			r := startRaw(t, modern, env)
			h := decodeTask(t, startTask(r, "download_file_stream", map[string]any{"file": fake.FileHello}, newTag(t), ""))
			awaitTask(t, r, h.TaskID)
			r.stdin.Close()
			require.Equal(t, 0, r.waitExit())

			// No exit for a setting: the server starts with background
			// tasks off, says why on stderr and to the agent, and the rest
			// of write mode works.
			changed := tt.change(t, env, dir)
			forEachVersion(t, func(t *testing.T, version string) {
				s := start(t, version, changed)
				instructions := s.session.InitializeResult().Instructions
				info := s.call(t, "get_runtime_info", nil, nil)
				var rt struct {
					Mode     string `json:"mode"`
					Problems []struct {
						Variable, Effect, Message string
					} `json:"setting_problems"`
				}
				info.decodeResult(t, &rt)
				assert.Equal(t, "write", rt.Mode)
				require.Len(t, rt.Problems, 1, info.Text)
				assert.Equal(t, "SNOWLUMA_MCP_TASK_DIR", rt.Problems[0].Variable)
				assert.Equal(t, "off", rt.Problems[0].Effect)
				assert.Contains(t, s.toolNames(), "invoke_action", "the rest of write mode is served")
				stderr := s.closeCleanly(t)
				for _, w := range tt.says {
					assert.Contains(t, stderr, w)
					assert.Contains(t, rt.Problems[0].Message, w)
					assert.Contains(t, instructions, w)
				}
			})
		})
	}
}

func recordFiles(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "tasks", "*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, m)
	return m
}

// TestATamperedResultIsAnErrorNotAnEmptySuccess: a result that is not the
// one written, or a named pipe in its place (whose open once waited for a
// writer and held tasks/get for good), is an error that says so at once.
// Tasks exist on the 2026-07-28 protocol only.
func TestATamperedResultIsAnErrorNotAnEmptySuccess(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		spoil func(t *testing.T, path string)
		says  string
	}{
		{"another body", func(t *testing.T, path string) {
			require.NoError(t, os.WriteFile(path, []byte(`{"resultType":"complete"}`), 0o600))
		}, "does not match its record"},
		{"a named pipe", func(t *testing.T, path string) {
			require.NoError(t, os.Remove(path))
			accesstest.NotAFile(t, path)
		}, "is a named pipe, not a regular file: it is damaged"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			env, _, dir := taskEnv(t)
			r := startRaw(t, modern, env)
			h := decodeTask(t, startTask(r, "download_file_stream", map[string]any{"file": fake.FileHello}, newTag(t), ""))
			require.Equal(t, "completed", awaitTask(t, r, h.TaskID).Status)
			tt.spoil(t, filepath.Join(dir, "tasks", h.TaskID+".result"))
			var m rawMessage
			accesstest.Returns(t, func() { m = getTask(r, h.TaskID) })
			require.NotNil(t, m.Error, "%s", m)
			assert.Equal(t, -32603, m.Error.Code)
			assert.Contains(t, m.Error.Message, "cannot be read")
			assert.Contains(t, m.Error.Message, tt.says)
			assert.Contains(t, m.Error.Message, "do not simply rerun it")
			var f map[string]json.RawMessage
			_ = json.Unmarshal(m.Result, &f)
			assert.Empty(t, f)
			assert.False(t, strings.Contains(string(m.Line), `"status":"completed"`))
		})
	}
}

// TestClosingTheClientEndsRunningTasksHonestly is the closed laptop: the
// client goes away (stdin EOF) mid-transfer. The task cannot outlive the
// process, so it is cancelled and cleaned up, and the next start shows it
// failed, saying so, and does not run it again. No file in the task
// directory holds the token.
func TestClosingTheClientEndsRunningTasksHonestly(t *testing.T) {
	t.Parallel()
	env, dirs, dir := taskEnv(t)
	r := startRaw(t, modern, env)
	tag := newTag(t)
	h := decodeTask(t, startTask(r, "download_file_stream", map[string]any{"file": fake.FileSeed, "chunk_size": 10000}, tag, "slowframes:2000"))
	waitFor(t, "the download under way", func() bool { return partialWithData(t, dirs.download) })
	require.NoError(t, r.stdin.Close())
	assert.Equal(t, 0, r.waitExit(), "a quiet exit")
	assert.Empty(t, entries(t, dirs.download), "the partial download was removed")

	again := startRaw(t, modern, env)
	w := decodeTask(t, getTask(again, h.TaskID))
	assert.Equal(t, "failed", w.Status)
	require.NotNil(t, w.Error)
	assert.Contains(t, w.Error.Message, "the server stopped while this task was running")
	assert.Contains(t, w.Error.Message, "its partial download file was removed")
	assert.Contains(t, w.Error.Message, "never replayed")
	assert.NotContains(t, w.Error.Message, "context canceled")
	assert.Len(t, snow.ByTag(tag), 1)
	require.NoError(t, filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		require.NoError(t, err)
		if info.Mode().IsRegular() {
			data, err := os.ReadFile(p)
			require.NoError(t, err)
			assert.NotContains(t, string(data), token, "no credential is stored: %s", p)
		}
		return nil
	}))
}

// TestDroppingTheEndpointsTrailingSlashKeepsTheTaskHistory: the directory
// is bound to the endpoint as it is requested, so "http://host:port/" and
// "http://host:port" (the same request) open the same history, both ways.
func TestDroppingTheEndpointsTrailingSlashKeepsTheTaskHistory(t *testing.T) {
	t.Parallel()
	withSlash := snow.URL()
	require.True(t, strings.HasSuffix(withSlash, "/"))
	withoutSlash := strings.TrimSuffix(withSlash, "/")
	for _, order := range [][2]string{{withSlash, withoutSlash}, {withoutSlash, withSlash}} {
		t.Run("made with "+order[0], func(t *testing.T) {
			t.Parallel()
			env, _, _ := taskEnv(t, "SNOWLUMA_MCP_ENDPOINT", order[0])
			first := startRaw(t, modern, env)
			h := decodeTask(t, startTask(first, "download_file_stream", map[string]any{"file": fake.FileHello}, newTag(t), ""))
			require.Equal(t, "completed", awaitTask(t, first, h.TaskID).Status)
			first.stdin.Close()
			require.Equal(t, 0, first.waitExit())

			second := startRaw(t, modern, with(env, "SNOWLUMA_MCP_ENDPOINT", order[1]))
			assert.Equal(t, "completed", decodeTask(t, getTask(second, h.TaskID)).Status, "the history opens under the other spelling")
		})
	}
}
