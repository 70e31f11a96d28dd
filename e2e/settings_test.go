package e2e

// One reading of the settings (issue 37): for every setting problem, what
// `snowluma-mcp check` says and its exit status agree with what the server
// does with the same settings, observed through MCP on both protocol
// generations. Each side is asserted against the row, and the two against
// each other: check fails exactly when the server explains, falls back or
// turns a service off. A change to either side alone fails here.

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
	"github.com/snowluma/snowluma-mcp/internal/access/accesstest"
	"github.com/snowluma/snowluma-mcp/internal/task"
)

// settingRow is one setting problem.
type settingRow struct {
	name string
	// env makes a fresh world for one run (check, or one server) in dir.
	env func(t *testing.T, dir string) map[string]string
	// What the server does.
	explains bool   // the explaining state
	mode     string // the mode served, when not explaining
	// effect is the setting_problems entry of variable ("" for none).
	variable, effect string
	// says is in the instructions (and stderr) when set.
	says string
	// probe is a call the problem affects; refused says it fails as a
	// configuration failure (whose message holds says), else it works.
	probe   func(t *testing.T, s *server) toolResult
	refused bool
	// after checks the world once the server is done.
	after func(t *testing.T, dir string)
	// What check does: exit status, the item and its status, and words
	// of its detail or fix.
	code         int
	item, status string
	checkSays    string
}

func sendProbe(t *testing.T, s *server) toolResult {
	r, _ := s.sendNow(t, "send_group_msg", group(20001), nil)
	return r
}

