package fake

// Stream framing exactly as SnowLuma sends it over HTTP (streamHttpResponse
// in packages/onebot/src/network/http-server-adapter.ts, wrapStreamFrame
// and wrapStreamTerminal in packages/onebot/src/streaming.ts): status 200,
// no Content-Type, chunked, and every frame, the last one included, written
// as JSON.stringify(frame) + "\r\n\r\n". Intermediate frames wrap a packet
// as {"status":"ok","retcode":0,"data":<packet>,
// "message":"","wording":"","stream":"stream-action"}; a failed terminal
// replaces data with {"type":"error","data_type":"error"} and carries the
// reason in both message and wording. The emitter also applies the faults
// that concern framing (slow frames, truncation, a cut connection, a
// failure mid-stream), so each stream action only says what it would send.

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"time"
)

// Delimiter follows every stream frame.
const Delimiter = "\r\n\r\n"

// streamAction produces a stream: it sends intermediate packets through e
// and returns the terminal data (which carries type "response") or a
// failure. It stops early when e.send reports false.
type streamAction func(f *Fake, e *emitter, p params) (json.RawMessage, *failure)

// streamActions are SnowLuma's stream actions (api.isStreamAction).
var streamActions map[string]streamAction

func init() {
	streamActions = map[string]streamAction{
		"test_download_stream":        testDownloadStream,
		"download_file_stream":        downloadStream(cacheImage | cacheVoice),
		"download_file_image_stream":  downloadStream(cacheImage),
		"download_file_record_stream": downloadStream(cacheVoice),
		UploadAction:                  uploadFileStream,
	}
}

// okFrame wraps a packet (intermediate frame, or a successful terminal).
func okFrame(packet, echo json.RawMessage) []byte {
	var b bytes.Buffer
	b.WriteString(`{"status":"ok","retcode":0,"data":`)
	b.Write(packet)
	b.WriteString(`,"message":"","wording":"","stream":"stream-action"`)
	writeEcho(&b, echo)
	b.WriteByte('}')
	return b.Bytes()
}

// failedFrame is a failed terminal frame.
func failedFrame(fail *failure, echo json.RawMessage) []byte {
	var b bytes.Buffer
	b.WriteString(`{"status":"failed","retcode":`)
	b.WriteString(strconv.Itoa(fail.retcode))
	b.WriteString(`,"data":{"type":"error","data_type":"error"},"message":`)
	b.Write(quote(fail.wording))
	b.WriteString(`,"wording":`)
	b.Write(quote(fail.wording))
	b.WriteString(`,"stream":"stream-action"`)
	writeEcho(&b, echo)
	b.WriteByte('}')
	return b.Bytes()
}

// serveStream answers a stream action with frames.
func (f *Fake) serveStream(w http.ResponseWriter, r *http.Request, rec int, req request, marker string) {
	e := &emitter{f: f, w: w, rc: http.NewResponseController(w), r: r, rec: rec, echo: req.echo,
		faults: parseStreamFaults(marker)}
	// No Content-Type at all: nil suppresses net/http's sniffing. Flushing
	// the header at once makes the body chunked, as Node's is.
	w.Header()["Content-Type"] = nil
	w.WriteHeader(http.StatusOK)
	if e.rc.Flush() != nil {
		e.gone()
		return
	}
	data, fail := streamActions[req.action](f, e, params(req.params))
	if e.stopped {
		return
	}
	if !e.pause() {
		return
	}
	if fail != nil {
		e.write(failedFrame(fail, req.echo))
		return
	}
	e.write(okFrame(data, req.echo))
}

// emitter writes one stream's frames.
type emitter struct {
	f      *Fake
	w      http.ResponseWriter
	rc     *http.ResponseController
	r      *http.Request
	rec    int
	echo   json.RawMessage
	faults streamFaults

	frames  int  // frames written, terminal included
	sent    int  // intermediate frames written
	stopped bool // the stream ended early (client gone or truncated)
}

// send writes one intermediate frame. It returns false when the action must
// stop: the client went away or a truncation fault ended the stream.
func (e *emitter) send(packet json.RawMessage) bool {
	if e.stopped || !e.pause() {
		return false
	}
	if !e.write(okFrame(packet, e.echo)) {
		return false
	}
	e.sent++
	switch {
	case e.faults.cutAfter > 0 && e.sent >= e.faults.cutAfter:
		// The connection drops in the middle of the chunked body.
		e.stopped = true
		panic(http.ErrAbortHandler)
	case e.faults.failAfter > 0 && e.sent >= e.faults.failAfter:
		// The action throws: its failure is the terminal frame.
		fail := actionFailed("injected stream failure after " + strconv.Itoa(e.sent) + " frames")
		if e.pause() {
			e.write(failedFrame(fail, e.echo))
		}
		e.stopped = true
		return false
	case e.faults.truncateAfter > 0 && e.sent >= e.faults.truncateAfter:
		// The body ends cleanly, but without a terminal frame.
		e.stopped = true
		return false
	}
	return true
}

// pause waits between frames for slowframes:<ms>. It returns false (and
// records it) when the client went away meanwhile.
func (e *emitter) pause() bool {
	if e.frames == 0 || e.faults.frameDelay <= 0 {
		return true
	}
	return e.wait(e.faults.frameDelay)
}

// wait sleeps for d unless the client goes away first; that is recorded
// as ClientGone and reported as false.
func (e *emitter) wait(d time.Duration) bool {
	timer := time.NewTimer(min(d, maxSlow))
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-e.r.Context().Done():
		e.gone()
		return false
	}
}

// write sends one frame and its delimiter and flushes it to the client.
func (e *emitter) write(frame []byte) bool {
	frame = append(frame, Delimiter...)
	if _, err := e.w.Write(frame); err != nil {
		e.gone()
		return false
	}
	if err := e.rc.Flush(); err != nil {
		e.gone()
		return false
	}
	e.frames++
	return true
}

// gone records that the client disconnected; SnowLuma's sink throws
// "stream client disconnected" on the next frame and the action aborts.
func (e *emitter) gone() {
	e.stopped = true
	e.f.rec.update(e.rec, func(q *Request) { q.ClientGone = true })
}
