// Package upload sends a file from the MCP host to SnowLuma with the
// upload_file_stream protocol: one request per chunk, then a separate
// completion request, each answered by one frame. A failure after the first
// chunk sends a reset so SnowLuma drops the half-built file, and the original
// failure is what the caller sees. Nothing is retried.
package upload

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/frame"
)

// Action is SnowLuma's upload action.
const Action = "upload_file_stream"

// Streamer opens one stream request; the per-call OneBot executor is one.
type Streamer interface {
	Stream(ctx context.Context, action string, params json.RawMessage) (frame.Body, error)
}

// Options bound an upload.
type Options struct {
	Root       string
	ChunkBytes int
	MaxFile    int64
	// ResetTimeout bounds the cleanup request, which runs even after the
	// call was cancelled, and the wait for a request in flight when the
	// call was cancelled.
	ResetTimeout time.Duration
	// Track, when set, hears of the stream id before the first chunk and
	// of the reset; nil for an upload nobody needs to clean up after.
	Track Tracker
}

// Tracker hears what an upload leaves in SnowLuma if it stops half-way
// (see pipeline.Trail).
type Tracker interface {
	// Stream is told the stream id before the first chunk is sent; an
	// error stops the upload first.
	Stream(id string) error
	// Reset is told whether the reset of a stopped upload reached
	// SnowLuma (nil) or not.
	Reset(id string, err error)
}

// Result is what the completed upload reports.
type Result struct {
	StreamID string `json:"stream_id"`
	FileName string `json:"file_name"`
	Size     int64  `json:"size"`
	SHA256   string `json:"sha256"`
	Chunks   int    `json:"chunks"`
	// Completion is SnowLuma's completion data; its file_path is a path on
	// the SnowLuma host. It is not part of the upload summary: the tool
	// result carries it once, beside the summary.
	Completion json.RawMessage `json:"-"`
}

// Progress receives the bytes SnowLuma has acknowledged and the file size.
type Progress func(acked, total int64)

// Send uploads the file at input (checked against opts.Root) through s.
func Send(ctx context.Context, s Streamer, input string, opts Options, progress Progress) (*Result, error) {
	path, info, err := Resolve(opts.Root, input)
	if err != nil {
		return nil, err
	}
	if info.Size() > opts.MaxFile {
		return nil, fault.Errorf(fault.CodeLimit, "the file is %d bytes, over the file limit of %d", info.Size(), opts.MaxFile)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fault.Wrap(fault.CodeInvalidArgument, err, "cannot open execution.input_file")
	}
	defer f.Close()
	opened, err := f.Stat()
	if err != nil || !os.SameFile(opened, info) {
		return nil, refuse("it changed while being opened")
	}
	u := &sender{s: s, opts: opts, size: info.Size(), name: wireName(filepath.Base(path)), id: newStreamID(), progress: progress}
	if opts.Track != nil {
		if err := opts.Track.Stream(u.id); err != nil {
			return nil, fault.Wrap(fault.CodeInternal, err, "the task could not record its upload stream in SNOWLUMA_MCP_TASK_DIR, so nothing was sent to SnowLuma").Unsent()
		}
	}
	res, err := u.run(ctx, f)
	if err != nil {
		return nil, u.abandon(ctx, err)
	}
	return res, nil
}

// abandon cleans up after a failed upload and returns the failure to
// report: the original one, never the reset's answer.
func (u *sender) abandon(ctx context.Context, err error) error {
	if u.sent == 0 || (u.sent == 1 && fault.NothingSent(err)) {
		return err // SnowLuma never heard of the stream: nothing to reset
	}
	if u.sent > 1 && fault.NothingSent(err) {
		// Earlier chunks did reach SnowLuma, so the call as a whole did.
		err = &fault.Error{Code: fault.CodeOf(err), Err: err}
	}
	rerr := Reset(ctx, u.s, u.id, u.opts.ResetTimeout)
	if u.opts.Track != nil {
		u.opts.Track.Reset(u.id, rerr)
	}
	if rerr != nil {
		return &resetFailed{err: err, reset: rerr, id: u.id}
	}
	return err
}

// resetFailed is the original failure of an upload whose reset did not get
// through. It reads as the original (same code, same cause) plus a note,
// because the agent has to know that SnowLuma still holds the chunks.
type resetFailed struct {
	err   error
	reset error
	id    string
}

func (e *resetFailed) Error() string {
	return fmt.Sprintf("%s; the reset of upload stream %s also failed (%s), so SnowLuma keeps its partial chunks until the stream has been idle for 10 minutes",
		e.err.Error(), e.id, e.reset.Error())
}

func (e *resetFailed) Unwrap() error { return e.err }

type sender struct {
	s        Streamer
	opts     Options
	size     int64
	name     string
	id       string
	progress Progress
	sent     int
}

