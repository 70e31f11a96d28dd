package hub

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAnUpgradeRefusalNamesItsCause: the status an upgrade is answered with
// says which setting is wrong, the way SnowLuma's two adapters answer it.
func TestAnUpgradeRefusalNamesItsCause(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		status  int
		body    string
		reason  string
		says    []string
		notSays string
	}{
		{"the HTTP adapter answers 200", 200, `{"status":"ok","retcode":0,"data":{"online":true}}`, ReasonConnectFailed,
			[]string{"HTTP 200", "HTTP server", "3001", "WS 服务端"}, "path"},
		{"a wrong path is 400", 400, "Bad path for WebSocket", ReasonConnectFailed, []string{"HTTP 400", "path", "wsServers"}, "port belongs"},
		{"a wrong token is 401", 401, "Unauthorized", ReasonAuthRefused, []string{"HTTP 401", "Set SNOWLUMA_MCP_EVENTS_TOKEN to the WS 服务端 node's 授权 Token (or give both nodes the same Token)"}, "path"},
		{"another status", 502, "bad gateway", ReasonConnectFailed, []string{"HTTP 502"}, "path"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(tt.status)
				_, _ = w.Write([]byte(tt.body))
			}))
			defer srv.Close()
			u, err := url.Parse("ws" + srv.URL[len("http"):] + "/")
			require.NoError(t, err)
			_, err = WebSocket(u, "tok-SECRET", 1<<20)(context.Background())
			var f *Failure
			require.ErrorAs(t, err, &f)
			assert.Equal(t, tt.reason, f.Reason)
			for _, s := range tt.says {
				assert.Contains(t, f.Text(), s)
			}
			assert.NotContains(t, f.Text(), tt.notSays)
			assert.NotContains(t, f.Text(), "tok-SECRET")
		})
	}
}

// TestAFailuresTextIsTwoSentences: the message and the next step are joined
// with a full stop, never run together ("HTTP 200 Check").
func TestAFailuresTextIsTwoSentences(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		f    Failure
		want string
	}{
		{"a message without a stop", Failure{Message: "the event connection could not be opened: connection refused", NextStep: "Check that SnowLuma is running."},
			"The event connection could not be opened: connection refused. Check that SnowLuma is running."},
		{"a message with a stop", Failure{Message: "SnowLuma closed it.", NextStep: "subscribe again"}, "SnowLuma closed it. Subscribe again."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, tt.f.Text())
		})
	}
}
