package e2e

// The explaining state (issue 30 §2): a host shows a server that exits at
// start only as "failed to connect", so a malformed setting starts the
// server anyway, and it says what is wrong through MCP, on both protocol
// generations, while it connects to nothing and touches no directory.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

func TestAMalformedSettingStartsAServerThatExplains(t *testing.T) {
	t.Parallel()
	head, tail := token[:len(token)/2], token[len(token)/2:]
	tests := []struct {
		name     string
		variable string
		value    string
		says     string
	}{
		{"a non-numeric timeout", "SNOWLUMA_MCP_TIMEOUT_MS", "soon", "must be a whole number"},
		{"an unknown mode", "SNOWLUMA_MCP_MODE", "bogus", "must be docs, read or write"},
		{"a token with a line break inside", "SNOWLUMA_MCP_TOKEN", head + "\n" + tail, "must not contain control characters"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				snowluma := fake.New(fake.Options{Token: token})
				t.Cleanup(snowluma.Close)
				dir := t.TempDir()
				tasks, downloads := filepath.Join(dir, "tasks"), filepath.Join(dir, "downloads")
				s := start(t, version, with(map[string]string{
					"SNOWLUMA_MCP_MODE":         "write",
					"SNOWLUMA_MCP_ENDPOINT":     snowluma.URL(),
					"SNOWLUMA_MCP_TOKEN":        token,
					"SNOWLUMA_MCP_EVENTS_URL":   "ws" + strings.TrimPrefix(snowluma.URL(), "http"),
					"SNOWLUMA_MCP_TASK_DIR":     tasks,
					"SNOWLUMA_MCP_DOWNLOAD_DIR": downloads,
				}, tt.variable, tt.value))

				instructions := s.session.InitializeResult().Instructions
				assert.Contains(t, instructions, "not configured")
				assert.Contains(t, instructions, tt.variable+" "+tt.says)
				assert.Contains(t, instructions, "get_runtime_info")
				assert.ElementsMatch(t, listed(t, "docs"), s.toolNames(), "get_runtime_info and the documentation tools")

				r := s.call(t, "get_runtime_info", nil, nil)
				assert.True(t, r.IsError)
				assert.Equal(t, "configuration", r.Diag.Kind)
				assert.Equal(t, "failed", r.Diag.Outcome)
				assert.Contains(t, r.Diag.Message, tt.variable+" "+tt.says)
				assert.NotEmpty(t, r.Diag.NextStep)
				checked := s.call(t, "get_runtime_info", map[string]any{"check_connection": true}, nil)
				assert.Equal(t, "configuration", checked.Diag.Kind, "a connection check needs the setting too")

				docs := s.call(t, "get_action", map[string]any{"name": "get_status"}, nil)
				assert.False(t, docs.IsError, "the documentation tools work: %s", docs.Text)
				_, err := s.callRaw(testCtx(t), "query_action", map[string]any{"action": "get_status"}, nil)
				assert.Error(t, err, "no execution tool exists")

				stderr := s.closeCleanly(t)
				assert.Contains(t, stderr, "snowluma-mcp: configuration error: "+tt.variable+" "+tt.says)
				for _, secret := range []string{head, tail} {
					assert.NotContains(t, stderr, secret)
					assert.NotContains(t, instructions, secret)
					assert.NotContains(t, r.Text, secret)
				}
				assert.Empty(t, snowluma.Requests(), "nothing reaches SnowLuma")
				for _, d := range []string{tasks, downloads} {
					_, err := os.Stat(d)
					assert.True(t, os.IsNotExist(err), "%s is not created", d)
				}
			})
		})
	}
}
