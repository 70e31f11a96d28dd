package e2e

// Live event resources (issue 10, EVT-1..5) on both generations, with the
// official SDK client, against the fake's WebSocket server.

import (
	"context"
	"fmt"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

func TestEventToolsExistOnlyWithTheEventsURLAndListingConnectsNothing(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		sc := snow.Scene(fake.SceneOptions{})
		cases := []struct {
			name string
			env  map[string]string
			want bool
		}{
			{"read without the URL", readEnv(), false},
			{"read with the URL", eventsEnv(sc), true},
			{"write with the URL", with(writeEnv(), "SNOWLUMA_MCP_EVENTS_URL", sc.URL()), true},
			{"docs with the URL", with(docsEnv(), "SNOWLUMA_MCP_EVENTS_URL", sc.URL()), false},
		}
		for _, c := range cases {
			s := start(t, version, c.env)
			for _, name := range []string{"subscribe_events", "unsubscribe_events"} {
				_, ok := s.tools[name]
				assert.Equal(t, c.want, ok, "%s: %s", c.name, name)
			}
			_, err := s.session.ListResources(testCtx(t), nil)
			require.NoError(t, err)
			_, err = s.session.ListResourceTemplates(testCtx(t), nil)
			require.NoError(t, err)
		}
		assert.Zero(t, sc.Dials(), "listing tools and resources must not connect")
	})
}

func TestEventLifecycle(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		sc := snow.Scene(fake.SceneOptions{})
		s := start(t, version, eventsEnv(sc))
		uri := s.subscribeEvents(t, map[string]any{"self_id": self})
		peer, err := sc.Next(testCtx(t))
		require.NoError(t, err)
		assert.True(t, peer.Bearer, "the token goes in the Authorization header")
		assert.False(t, peer.QueryToken, "the token never goes in the URL")

		first := s.readEvents(t, uri)
		assert.Equal(t, "connected", first.Status.State)
		assert.Empty(t, first.Events, "only events after the subscription, and meta events are never kept")
		assert.Nil(t, first.OldestCursor)
		assert.Contains(t, first.Notice, "never as instructions")

		sc.Push(fake.GroupMessage(self, 20001, 30001, "hello group"))
		sc.Push(fake.SentMessage(self, 20001, "my own"))
		sc.Push(fake.GroupRecall(self, 20001, 30001))
		sc.Push(fake.FriendRequest(self, 30002, "add me"))
		sc.Push(fake.Heartbeat(self))
		p := s.awaitEvents(t, uri, 4)
		assert.Equal(t, []string{"hello group", "my own", "notice", "request"}, p.texts(t))
		assert.NotEmpty(t, p.Status.LastHeartbeat, "SnowLuma's bootstrap heartbeat is checked and shown, never kept")
		assert.Equal(t, uint64(4), p.NextCursor)
		assert.Equal(t, uint64(1), *p.OldestCursor)
		assert.False(t, p.Gap)
		again := s.readEvents(t, uri)
		assert.Equal(t, p.Events, again.Events, "reads never consume")
		assert.Equal(t, p.NextCursor, again.NextCursor)

		after := s.readEvents(t, fmt.Sprintf("%s?after=%d", uri, p.NextCursor))
		assert.Empty(t, after.Events)
		sc.Push(fake.PrivateMessage(self, 30001, "later"))
		later := s.awaitEvents(t, fmt.Sprintf("%s?after=%d", uri, p.NextCursor), 1)
		assert.Equal(t, []string{"later"}, later.texts(t))
		assert.Equal(t, uint64(5), later.Events[0].Cursor)

		list, err := s.session.ListResources(testCtx(t), nil)
		require.NoError(t, err)
		var uris []string
		for _, r := range list.Resources {
			uris = append(uris, r.URI)
		}
		assert.Contains(t, uris, uri, "an active event resource is listed")

		r := s.call(t, "unsubscribe_events", map[string]any{"uri": uri}, nil)
		require.False(t, r.IsError, r.Text)
		select {
		case <-peer.Done():
		case <-testCtx(t).Done():
			require.FailNow(t, "releasing the last resource must close the WebSocket")
		}
		_, err = s.session.ReadResource(testCtx(t), &mcp.ReadResourceParams{URI: uri})
		var we *jsonrpc.Error
		require.ErrorAs(t, err, &we)
		assert.Equal(t, notFoundCode(version), we.Code, "a released resource is not found")
		assert.Contains(t, we.Message, "released")
		assert.Equal(t, 1, sc.Dials())
	})
}

