package server

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/mcp/generation"
)

const noticeFrame = `{"time":1,"self_id":10001,"post_type":"notice","notice_type":"x","user_id":5}`

// waitFor bounds waits that would otherwise hang on a broken build; it is
// never an assertion about speed.
const waitFor = 30 * time.Second

func TestLegacySubscribeGetsUpdatesAndUnsubscribeReleases(t *testing.T) {
	t.Parallel()
	updates := make(chan *mcp.ResourceUpdatedNotificationRequest, 16)
	cs, f, h := eventSession(t, "2025-11-25", &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) { updates <- r },
	})
	assert.True(t, cs.InitializeResult().Capabilities.Resources.Subscribe)
	uri := subscribe(t, cs, map[string]any{"self_id": 10001})
	ctx := context.Background()
	require.NoError(t, cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}))
	f.push(t, noticeFrame)
	select {
	case u := <-updates:
		assert.Equal(t, uri, u.Params.URI)
		assert.NotContains(t, u.Params.Meta, mcp.MetaKeySubscriptionID, "legacy updates carry no subscriptionId")
	case <-time.After(waitFor):
		require.FailNow(t, "no notifications/resources/updated")
	}
	require.NoError(t, cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: uri}))
	assert.Empty(t, h.List(), "resources/unsubscribe releases the event resource")
}

func TestSubscribingToWhatIsNotAnActiveEventResourceIsInvalidParams(t *testing.T) {
	t.Parallel()
	cs, _, _ := eventSession(t, "2025-11-25", nil)
	uri := subscribe(t, cs, map[string]any{"self_id": 10001})
	for _, bad := range []string{catalogURI, uri + "?after=0", "snowluma://onebot/events/nope"} {
		err := cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: bad})
		var we *jsonrpc.Error
		require.ErrorAs(t, err, &we, bad)
		assert.Equal(t, int64(jsonrpc.CodeInvalidParams), we.Code, bad)
	}
}

func TestTwoListensOnOneSessionEachGetTheirOwnUpdates(t *testing.T) {
	t.Parallel()
	s, f, h := eventServer(t)
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := s.Connect(ctx, st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = ss.Close() })
	conn, err := ct.Connect(ctx)
	require.NoError(t, err)
	msgs := make(chan jsonrpc.Message, 64)
	go func() {
		for {
			m, err := conn.Read(ctx)
			if err != nil {
				close(msgs)
				return
			}
			msgs <- m
		}
	}()
	meta := map[string]any{
		"io.modelcontextprotocol/protocolVersion":    generation.ModernVersion,
		"io.modelcontextprotocol/clientCapabilities": map[string]any{},
		"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "t", "version": "1"},
	}
	write := func(id any, method string, params map[string]any) {
		params["_meta"] = meta
		b, _ := json.Marshal(params)
		req := &jsonrpc.Request{Method: method, Params: b}
		if id != nil {
			rid, err := jsonrpc.MakeID(id)
			require.NoError(t, err)
			req.ID = rid
		}
		require.NoError(t, conn.Write(ctx, req))
	}
	next := func() jsonrpc.Message {
		select {
		case m, ok := <-msgs:
			require.True(t, ok, "connection closed")
			return m
		case <-time.After(waitFor):
			require.FailNow(t, "no message")
			return nil
		}
	}
	write("call", "tools/call", map[string]any{"name": "subscribe_events", "arguments": map[string]any{"self_id": 10001}})
	var uri string
	for uri == "" {
		if r, ok := next().(*jsonrpc.Response); ok {
			var res struct {
				StructuredContent struct {
					Result struct{ URI string } `json:"result"`
				} `json:"structuredContent"`
			}
			require.NoError(t, json.Unmarshal(r.Result, &res))
			uri = res.StructuredContent.Result.URI
		}
	}
	// Notification params, by subscriptionId, in arrival order.
	type note struct{ method, sub, uri string }
	read := func() note {
		m := next()
		n, ok := m.(*jsonrpc.Request)
		require.True(t, ok, "want a notification, got %T", m)
		var p struct {
			Meta map[string]any `json:"_meta"`
			URI  string         `json:"uri"`
		}
		require.NoError(t, json.Unmarshal(n.Params, &p))
		sub, _ := p.Meta[mcp.MetaKeySubscriptionID].(string)
		return note{n.Method, sub, p.URI}
	}
	for _, id := range []string{"listen-a", "listen-b"} {
		write(id, "subscriptions/listen", map[string]any{"notifications": map[string]any{"resourceSubscriptions": []string{uri}}})
		n := read()
		for n.method == "notifications/resources/updated" && n.sub != id {
			// An earlier listen may get one update for a change made while
			// it was being acknowledged; this listen's first message is
			// still its acknowledgement.
			n = read()
		}
		assert.Equal(t, note{"notifications/subscriptions/acknowledged", id, ""}, n, "the acknowledgement comes first")
	}
	f.push(t, noticeFrame)
	got := map[string]bool{}
	for len(got) < 2 {
		// A listen may also get an update for a change made while it was
		// being acknowledged; each must get its own.
		n := read()
		assert.Equal(t, "notifications/resources/updated", n.method)
		assert.Equal(t, uri, n.uri)
		got[n.sub] = true
	}
	assert.Equal(t, map[string]bool{"listen-a": true, "listen-b": true}, got, "each listen gets its own update")

	cancel, _ := json.Marshal(map[string]any{"requestId": "listen-a", "_meta": meta})
	require.NoError(t, conn.Write(ctx, &jsonrpc.Request{Method: "notifications/cancelled", Params: cancel}))
	for {
		// The cancelled listen answers; nothing else may come first.
		if r, ok := next().(*jsonrpc.Response); ok {
			assert.Equal(t, "listen-a", r.ID.Raw())
			break
		}
	}
	assert.Len(t, h.List(), 1, "closing a listen does not release the event resource")
	f.push(t, noticeFrame)
	assert.Equal(t, note{"notifications/resources/updated", "listen-b", uri}, read(), "the other listen still gets updates")

	write("listen-lists", "subscriptions/listen", map[string]any{"notifications": map[string]any{"resourcesListChanged": true}})
	assert.Equal(t, note{"notifications/subscriptions/acknowledged", "listen-lists", ""}, read())
	write("call-2", "tools/call", map[string]any{"name": "subscribe_events", "arguments": map[string]any{"self_id": 10001}})
	for {
		m := next()
		if _, isResponse := m.(*jsonrpc.Response); isResponse {
			continue
		}
		n := m.(*jsonrpc.Request)
		if n.Method == "notifications/resources/list_changed" {
			var p struct {
				Meta map[string]any `json:"_meta"`
			}
			require.NoError(t, json.Unmarshal(n.Params, &p))
			assert.Equal(t, "listen-lists", p.Meta[mcp.MetaKeySubscriptionID], "a new event resource is a list change for the listen that asked")
			break
		}
	}
}

