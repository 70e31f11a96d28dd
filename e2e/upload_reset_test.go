package e2e

// Uploads that break at the transport level (issue 8, items 1 and 4): a
// chunk whose connection drops is a transport failure, not a cancellation,
// and is followed by one reset; when the reset itself gets no answer, the
// original failure keeps its kind and its message says that SnowLuma still
// holds the half-built stream.

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

func TestUploadResetThatFailsIsReported(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name         string
		marker       string
		wantKind     string
		wantText     string // the original failure
		resetDropped bool
	}{
		{"a dropped chunk is a transport failure followed by a reset", "hangupload:2", "transport", "cannot reach SnowLuma", false},
		{"a failed chunk whose reset is dropped says the stream remains", "failupload:2,hangupload:3", "stream_failed", "injected upload failure (request 2)", true},
		{"a dropped chunk whose reset is dropped too says the stream remains", "hangupload:2,hangupload:3", "transport", "cannot reach SnowLuma", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				env, dirs := streamEnv(t, "SNOWLUMA_MCP_UPLOAD_CHUNK_BYTES", "1000")
				tag := newTag(t)
				file := writeFile(t, dirs.upload, fake.FileNameMarker("r", tt.marker+",tag:"+tag, ".bin"), randomBytes(t, 4500))
				s := start(t, version, env)
				r, traceID := s.uploadCall(t, file)

				require.True(t, r.IsError, "the upload must fail: %s", r.Text)
				assert.Equal(t, "null", string(r.Result))
				assert.Equal(t, tt.wantKind, r.Diag.Kind, r.Diag.Message)
				assert.NotContains(t, r.Diag.Message, "cancel", "nothing was cancelled")
				assert.Contains(t, r.Diag.Message, tt.wantText, "the original failure is reported")
				assert.NotEmpty(t, r.Diag.NextStep)

				sent := snow.ByTrace(traceID)
				require.Len(t, sent, 3, "two chunk requests, then one reset; nothing repeated")
				id := paramsOf(t, sent[0]).StreamID
				assert.True(t, paramsOf(t, sent[2]).isReset())
				assert.Equal(t, id, paramsOf(t, sent[2]).StreamID)
				if tt.resetDropped {
					assert.Contains(t, r.Diag.Message, "the reset of upload stream "+id+" also failed")
					assert.Contains(t, r.Diag.Message, "SnowLuma keeps its partial chunks")
					assert.True(t, snow.UploadOpen(id), "the reset never arrived, so SnowLuma still holds the stream")
					return
				}
				assert.NotContains(t, r.Diag.Message, "reset", "a reset that arrived adds nothing")
				assert.False(t, snow.UploadOpen(id), "the reset dropped the stream")
			})
		})
	}
}
