package config

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestLoadDefaults(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		env  map[string]string
		mode Mode
		warn bool
	}{
		{"serves docs without an endpoint", nil, ModeDocs, false},
		{"defaults to read with an endpoint", map[string]string{"SNOWLUMA_MCP_ENDPOINT": "http://127.0.0.1:3000/"}, ModeRead, false},
		{"reads the mode case-insensitively and trimmed", map[string]string{"SNOWLUMA_MCP_ENDPOINT": " http://127.0.0.1:3000 ", "SNOWLUMA_MCP_MODE": " WRITE "}, ModeWrite, false},
		{"falls back to docs when write has no endpoint", map[string]string{"SNOWLUMA_MCP_MODE": "write"}, ModeDocs, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg, warnings, err := Load(env(tt.env))
			require.NoError(t, err)
			assert.Equal(t, tt.mode, cfg.Mode)
			assert.Equal(t, tt.warn, len(warnings) > 0)
			assert.Equal(t, 30*time.Second, cfg.Timeout)
			assert.Equal(t, int64(1<<30), cfg.MaxFileBytes)
			assert.Equal(t, int64(4<<30), cfg.DownloadQuotaBytes)
			assert.Equal(t, 4, cfg.MaxStreams)
			assert.Equal(t, 524288, cfg.UploadChunkBytes)
			assert.Equal(t, 60*time.Second, cfg.StreamIdleTimeout)
			cache, err := os.UserCacheDir()
			require.NoError(t, err)
			assert.Equal(t, filepath.Join(cache, "snowluma-mcp", "downloads"), cfg.DownloadDir, "the platform's cache dir")
		})
	}
}

func TestLoadRefusesBadValues(t *testing.T) {
	t.Parallel()
	const token = "tok-VERY-SECRET"
	tests := []struct {
		name    string
		env     map[string]string
		mention string
	}{
		{"unknown mode", map[string]string{"SNOWLUMA_MCP_MODE": "admin"}, "SNOWLUMA_MCP_MODE"},
		{"endpoint without scheme", map[string]string{"SNOWLUMA_MCP_ENDPOINT": "127.0.0.1:3000"}, "SNOWLUMA_MCP_ENDPOINT"},
		{"endpoint with another scheme", map[string]string{"SNOWLUMA_MCP_ENDPOINT": "ftp://host/"}, "SNOWLUMA_MCP_ENDPOINT"},
		{"endpoint with credentials", map[string]string{"SNOWLUMA_MCP_ENDPOINT": "http://u:" + token + "@host/"}, "SNOWLUMA_MCP_ENDPOINT"},
		{"non-numeric timeout", map[string]string{"SNOWLUMA_MCP_TIMEOUT_MS": "soon"}, "SNOWLUMA_MCP_TIMEOUT_MS"},
		{"zero timeout", map[string]string{"SNOWLUMA_MCP_TIMEOUT_MS": "0"}, "SNOWLUMA_MCP_TIMEOUT_MS"},
		{"negative file limit", map[string]string{"SNOWLUMA_MCP_MAX_FILE_BYTES": "-1"}, "SNOWLUMA_MCP_MAX_FILE_BYTES"},
		{"chunk over SnowLuma's body cap", map[string]string{"SNOWLUMA_MCP_UPLOAD_CHUNK_BYTES": "2097152"}, "SNOWLUMA_MCP_UPLOAD_CHUNK_BYTES"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.env["SNOWLUMA_MCP_TOKEN"] = token
			_, _, err := Load(env(tt.env))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.mention)
			assert.NotContains(t, err.Error(), token)
		})
	}
}