func (u *sender) run(ctx context.Context, f io.Reader) (*Result, error) {
	total := int((u.size + int64(u.opts.ChunkBytes) - 1) / int64(u.opts.ChunkBytes))
	if total == 0 {
		total = 1 // SnowLuma needs at least one chunk, even an empty one
	}
	hash := sha256.New()
	buf := make([]byte, u.opts.ChunkBytes)
	var params []byte
	var acked int64
	for i := 0; i < total; i++ {
		n, err := io.ReadFull(f, buf)
		if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !(errors.Is(err, io.EOF) && u.size == 0) {
			return nil, fault.Wrap(fault.CodeInvalidArgument, err, "cannot read execution.input_file")
		}
		if want := min(int64(u.opts.ChunkBytes), u.size-acked); int64(n) != want {
			return nil, fault.Errorf(fault.CodeInvalidArgument, "execution.input_file changed size while it was being sent")
		}
		hash.Write(buf[:n])
		params = chunkParams(params[:0], u.id, u.name, i, total, u.size, buf[:n])
		u.sent++
		reply, err := u.exchange(ctx, params)
		if err != nil {
			return nil, err
		}
		if err := expect(reply, "chunk_received", u.id); err != nil {
			return nil, err
		}
		acked += int64(n)
		if u.progress != nil {
			u.progress(acked, u.size)
		}
	}
	if extra, _ := f.Read(buf[:1]); extra > 0 {
		return nil, fault.Errorf(fault.CodeInvalidArgument, "execution.input_file grew while it was being sent")
	}
	sum := hex.EncodeToString(hash.Sum(nil))
	params, _ = json.Marshal(map[string]any{"stream_id": u.id, "is_complete": true, "expected_sha256": sum})
	reply, err := u.exchange(ctx, params)
	if err != nil {
		return nil, err
	}
	if err := expect(reply, "file_complete", u.id); err != nil {
		return nil, err
	}
	return &Result{StreamID: u.id, FileName: u.name, Size: u.size, SHA256: sum, Chunks: total, Completion: reply.Data}, nil
}

// chunkParams appends one chunk request's params to dst. Built by hand
// because the chunk's base64 needs no JSON escaping, and encoding/json would
// scan it byte by byte; the other values are JSON-encoded as usual.
func chunkParams(dst []byte, id, name string, index, total int, size int64, chunk []byte) []byte {
	quote := func(s string) []byte { b, _ := json.Marshal(s); return b }
	dst = append(dst, `{"stream_id":`...)
	dst = append(dst, quote(id)...)
	dst = append(dst, `,"filename":`...)
	dst = append(dst, quote(name)...)
	dst = fmt.Appendf(dst, `,"chunk_index":%d,"total_chunks":%d,"file_size":%d,"chunk_data":"`, index, total, size)
	dst = base64.StdEncoding.AppendEncode(dst, chunk)
	return append(dst, `"}`...)
}

// exchange sends one request and returns its answering frame. A cancel
// does not cut the request short: SnowLuma carries on with a request whose
// body it has read even when the client goes away, so a reset sent at once
// could overtake the chunk, which would then create the stream again. The
// request is let finish, for at most ResetTimeout after the cancel, and
// the cancel is reported once it has.
func (u *sender) exchange(ctx context.Context, params json.RawMessage) (*frame.Frame, error) {
	rctx, stop := settle(ctx, u.opts.ResetTimeout)
	defer stop()
	f, err := ask(rctx, u.s, params)
	if ctx.Err() != nil && (err == nil || !fault.NothingSent(err)) {
		return nil, fault.Wrap(fault.CodeCancelled, ctx.Err(), "call cancelled")
	}
	return f, err
}

// settle is a context for a request that outlives a cancel of ctx by at
// most grace; stop releases it.
func settle(ctx context.Context, grace time.Duration) (context.Context, func()) {
	rctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	unhook := context.AfterFunc(ctx, func() {
		t := time.NewTimer(grace)
		defer t.Stop()
		select {
		case <-t.C:
			cancel()
		case <-rctx.Done():
		}
	})
	return rctx, func() { unhook(); cancel() }
}

// ask sends one upload_file_stream request and returns its answering frame.
func ask(ctx context.Context, s Streamer, params json.RawMessage) (*frame.Frame, error) {
	body, err := s.Stream(ctx, Action, params)
	if err != nil {
		return nil, err
	}
	defer body.Close()
	return frame.Last(body, 16)
}

// Reset asks SnowLuma to drop upload stream id within timeout, even after
// ctx was cancelled: the chunks of a stream it has not completed (SnowLuma
// forgets a completed stream, so a reset leaves its merged file where it
// is). SnowLuma answers every reset with an error frame ("Stream reset
// completed"), so any answer frame means the reset arrived; any other
// outcome (a transport failure, a broken or malformed answer) means it may
// not have, and is returned. A reset is cleanup, never a replay: it sends
// no chunk and no completion.
func Reset(ctx context.Context, s Streamer, id string, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), timeout)
	defer cancel()
	params, _ := json.Marshal(map[string]any{"stream_id": id, "reset": true})
	_, err := ask(ctx, s, params)
	var answered *frame.Failure
	if err == nil || errors.As(err, &answered) {
		return nil
	}
	return err
}

func expect(f *frame.Frame, status, id string) error {
	var d struct {
		StreamID string `json:"stream_id"`
		Status   string `json:"status"`
	}
	if err := json.Unmarshal(f.Data, &d); err != nil || d.Status != status || d.StreamID != id {
		// A proper frame that does not fit the protocol: the stream
		// contradicts itself rather than the endpoint being wrong.
		return fault.Errorf(fault.CodeStreamBroken, "SnowLuma answered with status %q for stream %q where %q was expected", d.Status, d.StreamID, status)
	}
	return nil
}

// newStreamID returns an ID in SnowLuma's allowed alphabet [A-Za-z0-9_-].
func newStreamID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("mcp_%x", b)
}
