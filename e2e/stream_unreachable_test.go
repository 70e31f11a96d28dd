package e2e

// A stream call whose connection is refused (issue 8, item 1) is a
// transport failure with transport advice, never a cancellation: the
// request is classified before its context is released.

import (
	"net"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

// closedEndpoint is a loopback URL on which nothing listens any more.
func closedEndpoint(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	return "http://" + addr + "/"
}

func TestRefusedStreamIsATransportFailure(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		action string
		params map[string]any
		upload bool
	}{
		{"a download", "download_file_stream", map[string]any{"file": fake.FileHello}, false},
		{"a generic stream", "test_download_stream", map[string]any{}, false},
		{"an automatic upload", fake.UploadAction, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				env, dirs := streamEnv(t, "SNOWLUMA_MCP_ENDPOINT", closedEndpoint(t))
				s := start(t, version, env)
				var r toolResult
				if tt.upload {
					r, _ = s.uploadCall(t, writeFile(t, dirs.upload, "a.bin", []byte("hello")))
				} else {
					r = s.run(t, "invoke_action", tt.action, tt.params, "").res
				}
				require.True(t, r.IsError, r.Text)
				assert.Equal(t, "transport", r.Diag.Kind, r.Diag.Message)
				assert.NotContains(t, r.Diag.Message, "cancel")
				assert.NotContains(t, r.Diag.NextStep, "cancelled")
				assert.NotContains(t, r.Diag.Message, "reset", "nothing reached SnowLuma, so there was nothing to reset")
				assert.Empty(t, entries(t, dirs.download), "nothing is written")
			})
		})
	}
}