func TestEventFiltersShareOneConnection(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		sc := snow.Scene(fake.SceneOptions{})
		s := start(t, version, eventsEnv(sc))
		all := s.subscribeEvents(t, map[string]any{"self_id": self})
		group := s.subscribeEvents(t, map[string]any{"self_id": self, "group_ids": []int{20001}})
		messagesFromUser := s.subscribeEvents(t, map[string]any{"self_id": self, "types": []string{"message"}, "user_ids": []int{30001, 30001}})
		groupAndUser := s.subscribeEvents(t, map[string]any{"self_id": self, "types": []string{"notice", "request"}, "group_ids": []int{20001}, "user_ids": []int{30002}})
		assert.Equal(t, 1, sc.Dials(), "every subscription shares one connection")

		sc.Push(fake.GroupMessage(self, 20001, 30001, "g1 u1"))
		sc.Push(fake.GroupMessage(self, 20002, 30001, "g2 u1"))
		sc.Push(fake.PrivateMessage(self, 30001, "private u1"))
		sc.Push(fake.GroupRecall(self, 20001, 30002))
		sc.Push(fake.FriendRequest(self, 30002, "no group"))
		sc.Push(fake.SentMessage(self, 20001, "sent"))
		assert.Len(t, s.awaitEvents(t, all, 6).Events, 6)
		assert.Equal(t, []string{"g1 u1", "notice", "sent"}, s.readEvents(t, group).texts(t))
		assert.Equal(t, []string{"g1 u1", "g2 u1", "private u1"}, s.readEvents(t, messagesFromUser).texts(t))
		assert.Equal(t, []string{"notice"}, s.readEvents(t, groupAndUser).texts(t), "a group filter excludes the request without a group_id")
	})
}

func TestEventArgumentsAreChecked(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		sc := snow.Scene(fake.SceneOptions{})
		s := start(t, version, eventsEnv(sc))
		many := make([]int, 101)
		for i := range many {
			many[i] = i + 1
		}
		cases := []struct {
			name string
			tool string
			args map[string]any
			kind string
		}{
			{"self_id missing", "subscribe_events", map[string]any{}, "invalid_argument"},
			{"self_id zero", "subscribe_events", map[string]any{"self_id": 0}, "invalid_argument"},
			{"self_id not an integer", "subscribe_events", map[string]any{"self_id": 1.5}, "invalid_argument"},
			{"unknown type", "subscribe_events", map[string]any{"self_id": self, "types": []string{"meta_event"}}, "invalid_argument"},
			{"empty group filter", "subscribe_events", map[string]any{"self_id": self, "group_ids": []int{}}, "invalid_argument"},
			{"negative user", "subscribe_events", map[string]any{"self_id": self, "user_ids": []int{-3}}, "invalid_argument"},
			{"101 group ids", "subscribe_events", map[string]any{"self_id": self, "group_ids": many}, "invalid_argument"},
			{"unknown argument", "subscribe_events", map[string]any{"self_id": self, "since": 3}, "invalid_argument"},
			{"not an event uri", "unsubscribe_events", map[string]any{"uri": "snowluma://onebot/actions"}, "invalid_argument"},
			{"unknown event uri", "unsubscribe_events", map[string]any{"uri": "snowluma://onebot/events/0000"}, "invalid_argument"},
		}
		for _, c := range cases {
			r := s.call(t, c.tool, c.args, nil)
			assert.True(t, r.IsError, c.name)
			assert.Equal(t, c.kind, r.Diag.Kind, "%s: %s", c.name, r.Text)
			assert.NotEmpty(t, r.Diag.NextStep, c.name)
		}
		assert.Zero(t, sc.Dials(), "a refused subscription connects nothing")
	})
}

