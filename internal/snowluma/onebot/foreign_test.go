package onebot

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/fault"
)

// TestAnAnswerWithoutAnEnvelopeIsAnotherServices: SnowLuma's HTTP API
// node answers every request with an envelope, errors included; an answer
// without one, whatever its status, is another service's, and a 404 of
// that kind names the port rather than a path. SnowLuma's own refusals
// keep their words.
func TestAnAnswerWithoutAnEnvelopeIsAnotherServices(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		status  int
		body    string
		foreign bool
		code    fault.Code
		says    string
	}{
		{"a web page's 502", 502, "<html>Bad Gateway</html>", true, fault.CodeUpstreamHTTP, "HTTP 502"},
		{"a web page's 404", 404, "<html>Not Found</html>", true, fault.CodeWrongEndpoint, "port belongs to another service"},
		{"a JSON 404 that is no envelope", 404, `{"error":"not found"}`, true, fault.CodeWrongEndpoint, "port belongs to another service"},
		{"a web page's 200", 200, "<html>hello</html>", true, fault.CodeBadReply, "not a JSON object"},
		{"SnowLuma's 404 for a wrong path", 404, `{"status":"failed","retcode":1404,"data":null,"wording":"not found"}`, false, fault.CodeWrongEndpoint, "different path"},
		{"SnowLuma's 500", 500, `{"status":"failed","retcode":1200,"data":null,"wording":"boom"}`, false, fault.CodeUpstreamHTTP, "server error"},
		{"a 401 without an envelope stays a refused token", 401, "Unauthorized", false, fault.CodeUpstreamAuth, "refused the access token"},
		{"the WebSocket node's 426", 426, "Upgrade Required", false, fault.CodeWrongEndpoint, "WebSocket adapter"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, _ := serve(t, reply(tt.status, tt.body))
			_, err := c.Do(context.Background(), "get_status", nil)
			require.Error(t, err)
			status, foreign := ForeignStatus(err)
			assert.Equal(t, tt.foreign, foreign)
			if foreign {
				assert.Equal(t, tt.status, status)
			}
			assert.Equal(t, tt.code, fault.CodeOf(err))
			assert.Contains(t, err.Error(), tt.says)
		})
	}
}

// TestHTTPSAtAPlainHTTPNodeIsNamed: a TLS client meeting a plain-HTTP
// server (SnowLuma's node has no TLS) is told apart from an unreachable
// SnowLuma; an https:// endpoint whose server does speak TLS is not.
func TestHTTPSAtAPlainHTTPNodeIsNamed(t *testing.T) {
	t.Parallel()
	plain := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(plain.Close)
	tlsSrv := httptest.NewTLSServer(http.NotFoundHandler())
	t.Cleanup(tlsSrv.Close)
	for _, tt := range []struct {
		name, url string
		plain     bool
	}{
		{"https at a plain-HTTP server", "https" + strings.TrimPrefix(plain.URL, "http") + "/", true},
		{"https at a TLS server", tlsSrv.URL + "/", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			u, err := url.Parse(tt.url)
			require.NoError(t, err)
			_, err = New(u, "", StreamTimeouts{}).Do(context.Background(), "get_status", nil)
			require.Error(t, err)
			assert.Equal(t, tt.plain, PlainHTTP(err), "%v", err)
			if tt.plain {
				assert.Equal(t, fault.CodeTransport, fault.CodeOf(err))
				assert.True(t, fault.NothingSent(err))
				assert.Contains(t, err.Error(), "http://")
			}
		})
	}
}
