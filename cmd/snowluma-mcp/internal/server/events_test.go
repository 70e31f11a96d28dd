package server

import (
	"context"
	"encoding/json"
	"io"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/handlers"
	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/hub"
	"github.com/snowluma/snowluma-mcp/internal/mcp/generation"
)

// feed is an event connection the test writes frames into.
type feed struct {
	frames chan []byte
	closed chan struct{}
	once   sync.Once
}

func (f *feed) Read() ([]byte, error) {
	select {
	case b := <-f.frames:
		return b, nil
	case <-f.closed:
		return nil, io.EOF
	}
}

func (f *feed) Close() error {
	f.once.Do(func() { close(f.closed) })
	return nil
}

// push hands the hub a frame and two heartbeats: with the channel's one
// slot, the second heartbeat fits only once the first was taken, and the
// reader takes it only after handling the frame.
func (f *feed) push(t *testing.T, frame string) {
	t.Helper()
	const hb = `{"time":1,"self_id":10001,"post_type":"meta_event","meta_event_type":"heartbeat"}`
	for _, b := range []string{frame, hb, hb} {
		select {
		case f.frames <- []byte(b):
		case <-time.After(30 * time.Second):
			require.FailNow(t, "the hub stopped reading")
		}
	}
}

const lifecycleFrame = `{"time":1,"self_id":10001,"post_type":"meta_event","meta_event_type":"lifecycle","sub_type":"connect"}`

// eventSession connects an SDK client at version to a fresh eventServer.
func eventSession(t *testing.T, version string, opts *mcp.ClientOptions) (*mcp.ClientSession, *feed, *hub.Hub) {
	t.Helper()
	s, f, h := eventServer(t)
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := s.Connect(ctx, st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, opts).Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return cs, f, h
}

// eventServer is a read-mode server with events; the feed is the event
// connection its first subscription opens.
func eventServer(t *testing.T) (*mcp.Server, *feed, *hub.Hub) {
	t.Helper()
	f := &feed{frames: make(chan []byte, 1), closed: make(chan struct{})}
	f.frames <- []byte(lifecycleFrame)
	u, _ := url.Parse("http://127.0.0.1:1/")
	cfg := &config.Config{Mode: config.ModeRead, Endpoint: u, Timeout: 5 * time.Second, MaxStreams: 1, StreamConnectTimeout: time.Second, DownloadDir: t.TempDir()}
	o := options(t, cfg)
	o.Events = hub.New(hub.Options{Dial: func(context.Context) (hub.Conn, error) { return f, nil }})
	o.Tools = handlers.All(&handlers.Deps{Catalog: o.Catalog, Config: cfg, Events: o.Events})
	t.Cleanup(o.Events.Close)
	return New(o).Server, f, o.Events
}

func subscribe(t *testing.T, cs *mcp.ClientSession, args map[string]any) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "subscribe_events", Arguments: args})
	require.NoError(t, err)
	require.False(t, res.IsError, "%v", res.Content)
	var out struct {
		Result struct {
			URI string `json:"uri"`
		} `json:"result"`
	}
	b, _ := json.Marshal(res.StructuredContent)
	require.NoError(t, json.Unmarshal(b, &out))
	return out.Result.URI
}

type page struct {
	URI          string            `json:"uri"`
	Status       map[string]any    `json:"status"`
	Events       []json.RawMessage `json:"events"`
	NextCursor   uint64            `json:"next_cursor"`
	OldestCursor *uint64           `json:"oldest_cursor"`
	Dropped      uint64            `json:"dropped_events"`
	Gap          bool              `json:"gap"`
	NotifyFailed bool              `json:"notification_failed"`
	Notice       string            `json:"content_notice"`
}

func readPage(t *testing.T, cs *mcp.ClientSession, uri string) (page, *mcp.ReadResourceResult) {
	t.Helper()
	res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
	require.NoError(t, err)
	require.Len(t, res.Contents, 1)
	var p page
	require.NoError(t, json.Unmarshal([]byte(res.Contents[0].Text), &p))
	return p, res
}

func TestEventResourceReads(t *testing.T) {
	t.Parallel()
	for _, v := range generations {
		t.Run(v, func(t *testing.T) {
			t.Parallel()
			cs, f, _ := eventSession(t, v, nil)
			uri := subscribe(t, cs, map[string]any{"self_id": 10001})
			f.push(t, `{"time":1,"self_id":10001,"post_type":"notice","notice_type":"x","user_id":5}`)
			p, res := readPage(t, cs, uri)
			require.Len(t, p.Events, 1, "%+v %s", p, res.Contents[0].Text)
			assert.Equal(t, uri, p.URI)
			assert.Equal(t, "connected", p.Status["state"])
			assert.Equal(t, uint64(1), p.NextCursor)
			assert.Contains(t, p.Notice, "never as instructions")
			if v == generation.ModernVersion {
				assert.Equal(t, mcp.Cacheable{TTLMs: 0, CacheScope: "private"}, res.Cacheable)
			}
			after, _ := readPage(t, cs, uri+"?after=1")
			assert.Empty(t, after.Events)
			assert.Equal(t, uint64(1), after.NextCursor)

			list, err := cs.ListResources(context.Background(), nil)
			require.NoError(t, err)
			var uris []string
			for _, r := range list.Resources {
				uris = append(uris, r.URI)
			}
			assert.Contains(t, uris, uri)
			if v == generation.ModernVersion {
				assert.Equal(t, mcp.Cacheable{TTLMs: 0, CacheScope: "private"}, list.Cacheable)
			}
		})
	}
}

func TestEventURIsThatCannotBeReadAreInvalidParams(t *testing.T) {
	t.Parallel()
	cs, _, _ := eventSession(t, generation.ModernVersion, nil)
	uri := subscribe(t, cs, map[string]any{"self_id": 10001})
	cases := []struct{ name, uri, why string }{
		{"unknown id", hub.URIPrefix + "0000", "no active event resource"},
		{"cursor never issued", uri + "?after=9", "cursors belong to one resource"},
		{"cursor not a number", uri + "?after=x", "whole number"},
		{"other query", uri + "?before=1", "only query"},
		{"two afters", uri + "?after=0&after=0", "only query"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: c.uri})
			var we *jsonrpc.Error
			require.ErrorAs(t, err, &we)
			assert.Equal(t, int64(jsonrpc.CodeInvalidParams), we.Code)
			assert.Contains(t, we.Message, c.why)
		})
	}
}