// TestAMalformedOptionalSettingTurnsOffOnlyItsService: the events URL and
// the four folders are optional services; a malformed one is listed in
// Disabled and cleared, and the reading goes on (no error), so that the
// rest of the mode works.
func TestAMalformedOptionalSettingTurnsOffOnlyItsService(t *testing.T) {
	t.Parallel()
	const token = "tok-VERY-SECRET"
	tests := []struct {
		name    string
		env     map[string]string
		mention string
		cleared func(*Config) bool
	}{
		{"relative download dir", map[string]string{"SNOWLUMA_MCP_DOWNLOAD_DIR": "downloads"}, "SNOWLUMA_MCP_DOWNLOAD_DIR", nil},
		{"relative upload root", map[string]string{"SNOWLUMA_MCP_UPLOAD_ROOT": "./up"}, "SNOWLUMA_MCP_UPLOAD_ROOT", func(c *Config) bool { return c.UploadRoot == "" }},
		{"relative task dir", map[string]string{"SNOWLUMA_MCP_TASK_DIR": "tasks"}, "SNOWLUMA_MCP_TASK_DIR", func(c *Config) bool { return c.TaskDir == "" }},
		{"relative state dir", map[string]string{"SNOWLUMA_MCP_STATE_DIR": "state"}, "SNOWLUMA_MCP_STATE_DIR", nil},
		{"events over http", map[string]string{"SNOWLUMA_MCP_EVENTS_URL": "http://host/"}, "SNOWLUMA_MCP_EVENTS_URL", func(c *Config) bool { return c.EventsURL == nil }},
		{"events with a query", map[string]string{"SNOWLUMA_MCP_EVENTS_URL": "ws://host/?access_token=" + token}, "SNOWLUMA_MCP_EVENTS_URL", func(c *Config) bool { return c.EventsURL == nil }},
		{"events with a fragment", map[string]string{"SNOWLUMA_MCP_EVENTS_URL": "ws://host/#x"}, "SNOWLUMA_MCP_EVENTS_URL", func(c *Config) bool { return c.EventsURL == nil }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.env["SNOWLUMA_MCP_TOKEN"] = token
			tt.env["SNOWLUMA_MCP_ENDPOINT"] = "http://127.0.0.1:3000/"
			tt.env["SNOWLUMA_MCP_MODE"] = "write"
			cfg, _, err := Load(env(tt.env))
			require.NoError(t, err)
			assert.Equal(t, ModeWrite, cfg.Mode, "the rest of the mode works")
			require.Len(t, cfg.Disabled, 1)
			assert.Equal(t, tt.mention, cfg.Disabled[0].Var)
			assert.NotContains(t, cfg.Disabled[0].Error(), token)
			if tt.cleared != nil {
				assert.True(t, tt.cleared(cfg), "the service is off")
			}
		})
	}
}

// TestAMistakeIsNamedWithItsFix: the forms people copy from SnowLuma's
// WebUI, and a mistyped mode, are answered with what to write instead.
func TestAMistakeIsNamedWithItsFix(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, variable, value, says string
	}{
		{"an endpoint without a scheme", "SNOWLUMA_MCP_ENDPOINT", "localhost:3000", "has no scheme; write http://localhost:3000/"},
		{"the WebUI's node address", "SNOWLUMA_MCP_ENDPOINT", "0.0.0.0:3000/", "has no scheme, and it names 0.0.0.0, the address SnowLuma's WebUI shows for a node that listens on every address, which a client cannot connect to on every system (Windows refuses it); write http://127.0.0.1:3000/"},
		{"a listen-everywhere host", "SNOWLUMA_MCP_ENDPOINT", "http://0.0.0.0:3000/", "write http://127.0.0.1:3000/"},
		{"the IPv6 listen-everywhere host", "SNOWLUMA_MCP_ENDPOINT", "http://[::]:3000/", "write http://[::1]:3000/"},
		{"an endpoint over a WebSocket scheme", "SNOWLUMA_MCP_ENDPOINT", "ws://127.0.0.1:3000/", "write http://127.0.0.1:3000/"},
		{"events without a scheme", "SNOWLUMA_MCP_EVENTS_URL", "0.0.0.0:3001", "and it names 0.0.0.0, the address SnowLuma's WebUI shows for a node that listens on every address, which a client cannot connect to on every system (Windows refuses it); write ws://127.0.0.1:3001/"},
		{"events over http", "SNOWLUMA_MCP_EVENTS_URL", "http://127.0.0.1:3001/", "write ws://127.0.0.1:3001/"},
		{"events over https", "SNOWLUMA_MCP_EVENTS_URL", "https://luma.example/ev?access_token=x", "write wss://luma.example/ev"},
		{"a swapped mode", "SNOWLUMA_MCP_MODE", "wirte", "did you mean write?"},
		{"a short mode", "SNOWLUMA_MCP_MODE", "red", "did you mean read?"},
		{"readonly for read", "SNOWLUMA_MCP_MODE", "readonly", "did you mean read?"},
		{"read-only for read", "SNOWLUMA_MCP_MODE", "Read-Only", "did you mean read?"},
		{"只读 for read", "SNOWLUMA_MCP_MODE", "只读", "did you mean read?"},
		{"读写 for write", "SNOWLUMA_MCP_MODE", "读写", "did you mean write?"},
		{"文档 for docs", "SNOWLUMA_MCP_MODE", "文档", "did you mean docs?"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg, _, err := Load(env(map[string]string{tt.variable: tt.value}))
			var said string
			if err != nil {
				said = err.Error()
			} else {
				require.Len(t, cfg.Disabled, 1)
				said = cfg.Disabled[0].Error()
			}
			assert.Contains(t, said, tt.variable)
			assert.Contains(t, said, tt.says)
			assert.NotContains(t, said, "access_token", "a query may carry a token")
		})
	}
}

