package config

import (
	"errors"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEveryRefusalIsWrittenInChinese: whatever setting Load refuses, the
// refusal carries its Chinese beside the English (Problem.WhyZH), so that
// `check` in a Chinese terminal gives the cause in Chinese rather than
// English after 原因：.
func TestEveryRefusalIsWrittenInChinese(t *testing.T) {
	t.Parallel()
	const endpoint = "http://127.0.0.1:3000/"
	tests := []struct {
		name     string
		variable string
		value    string
	}{
		{"an endpoint that is no URL", EndpointVar, "localhost"},
		{"a WebUI card's address", EndpointVar, "0.0.0.0:3000/"},
		{"an endpoint over ws", EndpointVar, "ws://127.0.0.1:3000/"},
		{"an endpoint of another scheme", EndpointVar, "ftp://127.0.0.1/"},
		{"an endpoint with credentials", EndpointVar, "http://me:pw@127.0.0.1:3000/"},
		{"an endpoint on every address", EndpointVar, "http://0.0.0.0:3000/"},
		{"an events URL over http", EventsVar, "http://127.0.0.1:3001/"},
		{"an events URL with a query", EventsVar, "ws://127.0.0.1:3001/?access_token=x"},
		{"a token with a line break", TokenVar, "abc\ndef"},
		{"an events token with a tab", EventsTokenVar, "abc\tdef"},
		{"a mode misspelt", ModeVar, "readonly"},
		{"a mode unknown", ModeVar, "everything"},
		{"a timeout that is no number", "SNOWLUMA_MCP_TIMEOUT_MS", "30s"},
		{"a stream count out of range", "SNOWLUMA_MCP_MAX_STREAMS", "5000"},
		{"a chunk that is no number", "SNOWLUMA_MCP_UPLOAD_CHUNK_BYTES", "big"},
		{"a chunk over SnowLuma's cap", "SNOWLUMA_MCP_UPLOAD_CHUNK_BYTES", "2000000"},
		{"a send wait out of range", "SNOWLUMA_MCP_SEND_WAIT_MS", "-1"},
		{"a pace part of another name", "SNOWLUMA_MCP_SEND_PACE", "group=1+1/1m"},
		{"a pace part given twice", "SNOWLUMA_MCP_SEND_PACE", "target=1+1/1m,target=2+1/1m"},
		{"a pace without its rate", "SNOWLUMA_MCP_SEND_PACE", "target=3"},
		{"a pace burst out of range", "SNOWLUMA_MCP_SEND_PACE", "target=0+1/1m"},
		{"a pace count out of range", "SNOWLUMA_MCP_SEND_PACE", "target=1+0/1m"},
		{"a pace period that is no duration", "SNOWLUMA_MCP_SEND_PACE", "target=1+1/soon"},
		{"a pace faster than a millisecond", "SNOWLUMA_MCP_SEND_PACE", "target=1+100000/1s"},
		{"a list that is not QQ numbers", TrustedUsersVar, "alice"},
		{"a list of separators only", TrustedUsersVar, " , "},
		{"a relative folder", TaskDirVar, "tasks"},
		{"a folder under ~", StateDirVar, "~/state"},
	}
	han := func(s string) bool {
		return strings.ContainsFunc(s, func(r rune) bool { return unicode.Is(unicode.Han, r) })
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			settings := map[string]string{tt.variable: tt.value}
			if tt.variable != EndpointVar {
				settings[EndpointVar] = endpoint
			}
			if tt.variable == EventsTokenVar {
				settings[EventsVar] = "ws://127.0.0.1:3001/"
			}
			cfg, _, err := Load(env(settings))
			var refused *Problem
			if !errors.As(err, &refused) {
				require.NoError(t, err)
				require.Len(t, cfg.Disabled, 1, "the setting is refused")
				refused = cfg.Disabled[0]
			}
			assert.Equal(t, tt.variable, refused.Var)
			assert.NotEmpty(t, refused.Why)
			assert.True(t, han(refused.WhyZH), "no Chinese beside %q: %q", refused.Why, refused.WhyZH)
		})
	}
}
