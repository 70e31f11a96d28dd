// Package stdio is the MCP transport over stdin and stdout. It replaces the
// SDK's StdioTransport to close three of its gaps: one malformed input line
// ends the SDK's session (here it gets a JSON-RPC error reply and the session
// goes on), stdin EOF cancels calls in flight and drops their answers (here
// EOF first waits, briefly, for answers owed), and SDK-internal errors go out
// with code 0 (here they get a real code).
package stdio

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxLine is the longest input line accepted; longer lines are refused with
// an error reply and skipped.
const MaxLine = 16 << 20

// drainWait bounds how long EOF waits for answers to calls already read.
const drainWait = 5 * time.Second

// Transport serves one MCP session on a reader and a writer.
type Transport struct {
	In  io.Reader
	Out io.Writer
	// Stop, when it closes, ends the session at once as if the peer had
	// gone: calls in flight are cancelled (the SDK's own Close would wait
	// for them to finish, however long a download takes).
	Stop <-chan struct{}
}

// Connect implements mcp.Transport.
func (t *Transport) Connect(ctx context.Context) (mcp.Connection, error) {
	c := &conn{out: t.Out, lines: make(chan line, 1), closed: make(chan struct{}), pending: map[any]bool{}, idle: make(chan struct{}, 1), stop: t.Stop}
	go c.readLoop(t.In)
	return c, nil
}

type line struct {
	data []byte
	err  error
}

type conn struct {
	out    io.Writer
	wmu    sync.Mutex
	lines  chan line
	closed chan struct{}
	once   sync.Once
	stop   <-chan struct{} // nil: never

	pmu     sync.Mutex
	pending map[any]bool  // IDs of calls read but not yet answered
	idle    chan struct{} // signalled when pending becomes empty
}

// readLoop reads lines in its own goroutine so Close can unblock Read.
func (c *conn) readLoop(in io.Reader) {
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		data, err := readLine(r)
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

var errTooLong = errors.New("line too long")

// ErrStopped ends a session whose Stop channel closed.
var ErrStopped = errors.New("stopped")

// readLine returns one line without its newline; a line over MaxLine is
// consumed and reported as errTooLong.
func readLine(r *bufio.Reader) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(buf)+len(chunk) > MaxLine {
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = r.ReadSlice('\n')
			}
			if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
				return nil, err
			}
			return nil, errTooLong
		}
		buf = append(buf, chunk...)
		switch {
		case err == nil:
			return bytes.TrimRight(buf, "\r\n"), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(bytes.TrimSpace(buf)) > 0:
			return buf, nil // a last line without newline still counts
		default:
			return nil, err
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
			c.reject(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("message longer than %d bytes", MaxLine))
			continue
		case l.err != nil:
			c.drain(ctx)
			return nil, l.err
		}
		if msg := c.decode(l.data); msg != nil {
			return msg, nil
		}
	}
}

// decode parses one line, answering it with an error when it is not a
// JSON-RPC message. It returns nil for lines that were answered or blank.
func (c *conn) decode(data []byte) jsonrpc.Message {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil
	}
	if !json.Valid(data) {
		c.reject(nil, jsonrpc.CodeParseError, "parse error: the line is not valid JSON")
		return nil
	}
	if data[0] == '[' {
		c.reject(nil, jsonrpc.CodeInvalidRequest, "batch messages are not supported; send one message per line")
		return nil
	}
	if id, bad := unusableID(data); bad {
		c.reject(id, jsonrpc.CodeInvalidRequest, "invalid request id: an id must be a string or an integer of at most 2^53, never null")
		return nil
	}
	msg, err := jsonrpc.DecodeMessage(data)
	if err != nil {
		c.reject(idOf(data), jsonrpc.CodeInvalidRequest, "invalid JSON-RPC message: "+err.Error())
		return nil
	}
	if resp, ok := msg.(*jsonrpc.Response); ok && resp.Result == nil && resp.Error == nil {
		c.reject(idOf(data), jsonrpc.CodeInvalidRequest, "invalid JSON-RPC message: no method, result or error")
		return nil
	}
	if req, ok := msg.(*jsonrpc.Request); ok {
		switch {
		case req.ID.IsValid() && req.Method != "subscriptions/listen":
			c.pmu.Lock()
			c.pending[req.ID.Raw()] = true
			c.pmu.Unlock()
		case req.Method == "notifications/cancelled":
			c.forget(req.Params)
		}
	}
	return msg
}

