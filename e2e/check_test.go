package e2e

// snowluma-mcp check (issue 30 §1): run by hand with the environment a host
// would give, it tries everything the configured mode needs against the
// fake SnowLuma, prints one line per item with what to change, exits 0 only
// when all of it works, changes nothing, and never prints the token.

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
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
// The locale is pinned: English (LANG=C) unless the test sets one, so that
// neither the machine's locale nor a Chinese Windows changes the words.
func runCheck(t *testing.T, vars map[string]string, args ...string) (int, string, string) {
	t.Helper()
	if vars["LC_ALL"] == "" && vars["LC_MESSAGES"] == "" && vars["LANG"] == "" {
		vars = with(vars, "LANG", "C")
	}
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

// webPage is another service on a port: it answers every request with a
// web page and status.
func webPage(t *testing.T, status int) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(status)
		_, _ = w.Write([]byte("<html><body>" + http.StatusText(status) + "</body></html>"))
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}

// TestCheckFixesAPastedValueInOneRound (issue 52 items 1 to 4 and the
// mode): each value as a person pasted it fails with a fix that says what
// is wrong with it and the exact change, never printing the token; the
// value as that fix makes it passes on the next run.
func TestCheckFixesAPastedValueInOneRound(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	uploads := filepath.Join(dir, "uploads")
	require.NoError(t, os.Mkdir(uploads, 0o700))
	events := snow.Scene(fake.SceneOptions{}).URL()
	write := with(writeEnv(), "SNOWLUMA_MCP_DOWNLOAD_DIR", filepath.Join(dir, "dl"))
	tests := []struct {
		name   string
		pasted map[string]string
		code   int
		item   string
		says   []string
		fixed  map[string]string
	}{
		{"a token in quotes", with(readEnv(), "SNOWLUMA_MCP_TOKEN", `"`+token+`"`), 1, "token",
			[]string{"HTTP 401", "SNOWLUMA_MCP_TOKEN looks pasted with its wrapping: it is wrapped in quotes", "delete the quotes around it"}, readEnv()},
		{"a token in the placeholder's brackets", with(readEnv(), "SNOWLUMA_MCP_TOKEN", "<"+token+">"), 1, "token",
			[]string{"wrapped in < and >", "delete the < and > around it"}, readEnv()},
		{"the placeholder itself", with(readEnv(), "SNOWLUMA_MCP_TOKEN", "<HTTP API Token>"), 1, "token",
			[]string{"still the guide's placeholder", "replace the whole placeholder, < and > included, with the token"}, readEnv()},
		{"the Chinese placeholder", with(readEnv(), "SNOWLUMA_MCP_TOKEN", "<HTTP API 节点的授权 Token>"), 1, "token",
			[]string{"still the guide's placeholder"}, readEnv()},
		{"a Bearer prefix", with(readEnv(), "SNOWLUMA_MCP_TOKEN", "Bearer "+token), 1, "token",
			[]string{`it starts with "Bearer ", which the server adds itself`, `delete "Bearer " from its start`}, readEnv()},
		{"a space inside", with(readEnv(), "SNOWLUMA_MCP_TOKEN", token[:4]+" "+token[4:]), 1, "token",
			[]string{"it contains a space", "delete the space"}, readEnv()},
		{"the events token in quotes", with(readEnv(), "SNOWLUMA_MCP_EVENTS_URL", events, "SNOWLUMA_MCP_EVENTS_TOKEN", "'"+token+"'"), 1, "events",
			[]string{"code 1008", "SNOWLUMA_MCP_EVENTS_TOKEN looks pasted with its wrapping", "in SNOWLUMA_MCP_EVENTS_TOKEN in this server's entry in the MCP host, delete the quotes"},
			with(readEnv(), "SNOWLUMA_MCP_EVENTS_URL", events, "SNOWLUMA_MCP_EVENTS_TOKEN", token)},
		{"https at the plain-HTTP node", with(readEnv(), "SNOWLUMA_MCP_ENDPOINT", "https"+strings.TrimPrefix(snow.URL(), "http")), 1, "endpoint",
			[]string{"speaks plain HTTP", "change the start of SNOWLUMA_MCP_ENDPOINT from https:// to http://"}, readEnv()},
		{"a web page answering 502", with(readEnv(), "SNOWLUMA_MCP_ENDPOINT", webPage(t, http.StatusBadGateway)), 1, "endpoint",
			[]string{"this port answers, but it is not SnowLuma's HTTP API node", "HTTP 502", "not another service's"}, readEnv()},
		{"a web page answering 404", with(readEnv(), "SNOWLUMA_MCP_ENDPOINT", webPage(t, http.StatusNotFound)), 1, "endpoint",
			[]string{"this port answers, but it is not SnowLuma's HTTP API node", "HTTP 404", "not another service's"}, readEnv()},
		{"an upload root under ~", with(write, "SNOWLUMA_MCP_UPLOAD_ROOT", "~/uploads"), 1, "upload root",
			[]string{"~ is not expanded", "as an absolute path", "the folder must also exist: create it if it does not"},
			with(write, "SNOWLUMA_MCP_UPLOAD_ROOT", uploads)},
		{"a mode written readonly", with(readEnv(), "SNOWLUMA_MCP_MODE", "readonly"), 2, "configuration",
			[]string{"SNOWLUMA_MCP_MODE must be docs, read or write (did you mean read?)"}, readEnv()},
		{"a mode written 只读", with(readEnv(), "SNOWLUMA_MCP_MODE", "只读"), 2, "configuration",
			[]string{"(did you mean read?)"}, readEnv()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := runCheck(t, tt.pasted)
			assert.Equal(t, tt.code, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
			assert.Regexp(t, `(?m)^fail  `+tt.item+` `, stdout)
			for _, s := range tt.says {
				assert.Contains(t, stdout, s)
			}
			for _, never := range []string{"traceparent", "subscribe", "different path"} {
				assert.NotContains(t, stdout, never, "every fix is for the person at the terminal")
			}
			code, stdout, _ = runCheck(t, tt.fixed)
			assert.Zero(t, code, "the fix applied passes: %s", stdout)
		})
	}
}