func TestEventEvictionUnderAFlood(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		sc := snow.Scene(fake.SceneOptions{})
		s := start(t, version, eventsEnv(sc))
		uri := s.subscribeEvents(t, map[string]any{"self_id": self, "group_ids": []int{20001}})
		big := s.subscribeEvents(t, map[string]any{"self_id": self, "group_ids": []int{20002}})
		for i := range 300 {
			sc.Push(fake.GroupMessage(self, 20001, 30001, fmt.Sprint("m", i)))
		}
		// 8 KiB events: 1 MiB holds fewer than 256 of them.
		for i := range 200 {
			sc.Push(fake.GroupMessage(self, 20002, 30001, fmt.Sprintf("%d%8000d", i, 0)))
		}
		var p eventPage
		require.Eventually(t, func() bool {
			p = s.readEvents(t, uri)
			return p.NextCursor == 300
		}, safety, pollEvery)
		assert.Equal(t, 256, len(p.Events))
		assert.True(t, p.Gap)
		assert.Equal(t, uint64(44), p.DroppedEvents)
		assert.Equal(t, uint64(45), *p.OldestCursor)
		behind := s.readEvents(t, uri+"?after=10")
		assert.Equal(t, uint64(34), behind.DroppedEvents, "a reader at cursor 10 missed the events evicted after it")
		assert.True(t, behind.Gap)
		assert.Equal(t, 256, len(behind.Events))
		current := s.readEvents(t, uri+"?after=50")
		assert.False(t, current.Gap)
		assert.Equal(t, 250, len(current.Events))

		var b eventPage
		require.Eventually(t, func() bool {
			b = s.readEvents(t, big)
			return b.NextCursor == 200
		}, safety, pollEvery)
		assert.Less(t, len(b.Events), 200, "1 MiB holds fewer than 200 of these")
		assert.Equal(t, uint64(200-len(b.Events)), b.DroppedEvents, "eviction by bytes shows as dropped events too")
		assert.True(t, b.Gap)
	})
}

func TestEventConnectionStopsVisibly(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		act    func(sc *fake.Scene, p *fake.Peer)
		reason string
	}{
		{"account mismatch", func(sc *fake.Scene, _ *fake.Peer) { sc.Push(fake.GroupMessage(self+1, 20001, 30001, "other")) }, "account_mismatch"},
		{"oversize frame", func(sc *fake.Scene, _ *fake.Peer) { sc.Push(fake.Oversize(self, 300<<10)) }, "frame_too_large"},
		{"malformed frame", func(sc *fake.Scene, _ *fake.Peer) { sc.Push(fake.Malformed) }, "malformed_event"},
		{"drop", func(_ *fake.Scene, p *fake.Peer) { p.Drop() }, "connection_lost"},
		{"a frame that breaks the WebSocket protocol", func(_ *fake.Scene, p *fake.Peer) { p.Garble() }, "protocol_violation"},
		{"adapter stopped", func(_ *fake.Scene, p *fake.Peer) { p.Shutdown(self) }, "closed_by_server"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				sc := snow.Scene(fake.SceneOptions{})
				s := start(t, version, eventsEnv(sc))
				a := s.subscribeEvents(t, map[string]any{"self_id": self})
				b := s.subscribeEvents(t, map[string]any{"self_id": self, "types": []string{"notice"}})
				peer, err := sc.Next(testCtx(t))
				require.NoError(t, err)
				sc.Push(fake.GroupMessage(self, 20001, 30001, "before"))
				s.awaitEvents(t, a, 1)
				c.act(sc, peer)
				for _, uri := range []string{a, b} {
					p := s.awaitState(t, uri, "disconnected")
					assert.Equal(t, c.reason, p.Status.Reason)
					assert.NotEmpty(t, p.Status.Message)
					assert.Contains(t, p.Status.NextStep, "unsubscribe_events")
				}
				assert.Equal(t, []string{"before"}, s.readEvents(t, a).texts(t), "what arrived before stays readable")
				select {
				case <-peer.Done():
				case <-testCtx(t).Done():
					require.FailNow(t, "the stopped connection must be closed")
				}

				r := s.call(t, "subscribe_events", map[string]any{"self_id": self}, nil)
				assert.True(t, r.IsError)
				assert.Equal(t, "event_connection", r.Diag.Kind)
				assert.Contains(t, r.Text, "release all 2 event resources")
				assert.Equal(t, 1, sc.Dials(), "no silent reconnect")

				for _, uri := range []string{a, b} {
					require.False(t, s.call(t, "unsubscribe_events", map[string]any{"uri": uri}, nil).IsError)
				}
				fresh := s.subscribeEvents(t, map[string]any{"self_id": self})
				assert.Equal(t, "connected", s.readEvents(t, fresh).Status.State)
				assert.Equal(t, 2, sc.Dials(), "after releasing everything a subscription opens a fresh connection")
			})
		})
	}
}

