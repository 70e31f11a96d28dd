package server

import (
	"context"
	"encoding/json"
	"errors"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// listenTaskIDsKey is the _meta key under which Bypass hands a listen's
// notifications.taskIds to the server's middleware. It is private to this
// process: Bypass sets or removes it on every listen, so what the
// middleware finds there is always what the client put in taskIds.
const listenTaskIDsKey = "snowluma-mcp/listen-taskIds"

// Bypass carries what the SDK's typed messages cannot, in both directions,
// for the tasks extension's status notifications:
//
//   - In: the SDK decodes subscriptions/listen into a filter type that has
//     no taskIds, so the field is lost before any middleware runs. Bypass
//     copies it into the request's _meta, which the SDK keeps.
//   - Out: the SDK sends only notification methods it knows, and its
//     acknowledgement of a listen can only echo the filter fields it knows.
//     Bypass writes notifications/tasks, and the acknowledgement that
//     echoes taskIds, straight onto the session's connection.
//
// cmd wraps the transport it runs with Transport. A server serves one
// session per connection it is given; Bypass writes to the latest one,
// which on stdio is the only one.
type Bypass struct {
	mu   sync.Mutex
	conn mcp.Connection
}

// Transport wraps t so that Bypass sees its connection; a nil Bypass
// leaves t as it is.
func (b *Bypass) Transport(t mcp.Transport) mcp.Transport {
	if b == nil {
		return t
	}
	return bypassTransport{b: b, inner: t}
}

// errNoConnection is notify's failure before any connection exists.
var errNoConnection = errors.New("no MCP connection to write to")

// notify writes a notification with the given method and params onto the
// connection, in the same stream and order as the SDK's own messages.
func (b *Bypass) notify(ctx context.Context, method string, params any) error {
	raw, err := json.Marshal(params)
	if err != nil {
		return err
	}
	b.mu.Lock()
	c := b.conn
	b.mu.Unlock()
	if c == nil {
		return errNoConnection
	}
	return c.Write(ctx, &jsonrpc.Request{Method: method, Params: raw})
}

type bypassTransport struct {
	b     *Bypass
	inner mcp.Transport
}

func (t bypassTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	t.b.mu.Lock()
	t.b.conn = c
	t.b.mu.Unlock()
	return bypassConn{c}, nil
}

// bypassConn is the connection the SDK reads through: it only looks at
// subscriptions/listen requests, and passes everything else untouched.
type bypassConn struct{ mcp.Connection }

func (c bypassConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if req, ok := msg.(*jsonrpc.Request); ok && err == nil && req.Method == "subscriptions/listen" {
		req.Params = carryTaskIDs(req.Params)
	}
	return msg, err
}

// carryTaskIDs returns listen params with notifications.taskIds, as sent,
// copied to _meta[listenTaskIDsKey], and that key removed when there is no
// taskIds. Params it cannot read are returned unchanged, for the SDK to
// refuse.
func carryTaskIDs(params json.RawMessage) json.RawMessage {
	var p map[string]json.RawMessage
	if json.Unmarshal(params, &p) != nil || p == nil {
		return params
	}
	var filter struct {
		TaskIDs json.RawMessage `json:"taskIds"`
	}
	_ = json.Unmarshal(p["notifications"], &filter)
	if string(filter.TaskIDs) == "null" {
		filter.TaskIDs = nil // as if left out
	}
	var meta map[string]json.RawMessage
	if m, ok := p["_meta"]; ok && json.Unmarshal(m, &meta) != nil {
		return params
	}
	_, had := meta[listenTaskIDsKey]
	if filter.TaskIDs == nil && !had {
		return params
	}
	if meta == nil {
		meta = map[string]json.RawMessage{}
	}
	delete(meta, listenTaskIDsKey)
	if filter.TaskIDs != nil {
		meta[listenTaskIDsKey] = filter.TaskIDs
	}
	m, err := json.Marshal(meta)
	if err != nil {
		return params
	}
	p["_meta"] = m
	out, err := json.Marshal(p)
	if err != nil {
		return params
	}
	return out
}
