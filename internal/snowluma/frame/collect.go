package frame

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/snowluma/snowluma-mcp/internal/fault"
)

// Source yields frames.
type Source interface {
	Next() (*Frame, error)
}

// Body is an open stream response: its frames, and Close to release the
// connection (closing early tells SnowLuma the client went away).
type Body interface {
	Source
	Close() error
}

// Failure is a failed terminal frame, kept verbatim so its reason survives.
type Failure struct{ Frame *Frame }

func (f *Failure) Error() string {
	return fmt.Sprintf("SnowLuma failed the stream (retcode %s): %s", f.Frame.Retcode, f.Frame.Wording)
}

// Collected is a generic stream's frames and its terminal frame.
type Collected struct {
	Frames     []json.RawMessage `json:"frames"`
	FrameCount int               `json:"frame_count"`
	Terminal   json.RawMessage   `json:"terminal"`
}

// Collect gathers a generic stream's frames until its terminal frame, within
// maxFrames intermediate frames and maxBytes of frame data; count receives the
// number of frames accepted so far. With lastIsTerminal, the body's last
// frame is the terminal one whatever its type: SnowLuma answers each
// upload_file_stream request with a single frame of type "stream".
func Collect(src Source, maxFrames int, maxBytes int, lastIsTerminal bool, count func(n int64)) (*Collected, error) {
	out := &Collected{Frames: []json.RawMessage{}}
	size := 0
	for {
		f, err := src.Next()
		if errors.Is(err, io.EOF) && lastIsTerminal && out.FrameCount > 0 {
			out.FrameCount--
			out.Terminal = out.Frames[out.FrameCount]
			out.Frames = out.Frames[:out.FrameCount]
			return out, nil
		}
		if errors.Is(err, io.EOF) {
			return nil, fault.Errorf(fault.CodeStreamBroken, "the stream ended before its terminal frame (after %d frames)", out.FrameCount)
		}
		if err != nil {
			return nil, err
		}
		switch f.Kind {
		case Failed:
			return nil, &Failure{Frame: f}
		case Done:
			out.Terminal = bytes.Clone(f.Raw)
			return out, nil
		}
		size += len(f.Raw)
		if out.FrameCount >= maxFrames || size > maxBytes {
			return nil, fault.Errorf(fault.CodeLimit, "the stream sent more than %d frames or %d bytes", maxFrames, maxBytes)
		}
		out.Frames = append(out.Frames, bytes.Clone(f.Raw))
		out.FrameCount++
		if count != nil {
			count(int64(out.FrameCount))
		}
	}
}

// Last reads a stream whose answer is its last frame (SnowLuma answers each
// upload request with one frame), within maxFrames.
func Last(src Source, maxFrames int) (*Frame, error) {
	var last *Frame
	for n := 0; ; n++ {
		f, err := src.Next()
		if errors.Is(err, io.EOF) {
			if last == nil {
				return nil, fault.Errorf(fault.CodeStreamBroken, "the stream ended before SnowLuma's answer frame")
			}
			return last, nil
		}
		if err != nil {
			return nil, err
		}
		if f.Kind == Failed {
			return nil, &Failure{Frame: f}
		}
		if n >= maxFrames {
			return nil, fault.Errorf(fault.CodeLimit, "SnowLuma answered with more than %d frames", maxFrames)
		}
		last = f.Clone()
	}
}
