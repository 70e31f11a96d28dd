package stream

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/fault"
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
		{"refuses a stream without terminal frame", inter + "\r\n\r\n", 10, false, 0, fault.CodeBadReply, false},
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
