package config

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A value pasted into the wrong variable is often a secret, and errors go
// to logs that people share. Every variable that can be refused is refused
// here with a secret-looking value, and the error must name the variable,
// say what it accepts, and never repeat the value in any case.
// SNOWLUMA_MCP_TOKEN takes any value, so it has no row.
func TestLoadNeverEchoesARefusedValue(t *testing.T) {
	t.Parallel()
	const secret = "sk-Live-SECRET-7f3A9c"
	tests := []struct {
		name     string
		variable string
		value    string
		accepts  string
	}{
		{"a token pasted as the mode", "SNOWLUMA_MCP_MODE", secret, "docs, read or write"},
		{"a token pasted as the endpoint", "SNOWLUMA_MCP_ENDPOINT", secret, "absolute URL"},
		{"an endpoint with another scheme", "SNOWLUMA_MCP_ENDPOINT", "ftp://" + secret + ".example/", "http or https"},
		{"an endpoint with the token as its password", "SNOWLUMA_MCP_ENDPOINT", "http://bot:" + secret + "@127.0.0.1/", "credentials"},
		{"a token pasted as the events URL", "SNOWLUMA_MCP_EVENTS_URL", secret, "absolute URL"},
		{"an events URL with the token in its query", "SNOWLUMA_MCP_EVENTS_URL", "ws://127.0.0.1/?access_token=" + secret, "query"},
		{"an events URL with the token in its fragment", "SNOWLUMA_MCP_EVENTS_URL", "ws://127.0.0.1/#" + secret, "fragment"},
		{"an events URL with the token as its password", "SNOWLUMA_MCP_EVENTS_URL", "wss://bot:" + secret + "@127.0.0.1/", "credentials"},
		{"a token pasted as the timeout", "SNOWLUMA_MCP_TIMEOUT_MS", secret, "whole number"},
		{"a token pasted as the file limit", "SNOWLUMA_MCP_MAX_FILE_BYTES", secret, "whole number"},
		{"a token pasted as the download quota", "SNOWLUMA_MCP_DOWNLOAD_QUOTA_BYTES", secret, "whole number"},
		{"a token pasted as the stream limit", "SNOWLUMA_MCP_MAX_STREAMS", secret, "whole number"},
		{"a token pasted as the stream connect timeout", "SNOWLUMA_MCP_STREAM_CONNECT_TIMEOUT_MS", secret, "whole number"},
		{"a token pasted as the stream idle timeout", "SNOWLUMA_MCP_STREAM_IDLE_TIMEOUT_MS", secret, "whole number"},
		{"a token pasted as the upload chunk size", "SNOWLUMA_MCP_UPLOAD_CHUNK_BYTES", secret, "whole number"},
		{"a token pasted as the download dir", "SNOWLUMA_MCP_DOWNLOAD_DIR", secret, "absolute path"},
		{"a token pasted as the upload root", "SNOWLUMA_MCP_UPLOAD_ROOT", secret, "absolute path"},
		{"a token pasted as the task dir", "SNOWLUMA_MCP_TASK_DIR", secret, "absolute path"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg, _, err := Load(env(map[string]string{tt.variable: tt.value}))
			if err == nil {
				// An optional service's setting turns off only that.
				require.Len(t, cfg.Disabled, 1)
				err = cfg.Disabled[0]
			}
			msg := strings.ToLower(err.Error())
			assert.Contains(t, err.Error(), tt.variable, "the error names the variable")
			assert.Contains(t, msg, strings.ToLower(tt.accepts), "the error says what the variable accepts")
			assert.False(t, strings.Contains(msg, strings.ToLower(secret)), "the error repeats the refused value")
		})
	}
}