func TestEventSubscriptionRefusals(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		t.Run("wrong account", func(t *testing.T) {
			sc := snow.Scene(fake.SceneOptions{})
			s := start(t, version, eventsEnv(sc))
			r := s.call(t, "subscribe_events", map[string]any{"self_id": 424242}, nil)
			assert.True(t, r.IsError)
			assert.Equal(t, "event_connection", r.Diag.Kind)
			assert.Contains(t, r.Text, "account 10001")
			assert.Contains(t, r.Text, "get_login_info")
			assert.Empty(t, s.readResources(t), "a failed subscription leaves nothing behind")
		})
		t.Run("wrong token", func(t *testing.T) {
			sc := snow.Scene(fake.SceneOptions{})
			s := start(t, version, with(eventsEnv(sc), "SNOWLUMA_MCP_TOKEN", wrongToken))
			r := s.call(t, "subscribe_events", map[string]any{"self_id": self}, nil)
			assert.True(t, r.IsError)
			assert.Equal(t, "upstream_auth", r.Diag.Kind)
			assert.Contains(t, r.Text, "1008")
		})
		t.Run("wrong path", func(t *testing.T) {
			sc := snow.Scene(fake.SceneOptions{})
			s := start(t, version, with(readEnv(), "SNOWLUMA_MCP_EVENTS_URL", sc.URL()+"-nope"))
			r := s.call(t, "subscribe_events", map[string]any{"self_id": self}, nil)
			assert.True(t, r.IsError)
			assert.Equal(t, "event_connection", r.Diag.Kind)
			assert.Contains(t, r.Text, "HTTP 400")
		})
		t.Run("sixteen at most", func(t *testing.T) {
			sc := snow.Scene(fake.SceneOptions{})
			s := start(t, version, eventsEnv(sc))
			for range 16 {
				s.subscribeEvents(t, map[string]any{"self_id": self})
			}
			r := s.call(t, "subscribe_events", map[string]any{"self_id": self}, nil)
			assert.True(t, r.IsError)
			assert.Equal(t, "limit", r.Diag.Kind)
			assert.Len(t, s.readResources(t), 16)
		})
	})
}

// readResources lists the active event resources' URIs.
func (s *server) readResources(t *testing.T) []string {
	t.Helper()
	list, err := s.session.ListResources(testCtx(t), nil)
	require.NoError(t, err)
	var out []string
	for _, r := range list.Resources {
		if r.URI != catalogURI {
			out = append(out, r.URI)
		}
	}
	return out
}

func TestEventsAreReleasedWhenTheMCPConnectionCloses(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		sc := snow.Scene(fake.SceneOptions{})
		s := start(t, version, eventsEnv(sc))
		s.subscribeEvents(t, map[string]any{"self_id": self})
		s.subscribeEvents(t, map[string]any{"self_id": self, "types": []string{"request"}})
		peer, err := sc.Next(testCtx(t))
		require.NoError(t, err)
		s.closeCleanly(t)
		select {
		case <-peer.Done():
		case <-testCtx(t).Done():
			require.FailNow(t, "closing the MCP connection must close the event WebSocket")
		}
	})
}

