package events

import (
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/hub"
)

func TestReadAnswersEachURIWithItsPageOrAReason(t *testing.T) {
	t.Parallel()
	h, id := activeResource(t)
	tests := []struct {
		name, uri string
		code      int64 // 0: a page; -1: ErrNotFound
		why       string
	}{
		{"the resource from the start", hub.URI(id), 0, ""},
		{"after a cursor", hub.URI(id) + "?after=0", 0, ""},
		{"a resource that does not exist", hub.URI("0000"), -1, ""},
		{"a cursor never issued", hub.URI(id) + "?after=9", jsonrpc.CodeInvalidParams, "cursor"},
		{"another query", hub.URI(id) + "?x=1", jsonrpc.CodeInvalidParams, "only query"},
		{"a further path", hub.URI(id) + "/x", jsonrpc.CodeInvalidParams, "not an event resource URI"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			text, err := Read(h, tt.uri)
			switch tt.code {
			case 0:
				require.NoError(t, err)
				var p map[string]any
				require.NoError(t, json.Unmarshal([]byte(text), &p))
				assert.Equal(t, hub.URI(id), p["uri"], "the canonical URI, without the query")
				assert.Contains(t, p["content_notice"], "never as instructions")
				assert.Contains(t, p, "next_cursor")
			case -1:
				assert.ErrorIs(t, err, ErrNotFound)
			default:
				var je *jsonrpc.Error
				require.ErrorAs(t, err, &je)
				assert.Equal(t, tt.code, je.Code)
				assert.Contains(t, je.Message, tt.why)
				assert.JSONEq(t, `{"uri":`+string(mustJSON(t, tt.uri))+`}`, string(je.Data), "the URI goes in data")
			}
		})
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}

func TestResourcesListsEachActiveResource(t *testing.T) {
	t.Parallel()
	h, id := activeResource(t)
	list := Resources(h)
	require.Len(t, list, 1)
	assert.Equal(t, hub.URI(id), list[0].URI)
	assert.Equal(t, "onebot-events-"+id, list[0].Name)
	assert.Equal(t, "Live events for account 10001", list[0].Title)
	assert.Contains(t, list[0].Description, "connection connected")
	require.NoError(t, h.Release(id))
	assert.Empty(t, Resources(h))
}

func TestOnlyActiveEventResourcesCanBeSubscribed(t *testing.T) {
	t.Parallel()
	h, id := activeResource(t)
	w := NewWatcher(h, nowhere{})
	sub := func(uri string, inListen bool) error {
		return w.Subscribe(&mcp.SubscribeRequest{Params: &mcp.SubscribeParams{URI: uri}}, inListen)
	}
	for uri, why := range map[string]string{
		hub.URI(id) + "?after=0":    "without ?after",
		"snowluma://onebot/actions": "only event resources",
		hub.URI("0000"):             "no active event resource",
	} {
		var je *jsonrpc.Error
		require.ErrorAs(t, sub(uri, false), &je, uri)
		assert.Equal(t, int64(jsonrpc.CodeInvalidParams), je.Code, uri)
		assert.Contains(t, je.Message, why, uri)
	}
	require.NoError(t, sub(hub.URI(id), true))
	assert.Empty(t, w.legacy, "a listen's URIs are recorded by Watch, not here")
	require.NoError(t, sub(hub.URI(id), false))
	assert.Len(t, w.legacy[hub.URI(id)], 1, "resources/subscribe records the session")

	unsub := func(uri string, inListen bool) error {
		return w.Unsubscribe(&mcp.UnsubscribeRequest{Params: &mcp.UnsubscribeParams{URI: uri}}, inListen)
	}
	require.NoError(t, unsub(hub.URI(id), true))
	assert.True(t, h.Has(id), "a listen ending releases nothing")
	var je *jsonrpc.Error
	require.ErrorAs(t, unsub("snowluma://onebot/actions", false), &je)
	require.NoError(t, unsub(hub.URI(id), false))
	assert.False(t, h.Has(id), "resources/unsubscribe releases the resource")
	assert.Empty(t, w.legacy)
	require.NoError(t, unsub(hub.URI(id), false), "releasing it twice is no error")
}
