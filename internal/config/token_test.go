package config

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLoadRefusesATokenThatCannotBeSent: a control character inside the
// token (a line break pasted with it) could never travel in the
// Authorization header, so it stops the start naming the variable and
// repeating no part of the token. Surrounding whitespace is trimmed as for
// every variable, and printable tokens pass unchanged.
func TestLoadRefusesATokenThatCannotBeSent(t *testing.T) {
	t.Parallel()
	const head, tail = "tokHEADsecret", "tokTAILsecret"
	tests := []struct {
		name   string
		value  string
		want   string
		refuse bool
	}{
		{"refuses an embedded line feed", head + "\n" + tail, "", true},
		{"refuses an embedded carriage return and line feed", head + "\r\n" + tail, "", true},
		{"refuses an embedded tab", head + "\t" + tail, "", true},
		{"refuses a NUL byte", head + "\x00" + tail, "", true},
		{"refuses DEL", head + "\x7f" + tail, "", true},
		{"refuses a C1 control character", head + "\u0085" + tail, "", true},
		{"trims a trailing line break pasted with the token", head + tail + "\n", head + tail, false},
		{"keeps a printable token with punctuation", "a-b_c.d~e+f/g=", "a-b_c.d~e+f/g=", false},
		{"keeps a token with a space inside", head + " " + tail, head + " " + tail, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg, _, err := Load(env(map[string]string{"SNOWLUMA_MCP_TOKEN": tt.value}))
			if !tt.refuse {
				require.NoError(t, err)
				assert.Equal(t, tt.want, cfg.Token)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), "SNOWLUMA_MCP_TOKEN must not contain control characters")
			assert.NotContains(t, err.Error(), head, "no part of the token is repeated")
			assert.NotContains(t, err.Error(), tail, "no part of the token is repeated")
		})
	}
}

// TestTheEventsTokenIsTheWSNodesOwnOrTheToken: SnowLuma gives each node
// a token of its own, so SNOWLUMA_MCP_EVENTS_TOKEN carries the WS 服务端
// node's; unset, events reuse SNOWLUMA_MCP_TOKEN (what the docs promise),
// and EventsTokenFrom names the variable a refusal must tell the user to
// change. A pasted line break in it is refused naming it, never its value.
func TestTheEventsTokenIsTheWSNodesOwnOrTheToken(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		vars       map[string]string
		want, from string
	}{
		{"unset reuses the token", map[string]string{"SNOWLUMA_MCP_TOKEN": "httpTOK"}, "httpTOK", "SNOWLUMA_MCP_TOKEN"},
		{"blank reuses the token", map[string]string{"SNOWLUMA_MCP_TOKEN": "httpTOK", "SNOWLUMA_MCP_EVENTS_TOKEN": "  "}, "httpTOK", "SNOWLUMA_MCP_TOKEN"},
		{"set is the WS node's own", map[string]string{"SNOWLUMA_MCP_TOKEN": "httpTOK", "SNOWLUMA_MCP_EVENTS_TOKEN": "wsTOK\n"}, "wsTOK", "SNOWLUMA_MCP_EVENTS_TOKEN"},
		{"set without a token", map[string]string{"SNOWLUMA_MCP_EVENTS_TOKEN": "wsTOK"}, "wsTOK", "SNOWLUMA_MCP_EVENTS_TOKEN"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg, _, err := Load(env(tt.vars))
			require.NoError(t, err)
			assert.Equal(t, tt.want, cfg.EventsToken)
			assert.Equal(t, tt.from, cfg.EventsTokenFrom)
			assert.Equal(t, tt.vars["SNOWLUMA_MCP_TOKEN"], cfg.Token, "the HTTP token is never the events token")
		})
	}

	_, _, err := Load(env(map[string]string{"SNOWLUMA_MCP_EVENTS_TOKEN": "wsHEAD\nwsTAIL"}))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "SNOWLUMA_MCP_EVENTS_TOKEN must not contain control characters")
	assert.Contains(t, err.Error(), `"WS 服务端" node's`, "the token is copied again from the WS node")
	assert.NotContains(t, err.Error(), "wsHEAD")
}
