package checkup

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAPastedTokenIsNamedWithoutItsValue: each wrapping a paste leaves is
// named with its exact change, in both languages, and the value never
// appears; a token as SnowLuma generates it is left alone.
func TestAPastedTokenIsNamedWithoutItsValue(t *testing.T) {
	t.Parallel()
	const secret = "Xk29fQ8rTz"
	tests := []struct {
		name, value string
		says, fix   string
	}{
		{"double quotes", `"` + secret + `"`, "wrapped in quotes", "delete the quotes around it"},
		{"single quotes", "'" + secret + "'", "wrapped in quotes", "delete the quotes around it"},
		{"typographic quotes", "“" + secret + "”", "wrapped in quotes", "delete the quotes around it"},
		{"the placeholder's brackets", "<" + secret + ">", "wrapped in < and >", "delete the < and > around it"},
		{"the placeholder itself", "<HTTP API Token>", "still the guide's placeholder", "replace the whole placeholder"},
		{"a one-word placeholder", "<accessToken>", "still the guide's placeholder", "replace the whole placeholder"},
		{"the Chinese placeholder", "<WS 服务端节点的授权 Token>", "still the guide's placeholder", "replace the whole placeholder"},
		{"a Bearer prefix", "Bearer " + secret, `starts with "Bearer "`, `delete "Bearer " from its start`},
		{"a lower-case bearer in quotes", `"bearer ` + secret + `"`, `starts with "Bearer "`, "delete the quotes around it"},
		{"a space inside", secret[:4] + " " + secret[4:], "contains a space", "delete the space"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := pasted("SNOWLUMA_MCP_TOKEN", tt.value)
			require.NotNil(t, p)
			assert.Contains(t, p.what.EN, tt.says)
			assert.Contains(t, p.fix.EN, tt.fix)
			assert.Contains(t, p.fix.EN, "in SNOWLUMA_MCP_TOKEN in this server's entry in the MCP host")
			assert.NotEmpty(t, p.what.ZH)
			assert.NotEmpty(t, p.fix.ZH)
			for _, s := range []string{p.what.EN, p.what.ZH, p.fix.EN, p.fix.ZH} {
				assert.NotContains(t, s, secret[2:8], "the value is never said")
			}
		})
	}
	for _, plain := range []string{secret, "a1b2-c3d4_e5f6", "token-with-token-in-it"} {
		assert.Nil(t, pasted("SNOWLUMA_MCP_TOKEN", plain), plain)
	}
}