func TestAnUndeliverableNotificationIsVisibleOnTheResource(t *testing.T) {
	t.Parallel()
	s, f, _ := eventServer(t)
	ctx := context.Background()
	connectClient := func() (*mcp.ClientSession, *mcp.ServerSession) {
		st, ct := mcp.NewInMemoryTransports()
		ss, err := s.Connect(ctx, st, nil)
		require.NoError(t, err)
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
		require.NoError(t, err)
		t.Cleanup(func() { _ = cs.Close(); _ = ss.Close() })
		return cs, ss
	}
	gone, goneServer := connectClient()
	uri := subscribe(t, gone, map[string]any{"self_id": 10001})
	require.NoError(t, gone.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}))
	require.NoError(t, gone.Close())
	_ = goneServer.Wait()
	reader, _ := connectClient()
	f.push(t, noticeFrame)
	require.Eventually(t, func() bool {
		p, _ := readPage(t, reader, uri)
		return p.NotifyFailed
	}, waitFor, 10*time.Millisecond, "a notification to a closed session must set notification_failed")
}

func TestLegacySessionsAreToldWhenEventResourcesComeAndGo(t *testing.T) {
	t.Parallel()
	changes := make(chan struct{}, 16)
	cs, _, _ := eventSession(t, "2025-11-25", &mcp.ClientOptions{
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) { changes <- struct{}{} },
	})
	await := func(what string) {
		select {
		case <-changes:
		case <-time.After(waitFor):
			require.FailNow(t, "no notifications/resources/list_changed", what)
		}
	}
	uri := subscribe(t, cs, map[string]any{"self_id": 10001})
	await("after subscribe_events")
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "unsubscribe_events", Arguments: map[string]any{"uri": uri}})
	require.NoError(t, err)
	require.False(t, res.IsError)
	await("after unsubscribe_events")
}

func TestAListenForWhatIsNotAnActiveEventResourceIsInvalidParams(t *testing.T) {
	t.Parallel()
	// The SDK client never awaits a listen's answer, so this speaks JSON-RPC.
	s, _, _ := eventServer(t)
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := s.Connect(ctx, st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = ss.Close() })
	conn, err := ct.Connect(ctx)
	require.NoError(t, err)
	params, _ := json.Marshal(map[string]any{
		"_meta": map[string]any{
			"io.modelcontextprotocol/protocolVersion":    generation.ModernVersion,
			"io.modelcontextprotocol/clientCapabilities": map[string]any{},
			"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "t", "version": "1"},
		},
		"notifications": map[string]any{"resourceSubscriptions": []string{"snowluma://onebot/events/nope"}},
	})
	id, _ := jsonrpc.MakeID("listen-x")
	require.NoError(t, conn.Write(ctx, &jsonrpc.Request{ID: id, Method: "subscriptions/listen", Params: params}))
	readCtx, cancel := context.WithTimeout(ctx, waitFor)
	defer cancel()
	m, err := conn.Read(readCtx)
	require.NoError(t, err)
	r, ok := m.(*jsonrpc.Response)
	require.True(t, ok, "the refused listen is answered at once, with no acknowledgement: got %T", m)
	var we *jsonrpc.Error
	require.ErrorAs(t, r.Error, &we)
	assert.Equal(t, int64(jsonrpc.CodeInvalidParams), we.Code)
	assert.Contains(t, we.Message, "subscribe_events creates one")
}
