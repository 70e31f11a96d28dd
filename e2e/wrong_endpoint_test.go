package e2e

// Endpoints that reach a server, but the wrong one (issue 30 §3): each
// answer SnowLuma 1.11.1 gives to a wrong port or path is reported as
// wrong_endpoint with words about that setting, SnowLuma ran nothing, and
// an events URL on the HTTP adapter's port is told apart from a wrong path.

import (
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

// TestAnEndpointOnTheWrongPortOrPathIsNamed: the WebSocket adapter's port
// answers 426, a path outside SnowLuma's configured one 404; both are
// wrong_endpoint, worded for the port and the path, and a write there is
// failed, not unknown.
func TestAnEndpointOnTheWrongPortOrPathIsNamed(t *testing.T) {
	t.Parallel()
	onebot := fake.New(fake.Options{Token: token, Path: "/onebot"})
	t.Cleanup(onebot.Close)
	root := strings.TrimSuffix(onebot.URL(), "onebot")
	sendParams := map[string]any{"group_id": fake.GroupID, "message": "never sent"}
	tests := []struct {
		name     string
		endpoint string
		says     []string
	}{
		{"the WebSocket adapter's port", snow.WebSocketHTTPURL(), []string{"HTTP 426", "WebSocket adapter", "3000"}},
		{"a path SnowLuma is not configured with", root, []string{"HTTP 404", "different path", `"/"`, "路径"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				s := start(t, version, with(writeEnv(), "SNOWLUMA_MCP_ENDPOINT", tt.endpoint))
				for _, c := range []struct {
					tool, action string
					params       map[string]any
				}{{"query_action", "get_status", map[string]any{}}, {"invoke_action", "send_group_msg", sendParams}} {
					r := s.call(t, c.tool, map[string]any{"action": c.action, "params": c.params}, nil)
					assert.True(t, r.IsError)
					assert.Equal(t, "wrong_endpoint", r.Diag.Kind, c.tool)
					assert.Equal(t, "failed", r.Diag.Outcome, "%s: SnowLuma ran nothing", c.tool)
					for _, w := range tt.says {
						assert.Contains(t, r.Diag.Message, w, c.tool)
					}
					assert.NotContains(t, r.Diag.Message, "server error")
					assert.Contains(t, r.Diag.NextStep, "SNOWLUMA_MCP_ENDPOINT")
				}
				check := s.call(t, "get_runtime_info", map[string]any{"check_connection": true}, nil)
				assert.Equal(t, "wrong_endpoint", check.Diag.Kind, "every probe failing alike gives its kind")
			})
		})
	}
}

// TestAnEndpointPathSnowLumaReadsAsTheActionIsNamed: with SnowLuma's
// default path "/", an endpoint path below it becomes the action's name,
// so every probe answers 1404 "unknown action" with HTTP 200; the
// connection check names that path instead of blaming an old SnowLuma.
func TestAnEndpointPathSnowLumaReadsAsTheActionIsNamed(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		s := start(t, version, with(readEnv(), "SNOWLUMA_MCP_ENDPOINT", snow.URL()+"onebot/v11"))
		r := s.call(t, "get_runtime_info", map[string]any{"check_connection": true}, nil)
		assert.False(t, r.IsError)
		assert.Equal(t, "failed", r.Diag.Outcome)
		assert.Equal(t, "wrong_endpoint", r.Diag.Kind)
		assert.Contains(t, r.Diag.Message, `"/onebot/v11"`)
		assert.Contains(t, r.Diag.Message, "路径")
		assert.NotContains(t, r.Diag.Message, "catalog")
		var info runtimeInfo
		r.decodeResult(t, &info)
		for name, c := range info.Checks {
			assert.Equal(t, "business_failure", c.Diagnostics.Kind, name)
			assert.Contains(t, string(c.Result), `"retcode":1404`, name)
		}
		assertNoEndpoint(t, string(r.Result))
	})
}

// TestAnEventsURLOnTheHTTPAdaptersPortIsNamed: SnowLuma's HTTP server
// answers the upgrade as a plain GET, with 200; the refusal names the
// port, not the path, and its sentences end with full stops.
func TestAnEventsURLOnTheHTTPAdaptersPortIsNamed(t *testing.T) {
	t.Parallel()
	u, err := url.Parse(snow.URL())
	require.NoError(t, err)
	u.Scheme = "ws"
	forEachVersion(t, func(t *testing.T, version string) {
		s := start(t, version, with(readEnv(), "SNOWLUMA_MCP_EVENTS_URL", u.String()))
		r := s.call(t, "subscribe_events", map[string]any{"self_id": 10001}, nil)
		require.True(t, r.IsError)
		assert.Equal(t, "event_connection", r.Diag.Kind)
		assert.Contains(t, r.Diag.Message, "HTTP 200")
		assert.Contains(t, r.Diag.Message, "3001")
		assert.NotContains(t, r.Diag.Message, "configured path")
		assert.Regexp(t, `\. Set SNOWLUMA_MCP_EVENTS_URL`, r.Diag.Message, "the next step is a sentence of its own")
		assert.NotRegexp(t, `[^.] (Check|Set) `, r.Diag.Message, "sentences are not run together")
	})
}
