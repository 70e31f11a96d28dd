package onebot

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/fault"
)

// TestHTTPStatusesAreWordedByTheirCause: each status SnowLuma's adapters
// send for a wrong setting gets words about that setting, and nothing
// SnowLuma refused before reading the action is reported as possibly done.
func TestHTTPStatusesAreWordedByTheirCause(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		status int
		body   string
		code   fault.Code
		says   []string
		unsent bool
	}{
		{"a 404 is the endpoint's path", 404, `{"status":"failed","retcode":1404,"data":null,"wording":"not found"}`, fault.CodeWrongEndpoint,
			[]string{"HTTP 404", `"not found"`, "different path", `"/"`, "路径", "httpServers"}, true},
		{"a 426 is the WebSocket adapter's port", 426, `Upgrade Required`, fault.CodeWrongEndpoint,
			[]string{"HTTP 426", "WebSocket adapter", "3001", "HTTP server", "端口", "3000"}, true},
		{"a 405 is not the HTTP adapter either", 405, `Method not allowed`, fault.CodeWrongEndpoint, []string{"HTTP 405", "WebSocket adapter"}, true},
		{"a 401 is the token", 401, `{"status":"failed","retcode":1401,"data":null,"wording":"unauthorized"}`, fault.CodeUpstreamAuth,
			[]string{"access token", "HTTP 401"}, true},
		{"a 403 is the token", 403, `Forbidden`, fault.CodeUpstreamAuth, []string{"access token", "HTTP 403"}, true},
		{"a 500 is a server error", 500, `{"status":"failed","retcode":1200,"data":null,"wording":"boom"}`, fault.CodeUpstreamHTTP,
			[]string{"server error", "HTTP 500", `"boom"`}, false},
		{"a 502 is a server error", 502, `bad gateway`, fault.CodeUpstreamHTTP, []string{"server error", "HTTP 502"}, false},
		{"another status is not called a server error", 418, ``, fault.CodeUpstreamHTTP, []string{"HTTP 418", "proxy"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, _ := serve(t, reply(tt.status, tt.body))
			_, err := c.Do(context.Background(), "get_status", nil)
			require.Error(t, err)
			assert.Equal(t, tt.code, fault.CodeOf(err))
			for _, s := range tt.says {
				assert.Contains(t, err.Error(), s)
			}
			if tt.status < 500 && tt.status != 418 {
				assert.NotContains(t, err.Error(), "server error")
			}
			assert.Equal(t, tt.unsent, fault.NothingSent(err))
			assert.NotContains(t, err.Error(), "s3cret")
		})
	}
}
