package setup

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/access/accesstest"
	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/task"
)

// TestDecideGivesTheServerAndCheckOneVerdict: for each setting problem the
// finding is the same whether the server (fix) or check (no fix) reads the
// settings, except that only the server fixes a fixable folder, and check
// then says it will; check changes nothing on disk.
func TestDecideGivesTheServerAndCheckOneVerdict(t *testing.T) {
	t.Parallel()
	write := map[string]string{"SNOWLUMA_MCP_MODE": "write", "SNOWLUMA_MCP_ENDPOINT": "http://127.0.0.1:3000/"}
	exposed := func(t *testing.T, files ...string) string {
		dir := filepath.Join(t.TempDir(), "f")
		require.NoError(t, os.Mkdir(dir, 0o700))
		for _, f := range files {
			require.NoError(t, os.WriteFile(filepath.Join(dir, f), nil, 0o600))
		}
		accesstest.ExposeDir(t, dir)
		return dir
	}
	tests := []struct {
		name     string
		env      func(t *testing.T) map[string]string
		variable string
		server   config.Effect // what the server's reading decides
		check    config.Effect // what check's reading decides
		mode     config.Mode
	}{
		{"a misspelt mode explains", func(*testing.T) map[string]string { return with(write, "SNOWLUMA_MCP_MODE", "wirte") },
			"SNOWLUMA_MCP_MODE", config.Explain, config.Explain, config.ModeDocs},
		{"write without an endpoint falls back", func(*testing.T) map[string]string { return map[string]string{"SNOWLUMA_MCP_MODE": "write"} },
			"SNOWLUMA_MCP_ENDPOINT", config.Fallback, config.Fallback, config.ModeDocs},
		{"an http events URL turns events off", func(*testing.T) map[string]string {
			return with(write, "SNOWLUMA_MCP_EVENTS_URL", "http://127.0.0.1:3001/")
		}, "SNOWLUMA_MCP_EVENTS_URL", config.Off, config.Off, config.ModeWrite},
		{"an empty exposed task folder is fixed by the server only", func(t *testing.T) map[string]string {
			return with(write, "SNOWLUMA_MCP_TASK_DIR", exposed(t))
		}, "SNOWLUMA_MCP_TASK_DIR", config.Fixed, config.Noted, config.ModeWrite},
		{"an exposed task folder holding a file turns tasks off", func(t *testing.T) map[string]string {
			return with(write, "SNOWLUMA_MCP_TASK_DIR", exposed(t, "x"))
		}, "SNOWLUMA_MCP_TASK_DIR", config.Off, config.Off, config.ModeWrite},
		{"an exposed state directory holding a file turns sends off", func(t *testing.T) map[string]string {
			return with(write, "SNOWLUMA_MCP_STATE_DIR", exposed(t, "budget-1.json"))
		}, "SNOWLUMA_MCP_STATE_DIR", config.Off, config.Off, config.ModeWrite},
		{"a relative state directory turns sends off", func(*testing.T) map[string]string {
			return with(write, "SNOWLUMA_MCP_STATE_DIR", "state")
		}, "SNOWLUMA_MCP_STATE_DIR", config.Off, config.Off, config.ModeWrite},
		{"a budget state dated in 9999 is noted: the first send sets it aside", func(t *testing.T) map[string]string {
			dir := filepath.Join(t.TempDir(), "state")
			require.NoError(t, budgetPurpose.Dir(dir), "made private as the store makes it")
			require.NoError(t, os.WriteFile(filepath.Join(dir, "budget-10001.json"), []byte(`{"v":1,"account":{"tat":"9999-12-31T23:59:59Z"}}`), 0o600))
			return with(write, "SNOWLUMA_MCP_STATE_DIR", dir)
		}, "SNOWLUMA_MCP_STATE_DIR", config.Noted, config.Noted, config.ModeWrite},
		{"a folder setting the mode does not use is only noted", func(*testing.T) map[string]string {
			return map[string]string{"SNOWLUMA_MCP_ENDPOINT": "http://127.0.0.1:3000/", "SNOWLUMA_MCP_TASK_DIR": "tasks"}
		}, "SNOWLUMA_MCP_TASK_DIR", config.Noted, config.Noted, config.ModeRead},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			checkEnv, serverEnv := tt.env(t), tt.env(t)
			checked := Decide(Env{Getenv: getenv(checkEnv)}, false)
			assert.Equal(t, tt.check, effectOf(checked, tt.variable), "check: %+v", checked.Findings)
			served := Decide(Env{Getenv: getenv(serverEnv)}, true)
			assert.Equal(t, tt.server, effectOf(served, tt.variable), "server: %+v", served.Findings)
			assert.Equal(t, tt.mode, served.Mode)
			assert.Equal(t, tt.check.Less(), tt.server.Less(), "check fails exactly when the server runs with less")
			if tt.server == config.Fixed {
				accesstest.AssertPrivateDir(t, serverEnv[tt.variable])
				accesstest.AssertExposedDir(t, checkEnv[tt.variable])
			}
		})
	}
}

// TestAStrayCloseToASettingLeavesItsFeatureOff: the feature the name
// meant is off, so the finding is Off (check fails); a name close to
// none is only noted.
func TestAStrayCloseToASettingLeavesItsFeatureOff(t *testing.T) {
	t.Parallel()
	cfg := Decide(Env{Getenv: getenv(nil), Environ: []string{"SNOWLUMA_MCP_TRUSTED_USER=1", "SNOWLUMA_MCP_COLOUR_SCHEME=dark"}}, true)
	require.Len(t, cfg.Findings, 2)
	assert.Equal(t, config.Off, cfg.Findings[0].Effect)
	assert.Contains(t, cfg.Findings[0].Agent, "likely meant SNOWLUMA_MCP_TRUSTED_USERS")
	assert.Equal(t, config.Noted, cfg.Findings[1].Effect)
}

func effectOf(cfg *config.Config, variable string) config.Effect {
	for _, f := range cfg.Findings {
		if f.Var == variable {
			return f.Effect
		}
	}
	return ""
}

func getenv(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func with(m map[string]string, kv ...string) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i]] = kv[i+1]
	}
	return out
}

// TestTheEventsTokenIsNotPartOfTheTaskScope: a task directory is bound
// to the mode, endpoint and HTTP token; setting or changing the WS node's
// own token leaves it bound, where a new HTTP token does not.
func TestTheEventsTokenIsNotPartOfTheTaskScope(t *testing.T) {
	t.Parallel()
	base := map[string]string{"SNOWLUMA_MCP_MODE": "write", "SNOWLUMA_MCP_ENDPOINT": "http://127.0.0.1:3000/", "SNOWLUMA_MCP_TOKEN": "httpTOK"}
	scope := func(env map[string]string) task.Scope {
		cfg, _, err := config.Load(getenv(env))
		require.NoError(t, err)
		return TaskScope(cfg)
	}
	assert.Equal(t, scope(base), scope(with(base, "SNOWLUMA_MCP_EVENTS_TOKEN", "wsTOK")))
	assert.Equal(t, scope(with(base, "SNOWLUMA_MCP_EVENTS_TOKEN", "wsTOK")), scope(with(base, "SNOWLUMA_MCP_EVENTS_TOKEN", "otherWS")))
	assert.NotEqual(t, scope(base), scope(with(base, "SNOWLUMA_MCP_TOKEN", "otherHTTP")))
}
