package frame

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/fault"
)

const chunkReceived = `{"status":"ok","retcode":0,"data":{"type":"stream","stream_id":"s1","status":"chunk_received","received_chunks":1,"total_chunks":2}}`

func TestCollect(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		body      string
		maxFrames int
		lastIsEnd bool
		frames    int
		code      fault.Code
		failure   bool
	}{
		{"collects frames and the terminal frame", inter + "\r\n\r\n" + inter + "\r\n\r\n" + done + "\r\n\r\n", 10, false, 2, "", false},
		{"reports a failed terminal frame", inter + "\r\n\r\n" + fail + "\r\n\r\n", 10, false, 0, "", true},
		{"calls a stream without terminal frame broken", inter + "\r\n\r\n", 10, false, 0, fault.CodeStreamBroken, false},
		{"calls an empty stream broken", "", 10, false, 0, fault.CodeStreamBroken, false},
		{"calls an empty upload answer broken", "", 10, true, 0, fault.CodeStreamBroken, false},
		{"bounds the frame count", strings.Repeat(inter+"\r\n\r\n", 5) + done, 3, false, 0, fault.CodeLimit, false},
		{"takes the last frame of an upload answer as terminal", chunkReceived + "\r\n\r\n", 10, true, 0, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var counts []int64
			got, err := Collect(NewReader(strings.NewReader(tt.body), 1<<20), tt.maxFrames, 1<<20, tt.lastIsEnd, func(n int64) { counts = append(counts, n) })
			switch {
			case tt.failure:
				var f *Failure
				require.True(t, errors.As(err, &f))
				assert.Equal(t, "This is a test error", f.Frame.Wording)
			case tt.code != "":
				assert.Equal(t, tt.code, fault.CodeOf(err))
			default:
				require.NoError(t, err)
				assert.Len(t, got.Frames, tt.frames)
				assert.Equal(t, tt.frames, got.FrameCount)
				assert.NotEmpty(t, got.Terminal)
			}
		})
	}
}

func TestLast(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		body string
		code fault.Code
	}{
		{"returns the single answer frame", chunkReceived + "\r\n\r\n", ""},
		{"calls an answer without any frame broken", "", fault.CodeStreamBroken},
		{"keeps bad_reply for a frame that is not a OneBot frame", `{"status":"ok","data":{"type":"mystery"}}` + "\r\n\r\n", fault.CodeBadReply},
		{"bounds the frame count", strings.Repeat(chunkReceived+"\r\n\r\n", 3), fault.CodeLimit},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f, err := Last(malformedAsFault{NewReader(strings.NewReader(tt.body), 1<<20)}, 2)
			if tt.code != "" {
				assert.Equal(t, tt.code, fault.CodeOf(err))
				return
			}
			require.NoError(t, err)
			assert.Equal(t, Intermediate, f.Kind)
		})
	}
}

// malformedAsFault classifies a malformed frame as the OneBot client does.
type malformedAsFault struct{ r *Reader }

func (m malformedAsFault) Next() (*Frame, error) {
	f, err := m.r.Next()
	if errors.Is(err, ErrMalformed) {
		return nil, fault.Wrap(fault.CodeBadReply, err, "malformed")
	}
	return f, err
}
