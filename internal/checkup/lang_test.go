package checkup

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/lang"
)

// TestEveryLineIsChineseInAChineseTerminal: whatever the setup, each
// detail and fix check writes in a Chinese terminal is Chinese (a cause
// in SnowLuma's, the network's or the file system's English may follow in
// it), while the items' names and statuses stay the English ones scripts
// read; the printed report names the items in Chinese too.
func TestEveryLineIsChineseInAChineseTerminal(t *testing.T) {
	t.Parallel()
	working := snowluma(t, map[string]string{
		"get_login_info":   `{"user_id":10001,"nickname":"SnowBot"}`,
		"get_status":       `{"online":true,"good":true}`,
		"get_version_info": `{"app_name":"SnowLuma","app_version":"1.12.0"}`,
	})
	refusing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write([]byte(`{"status":"failed","retcode":1401,"data":null,"wording":"unauthorized"}`))
	}))
	t.Cleanup(refusing.Close)
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusBadGateway) }))
	t.Cleanup(page.Close)
	dir := t.TempDir()
	// Folders others can enter: one empty (the server makes it private),
	// one holding a file (refused).
	open := filepath.Join(dir, "open")
	require.NoError(t, os.Mkdir(open, 0o755))
	require.NoError(t, os.Chmod(open, 0o755))
	full := filepath.Join(dir, "full")
	require.NoError(t, os.Mkdir(full, 0o755))
	require.NoError(t, os.Chmod(full, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(full, "f"), nil, 0o600))
	aFile := filepath.Join(dir, "a-file")
	require.NoError(t, os.WriteFile(aFile, nil, 0o600))
	tests := []struct {
		name string
		env  map[string]string
	}{
		{"docs mode", map[string]string{}},
		{"write without an endpoint", map[string]string{"SNOWLUMA_MCP_MODE": "write"}},
		{"a misspelt mode", map[string]string{"SNOWLUMA_MCP_MODE": "只读", "SNOWLUMA_MCP_ENDPOINT": working}},
		{"a sound write setup against another release", map[string]string{"SNOWLUMA_MCP_MODE": "write", "SNOWLUMA_MCP_ENDPOINT": working,
			"SNOWLUMA_MCP_TASK_DIR": filepath.Join(dir, "tasks"), "SNOWLUMA_MCP_STATE_DIR": filepath.Join(dir, "state"), "SNOWLUMA_MCP_TRUSTED_USERS": "10002"}},
		{"folders that cannot be used", map[string]string{"SNOWLUMA_MCP_MODE": "write", "SNOWLUMA_MCP_ENDPOINT": working,
			"SNOWLUMA_MCP_UPLOAD_ROOT": filepath.Join(dir, "missing"), "SNOWLUMA_MCP_TASK_DIR": "~/tasks", "SNOWLUMA_MCP_SEND_PACE": "off",
			"SNOWLUMA_MCP_STATE_DIR": filepath.Join(dir, "state2")}},
		{"misspelt variables", map[string]string{"SNOWLUMA_MCP_ENDPOINT": working, "SNOWLUMA_MCP_TRUSTED_USER": "1", "SNOWLUMA_MCP_LOCKDOWN": "1", "SNOWLUMA_MCP_COLOUR": "1"}},
		{"a refused token pasted in quotes", map[string]string{"SNOWLUMA_MCP_ENDPOINT": refusing.URL + "/", "SNOWLUMA_MCP_TOKEN": `"abc"`}},
		{"a refused token", map[string]string{"SNOWLUMA_MCP_ENDPOINT": refusing.URL + "/", "SNOWLUMA_MCP_TOKEN": "abc", "SNOWLUMA_MCP_EVENTS_URL": "ws://127.0.0.1:9/"}},
		{"nothing listening", map[string]string{"SNOWLUMA_MCP_ENDPOINT": "http://127.0.0.1:9/", "SNOWLUMA_MCP_EVENTS_URL": "ws://127.0.0.1:9/"}},
		{"https at a plain-HTTP node", map[string]string{"SNOWLUMA_MCP_ENDPOINT": "https" + strings.TrimPrefix(working, "http")}},
		{"another service's page", map[string]string{"SNOWLUMA_MCP_ENDPOINT": page.URL + "/"}},
		{"events at the HTTP node", map[string]string{"SNOWLUMA_MCP_ENDPOINT": working, "SNOWLUMA_MCP_EVENTS_URL": "ws" + strings.TrimPrefix(working, "http")}},
		{"an events URL over http", map[string]string{"SNOWLUMA_MCP_ENDPOINT": working, "SNOWLUMA_MCP_EVENTS_URL": "http://127.0.0.1:3001/"}},
		{"an endpoint that is no URL", map[string]string{"SNOWLUMA_MCP_ENDPOINT": "localhost"}},
		{"a WebUI card's address", map[string]string{"SNOWLUMA_MCP_ENDPOINT": "0.0.0.0:3000/"}},
		{"an endpoint with credentials", map[string]string{"SNOWLUMA_MCP_ENDPOINT": "http://me:pw@127.0.0.1:3000/"}},
		{"an events URL with a query", map[string]string{"SNOWLUMA_MCP_ENDPOINT": working, "SNOWLUMA_MCP_EVENTS_URL": "ws://127.0.0.1:3001/?access_token=x"}},
		{"a token with a line break", map[string]string{"SNOWLUMA_MCP_ENDPOINT": working, "SNOWLUMA_MCP_TOKEN": "abc\ndef"}},
		{"an events token with a line break", map[string]string{"SNOWLUMA_MCP_ENDPOINT": working, "SNOWLUMA_MCP_EVENTS_URL": "ws://127.0.0.1:9/", "SNOWLUMA_MCP_EVENTS_TOKEN": "abc\ndef"}},
		{"an events token with a line break and no events URL", map[string]string{"SNOWLUMA_MCP_ENDPOINT": working, "SNOWLUMA_MCP_EVENTS_TOKEN": "abc\ndef"}},
		{"a limit that is no number", map[string]string{"SNOWLUMA_MCP_ENDPOINT": working, "SNOWLUMA_MCP_TIMEOUT_MS": "30s"}},
		{"a chunk over SnowLuma's cap", map[string]string{"SNOWLUMA_MCP_ENDPOINT": working, "SNOWLUMA_MCP_UPLOAD_CHUNK_BYTES": "2000000"}},
		{"a send wait out of range", map[string]string{"SNOWLUMA_MCP_ENDPOINT": working, "SNOWLUMA_MCP_SEND_WAIT_MS": "-1"}},
		{"a malformed send pace", map[string]string{"SNOWLUMA_MCP_ENDPOINT": working, "SNOWLUMA_MCP_SEND_PACE": "target=3/1m"}},
		{"a list that is not QQ numbers", map[string]string{"SNOWLUMA_MCP_ENDPOINT": working, "SNOWLUMA_MCP_TRUSTED_USERS": "alice,bob"}},
		{"a list of separators only", map[string]string{"SNOWLUMA_MCP_ENDPOINT": working, "SNOWLUMA_MCP_TRUSTED_USERS": " , "}},
		{"relative folders", map[string]string{"SNOWLUMA_MCP_MODE": "write", "SNOWLUMA_MCP_ENDPOINT": working, "SNOWLUMA_MCP_SEND_PACE": "off",
			"SNOWLUMA_MCP_UPLOAD_ROOT": "uploads", "SNOWLUMA_MCP_DOWNLOAD_DIR": "downloads", "SNOWLUMA_MCP_TASK_DIR": "tasks", "SNOWLUMA_MCP_STATE_DIR": "state"}},
		{"folders that are files or under one", map[string]string{"SNOWLUMA_MCP_MODE": "write", "SNOWLUMA_MCP_ENDPOINT": working,
			"SNOWLUMA_MCP_UPLOAD_ROOT": aFile, "SNOWLUMA_MCP_DOWNLOAD_DIR": filepath.Join(aFile, "downloads"), "SNOWLUMA_MCP_TASK_DIR": aFile,
			"SNOWLUMA_MCP_STATE_DIR": filepath.Join(aFile, "state")}},
		{"folders others can enter", map[string]string{"SNOWLUMA_MCP_MODE": "write", "SNOWLUMA_MCP_ENDPOINT": working,
			"SNOWLUMA_MCP_TASK_DIR": open, "SNOWLUMA_MCP_STATE_DIR": full}},
		{"settings the mode leaves unused", map[string]string{"SNOWLUMA_MCP_EVENTS_URL": "ws://127.0.0.1:9/", "SNOWLUMA_MCP_TASK_DIR": filepath.Join(dir, "unused")}},
	}
	han := func(s string) bool {
		return strings.ContainsFunc(s, func(r rune) bool { return unicode.Is(unicode.Han, r) })
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var environ []string
			for k, v := range tt.env {
				environ = append(environ, k+"="+v)
			}
			r := Run(context.Background(), Deps{Getenv: func(k string) string { return tt.env[k] }, Environ: environ, CatalogVersion: catalogVersion, Lang: lang.Chinese})
			require.NotEmpty(t, r.Items)
			for _, it := range r.Items {
				assert.False(t, han(it.Name), "the name stays English: %q", it.Name)
				if !filepath.IsAbs(it.Detail) { // a folder in use is its path alone
					assert.True(t, han(it.Detail), "%s: %q", it.Name, it.Detail)
				}
				if it.Fix != "" {
					assert.True(t, han(it.Fix), "%s: %q", it.Name, it.Fix)
				}
				// The cause after 原因： is Chinese too, from whatever
				// package below check found it (a variable's name or the
				// system's own words may sit inside it).
				if _, cause, ok := strings.Cut(it.Detail, "原因："); ok {
					assert.True(t, han(cause), "%s: the cause is English: %q", it.Name, cause)
				}
			}
			var out strings.Builder
			r.Write(&out)
			for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
				assert.True(t, han(line), "a printed line in English: %q", line)
			}
		})
	}
}

// TestTheChineseReportLinesUp: a Chinese character takes two columns, so
// the details start in one column whatever the names.
func TestTheChineseReportLinesUp(t *testing.T) {
	t.Parallel()
	r := &Report{lang: lang.Chinese}
	r.add(Item{Name: "token", Status: OK, Detail: "a"})
	r.add(Item{Name: "upload root", Status: Fail, Detail: "b", Fix: "c"})
	r.add(Item{Name: "endpoint", Status: Skip, Detail: "d"})
	r.finish()
	var out strings.Builder
	r.Write(&out)
	assert.Equal(t, "通过  Token          a\n失败  上传根目录     b\n                     → c\n跳过  HTTP API 地址  d\n1 项失败：按现在的配置，服务器无法正常工作\n", out.String())
}