// unusableID finds ids the SDK would mangle: null (it would treat the
// request as a notification and never answer) and numbers it cannot carry
// exactly (fractions, beyond 2^53). It returns the id as sent, for the error
// reply to echo.
func unusableID(data []byte) (json.RawMessage, bool) {
	var probe map[string]json.RawMessage
	if json.Unmarshal(data, &probe) != nil {
		return nil, false
	}
	raw, present := probe["id"]
	if !present {
		return nil, false
	}
	raw = bytes.TrimSpace(raw)
	switch {
	case string(raw) == "null":
		return nil, true
	case len(raw) > 0 && raw[0] != '"' && raw[0] != '{' && raw[0] != '[':
		n, err := strconv.ParseInt(string(raw), 10, 64)
		if err != nil || n > 1<<53 || n < -(1<<53) {
			return raw, true
		}
	}
	return nil, false
}

// idOf recovers a usable request ID from a malformed message, if it has one.
func idOf(data []byte) any {
	var probe struct {
		ID any `json:"id"`
	}
	if json.Unmarshal(data, &probe) != nil {
		return nil
	}
	switch probe.ID.(type) {
	case string, float64:
		return probe.ID
	}
	return nil
}

// reject writes an error response directly; id nil is written as null.
func (c *conn) reject(id any, code int64, msg string) {
	if raw, ok := id.(json.RawMessage); ok && raw == nil {
		id = nil
	}
	data, _ := json.Marshal(struct {
		JSONRPC string `json:"jsonrpc"`
		ID      any    `json:"id"`
		Error   struct {
			Code    int64  `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}{code, msg}})
	_ = c.writeLine(data)
}

// forget drops a cancelled call from the answers owed: the peer no longer
// waits for it, and the SDK may never answer a call cancelled before it
// started, which would otherwise hold up the exit at EOF.
func (c *conn) forget(params json.RawMessage) {
	var p struct {
		RequestID any `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil {
		return
	}
	id, err := jsonrpc.MakeID(p.RequestID)
	if err != nil || !id.IsValid() {
		return
	}
	c.pmu.Lock()
	delete(c.pending, id.Raw())
	if len(c.pending) == 0 {
		select {
		case c.idle <- struct{}{}:
		default:
		}
	}
	c.pmu.Unlock()
}

// drain waits until every call already read has been answered, so a client
// that writes a request and closes stdin still gets its answer.
func (c *conn) drain(ctx context.Context) {
	timer := time.NewTimer(drainWait)
	defer timer.Stop()
	for {
		c.pmu.Lock()
		n := len(c.pending)
		c.pmu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-c.idle:
		case <-timer.C:
			return
		case <-ctx.Done():
			return
		case <-c.closed:
			return
		}
	}
}

// Write implements mcp.Connection.
func (c *conn) Write(ctx context.Context, msg jsonrpc.Message) error {
	resp, isResp := msg.(*jsonrpc.Response)
	if isResp && resp.Error != nil {
		resp.Error = withCode(resp.Error)
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	err = c.writeLine(data)
	if isResp && resp.ID.IsValid() {
		c.pmu.Lock()
		delete(c.pending, resp.ID.Raw())
		if len(c.pending) == 0 {
			select {
			case c.idle <- struct{}{}:
			default:
			}
		}
		c.pmu.Unlock()
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

func (c *conn) writeLine(data []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if _, err := c.out.Write(append(data, '\n')); err != nil {
		return err
	}
	return nil
}

// Close implements mcp.Connection.
func (c *conn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return nil
}

// SessionID implements mcp.Connection; stdio has no session IDs.
func (c *conn) SessionID() string { return "" }