// TestCheckSpeaksTheTerminalsLanguage (issue 52 item 8): a zh locale
// (LC_ALL, then LC_MESSAGES, then LANG) gets Chinese in the WebUI's and
// the Chinese pages' words; --json keeps its English keys, names and
// statuses; any other locale gets English.
func TestCheckSpeaksTheTerminalsLanguage(t *testing.T) {
	t.Parallel()
	zh := with(readEnv(), "LANG", "zh_CN.UTF-8")
	code, stdout, _ := runCheck(t, zh)
	assert.Zero(t, code, stdout)
	for _, line := range []string{"通过  HTTP API 地址", "SnowLuma 的 HTTP API 节点在", "已登录 10001（SnowBot），在线", "所配置的模式需要的一切都正常"} {
		assert.Contains(t, stdout, line)
	}
	assert.NotContains(t, stdout, "everything the configured mode needs works")

	code, stdout, _ = runCheck(t, with(zh, "SNOWLUMA_MCP_TOKEN", `"`+token+`"`))
	assert.Equal(t, 1, code)
	for _, s := range []string{"失败  Token", "SnowLuma 拒绝了 Token", "删掉它两边的引号", "1 项失败：按现在的配置，服务器无法正常工作"} {
		assert.Contains(t, stdout, s)
	}
	code, stdout, _ = runCheck(t, with(zh, "SNOWLUMA_MCP_TOKEN", wrongToken))
	assert.Equal(t, 1, code)
	assert.Contains(t, stdout, "「HTTP API」节点的「编辑」→「鉴权」→「授权 Token」", "the WebUI's own words for where the Token is")

	code, stdout, _ = runCheck(t, with(zh, "SNOWLUMA_MCP_MODE", "只读"))
	assert.Equal(t, 2, code)
	assert.Contains(t, stdout, "SNOWLUMA_MCP_MODE 的值不被接受，服务器只提供文档工具，并说明问题所在。原因：只能是 docs、read 或 write（你是不是想写 read？）")
	assert.Contains(t, stdout, "在 MCP 宿主里本服务器的条目（env 部分）中改正 SNOWLUMA_MCP_MODE")

	_, stdout, _ = runCheck(t, with(zh, "SNOWLUMA_MCP_TOKEN", wrongToken), "--json")
	var r checkReport
	require.NoError(t, json.Unmarshal([]byte(stdout), &r), stdout)
	assert.Equal(t, "fail", r.statuses()["token"], "names and statuses stay English for scripts")
	assert.Equal(t, "ok", r.statuses()["endpoint"])

	for _, locale := range []map[string]string{
		{"LC_ALL": "C", "LANG": "zh_CN.UTF-8"},
		{"LC_MESSAGES": "en_US.UTF-8", "LANG": "zh_CN.UTF-8"},
	} {
		env := readEnv()
		for k, v := range locale {
			env[k] = v
		}
		_, stdout, _ = runCheck(t, env)
		assert.Contains(t, stdout, "everything the configured mode needs works", "%v", locale)
	}
	_, stdout, _ = runCheck(t, with(readEnv(), "LC_MESSAGES", "zh_TW.UTF-8", "LANG", "en_US.UTF-8"))
	assert.Contains(t, stdout, "所配置的模式需要的一切都正常")
}
