package e2e

// Helpers for the live event tests: a scene of the shared fake per test,
// the environment that points the binary at it, and typed reads of event
// resources.

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

// self is the account of every scene.
const self = 10001

// pollEvery paces waits that poll; it is not a bound on anything.
const pollEvery = 20 * time.Millisecond

// eventsEnv is read mode with SNOWLUMA_MCP_EVENTS_URL at the scene.
func eventsEnv(sc *fake.Scene) map[string]string {
	return with(readEnv(), "SNOWLUMA_MCP_EVENTS_URL", sc.URL())
}

// eventPage is an event resource read.
type eventPage struct {
	URI    string `json:"uri"`
	Status struct {
		State         string `json:"state"`
		LastHeartbeat string `json:"last_heartbeat"`
		Reason        string `json:"reason"`
		Message       string `json:"message"`
		NextStep      string `json:"next_step"`
	} `json:"status"`
	Events []struct {
		Cursor uint64          `json:"cursor"`
		Event  json.RawMessage `json:"event"`
	} `json:"events"`
	NextCursor         uint64  `json:"next_cursor"`
	OldestCursor       *uint64 `json:"oldest_cursor"`
	DroppedEvents      uint64  `json:"dropped_events"`
	Gap                bool    `json:"gap"`
	NotificationFailed bool    `json:"notification_failed"`
	Notice             string  `json:"content_notice"`
}

// texts are the events' raw_message fields (or post_type when absent).
func (p eventPage) texts(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, e := range p.Events {
		var v struct {
			PostType string `json:"post_type"`
			Raw      string `json:"raw_message"`
		}
		require.NoError(t, json.Unmarshal(e.Event, &v))
		if v.Raw == "" {
			v.Raw = v.PostType
		}
		out = append(out, v.Raw)
	}
	return out
}

// subscribeEvents calls subscribe_events and returns the resource URI.
func (s *server) subscribeEvents(t *testing.T, args map[string]any) string {
	t.Helper()
	r := s.call(t, "subscribe_events", args, nil)
	require.False(t, r.IsError, "subscribe_events failed: %s", r.Text)
	var out struct {
		URI string `json:"uri"`
	}
	r.decodeResult(t, &out)
	require.NotEmpty(t, out.URI)
	return out.URI
}

// readEvents reads an event resource and checks the result's shape.
func (s *server) readEvents(t *testing.T, uri string) eventPage {
	t.Helper()
	res, err := s.session.ReadResource(testCtx(t), &mcp.ReadResourceParams{URI: uri})
	require.NoError(t, err, "resources/read %s", uri)
	require.Len(t, res.Contents, 1)
	require.Equal(t, "application/json", res.Contents[0].MIMEType)
	text := res.Contents[0].Text
	assertNoSecrets(t, "an event read", text)
	var fields map[string]json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(text), &fields))
	for _, k := range []string{"status", "events", "next_cursor", "oldest_cursor", "dropped_events", "gap", "notification_failed"} {
		require.Contains(t, fields, k, "every read carries %s", k)
	}
	var p eventPage
	require.NoError(t, json.Unmarshal([]byte(text), &p))
	return p
}

// awaitEvents reads uri until at least n events after cursor are there (a
// wait for the binary to take in what the fake pushed, bounded by safety;
// never a measure of speed).
func (s *server) awaitEvents(t *testing.T, uri string, n int) eventPage {
	t.Helper()
	var p eventPage
	require.Eventually(t, func() bool {
		p = s.readEvents(t, uri)
		return len(p.Events) >= n
	}, safety, pollEvery, "fewer than %d events arrived at %s", n, uri)
	return p
}

// awaitState reads uri until its connection is in state.
func (s *server) awaitState(t *testing.T, uri, state string) eventPage {
	t.Helper()
	var p eventPage
	require.Eventually(t, func() bool {
		p = s.readEvents(t, uri)
		return p.Status.State == state
	}, safety, pollEvery, "%s never reached state %s", uri, state)
	return p
}