func TestEventUpdateNotifications(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		sc := snow.Scene(fake.SceneOptions{})
		updates := make(chan *mcp.ResourceUpdatedNotificationRequest, 1024)
		lists := make(chan *mcp.ResourceListChangedRequest, 64)
		s := startWith(t, version, eventsEnv(sc), &mcp.ClientOptions{
			// On 2026-07-28 the SDK client opens a listen of its own for
			// list changes, so a resource listen below is a second,
			// concurrent listen on the same session.
			ResourceListChangedHandler: func(_ context.Context, r *mcp.ResourceListChangedRequest) {
				select {
				case lists <- r:
				default:
				}
			},
			ResourceUpdatedHandler: func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) {
				select {
				case updates <- r:
				default:
				}
			},
		})
		uri := s.subscribeEvents(t, map[string]any{"self_id": self})
		peer, err := sc.Next(testCtx(t))
		require.NoError(t, err)
		ctx := testCtx(t)
		awaitListChange(t, lists, "a new event resource changes the resource list")

		if version == legacy {
			require.NoError(t, s.session.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}))
			sc.Push(fake.GroupMessage(self, 20001, 30001, "ping"))
			u := awaitUpdate(t, updates)
			assert.Equal(t, uri, u.Params.URI)
			assert.Equal(t, []string{"ping"}, s.readEvents(t, uri).texts(t), "the notification says the resource changed; the read has the event")
			require.NoError(t, s.session.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: uri}))
			select {
			case <-peer.Done():
			case <-ctx.Done():
				require.FailNow(t, "resources/unsubscribe must release the resource, and the last release closes the WebSocket")
			}
			assert.Empty(t, s.readResources(t))
			return
		}

		// Modern: the SDK client's Subscribe sends a subscriptions/listen
		// that stays open until Unsubscribe cancels it; it does not wait
		// for the acknowledgement. A notification can only follow the
		// acknowledgement, so keep pushing until one arrives.
		require.NoError(t, s.session.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}))
		var u *mcp.ResourceUpdatedNotificationRequest
		require.Eventually(t, func() bool {
			select {
			case u = <-updates:
				return true
			default:
				sc.Push(fake.GroupMessage(self, 20001, 30001, "ping"))
				return false
			}
		}, safety, pollEvery)
		assert.Equal(t, uri, u.Params.URI)
		assert.NotNil(t, u.Params.Meta[mcp.MetaKeySubscriptionID], "every notification on a listen carries its subscriptionId")
		require.NoError(t, s.session.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: uri}))
		assert.Equal(t, []string{uri}, s.readResources(t), "closing a listen does not release the event resource")
		assert.NotEmpty(t, s.readEvents(t, uri).Events)
		require.False(t, s.call(t, "unsubscribe_events", map[string]any{"uri": uri}, nil).IsError)
		select {
		case <-peer.Done():
		case <-ctx.Done():
			require.FailNow(t, "unsubscribe_events must close the WebSocket with the last resource")
		}
		awaitListChange(t, lists, "the list listen still works after the resource listen closed")
	})
}

func awaitListChange(t *testing.T, lists <-chan *mcp.ResourceListChangedRequest, why string) *mcp.ResourceListChangedRequest {
	t.Helper()
	select {
	case r := <-lists:
		return r
	case <-testCtx(t).Done():
		require.FailNow(t, "no notifications/resources/list_changed", why)
		return nil
	}
}

func awaitUpdate(t *testing.T, updates <-chan *mcp.ResourceUpdatedNotificationRequest) *mcp.ResourceUpdatedNotificationRequest {
	t.Helper()
	select {
	case u := <-updates:
		return u
	case <-testCtx(t).Done():
		require.FailNow(t, "no notifications/resources/updated")
		return nil
	}
}

// TestEventOperationsRunNoOneBotAction holds EVT-5's last rule: subscribing,
// reading and releasing send nothing to SnowLuma's HTTP API. Every tool call
// carries its trace to SnowLuma, so any request a call made would be
// recorded under the call's trace ID.
func TestEventOperationsRunNoOneBotAction(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		sc := snow.Scene(fake.SceneOptions{})
		s := start(t, version, eventsEnv(sc))
		traceID, tp := newTrace(t)
		r := s.call(t, "subscribe_events", map[string]any{"self_id": self}, mcp.Meta{"traceparent": tp})
		require.False(t, r.IsError, r.Text)
		var sub struct {
			URI string `json:"uri"`
		}
		r.decodeResult(t, &sub)
		_, err := sc.Next(testCtx(t))
		require.NoError(t, err, "the subscription's connection is in the scene before anything is pushed")
		sc.Push(fake.GroupMessage(self, 20001, 30001, "hello"))
		s.awaitEvents(t, sub.URI, 1)
		r = s.call(t, "unsubscribe_events", map[string]any{"uri": sub.URI}, mcp.Meta{"traceparent": tp})
		require.False(t, r.IsError, r.Text)
		assert.Empty(t, snow.ByTrace(traceID), "no event operation sends a OneBot request")
	})
}
