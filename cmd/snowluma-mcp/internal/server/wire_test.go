package server

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCarryTaskIDs(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		{"taskIds are copied into _meta",
			`{"_meta":{"a":1},"notifications":{"taskIds":["t1","t2"]}}`,
			`{"_meta":{"a":1,"snowluma-mcp/listen-taskIds":["t1","t2"]},"notifications":{"taskIds":["t1","t2"]}}`},
		{"a listen without _meta gets one",
			`{"notifications":{"taskIds":[]}}`,
			`{"_meta":{"snowluma-mcp/listen-taskIds":[]},"notifications":{"taskIds":[]}}`},
		{"taskIds of the wrong type are carried for the server to refuse",
			`{"_meta":{},"notifications":{"taskIds":"x"}}`,
			`{"_meta":{"snowluma-mcp/listen-taskIds":"x"},"notifications":{"taskIds":"x"}}`},
		{"a client cannot ask through the private key",
			`{"_meta":{"snowluma-mcp/listen-taskIds":["t1"]},"notifications":{}}`,
			`{"_meta":{},"notifications":{}}`},
		{"the private key follows taskIds, not the client",
			`{"_meta":{"snowluma-mcp/listen-taskIds":["t9"]},"notifications":{"taskIds":["t1"]}}`,
			`{"_meta":{"snowluma-mcp/listen-taskIds":["t1"]},"notifications":{"taskIds":["t1"]}}`},
		{"null taskIds are as if left out",
			`{"_meta":{},"notifications":{"taskIds":null}}`,
			`{"_meta":{},"notifications":{"taskIds":null}}`},
		{"a listen without taskIds is untouched",
			`{"_meta":{"a":1},"notifications":{"toolsListChanged":true}}`,
			`{"_meta":{"a":1},"notifications":{"toolsListChanged":true}}`},
		{"params that are not an object are left for the SDK to refuse",
			`[1,2]`, `[1,2]`},
		{"a _meta that is not an object is left for the SDK to refuse",
			`{"_meta":3,"notifications":{"taskIds":["t1"]}}`,
			`{"_meta":3,"notifications":{"taskIds":["t1"]}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := carryTaskIDs(json.RawMessage(tc.in))
			assert.JSONEq(t, tc.want, string(got))
		})
	}
}

func TestTheWireExpandsSuccessfulResultsOnTheWayOut(t *testing.T) {
	t.Parallel()
	w := NewWire()
	raw := json.RawMessage(`{"tools":["a"]}`)
	ref := w.answers.ref(raw)
	id, err := jsonrpc.MakeID(float64(4))
	require.NoError(t, err)
	tests := []struct {
		name string
		msg  jsonrpc.Message
		want jsonrpc.Message
	}{
		{"a reference in a result is replaced", &jsonrpc.Response{ID: id, Result: ref}, &jsonrpc.Response{ID: id, Result: raw}},
		{"another result is kept", &jsonrpc.Response{ID: id, Result: json.RawMessage(`{"ref":2}`)}, &jsonrpc.Response{ID: id, Result: json.RawMessage(`{"ref":2}`)}},
		{"an error is left alone", &jsonrpc.Response{ID: id, Error: &jsonrpc.Error{Code: -32603, Message: "m"}}, &jsonrpc.Response{ID: id, Error: &jsonrpc.Error{Code: -32603, Message: "m"}}},
		{"a notification is left alone", &jsonrpc.Request{Method: "notifications/x", Params: ref}, &jsonrpc.Request{Method: "notifications/x", Params: ref}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tr := &recordingTransport{}
			c, err := w.wrap(tr).Connect(context.Background())
			require.NoError(t, err)
			require.NoError(t, c.Write(context.Background(), tt.msg))
			require.Len(t, tr.conn.written, 1)
			assert.Equal(t, tt.want, tr.conn.written[0])
		})
	}
}

func TestTheWireNotifiesOnTheLatestConnection(t *testing.T) {
	t.Parallel()
	w := NewWire()
	require.ErrorIs(t, w.notify(context.Background(), "notifications/tasks", map[string]any{}), errNoConnection)
	first, latest := &recordingTransport{}, &recordingTransport{}
	_, err := w.wrap(first).Connect(context.Background())
	require.NoError(t, err)
	_, err = w.wrap(latest).Connect(context.Background())
	require.NoError(t, err)
	require.NoError(t, w.notify(context.Background(), "notifications/tasks", map[string]any{"taskId": "t"}))
	assert.Empty(t, first.conn.written, "an earlier connection hears nothing once a newer one exists")
	require.Len(t, latest.conn.written, 1)
	n, ok := latest.conn.written[0].(*jsonrpc.Request)
	require.True(t, ok)
	assert.Equal(t, "notifications/tasks", n.Method)
	assert.False(t, n.ID.IsValid(), "a notification has no id")
	assert.JSONEq(t, `{"taskId":"t"}`, string(n.Params))
}

// recordingTransport connects a connection that keeps what is written.
type recordingTransport struct{ conn *recordingConn }

func (t *recordingTransport) Connect(context.Context) (mcp.Connection, error) {
	t.conn = &recordingConn{}
	return t.conn, nil
}

type recordingConn struct {
	mu      sync.Mutex
	written []jsonrpc.Message
}

func (c *recordingConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

func (c *recordingConn) Write(_ context.Context, msg jsonrpc.Message) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.written = append(c.written, msg)
	return nil
}

func (c *recordingConn) Close() error      { return nil }
func (c *recordingConn) SessionID() string { return "" }
