package server

import (
	"context"
	"encoding/json"
	"errors"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/snowluma/snowluma-mcp/cmd/snowluma-mcp/internal/server/tasks"
)

// Wire is the server's own hold on the connection it serves, for what the
// SDK's typed messages cannot carry. cmd hands the same Wire to New and to
// Transport, the server's seam at its connection. Through it:
//
//   - In: the SDK decodes subscriptions/listen into a filter type that has
//     no taskIds, so the field is lost before any middleware runs. The
//     wire copies it into the request's _meta, which the SDK keeps
//     (carryTaskIDs).
//   - Out: the SDK sends only notification methods it knows, and its
//     acknowledgement of a listen can only echo the filter fields it knows.
//     The tasks extension's notifications/tasks, and the acknowledgement
//     that echoes taskIds, are written straight onto the connection
//     (notify).
//   - Out: an answer encoded once (resultcache.go) marshals to a short
//     reference, and the wire writes the bytes it stands for in its place
//     (answerBook.expand).
//   - In: a tool call's large arguments are parked beside the SDK, which
//     would read them twice before any middleware and never use them, and
//     a middleware puts them back (parked.go); the call's answer going out
//     forgets any the SDK never handed on.
//
// A server serves one session per connection it is given; the wire writes
// its notifications to the latest one, which on stdio is the only one.
// Without a Wire (a nil one, as on the tests' in-memory transports) task
// notifications are not offered and cached answers marshal to their full
// bytes.
type Wire struct {
	// answers are the cached answers' encodings, written in place of the
	// references they marshal to (resultcache.go).
	answers *answerBook
	// parked are the large tool-call arguments the SDK is handed a
	// reference to (parked.go).
	parked *argumentBook

	mu   sync.RWMutex
	conn mcp.Connection
}

// NewWire returns a wire with a fresh nonce and no connection yet.
func NewWire() *Wire {
	return &Wire{answers: newAnswerBook(), parked: newArgumentBook()}
}

// argumentBook is where the wire parks large tool-call arguments: the
// wire's, or none without a wire.
func (w *Wire) argumentBook() *argumentBook {
	if w == nil {
		return nil
	}
	return w.parked
}

// answerBook is where the result cache registers its encodings: the
// wire's, or none without a wire.
func (w *Wire) answerBook() *answerBook {
	if w == nil {
		return nil
	}
	return w.answers
}

// wrap wraps t so that the wire sees its connection; a nil Wire leaves t
// as it is.
func (w *Wire) wrap(t mcp.Transport) mcp.Transport {
	if w == nil {
		return t
	}
	return wireTransport{w: w, inner: t}
}

// errNoConnection is notify's failure before any connection exists.
var errNoConnection = errors.New("no MCP connection to write to")

// notify writes a notification with the given method and params onto the
// connection, in the same stream and order as the SDK's own messages. The
// SDK has no API to send a method it does not know, and no contract test
// can call an API that is absent; TestTheWireNotifiesOnTheLatestConnection
// pins ours.
func (w *Wire) notify(ctx context.Context, method string, params any) error {
	raw, err := json.Marshal(params)
	if err != nil {
		return err
	}
	w.mu.RLock()
	c := w.conn
	w.mu.RUnlock()
	if c == nil {
		return errNoConnection
	}
	return c.Write(ctx, &jsonrpc.Request{Method: method, Params: raw})
}

type wireTransport struct {
	w     *Wire
	inner mcp.Transport
}

func (t wireTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	t.w.mu.Lock()
	t.w.conn = c
	t.w.mu.Unlock()
	return wireConn{Connection: c, w: t.w}, nil
}

// wireConn is the connection the SDK reads and writes through: it looks
// only at subscriptions/listen requests and large tool calls coming in and
// responses going out, and passes everything else untouched.
type wireConn struct {
	mcp.Connection
	w *Wire
}

func (c wireConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if req, ok := msg.(*jsonrpc.Request); ok && err == nil {
		switch req.Method {
		case "subscriptions/listen":
			req.Params = carryTaskIDs(req.Params)
		case "tools/call":
			c.w.parked.park(c.Connection, req)
		}
	}
	return msg, err
}

func (c wireConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.w.parked.settle(c.Connection, resp.ID)
		if resp.Error == nil {
			resp.Result = c.w.answers.expand(resp.Result)
		}
	}
	return c.Connection.Write(ctx, msg)
}

// carryTaskIDs returns listen params with notifications.taskIds, as sent,
// copied to _meta[tasks.ListenIDsKey], and that key removed when there is no
// taskIds. Params it cannot read are returned unchanged, for the SDK to
// refuse. SDK contract test: TestSDKListenFilterDropsTaskIDs.
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
	_, had := meta[tasks.ListenIDsKey]
	if filter.TaskIDs == nil && !had {
		return params
	}
	if meta == nil {
		meta = map[string]json.RawMessage{}
	}
	delete(meta, tasks.ListenIDsKey)
	if filter.TaskIDs != nil {
		meta[tasks.ListenIDsKey] = filter.TaskIDs
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