// TestTheNodeCardsAddressIsFixedInOneRound: the address as SnowLuma's
// node card shows it is answered with the whole corrected form, which,
// written as said, is accepted: one round of check, not one per mistake.
func TestTheNodeCardsAddressIsFixedInOneRound(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ variable, card string }{
		{"SNOWLUMA_MCP_ENDPOINT", "0.0.0.0:3000/"},
		{"SNOWLUMA_MCP_ENDPOINT", "[::]:3000/"},
		{"SNOWLUMA_MCP_EVENTS_URL", "0.0.0.0:3001/"},
		{"SNOWLUMA_MCP_ENDPOINT", "localhost:3000"},
	} {
		t.Run(tt.variable+"="+tt.card, func(t *testing.T) {
			t.Parallel()
			both := urlProblem(tt.card, schemesOf(tt.variable))
			said := both.EN
			assert.Contains(t, both.ZH, "请写成 ", "the Chinese cause gives the form to write too")
			_, fix, found := strings.Cut(said, "; write ")
			require.True(t, found, "no corrected form in %q", said)
			assert.Empty(t, urlProblem(fix, schemesOf(tt.variable)).EN, "the corrected form %q is refused", fix)
			assert.Equal(t, 1, strings.Count(said, "://"), "one form, said once: %q", said)
		})
	}
}

// schemesOf are the schemes Load accepts for variable.
func schemesOf(variable string) []string {
	if variable == "SNOWLUMA_MCP_EVENTS_URL" {
		return []string{"ws", "wss"}
	}
	return []string{"http", "https"}
}

func TestLoadReadsEveryValue(t *testing.T) {
	t.Parallel()
	cfg, _, err := Load(env(map[string]string{
		"SNOWLUMA_MCP_ENDPOINT": "https://luma.example:3000/onebot", "SNOWLUMA_MCP_TOKEN": " t ",
		"SNOWLUMA_MCP_TIMEOUT_MS": "1500", "SNOWLUMA_MCP_DOWNLOAD_DIR": hostAbs("/d/"), "SNOWLUMA_MCP_UPLOAD_ROOT": hostAbs("/u"),
		"SNOWLUMA_MCP_MAX_FILE_BYTES": "10", "SNOWLUMA_MCP_DOWNLOAD_QUOTA_BYTES": "20", "SNOWLUMA_MCP_MAX_STREAMS": "2",
		"SNOWLUMA_MCP_STREAM_CONNECT_TIMEOUT_MS": "100", "SNOWLUMA_MCP_STREAM_IDLE_TIMEOUT_MS": "200",
		"SNOWLUMA_MCP_UPLOAD_CHUNK_BYTES": "1024", "SNOWLUMA_MCP_EVENTS_URL": "WSS://luma.example/event", "SNOWLUMA_MCP_TASK_DIR": hostAbs("/t"),
	}))
	require.NoError(t, err)
	assert.Equal(t, "https://luma.example:3000/onebot", cfg.Endpoint.String())
	assert.Equal(t, "t", cfg.Token)
	assert.Equal(t, 1500*time.Millisecond, cfg.Timeout)
	assert.Equal(t, hostAbs("/d"), cfg.DownloadDir)
	assert.Equal(t, hostAbs("/u"), cfg.UploadRoot)
	assert.Equal(t, int64(10), cfg.MaxFileBytes)
	assert.Equal(t, int64(20), cfg.DownloadQuotaBytes)
	assert.Equal(t, 2, cfg.MaxStreams)
	assert.Equal(t, 100*time.Millisecond, cfg.StreamConnectTimeout)
	assert.Equal(t, 200*time.Millisecond, cfg.StreamIdleTimeout)
	assert.Equal(t, 1024, cfg.UploadChunkBytes)
	assert.Equal(t, "wss://luma.example/event", cfg.EventsURL.String())
	assert.Equal(t, hostAbs("/t"), cfg.TaskDir)
}

