package e2e

// snowluma-mcp check (issue 30 §1): run by hand with the environment a host
// would give, it tries everything the configured mode needs against the
// fake SnowLuma, prints one line per item with what to change, exits 0 only
// when all of it works, changes nothing, and never prints the token.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

// runCheck runs `snowluma-mcp check` with vars (and args after it) and
// returns its exit code, stdout and stderr.
func runCheck(t *testing.T, vars map[string]string, args ...string) (int, string, string) {
	t.Helper()
	return runBinary(t, vars, append([]string{"check"}, args...)...)
}

type checkReport struct {
	OK        bool   `json:"ok"`
	Mode      string `json:"mode"`
	Malformed string `json:"malformed"`
	Items     []struct {
		Name   string `json:"name"`
		Status string `json:"status"`
		Detail string `json:"detail"`
		Fix    string `json:"fix"`
	} `json:"items"`
}

// statuses maps each item to its status (the last of a name).
func (r checkReport) statuses() map[string]string {
	out := map[string]string{}
	for _, it := range r.Items {
		out[it.Name] = it.Status
	}
	return out
}

func TestCheckPassesAWorkingSetupAndChangesNothing(t *testing.T) {
	t.Parallel()
	snowluma := fake.New(fake.Options{Token: token})
	t.Cleanup(snowluma.Close)
	scene := snowluma.Scene(fake.SceneOptions{})
	dir := t.TempDir()
	uploads := filepath.Join(dir, "uploads")
	require.NoError(t, os.Mkdir(uploads, 0o700))
	env := map[string]string{
		"SNOWLUMA_MCP_MODE": "write", "SNOWLUMA_MCP_ENDPOINT": snowluma.URL(), "SNOWLUMA_MCP_TOKEN": token,
		"SNOWLUMA_MCP_EVENTS_URL": scene.URL(), "SNOWLUMA_MCP_UPLOAD_ROOT": uploads,
		"SNOWLUMA_MCP_DOWNLOAD_DIR": filepath.Join(dir, "downloads"), "SNOWLUMA_MCP_TASK_DIR": filepath.Join(dir, "tasks"),
	}

	code, stdout, stderr := runCheck(t, env)
	assert.Zero(t, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	for _, line := range []string{"ok    endpoint", "ok    token", "ok    account", "logged in as 10001 (SnowBot), online",
		"ok    version", "ok    events", "ok    upload root", "ok    download dir", "ok    task dir", "ok    send pace", "ok    lockdown"} {
		assert.Contains(t, stdout, line)
	}
	assert.Contains(t, stdout, "everything the configured mode needs works")
	assert.Contains(t, stdout, "background transfers also need a host that declares the tasks extension",
		"a task folder alone does not give background transfers, and no measured host declares the extension")

	code, stdout, _ = runCheck(t, env, "--json")
	assert.Zero(t, code)
	var r checkReport
	require.NoError(t, json.Unmarshal([]byte(stdout), &r), stdout)
	assert.True(t, r.OK)
	assert.Equal(t, "write", r.Mode)
	assert.Equal(t, "ok", r.statuses()["events"])

	var actions []string
	for _, q := range snowluma.Requests() {
		actions = append(actions, q.BodyAction())
	}
	assert.Equal(t, []string{"get_login_info", "get_status", "get_version_info", "get_login_info", "get_status", "get_version_info"}, actions,
		"only the three read probes, once per run")
	assert.Equal(t, 2, scene.Dials(), "one event connection per run")
	// A token in the endpoint's query works as well, and is never printed
	// (runCheck fails on any secret in the output).
	code, stdout, _ = runCheck(t, with(env, "SNOWLUMA_MCP_ENDPOINT", snowluma.URL()+"?access_token="+token, "SNOWLUMA_MCP_TOKEN", "",
		"SNOWLUMA_MCP_EVENTS_URL", ""))
	assert.Zero(t, code, stdout)
	assert.Contains(t, stdout, "ok    token")

	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1, "no file or directory is created")
	assert.Equal(t, "uploads", entries[0].Name())
}

