package hub

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWebSocketWordsEveryEnding drives the gorilla dialer against a
// loopback server that behaves as SnowLuma does in each case.
func TestWebSocketWordsEveryEnding(t *testing.T) {
	const token = "tok-SECRET"
	up := websocket.Upgrader{}
	cases := []struct {
		name   string
		serve  func(c *websocket.Conn)
		reason string
	}{
		{"wrong token: 101, then close 1008", func(c *websocket.Conn) {
			_ = c.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.ClosePolicyViolation, "invalid access token"))
		}, ReasonAuthRefused},
		{"adapter stopped: close 1000", func(c *websocket.Conn) {
			_ = c.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""))
		}, ReasonClosedByServer},
		{"drop without a close frame", func(c *websocket.Conn) { _ = c.NetConn().Close() }, ReasonConnectionLost},
		{"frame over the limit", func(c *websocket.Conn) {
			_ = c.WriteMessage(websocket.TextMessage, []byte(strings.Repeat("z", 2000)))
		}, ReasonFrameTooLarge},
		{"a reserved opcode", func(c *websocket.Conn) { _, _ = c.NetConn().Write([]byte{0x83, 0x00}) }, ReasonProtocol},
		{"reserved bits without an extension", func(c *websocket.Conn) { _, _ = c.NetConn().Write([]byte{0xC1, 0x01, 'x'}) }, ReasonProtocol},
		{"a masked frame from the server", func(c *websocket.Conn) {
			_, _ = c.NetConn().Write([]byte{0x81, 0x81, 1, 2, 3, 4, 'x' ^ 1})
		}, ReasonProtocol},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := make(chan http.Header, 1)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				got <- r.Header.Clone()
				c, err := up.Upgrade(w, r, nil)
				if err != nil {
					return
				}
				defer c.Close()
				tc.serve(c)
				_, _, _ = c.ReadMessage()
			}))
			defer srv.Close()
			u, err := url.Parse("ws" + strings.TrimPrefix(srv.URL, "http") + "/")
			require.NoError(t, err)
			conn, err := WebSocket(u, token, 1000)(context.Background())
			require.NoError(t, err)
			defer conn.Close()
			h := <-got
			assert.True(t, h.Get("Authorization") == "Bearer "+token, "the token goes in the Authorization header")
			_, err = conn.Read()
			var f *Failure
			require.ErrorAs(t, err, &f)
			assert.Equal(t, tc.reason, f.Reason)
			assert.NotContains(t, f.Message+f.NextStep, token)
		})
	}
}

func TestWebSocketDialFailures(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "Bad path for WebSocket", http.StatusBadRequest)
	}))
	u, err := url.Parse("ws" + strings.TrimPrefix(srv.URL, "http") + "/api")
	require.NoError(t, err)
	_, err = WebSocket(u, "", 1000)(context.Background())
	var f *Failure
	require.ErrorAs(t, err, &f)
	assert.Equal(t, ReasonConnectFailed, f.Reason)
	assert.Contains(t, f.Message, "HTTP 400")
	assert.Contains(t, f.NextStep, "path")
	srv.Close()

	_, err = WebSocket(u, "", 1000)(context.Background())
	require.ErrorAs(t, err, &f)
	assert.Equal(t, ReasonConnectFailed, f.Reason)
	assert.Contains(t, f.NextStep, "SNOWLUMA_MCP_EVENTS_URL")
}

// TestWebSocketProtocolViolationsKeepTheirCause: what the server did wrong
// is named, not worded as a lost connection or a refused upgrade.
func TestWebSocketProtocolViolationsKeepTheirCause(t *testing.T) {
	up := websocket.Upgrader{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer c.Close()
		_, _ = c.NetConn().Write([]byte{0x83, 0x00})
		_, _, _ = c.ReadMessage()
	}))
	defer srv.Close()
	u, err := url.Parse("ws" + strings.TrimPrefix(srv.URL, "http") + "/")
	require.NoError(t, err)
	conn, err := WebSocket(u, "", 1000)(context.Background())
	require.NoError(t, err)
	defer conn.Close()
	_, err = conn.Read()
	var f *Failure
	require.ErrorAs(t, err, &f)
	assert.Equal(t, ReasonProtocol, f.Reason)
	assert.Contains(t, f.Message, "broke the WebSocket protocol (websocket: bad opcode 3)")
	assert.NotContains(t, f.Message, "without a close frame")
	assert.Contains(t, f.NextStep, "unsubscribe_events")
}

// TestWebSocketBadHandshakeAfter101: a 101 with a wrong
// Sec-WebSocket-Accept is an invalid handshake, not a refusal "with HTTP
// 101".
func TestWebSocketBadHandshakeAfter101(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, rw, err := http.NewResponseController(w).Hijack()
		if err != nil {
			return
		}
		defer c.Close()
		_, _ = rw.WriteString("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: bm90IHRoZSBhbnN3ZXI=\r\n\r\n")
		_ = rw.Flush()
	}))
	defer srv.Close()
	u, err := url.Parse("ws" + strings.TrimPrefix(srv.URL, "http") + "/")
	require.NoError(t, err)
	_, err = WebSocket(u, "", 1000)(context.Background())
	var f *Failure
	require.ErrorAs(t, err, &f)
	assert.Equal(t, ReasonProtocol, f.Reason)
	assert.Contains(t, f.Message, "answered the WebSocket upgrade with HTTP 101 but an invalid handshake")
	assert.Contains(t, f.Message, "Sec-WebSocket-Accept")
	assert.NotContains(t, f.Message, "refused")
	assert.Contains(t, f.NextStep, "SNOWLUMA_MCP_EVENTS_URL")
}