func TestModeAllows(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		mode Mode
		need Mode
		want bool
	}{
		{"docs offers docs tools", ModeDocs, ModeDocs, true},
		{"docs refuses read tools", ModeDocs, ModeRead, false},
		{"read offers docs tools", ModeRead, ModeDocs, true},
		{"read offers read tools", ModeRead, ModeRead, true},
		{"read refuses write tools", ModeRead, ModeWrite, false},
		{"write offers everything", ModeWrite, ModeWrite, true},
		{"an unknown mode offers nothing", Mode("bogus"), ModeDocs, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, tt.mode.Allows(tt.need))
		})
	}
}

func TestLoadWarnsAboutSettingsTheModeIgnores(t *testing.T) {
	t.Parallel()
	endpoint, events, tasks := "http://127.0.0.1:3000/", "ws://127.0.0.1:3001/", hostAbs("/var/lib/snowluma-tasks")
	tests := []struct {
		name string
		env  map[string]string
		want []string
	}{
		{"events URL in docs mode", map[string]string{"SNOWLUMA_MCP_EVENTS_URL": events},
			[]string{"SNOWLUMA_MCP_EVENTS_URL is ignored: live events need read or write mode (with SNOWLUMA_MCP_ENDPOINT), and this server runs in docs mode"}},
		{"task dir in docs mode", map[string]string{"SNOWLUMA_MCP_TASK_DIR": tasks},
			[]string{"SNOWLUMA_MCP_TASK_DIR is ignored: background tasks need write mode, and this server runs in docs mode"}},
		{"task dir in read mode", map[string]string{"SNOWLUMA_MCP_ENDPOINT": endpoint, "SNOWLUMA_MCP_TASK_DIR": tasks},
			[]string{"SNOWLUMA_MCP_TASK_DIR is ignored: background tasks need write mode, and this server runs in read mode"}},
		{"both after falling back to docs", map[string]string{"SNOWLUMA_MCP_MODE": "write", "SNOWLUMA_MCP_EVENTS_URL": events, "SNOWLUMA_MCP_TASK_DIR": tasks},
			[]string{
				"SNOWLUMA_MCP_EVENTS_URL is ignored: live events need read or write mode (with SNOWLUMA_MCP_ENDPOINT), and this server runs in docs mode",
				"SNOWLUMA_MCP_TASK_DIR is ignored: background tasks need write mode, and this server runs in docs mode"}},
		{"events URL in read mode is used", map[string]string{"SNOWLUMA_MCP_ENDPOINT": endpoint, "SNOWLUMA_MCP_EVENTS_URL": events}, nil},
		{"both in write mode are used", map[string]string{"SNOWLUMA_MCP_ENDPOINT": endpoint, "SNOWLUMA_MCP_MODE": "write",
			"SNOWLUMA_MCP_EVENTS_URL": events, "SNOWLUMA_MCP_TASK_DIR": tasks}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, warnings, err := Load(env(tt.env))
			require.NoError(t, err)
			var said []string
			for _, w := range warnings {
				said = append(said, w.EN)
				assert.NotEmpty(t, w.ZH, "each note is written in Chinese too: %s", w.EN)
			}
			assert.Equal(t, tt.want, said)
		})
	}
}

// hostAbs spells a Unix-style absolute path as an absolute path of this
// platform: on Windows a path needs a drive (C:\d); "\d" alone is
// relative to the current drive.
func hostAbs(p string) string {
	if runtime.GOOS == "windows" {
		return `C:` + filepath.FromSlash(p)
	}
	return p
}

func TestTheStateDirectoryIsOneTheSystemDoesNotPurge(t *testing.T) {
	t.Parallel()
	// abs spells a path as absolute on this platform (a drive on Windows).
	abs := func(p string) string {
		if runtime.GOOS == "windows" {
			return `C:` + filepath.FromSlash(p)
		}
		return p
	}
	home := func() (string, error) { return abs("/home/me"), nil }
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	tests := []struct {
		name, goos string
		vars       map[string]string
		want       string
	}{
		{"linux with XDG_STATE_HOME", "linux", map[string]string{"XDG_STATE_HOME": abs("/x/state")}, "/x/state/snowluma-mcp"},
		{"linux without it", "linux", nil, "/home/me/.local/state/snowluma-mcp"},
		{"a relative XDG_STATE_HOME is ignored", "linux", map[string]string{"XDG_STATE_HOME": "state"}, "/home/me/.local/state/snowluma-mcp"},
		{"macOS", "darwin", nil, "/home/me/Library/Application Support/snowluma-mcp"},
		{"windows", "windows", map[string]string{"LOCALAPPDATA": abs("/Users/me/AppData/Local")}, "/Users/me/AppData/Local/snowluma-mcp"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, filepath.Clean(abs(tt.want)), defaultStateDir(tt.goos, env(tt.vars), home))
		})
	}
}
