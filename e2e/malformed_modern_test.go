package e2e

// Malformed modern requests (issue 8 item 6): a 2026-07-28-only method
// whose _meta is missing, or names no modern protocol version, is a
// malformed request, answered with -32602 Invalid params rather than
// -32601 Method not found, and the session goes on.

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAModernOnlyMethodWithoutModernMetaIsMalformed(t *testing.T) {
	t.Parallel()
	withoutVersion := modernMeta(modern)
	delete(withoutVersion, "io.modelcontextprotocol/protocolVersion")
	numericVersion := modernMeta(modern)
	numericVersion["io.modelcontextprotocol/protocolVersion"] = 20260728
	tests := []struct {
		name   string
		method string
		params map[string]any
	}{
		{"server/discover without params", "server/discover", nil},
		{"server/discover without _meta", "server/discover", map[string]any{}},
		{"server/discover with _meta lacking the protocol version", "server/discover", map[string]any{"_meta": withoutVersion}},
		{"server/discover with a protocol version that is not a string", "server/discover", map[string]any{"_meta": numericVersion}},
		{"server/discover with a legacy protocol version", "server/discover", map[string]any{"_meta": modernMeta(legacy)}},
		{"subscriptions/listen without _meta", "subscriptions/listen", map[string]any{"notifications": map[string]any{"toolsListChanged": true}}},
		{"subscriptions/listen with _meta lacking the protocol version", "subscriptions/listen", map[string]any{"_meta": withoutVersion}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				r := rawSession(t, version, docsEnv())
				m := r.request(tt.method, tt.params)
				require.NotNil(t, m.Error, "%s", m)
				assert.Equal(t, -32602, m.Error.Code, "%s", m)
				assert.Contains(t, m.Error.Message, "io.modelcontextprotocol/protocolVersion", "the reply says what is missing")

				after := r.callTool("list_categories", map[string]any{}, nil)
				require.Nil(t, after.Error, "the session keeps serving: %s", after)
			})
		})
	}
}
