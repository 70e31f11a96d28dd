package onebot

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/frame"
)

// MaxFrameBytes bounds one stream frame: SnowLuma caps a download chunk at
// 16 MiB, which base64 and the frame's JSON turn into about 22 MiB.
const MaxFrameBytes = 24 << 20

// StreamTimeouts are the stream settings: how long to wait for the response
// headers, and how long any single read of the body may wait for bytes.
type StreamTimeouts struct {
	Connect time.Duration
	Idle    time.Duration
}

// Frames is an open stream response. Close it when done; closing early
// tells SnowLuma the client went away, which aborts the action.
type Frames struct {
	reader *frame.Reader
	body   *idleBody
	ctx    context.Context
}

// Next returns the next frame or io.EOF at the end of the body. Failures are
// faults classified by cause (cancellation, idle timeout, size, shape).
func (f *Frames) Next() (*frame.Frame, error) {
	fr, err := f.reader.Next()
	switch {
	case err == nil, errors.Is(err, io.EOF):
		return fr, err
	case errors.Is(err, frame.ErrFrameTooLarge):
		return nil, fault.Errorf(fault.CodeLimit, "a stream frame exceeded %d bytes", MaxFrameBytes)
	case errors.Is(err, frame.ErrMalformed):
		return nil, fault.Wrap(fault.CodeBadReply, err, "SnowLuma sent a malformed stream frame")
	case f.body.idled():
		return nil, fault.Errorf(fault.CodeTimeout, "SnowLuma sent nothing for longer than the stream idle timeout")
	}
	return nil, transportError(f.ctx, err)
}

// Close releases the connection.
func (f *Frames) Close() error { return f.body.Close() }

// streamTransport is for streams: its own connect timeout (dial and
// response headers) and no overall timeout, since a download may be long.
func streamTransport(connect time.Duration) *http.Transport {
	tr := transport()
	tr.DialContext = (&net.Dialer{Timeout: connect, KeepAlive: 30 * time.Second}).DialContext
	tr.ResponseHeaderTimeout = connect
	// Large reads: a download moves hundreds of MiB through this connection.
	tr.ReadBufferSize = 256 << 10
	return tr
}

// Stream posts a stream action and returns its frames. One request, never
// retried; the caller's ctx cancels the body read too.
func (b *bound) Stream(ctx context.Context, action string, params json.RawMessage) (frame.Body, error) {
	return b.c.stream(ctx, action, params, b.headers)
}

// Streamer runs stream actions.
type Streamer interface {
	Stream(ctx context.Context, action string, params json.RawMessage) (frame.Body, error)
}

func (c *Client) stream(ctx context.Context, action string, params json.RawMessage, headers http.Header) (*Frames, error) {
	ctx, cancel := context.WithCancel(ctx)
	req, err := c.newRequest(ctx, action, params, headers)
	if err != nil {
		cancel()
		return nil, err
	}
	resp, err := c.streamHTTP.Do(req)
	if err != nil {
		// Classified before cancel: afterwards ctx.Err() is set and every
		// refused dial or dropped socket would read as a cancellation.
		ferr := openError(ctx, err)
		cancel()
		return nil, ferr
	}
	if resp.StatusCode != http.StatusOK {
		defer cancel()
		defer resp.Body.Close()
		raw, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		_, err := decode(resp.StatusCode, raw, c.path)
		return nil, err
	}
	body := &idleBody{rc: resp.Body, cancel: cancel, idle: c.timeouts.Idle}
	return &Frames{reader: frame.NewReader(body, MaxFrameBytes), body: body, ctx: ctx}, nil
}

// openError classifies a stream request that got no response headers.
func openError(ctx context.Context, err error) error {
	if ctx.Err() == nil && (errors.Is(err, context.DeadlineExceeded) || isTimeout(err)) {
		e := fault.Errorf(fault.CodeTimeout, "SnowLuma did not start the stream within the connect timeout")
		if dialFailed(err) {
			e.Unsent()
		}
		return e
	}
	return transportError(ctx, err)
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// idleBody cancels the request when one read waits longer than idle.
type idleBody struct {
	rc     io.ReadCloser
	cancel context.CancelFunc
	idle   time.Duration

	mu    sync.Mutex
	fired bool
}

func (b *idleBody) Read(p []byte) (int, error) {
	t := time.AfterFunc(b.idle, func() {
		b.mu.Lock()
		b.fired = true
		b.mu.Unlock()
		b.cancel()
	})
	n, err := b.rc.Read(p)
	t.Stop()
	return n, err
}

func (b *idleBody) idled() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.fired
}

func (b *idleBody) Close() error {
	b.cancel()
	return b.rc.Close()
}