func TestCheckAndTheServerAgreeOnEverySettingProblem(t *testing.T) {
	t.Parallel()
	host := strings.TrimPrefix(snow.URL(), "http://")
	port := host[strings.LastIndex(host, ":")+1:]
	exposed := func(t *testing.T, dir, name string, files ...string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.Mkdir(p, 0o700))
		for _, f := range files {
			writeFile(t, p, f, []byte("planted"))
		}
		require.NoError(t, os.Chmod(p, 0o755))
		return p
	}
	rows := []settingRow{
		{name: "a mode spelt wirte", env: func(t *testing.T, dir string) map[string]string {
			return with(writeEnv(), "SNOWLUMA_MCP_MODE", "wirte")
		}, explains: true, says: "did you mean write?", code: 2, item: "configuration", status: "fail", checkSays: "did you mean write?"},
		{name: "the endpoint as the WebUI's node card shows it", env: func(t *testing.T, dir string) map[string]string {
			return with(readEnv(), "SNOWLUMA_MCP_ENDPOINT", "0.0.0.0:"+port+"/")
		}, explains: true, says: "write http://127.0.0.1:" + port + "/", code: 2, item: "configuration", status: "fail",
			checkSays: "http://127.0.0.1:" + port + "/"},
		{name: "write mode without an endpoint", env: func(t *testing.T, dir string) map[string]string {
			return map[string]string{"SNOWLUMA_MCP_MODE": "write"}
		}, mode: "docs", variable: "SNOWLUMA_MCP_ENDPOINT", effect: "fallback", says: "set SNOWLUMA_MCP_ENDPOINT",
			code: 1, item: "configuration", status: "fail", checkSays: "set SNOWLUMA_MCP_ENDPOINT to SnowLuma's HTTP server"},
		{name: "an events URL over http", env: func(t *testing.T, dir string) map[string]string {
			return with(readEnv(), "SNOWLUMA_MCP_EVENTS_URL", "http://127.0.0.1:"+port+"/")
		}, mode: "read", variable: "SNOWLUMA_MCP_EVENTS_URL", effect: "off", says: "write ws://127.0.0.1:" + port + "/",
			probe: func(t *testing.T, s *server) toolResult {
				return s.call(t, "subscribe_events", map[string]any{"self_id": 10001}, nil)
			}, refused: true,
			code: 1, item: "events", status: "fail", checkSays: "write ws://127.0.0.1:" + port + "/"},
		{name: "an events token with a pasted line break", env: func(t *testing.T, dir string) map[string]string {
			return with(readEnv(), "SNOWLUMA_MCP_EVENTS_URL", "ws://127.0.0.1:"+port+"/", "SNOWLUMA_MCP_EVENTS_TOKEN", "ws\nTOKEN")
		}, mode: "read", variable: "SNOWLUMA_MCP_EVENTS_TOKEN", effect: "off", says: "Turned off, everything else works: live events",
			probe: func(t *testing.T, s *server) toolResult {
				return s.call(t, "subscribe_events", map[string]any{"self_id": 10001}, nil)
			}, refused: true,
			code: 1, item: "events", status: "fail", checkSays: "SNOWLUMA_MCP_EVENTS_TOKEN must not contain control characters"},
		{name: "an unused events token with a pasted line break", env: func(t *testing.T, dir string) map[string]string {
			return with(readEnv(), "SNOWLUMA_MCP_EVENTS_TOKEN", "ws\nTOKEN")
		}, mode: "read", variable: "", says: "", // nothing changes for the agent
			code: 0, item: "configuration", status: "warn", checkSays: "SNOWLUMA_MCP_EVENTS_URL is not set"},
		{name: "an empty task folder made with mkdir", env: func(t *testing.T, dir string) map[string]string {
			return with(writeEnv(), "SNOWLUMA_MCP_TASK_DIR", exposed(t, dir, "tasks"))
		}, mode: "write", variable: "SNOWLUMA_MCP_TASK_DIR", effect: "fixed", says: "made it private",
			after: func(t *testing.T, dir string) {
				st, err := os.Stat(filepath.Join(dir, "tasks"))
				require.NoError(t, err)
				assert.Equal(t, os.FileMode(0o700), st.Mode().Perm(), "made private")
			},
			code: 0, item: "task dir", status: "warn", checkSays: "the server makes it private when it starts"},
		{name: "a task folder open to others that holds a file", env: func(t *testing.T, dir string) map[string]string {
			return with(writeEnv(), "SNOWLUMA_MCP_TASK_DIR", exposed(t, dir, "tasks", "planted"))
		}, mode: "write", variable: "SNOWLUMA_MCP_TASK_DIR", effect: "off", says: "Turned off, everything else works: background tasks",
			code: 1, item: "task dir", status: "fail", checkSays: "chmod 700"},
		{name: "a task folder of another configuration", env: func(t *testing.T, dir string) map[string]string {
			p := filepath.Join(dir, "tasks")
			st, _, err := task.Open(p, task.Scope{Mode: "write", Endpoint: "http://127.0.0.1:1/", Token: "another"}, time.Now, nil)
			require.NoError(t, err)
			require.NoError(t, st.Close())
			return with(writeEnv(), "SNOWLUMA_MCP_TASK_DIR", p)
		}, mode: "write", variable: "SNOWLUMA_MCP_TASK_DIR", effect: "off", says: "different mode, endpoint or token",
			code: 1, item: "task dir", status: "fail", checkSays: "a new folder for this configuration"},
		{name: "a task folder holding a damaged record", env: func(t *testing.T, dir string) map[string]string {
			p := filepath.Join(dir, "tasks")
			st, _, err := task.Open(p, task.Scope{Mode: "write", Endpoint: snow.URL(), Token: token}, time.Now, nil)
			require.NoError(t, err)
			rec, err := st.Create("invoke_action_background", "download_file_stream")
			require.NoError(t, err)
			require.NoError(t, st.Close())
			writeFile(t, filepath.Join(p, "tasks"), rec.ID+".json", []byte(`{"taskId":`))
			return with(writeEnv(), "SNOWLUMA_MCP_TASK_DIR", p)
		}, mode: "write", variable: "SNOWLUMA_MCP_TASK_DIR", effect: "off", says: "corrupt task record",
			code: 1, item: "task dir", status: "fail", checkSays: "restore or move aside the file named above"},
		{name: "a task folder holding tasks but no scope", env: func(t *testing.T, dir string) map[string]string {
			p := filepath.Join(dir, "tasks")
			st, _, err := task.Open(p, task.Scope{Mode: "write", Endpoint: snow.URL(), Token: token}, time.Now, nil)
			require.NoError(t, err)
			require.NoError(t, st.Close())
			require.NoError(t, os.Remove(filepath.Join(p, "scope.json")))
			return with(writeEnv(), "SNOWLUMA_MCP_TASK_DIR", p)
		}, mode: "write", variable: "SNOWLUMA_MCP_TASK_DIR", effect: "off", says: "scope.json is missing while tasks exist",
			code: 1, item: "task dir", status: "fail", checkSays: "scope.json is missing while tasks exist"},
		{name: "a task folder holding a named pipe for a record", env: func(t *testing.T, dir string) map[string]string {
			return with(writeEnv(), "SNOWLUMA_MCP_TASK_DIR", taskDirWith(t, dir, func(p, id string) string { return filepath.Join(p, "tasks", id+".json") }))
		}, mode: "write", variable: "SNOWLUMA_MCP_TASK_DIR", effect: "off", says: "is a named pipe, not a regular file: it is damaged",
			code: 1, item: "task dir", status: "fail", checkSays: "is a named pipe, not a regular file"},
		{name: "a task folder holding a named pipe for its scope", env: func(t *testing.T, dir string) map[string]string {
			return with(writeEnv(), "SNOWLUMA_MCP_TASK_DIR", taskDirWith(t, dir, func(p, _ string) string { return filepath.Join(p, "scope.json") }))
		}, mode: "write", variable: "SNOWLUMA_MCP_TASK_DIR", effect: "off", says: "scope.json is a named pipe, not a regular file",
			code: 1, item: "task dir", status: "fail", checkSays: "scope.json is a named pipe, not a regular file"},
		{name: "a task folder holding a named pipe for its lease", env: func(t *testing.T, dir string) map[string]string {
			return with(writeEnv(), "SNOWLUMA_MCP_TASK_DIR", taskDirWith(t, dir, func(p, _ string) string { return filepath.Join(p, "lease") }))
		}, mode: "write", variable: "SNOWLUMA_MCP_TASK_DIR", effect: "off", says: "lease is a named pipe, not a regular file",
			code: 1, item: "task dir", status: "fail", checkSays: "lease is a named pipe, not a regular file"},
		{name: "a state directory holding a named pipe for a budget's lock", env: func(t *testing.T, dir string) map[string]string {
			return with(writeEnv(), "SNOWLUMA_MCP_STATE_DIR", stateDirWith(t, dir, "budget-10001.json.lock"))
		}, mode: "write", variable: "SNOWLUMA_MCP_STATE_DIR", effect: "off", says: "budget-10001.json.lock is a named pipe, not a regular file",
			probe: sendProbe, refused: true, code: 1, item: "state dir", status: "fail", checkSays: "budget-10001.json.lock is a named pipe, not a regular file"},
		{name: "a state directory holding a named pipe for a budget", env: func(t *testing.T, dir string) map[string]string {
			return with(writeEnv(), "SNOWLUMA_MCP_STATE_DIR", stateDirWith(t, dir, "budget-10001.json"))
		}, mode: "write", says: "", // moved aside and started again as spent, like a damaged budget
			code: 0, item: "state dir", status: "warn", checkSays: "budget-10001.json is a named pipe, not a regular file"},
		{name: "a state directory open to others that holds files", env: func(t *testing.T, dir string) map[string]string {
			return with(writeEnv(), "SNOWLUMA_MCP_STATE_DIR", exposed(t, dir, "state", "budget-10001.json"))
		}, mode: "write", variable: "SNOWLUMA_MCP_STATE_DIR", effect: "off", says: "SNOWLUMA_MCP_STATE_DIR",
			probe: sendProbe, refused: true, code: 1, item: "state dir", status: "fail", checkSays: "chmod 700"},
		{name: "a state directory named by a link", env: func(t *testing.T, dir string) map[string]string {
			p := filepath.Join(dir, "state")
			require.NoError(t, os.Mkdir(p+"-real", 0o700))
			require.NoError(t, os.Symlink(p+"-real", p))
			return with(writeEnv(), "SNOWLUMA_MCP_STATE_DIR", p)
		}, mode: "write", variable: "SNOWLUMA_MCP_STATE_DIR", effect: "off", says: "is a link, not a directory",
			probe: sendProbe, refused: true, code: 1, item: "state dir", status: "fail", checkSays: "is a link, not a directory"},
		{name: "an empty state directory made with mkdir", env: func(t *testing.T, dir string) map[string]string {
			return with(writeEnv(), "SNOWLUMA_MCP_STATE_DIR", exposed(t, dir, "state"))
		}, mode: "write", variable: "SNOWLUMA_MCP_STATE_DIR", effect: "fixed", says: "made it private", probe: sendProbe,
			code: 0, item: "state dir", status: "warn", checkSays: "the server makes it private when it starts"},
		{name: "a missing upload folder", env: func(t *testing.T, dir string) map[string]string {
			return with(writeEnv(), "SNOWLUMA_MCP_UPLOAD_ROOT", filepath.Join(dir, "missing"))
		}, mode: "write", variable: "SNOWLUMA_MCP_UPLOAD_ROOT", effect: "off", says: "does not exist",
			probe: func(t *testing.T, s *server) toolResult { r, _ := s.uploadCall(t, "a.bin"); return r }, refused: true,
			code: 1, item: "upload root", status: "fail", checkSays: "the next upload uses it without a restart"},
		{name: "a relative download folder", env: func(t *testing.T, dir string) map[string]string {
			return with(writeEnv(), "SNOWLUMA_MCP_DOWNLOAD_DIR", "downloads")
		}, mode: "write", variable: "SNOWLUMA_MCP_DOWNLOAD_DIR", effect: "off", says: "must be an absolute path",
			probe: func(t *testing.T, s *server) toolResult {
				return s.call(t, "invoke_action", map[string]any{"action": "download_file_stream", "params": map[string]any{"file": fake.FileHello}}, nil)
			}, refused: true, code: 1, item: "download dir", status: "fail", checkSays: "must be an absolute path"},
		{name: "a misspelt trusted list", env: func(t *testing.T, dir string) map[string]string {
			return with(readEnv(), "SNOWLUMA_MCP_TRUSTED_USER", "10002")
		}, mode: "read", says: "likely meant SNOWLUMA_MCP_TRUSTED_USERS",
			code: 1, item: "unknown variable", status: "fail", checkSays: "did you mean SNOWLUMA_MCP_TRUSTED_USERS?"},
	}
	for _, tt := range rows {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := runCheck(t, tt.env(t, t.TempDir()), "--json")
			var r checkReport
			require.NoError(t, json.Unmarshal([]byte(stdout), &r), "stdout:\n%s\nstderr:\n%s", stdout, stderr)
			assert.Equal(t, tt.code, code, "check's exit status: %s", stdout)
			item := r.item(tt.item, tt.status)
			require.NotNil(t, item, "check has no %s item with status %s: %s", tt.item, tt.status, stdout)
			assert.Contains(t, item.Detail+" "+item.Fix, tt.checkSays)
			for _, it := range r.Items {
				assert.False(t, it.Name == tt.item && it.Status == "skip", "check says %s once, not also as skipped: %s", tt.item, stdout)
			}
			assertNoSecrets(t, "check", stdout, stderr)

			forEachVersion(t, func(t *testing.T, version string) {
				dir := t.TempDir()
				s := start(t, version, tt.env(t, dir))
				instructions := s.session.InitializeResult().Instructions
				assert.Equal(t, tt.explains, strings.Contains(instructions, "is not configured"), instructions)
				assert.Contains(t, instructions, tt.says)
				less := tt.explains
				if !tt.explains {
					info := s.call(t, "get_runtime_info", nil, nil)
					var rt struct {
						Mode     string `json:"mode"`
						Problems []struct {
							Variable, Effect, Message string
						} `json:"setting_problems"`
						Ignored []struct {
							LikelyMeant string `json:"likely_meant"`
						} `json:"ignored_variables"`
					}
					info.decodeResult(t, &rt)
					assert.Equal(t, tt.mode, rt.Mode)
					less = less || rt.Mode != modeOf(tt.env(t, t.TempDir()))
					var effect string
					for _, p := range rt.Problems {
						if p.Variable == tt.variable {
							effect = p.Effect
							assert.Contains(t, p.Message, tt.says)
						}
						less = less || p.Effect == "off" || p.Effect == "fallback"
					}
					assert.Equal(t, tt.effect, effect, "setting_problems: %s", info.Text)
					for _, v := range rt.Ignored {
						less = less || v.LikelyMeant != ""
					}
				}
				if tt.probe != nil {
					res := tt.probe(t, s)
					if tt.refused {
						assert.True(t, res.IsError, res.Text)
						assert.Equal(t, "configuration", res.Diag.Kind, res.Text)
						assert.Equal(t, "failed", res.Diag.Outcome)
						assert.Contains(t, res.Diag.Message, tt.variable)
					} else {
						assert.False(t, res.IsError, "the service works: %s", res.Text)
					}
					less = less || (res.IsError && res.Diag.Kind == "configuration")
				}
				if tt.mode == "read" || tt.mode == "write" {
					q := s.call(t, "query_action", map[string]any{"action": "get_status"}, nil)
					assert.False(t, q.IsError, "the rest of the mode works: %s", q.Text)
				}
				out := redact(s.closeCleanly(t))
				if tt.variable != "" {
					assert.Contains(t, out, tt.variable, "stderr names the variable")
				}
				if tt.after != nil {
					tt.after(t, dir)
				}
				assert.Equal(t, code != 0, less, "check fails exactly when the server runs with less than the user set")
			})
		})
	}
}

