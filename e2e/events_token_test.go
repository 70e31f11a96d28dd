package e2e

// Two nodes, two tokens (issue 42 §1): SnowLuma gives its HTTP API and
// WS 服务端 nodes a random token each, so a user copies each node's own
// into its own variable. `check` and subscribe_events name the variable
// and the node that refused, never ask for one token in two places, and
// their fix, applied as written, is what makes them pass.

import (
	"encoding/json"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

// checkItem runs check --json and returns its exit code and the item.
func checkItem(t *testing.T, vars map[string]string, name string) (int, checkReport, string) {
	t.Helper()
	code, stdout, _ := runCheck(t, vars, "--json")
	var r checkReport
	require.NoError(t, json.Unmarshal([]byte(stdout), &r), stdout)
	for _, it := range r.Items {
		if it.Name == name {
			return code, r, it.Fix
		}
	}
	require.Failf(t, "no such item", "%s in %s", name, stdout)
	return 0, r, ""
}

// apply sets, in env, every variable fix tells to set to one node's
// token, to that node's token: the fix as a person would follow it.
func apply(t *testing.T, env map[string]string, fix string) map[string]string {
	t.Helper()
	steps := []struct {
		re  *regexp.Regexp
		tok string
	}{
		{regexp.MustCompile(`set (SNOWLUMA_MCP_[A-Z_]+) to the WS 服务端 node's 授权 Token`), wsToken},
		{regexp.MustCompile(`copy the token of SnowLuma's HTTP server \([^)]*\) into (SNOWLUMA_MCP_[A-Z_]+)`), token},
		{regexp.MustCompile(`the WS 服务端 node's Token, if it differs, goes into (SNOWLUMA_MCP_[A-Z_]+)`), wsToken},
	}
	applied := 0
	for _, s := range steps {
		if m := s.re.FindStringSubmatch(fix); m != nil {
			env = with(env, m[1], s.tok)
			applied++
		}
	}
	require.NotZero(t, applied, "the fix names no variable to set: %s", fix)
	return env
}

func TestCheckWithEachNodesOwnToken(t *testing.T) {
	t.Parallel()
	sc := snow.Scene(fake.SceneOptions{Token: wsToken})
	both := with(readEnv(), "SNOWLUMA_MCP_EVENTS_URL", sc.URL(), "SNOWLUMA_MCP_EVENTS_TOKEN", wsToken)

	code, stdout, stderr := runCheck(t, both)
	assert.Zero(t, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	assert.Contains(t, stdout, "ok    token")
	assert.Contains(t, stdout, "the WebSocket server accepts SNOWLUMA_MCP_EVENTS_TOKEN")

	tests := []struct {
		name string
		env  map[string]string
		// item fails; ok stays ok: the fixes never undo each other.
		item, ok string
	}{
		{"the HTTP node's token in both", with(both, "SNOWLUMA_MCP_EVENTS_TOKEN", ""), "events", "token"},
		{"the WS node's token in both", with(both, "SNOWLUMA_MCP_TOKEN", wsToken, "SNOWLUMA_MCP_EVENTS_TOKEN", ""), "token", "events"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, r, fix := checkItem(t, tt.env, tt.item)
			assert.Equal(t, 1, code)
			assert.Equal(t, "fail", r.statuses()[tt.item])
			assert.Equal(t, "ok", r.statuses()[tt.ok])
			if tt.item == "events" {
				assert.Contains(t, fix, "set SNOWLUMA_MCP_EVENTS_TOKEN to the WS 服务端 node's 授权 Token (or give both nodes the same Token)")
				assert.NotContains(t, fix, "SNOWLUMA_MCP_TOKEN", "the HTTP node's token is right: the fix leaves it alone")
			}

			fixed := apply(t, tt.env, fix)
			code, stdout, stderr := runCheck(t, fixed)
			assert.Zero(t, code, "the fix applied as written passes:\n%s\nstderr:\n%s", stdout, stderr)
		})
	}
}

// TestSubscribeWithEachNodesOwnToken: the server dials the WS node with
// SNOWLUMA_MCP_EVENTS_TOKEN; with the HTTP node's token instead, its
// message and next step both name the WS node and the variable to set,
// and with that next step followed, the subscription opens.
func TestSubscribeWithEachNodesOwnToken(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		sc := snow.Scene(fake.SceneOptions{Token: wsToken})
		s := start(t, version, with(eventsEnv(sc), "SNOWLUMA_MCP_EVENTS_TOKEN", wsToken))
		s.subscribeEvents(t, map[string]any{"self_id": self})
		p, err := sc.Next(testCtx(t))
		require.NoError(t, err)
		assert.True(t, p.Bearer, "the WS node's token travels in the Authorization header")

		one := start(t, version, eventsEnv(sc))
		r := one.call(t, "subscribe_events", map[string]any{"self_id": self}, nil)
		require.True(t, r.IsError)
		assert.Equal(t, "upstream_auth", r.Diag.Kind)
		assert.Contains(t, r.Text, "1008")
		assert.NotContains(t, r.Text, "HTTP server", "the WS node refused, not the HTTP node")
		assert.Contains(t, r.Diag.NextStep, "set SNOWLUMA_MCP_EVENTS_TOKEN to the WS 服务端 node's 授权 Token (or give both nodes the same Token)")
		assert.NotContains(t, r.Diag.NextStep, "HTTP server", "the next step agrees with the message")

		again := start(t, version, apply(t, eventsEnv(sc), r.Diag.NextStep))
		again.subscribeEvents(t, map[string]any{"self_id": self})
	})
}
