package e2e

// Live events on the wire: the listen acknowledgement first, each of two
// concurrent listens on one session with its own subscriptionId, the
// listen's graceful end, and the cache hints of event reads and lists.

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

// note is a notification's method, subscriptionId and uri.
type note struct{ method, sub, uri string }

func noteOf(t *testing.T, m rawMessage) note {
	t.Helper()
	var v struct {
		Params struct {
			Meta map[string]any `json:"_meta"`
			URI  string         `json:"uri"`
		} `json:"params"`
	}
	require.NoError(t, json.Unmarshal(m.Line, &v))
	sub, _ := v.Params.Meta["io.modelcontextprotocol/subscriptionId"].(string)
	return note{m.Method, sub, v.Params.URI}
}

func rawSubscribe(t *testing.T, r *rawServer) string {
	t.Helper()
	res, _ := structured(t, r.callTool("subscribe_events", map[string]any{"self_id": self}, nil))
	var out struct {
		URI string `json:"uri"`
	}
	require.NoError(t, json.Unmarshal(res, &out))
	require.NotEmpty(t, out.URI)
	return out.URI
}

func TestEventTwoListensOnOneSessionOnTheWire(t *testing.T) {
	t.Parallel()
	sc := snow.Scene(fake.SceneOptions{})
	r := rawSession(t, modern, eventsEnv(sc))
	uri := rawSubscribe(t, r)
	listen := func(id string) {
		b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "subscriptions/listen",
			"params": r.params(map[string]any{"notifications": map[string]any{"resourceSubscriptions": []string{uri}}}, nil)})
		require.NoError(t, err)
		r.writeLine(string(b))
	}
	open := map[string]bool{}
	for _, id := range []string{"listen-a", "listen-b"} {
		listen(id)
		n := noteOf(t, r.next())
		for n.method == "notifications/resources/updated" && open[n.sub] {
			// A listen already open may hear of the resource (the event
			// connection settling) before the next one is acknowledged.
			n = noteOf(t, r.next())
		}
		assert.Equal(t, note{"notifications/subscriptions/acknowledged", id, ""}, n,
			"the acknowledgement is the first message of a listen")
		open[id] = true
	}
	sc.Push(fake.GroupMessage(self, 20001, 30001, "one"))
	got := map[string]bool{}
	for len(got) < 2 {
		n := noteOf(t, r.next())
		require.Equal(t, "notifications/resources/updated", n.method)
		assert.Equal(t, uri, n.uri)
		got[n.sub] = true
	}
	assert.Equal(t, map[string]bool{"listen-a": true, "listen-b": true}, got)

	// The client cancelled the listen: it gets no answer (a cancelled
	// request is never answered), and the other listen goes on.
	r.notify("notifications/cancelled", r.params(map[string]any{"requestId": "listen-a"}, nil))
	sc.Push(fake.GroupMessage(self, 20001, 30001, "two"))
	for {
		m := r.next()
		require.NotEqual(t, "", m.Method, "the cancelled listen was answered: %s", m)
		if n := noteOf(t, m); n.sub == "listen-b" {
			assert.Equal(t, note{"notifications/resources/updated", "listen-b", uri}, n,
				"the listen still open goes on receiving updates after the other closed")
			break
		} // else an update for listen-a sent before its cancellation took hold
	}
	read := r.request("resources/read", r.params(map[string]any{"uri": uri}, nil))
	require.Nil(t, read.Error, "closing a listen keeps the resource: %s", read)
	assertNeverAnswered(t, r, `"listen-a"`)
}

func TestEventCacheHintsOnTheWire(t *testing.T) {
	t.Parallel()
	for _, version := range versions {
		t.Run(version, func(t *testing.T) {
			t.Parallel()
			sc := snow.Scene(fake.SceneOptions{})
			r := rawSession(t, version, eventsEnv(sc))
			uri := rawSubscribe(t, r)
			for _, req := range []struct {
				method string
				params map[string]any
			}{
				{"resources/read", map[string]any{"uri": uri}},
				{"resources/read", map[string]any{"uri": uri + "?after=0"}},
				{"resources/list", map[string]any{}},
			} {
				m := r.request(req.method, r.params(req.params, nil))
				require.Nil(t, m.Error, "%s: %s", req.method, m)
				f := m.fields(t)
				if version == modern {
					assert.JSONEq(t, `0`, string(f["ttlMs"]), "%s %v", req.method, req.params)
					assert.JSONEq(t, `"private"`, string(f["cacheScope"]), "%s %v", req.method, req.params)
				} else {
					assert.NotContains(t, f, "ttlMs", fmt.Sprint(req.method, " legacy"))
				}
			}
		})
	}
}

// TestEventReadsAreCompleteResultsOnTheWire: a 2026-07-28 result must carry
// resultType (the official TypeScript client 2.4.0 rejects one without it
// as INVALID_RESULT, see interop_events_test.go), and a legacy one must not.
// Event reads are answered before the SDK's own resources/read, which is
// what sets it for every other read.
func TestEventReadsAreCompleteResultsOnTheWire(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		sc := snow.Scene(fake.SceneOptions{})
		r := rawSession(t, version, eventsEnv(sc))
		uri := rawSubscribe(t, r)
		for _, u := range []string{uri, uri + "?after=0"} {
			m := r.request("resources/read", r.params(map[string]any{"uri": u}, nil))
			require.Nil(t, m.Error, "%s: %s", u, m)
			f := m.fields(t)
			if version == modern {
				assert.JSONEq(t, `"complete"`, string(f["resultType"]), u)
			} else {
				assert.NotContains(t, f, "resultType", u)
			}
		}
	})
}
