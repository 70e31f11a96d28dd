package e2e

// get_runtime_info (RT-1, RT-2): the overview in docs and execution modes,
// the connection check through the read gate with each check's own
// verdict, and never the endpoint or token.

import (
	"encoding/json"
	"net/url"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type runtimeInfo struct {
	Mode              string          `json:"mode"`
	ExecutionEnabled  bool            `json:"execution_enabled"`
	WriteEnabled      bool            `json:"write_enabled"`
	ServerSupport     string          `json:"server_support"`
	Transport         json.RawMessage `json:"transport"`
	ConnectionChecked bool            `json:"connection_checked"`
	Catalog           struct {
		Version     string `json:"version"`
		ActionCount int    `json:"action_count"`
	} `json:"catalog"`
	Checks map[string]struct {
		Result      json.RawMessage `json:"result"`
		Diagnostics diagnostics     `json:"diagnostics"`
	} `json:"checks"`
}

// assertNoEndpoint checks that nothing in text names the fake's address.
func assertNoEndpoint(t *testing.T, text string) {
	t.Helper()
	u, err := url.Parse(snow.URL())
	require.NoError(t, err)
	assert.NotContains(t, text, u.Host, "the endpoint leaked")
	assertNoSecrets(t, "runtime info", text)
}

func TestRuntimeInfoInDocsMode(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		s := start(t, version, docsEnv())
		r := s.call(t, "get_runtime_info", nil, nil)
		require.False(t, r.IsError, r.Text)
		var info runtimeInfo
		r.decodeResult(t, &info)
		assert.Equal(t, "docs", info.Mode)
		assert.False(t, info.ExecutionEnabled)
		assert.False(t, info.WriteEnabled)
		assert.Equal(t, "unknown", info.ServerSupport)
		assert.Equal(t, "null", string(info.Transport), "docs mode has transport null")
		assert.False(t, info.ConnectionChecked)
		assert.Equal(t, "1.11.1", info.Catalog.Version)
		assert.Equal(t, catalogSize, info.Catalog.ActionCount)

		t.Run("check_connection needs an execution mode", func(t *testing.T) {
			r := s.call(t, "get_runtime_info", map[string]any{"check_connection": true}, nil)
			assert.True(t, r.IsError)
			assert.Equal(t, "mode_denied", r.Diag.Kind)
		})
	})
}

func TestRuntimeInfoInExecutionModes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		env       func() map[string]string
		mode      string
		writeable bool
	}{
		{"read mode", readEnv, "read", false},
		{"write mode", writeEnv, "write", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				s := start(t, version, with(tt.env(), "SNOWLUMA_MCP_TIMEOUT_MS", "12345"))
				r := s.call(t, "get_runtime_info", nil, nil)
				require.False(t, r.IsError, r.Text)
				var info runtimeInfo
				r.decodeResult(t, &info)
				assert.Equal(t, tt.mode, info.Mode)
				assert.True(t, info.ExecutionEnabled)
				assert.Equal(t, tt.writeable, info.WriteEnabled)
				assert.False(t, info.ConnectionChecked)
				assert.Empty(t, info.Checks)
				var tr struct {
					TimeoutMS int `json:"timeout_ms"`
				}
				require.NoError(t, json.Unmarshal(info.Transport, &tr))
				assert.Equal(t, 12345, tr.TimeoutMS, "the effective timeout is shown")
				assertNoEndpoint(t, string(r.Result))
				assertNoEndpoint(t, r.Text)
			})
		})
	}
}

func TestRuntimeInfoChecksTheConnection(t *testing.T) {
	t.Parallel()
	checks := []string{"get_login_info", "get_status", "get_version_info"}
	tests := []struct {
		name        string
		token       string
		wantOutcome string
		wantKind    string
	}{
		{"all three checks succeed with the right token", token, "success", ""},
		{"all three checks fail visibly with a wrong token", wrongToken, "failed", "upstream_auth"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				s := start(t, version, with(readEnv(), "SNOWLUMA_MCP_TOKEN", tt.token))
				traceID, tp := newTrace(t)
				r := s.call(t, "get_runtime_info", map[string]any{"check_connection": true}, mcp.Meta{"traceparent": tp})
				require.False(t, r.IsError, "partial or total failure stays inside the result: %s", r.Text)
				assert.Equal(t, tt.wantOutcome, r.Diag.Outcome, "the overall verdict follows the checks")
				assert.Equal(t, tt.wantKind, r.Diag.Kind, "checks failing alike give their kind")
				var info runtimeInfo
				r.decodeResult(t, &info)
				assert.True(t, info.ConnectionChecked)
				require.Len(t, info.Checks, 3)
				for _, name := range checks {
					c, ok := info.Checks[name]
					require.True(t, ok, "check %s is missing", name)
					assert.Equal(t, tt.wantOutcome, c.Diagnostics.Outcome, name)
					assert.Equal(t, tt.wantKind, c.Diagnostics.Kind, name)
					if tt.wantOutcome == "success" {
						var env struct {
							Status string `json:"status"`
						}
						require.NoError(t, json.Unmarshal(c.Result, &env))
						assert.Equal(t, "ok", env.Status, name)
					} else {
						assert.Equal(t, "null", string(c.Result), name)
						assert.NotEmpty(t, c.Diagnostics.Message, name)
					}
				}
				var sent []string
				for _, q := range snow.ByTrace(traceID) {
					sent = append(sent, q.BodyAction()) // a 401 is answered before parsing
					assertBearer(t, q.Header, tt.token)
				}
				assert.Equal(t, checks, sent, "one request per check, in order, carrying the call's trace")
				assertNoEndpoint(t, string(r.Result))
				assertNoEndpoint(t, r.Text)
			})
		})
	}
}