func TestCheckNamesWhatToChange(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tests := []struct {
		name string
		vars map[string]string
		item string
		says []string
	}{
		{"a wrong token", with(readEnv(), "SNOWLUMA_MCP_TOKEN", wrongToken, "SNOWLUMA_MCP_EVENTS_URL", snow.Scene(fake.SceneOptions{}).URL()),
			"token", []string{"HTTP 401", "into SNOWLUMA_MCP_TOKEN", "code 1008", "set SNOWLUMA_MCP_EVENTS_TOKEN to the WS 服务端 node's 授权 Token"}},
		{"the WebSocket adapter's port", with(readEnv(), "SNOWLUMA_MCP_ENDPOINT", snow.WebSocketHTTPURL()), "endpoint", []string{"HTTP 426", "3000"}},
		{"a path read as the action", with(readEnv(), "SNOWLUMA_MCP_ENDPOINT", snow.URL()+"api"), "endpoint", []string{`"/api"`, "路径"}},
		{"nothing listening", with(readEnv(), "SNOWLUMA_MCP_ENDPOINT", "http://127.0.0.1:9/"), "endpoint", []string{"cannot reach SnowLuma", "running"}},
		{"an events URL on the HTTP port", with(readEnv(), "SNOWLUMA_MCP_EVENTS_URL", "ws"+strings.TrimPrefix(snow.URL(), "http")), "events", []string{"HTTP 200", "3001"}},
		{"a missing upload root", with(writeEnv(), "SNOWLUMA_MCP_UPLOAD_ROOT", filepath.Join(dir, "missing"), "SNOWLUMA_MCP_DOWNLOAD_DIR", filepath.Join(dir, "dl")),
			"upload root", []string{"SNOWLUMA_MCP_UPLOAD_ROOT names a directory that does not exist", "create that folder", "without a restart"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := runCheck(t, tt.vars)
			assert.Equal(t, 1, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
			assert.Regexp(t, `(?m)^fail  `+tt.item+` `, stdout)
			for _, s := range tt.says {
				assert.Contains(t, stdout, s)
			}
			assert.Regexp(t, `(?m)^(1 item|[2-9] items) failed: `, stdout)
		})
	}
}

// TestCheckStillFailsOnAMalformedSetting: the check keeps a non-zero exit
// for what the server only explains, and names the variable.
func TestCheckStillFailsOnAMalformedSetting(t *testing.T) {
	t.Parallel()
	head, tail := token[:len(token)/2], token[len(token)/2:]
	code, stdout, _ := runCheck(t, map[string]string{"SNOWLUMA_MCP_ENDPOINT": snow.URL(), "SNOWLUMA_MCP_TOKEN": head + "\n" + tail}, "--json")
	assert.Equal(t, 2, code)
	var r checkReport
	require.NoError(t, json.Unmarshal([]byte(stdout), &r), stdout)
	assert.False(t, r.OK)
	assert.Equal(t, "SNOWLUMA_MCP_TOKEN", r.Malformed)
	require.NotEmpty(t, r.Items)
	assert.Equal(t, "fail", r.Items[0].Status)
	assert.Contains(t, r.Items[0].Detail, "SNOWLUMA_MCP_TOKEN must not contain control characters")
	assert.NotContains(t, stdout, head)
	assert.NotContains(t, stdout, tail)
}

// TestCheckInDocsModeNeedsNothing: without an endpoint only the catalog is
// served, and there is nothing to fail.
func TestCheckInDocsModeNeedsNothing(t *testing.T) {
	t.Parallel()
	code, stdout, _ := runCheck(t, map[string]string{})
	assert.Zero(t, code)
	assert.Contains(t, stdout, "docs mode")
	assert.NotContains(t, stdout, "endpoint ")
}

// TestCheckNamesAMisspeltSetting: the check reports a variable the server
// does not read with the setting it most likely meant, and fails: what it
// meant (here lockdown) is off; the value is never shown.
func TestCheckNamesAMisspeltSetting(t *testing.T) {
	t.Parallel()
	code, stdout, _ := runCheck(t, map[string]string{"SNOWLUMA_MCP_TRUSTED_USER": token}, "--json")
	assert.Equal(t, 1, code, "what the name meant is off: %s", stdout)
	var r checkReport
	require.NoError(t, json.Unmarshal([]byte(stdout), &r), stdout)
	require.NotEmpty(t, r.Items)
	it := r.Items[0]
	assert.Equal(t, "unknown variable", it.Name)
	assert.Equal(t, "fail", it.Status)
	assert.Contains(t, it.Detail, "SNOWLUMA_MCP_TRUSTED_USER is not a variable this server reads")
	assert.Contains(t, it.Fix, "did you mean SNOWLUMA_MCP_TRUSTED_USERS?")
	_, text, _ := runCheck(t, map[string]string{"SNOWLUMA_MCP_TRUSTED_USER": token})
	assert.Contains(t, text, "SNOWLUMA_MCP_TRUSTED_USER is not a variable this server reads")
	assert.Contains(t, text, "did you mean SNOWLUMA_MCP_TRUSTED_USERS?")
}
