package fake_test

// The fake's event scene: what a client that has read the greeting may
// rely on.

import (
	"net/http"
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
