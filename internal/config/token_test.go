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
}

// TestAMalformedEventsTokenTurnsOffOnlyLiveEvents (BASE-1, Q-3): the
// events token is an optional service's setting, so a pasted line break
// in it turns off live events, naming the variable and the WS node to copy
// it from again, never its value, and the rest of the mode works; with no
// events URL it is never used, so nothing is off and a note says so.
func TestAMalformedEventsTokenTurnsOffOnlyLiveEvents(t *testing.T) {
	t.Parallel()
	const head, tail = "wsHEAD", "wsTAIL"
	tests := []struct {
		name   string
		events string
		off    bool
	}{
		{"with an events URL live events are off", "ws://127.0.0.1:3001/", true},
		{"without an events URL nothing is off", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg, warnings, err := Load(env(map[string]string{"SNOWLUMA_MCP_ENDPOINT": "http://127.0.0.1:3000/", "SNOWLUMA_MCP_TOKEN": "httpTOK",
				"SNOWLUMA_MCP_EVENTS_URL": tt.events, "SNOWLUMA_MCP_EVENTS_TOKEN": head + "\n" + tail}))
			require.NoError(t, err, "the server does not stop")
			assert.Equal(t, ModeRead, cfg.Mode, "the rest of the mode works")
			assert.Equal(t, "httpTOK", cfg.Token)
			assert.Nil(t, cfg.EventsURL)
			var said string
			if tt.off {
				require.Len(t, cfg.Disabled, 1)
				assert.Equal(t, "SNOWLUMA_MCP_EVENTS_TOKEN", cfg.Disabled[0].Var)
				said = cfg.Disabled[0].Error()
				assert.Contains(t, said, "SNOWLUMA_MCP_EVENTS_TOKEN must not contain control characters")
				assert.Contains(t, said, `"WS 服务端" node's`, "the token is copied again from the WS node")
				assert.Empty(t, warnings)
			} else {
				assert.Empty(t, cfg.Disabled, "nothing is off")
				require.Len(t, warnings, 1)
				said = warnings[0].EN
				assert.NotContains(t, warnings[0].ZH, head)
				assert.Contains(t, said, "SNOWLUMA_MCP_EVENTS_TOKEN is ignored: only live events use it, and SNOWLUMA_MCP_EVENTS_URL is not set")
			}
			assert.NotContains(t, said, head)
			assert.NotContains(t, said, tail)
		})
	}
}
