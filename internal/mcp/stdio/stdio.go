// Package stdio is the MCP transport over stdin and stdout, replacing the
// SDK's StdioTransport to close four of its gaps. One malformed input
// line ends the SDK's session (here it gets a JSON-RPC error reply and the
// session goes on), stdin EOF cancels calls in flight and drops their answers (here
// EOF first waits, briefly, for answers owed), a call the peer cancelled is
// still answered (here it is not), and SDK-internal errors go out with code
// 0 (here they get a real code). The first gap is pinned by the SDK contract
// test TestSDKStdioEndsTheSessionAtAMalformedLine (cmd/snowluma-mcp/internal/server);
// the others are timing and error paths inside the SDK's own transport that
// no contract test can reach without racing it, so this package's tests and
// the e2e tests pin ours.
//
// It has three parts: framing (lines in, lines out), admission (which lines
// the SDK may see) and the ledger (which answers are owed, and which calls
// the peer cancelled, whose answers it drops). Protocol policy
// stays with the caller, through the hooks on Transport.
package stdio

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// drainWait bounds how long EOF waits for answers to calls already read.
const drainWait = 5 * time.Second

// ErrStopped ends a session whose Stop channel closed. It wraps io.EOF
// because a stop is an orderly end, like the peer hanging up: the SDK logs
// any other read error as "server session ended with error", which on a
// plain SIGTERM would alarm whoever reads the log.
var ErrStopped = fmt.Errorf("stopped: %w", io.EOF)

// Transport serves one MCP session on a reader and a writer.
type Transport struct {
	In  io.Reader
	Out io.Writer
	// Stop, when it closes, ends the session at once as if the peer had
	// gone: calls in flight are cancelled (the SDK's own Close would wait
	// for them to finish, however long a download takes).
	Stop <-chan struct{}
	// Owes reports whether a call with this method owes an answer that
	// stdin EOF must wait for. Nil means every call does. Which methods
	// never end on their own is protocol knowledge, so the server says.
	Owes func(method string) bool
	// Screen, when set, sees each admitted request before the SDK does. A
	// non-nil error answers a call in the SDK's place (a notification is
	// just dropped) and the SDK never sees the request: the place for
	// protocol rules the SDK gets wrong, kept out of this package.
	Screen func(req *jsonrpc.Request) *jsonrpc.Error
}

// Connect implements mcp.Transport.
func (t *Transport) Connect(ctx context.Context) (mcp.Connection, error) {
	c := &conn{
		out:    &lineWriter{w: t.Out},
		lines:  make(chan line, 1),
		closed: make(chan struct{}),
		stop:   t.Stop,
		screen: t.Screen,
		ledger: newLedger(t.Owes),
	}
	go c.readLoop(newLineReader(t.In, MaxLine))
	return c, nil
}

type line struct {
	data []byte
	err  error
}

type conn struct {
	out    *lineWriter
	lines  chan line
	closed chan struct{}
	once   sync.Once
	stop   <-chan struct{} // nil: never
	screen func(*jsonrpc.Request) *jsonrpc.Error
	ledger *ledger
}

// readLoop reads lines in its own goroutine so Close can unblock Read.
func (c *conn) readLoop(lr *lineReader) {
	for {
		data, err := lr.next()
		select {
		case c.lines <- line{data: data, err: err}:
		case <-c.closed:
			return
		}
		if err != nil && !errors.Is(err, errTooLong) {
			return
		}
	}
}

// Read implements mcp.Connection.
func (c *conn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		var l line
		select {
		case l = <-c.lines:
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.closed:
			return nil, io.EOF
		case <-c.stop:
			return nil, ErrStopped
		}
		switch {
		case errors.Is(l.err, errTooLong):
			_ = c.out.write(tooLong(MaxLine).reply())
			continue
		case l.err != nil:
			c.ledger.wait(ctx, c.closed, drainWait)
			return nil, l.err
		}
		msg, refused := admit(l.data)
		if refused != nil {
			_ = c.out.write(refused.reply())
			continue
		}
		if msg == nil {
			continue
		}
		if refused := c.screened(msg); refused != nil {
			if refused.id != nil {
				_ = c.out.write(refused.reply())
			}
			continue
		}
		c.ledger.read(msg)
		return msg, nil
	}
}

// screened applies the Screen hook, returning the refusal of a request it
// turns away (with a nil id for a notification, which gets no reply).
func (c *conn) screened(msg jsonrpc.Message) *refusal {
	req, ok := msg.(*jsonrpc.Request)
	if !ok || c.screen == nil {
		return nil
	}
	e := c.screen(req)
	if e == nil {
		return nil
	}
	r := &refusal{code: e.Code, message: e.Message}
	if r.code == 0 {
		r.code = jsonrpc.CodeInvalidRequest
	}
	if req.ID.IsValid() {
		r.id = req.ID.Raw()
	}
	return r
}

// Write implements mcp.Connection.
func (c *conn) Write(ctx context.Context, msg jsonrpc.Message) error {
	resp, isResp := msg.(*jsonrpc.Response)
	if isResp && resp.ID.IsValid() && c.ledger.unwanted(resp.ID) {
		return nil // the peer cancelled the call: no answer
	}
	if isResp && resp.Error != nil {
		resp.Error = withCode(resp.Error)
	}
	line, err := encodeLine(msg)
	if err != nil {
		return err
	}
	err = c.out.writeLine(line)
	if isResp && resp.ID.IsValid() {
		c.ledger.settle(resp.ID)
	}
	return err
}

// withCode gives errors without a JSON-RPC code the internal-error code;
// code 0 is not a valid JSON-RPC error code.
func withCode(err error) error {
	var we *jsonrpc.Error
	if errors.As(err, &we) && we.Code != 0 {
		return err
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
}

// Close implements mcp.Connection.
func (c *conn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return nil
}

// SessionID implements mcp.Connection; stdio has no session IDs.
func (c *conn) SessionID() string { return "" }