// taskDirWith is a task folder in dir holding one completed task, with a
// named pipe put where at names (given the folder and the task's id).
func taskDirWith(t *testing.T, dir string, at func(p, id string) string) string {
	p := filepath.Join(dir, "tasks")
	st, _, err := task.Open(p, task.Scope{Mode: "write", Endpoint: snow.URL(), Token: token}, time.Now, nil)
	require.NoError(t, err)
	rec, err := st.Create("invoke_action_background", "download_file_stream")
	require.NoError(t, err)
	require.NoError(t, st.Close())
	path := at(p, rec.ID)
	require.NoError(t, os.Remove(path))
	accesstest.NotAFile(t, path)
	return p
}

// stateDirWith is a private state directory in dir holding a named pipe
// named name.
func stateDirWith(t *testing.T, dir, name string) string {
	p := filepath.Join(dir, "state")
	require.NoError(t, os.Mkdir(p, 0o700))
	accesstest.NotAFile(t, filepath.Join(p, name))
	return p
}

// modeOf is the mode env asks for: the one set, else what the endpoint
// makes the default.
func modeOf(env map[string]string) string {
	if m := env["SNOWLUMA_MCP_MODE"]; m != "" {
		return m
	}
	if env["SNOWLUMA_MCP_ENDPOINT"] != "" {
		return "read"
	}
	return "docs"
}

// item is the first item named name with status, or nil.
func (r checkReport) item(name, status string) *struct {
	Name   string `json:"name"`
	Status string `json:"status"`
	Detail string `json:"detail"`
	Fix    string `json:"fix"`
} {
	for i := range r.Items {
		if r.Items[i].Name == name && r.Items[i].Status == status {
			return &r.Items[i]
		}
	}
	return nil
}
