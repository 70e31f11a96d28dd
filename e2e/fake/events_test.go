package fake_test

// The fake's event scene: what a client that has read the greeting may
// rely on.

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

// TestAPushRightAfterTheGreetingReachesTheClient: once the client has the
// connect frame, the connection is part of the scene, so a Push made at
// that moment is delivered, after the greeting. Repeated (300 rounds take
// a fraction of a second) because the loss it guards against was a race
// between greeting and joining, seen once in about 500 rounds.
func TestAPushRightAfterTheGreetingReachesTheClient(t *testing.T) {
	for range 300 {
		sc := srv.Scene(fake.SceneOptions{})
		c, _, err := websocket.DefaultDialer.Dial(sc.URL(), http.Header{"Authorization": {"Bearer " + token}})
		require.NoError(t, err)
		_, first, err := c.ReadMessage()
		require.NoError(t, err)
		require.Contains(t, string(first), `"sub_type":"connect"`)
		sc.Push(fake.GroupMessage(10001, 20001, 30001, "right after"))
		// Bounded, so a lost Push fails here rather than waiting for the
		// next heartbeat (30 s).
		require.NoError(t, c.SetReadDeadline(time.Now().Add(5*time.Second)))
		var got []string
		for len(got) < 3 {
			_, m, err := c.ReadMessage()
			require.NoError(t, err)
			got = append(got, string(m))
		}
		require.Contains(t, got[2], "right after", "after enable and the first heartbeat")
		require.NoError(t, c.Close())
	}
}

// TestThePlainRequestsTheWebSocketServerRefuses: like SnowLuma's WebSocket
// server, the fake answers any request that is not an upgrade with 426
// "Upgrade Required", an upgrade on a wrong path with 400 before looking at
// the method, and an upgrade with another method than GET with 405.
func TestThePlainRequestsTheWebSocketServerRefuses(t *testing.T) {
	t.Parallel()
	sc := srv.Scene(fake.SceneOptions{})
	base := srv.WebSocketHTTPURL()
	u, err := url.Parse(sc.URL())
	require.NoError(t, err)
	scenePath := u.Path
	tests := []struct {
		name    string
		method  string
		path    string
		upgrade bool
		status  int
		body    string
	}{
		{"a plain POST", http.MethodPost, "/", false, http.StatusUpgradeRequired, "Upgrade Required"},
		{"a plain GET on the scene's path", http.MethodGet, scenePath, false, http.StatusUpgradeRequired, "Upgrade Required"},
		{"an upgrade on another path", http.MethodPost, "/elsewhere", true, http.StatusBadRequest, "Bad path for WebSocket"},
		{"an upgrade with POST on the path", http.MethodPost, scenePath, true, http.StatusMethodNotAllowed, "Method not allowed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			req, err := http.NewRequest(tt.method, strings.TrimSuffix(base, "/")+tt.path, strings.NewReader(`{"action":"get_status"}`))
			require.NoError(t, err)
			if tt.upgrade {
				req.Header.Set("Connection", "Upgrade")
				req.Header.Set("Upgrade", "websocket")
			}
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			require.Equal(t, tt.status, resp.StatusCode)
			require.Contains(t, string(body), tt.body)
		})
	}
}
