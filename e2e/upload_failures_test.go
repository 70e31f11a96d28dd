package e2e

// Automatic upload failures (BASE-7, BASE-6, TRACE-2): when SnowLuma fails
// one request of an upload, the product sends exactly one reset for that
// stream_id after it, reports the original failure (not the reset's
// "Stream reset completed"), and never repeats a request; the reset
// carries the call's traceparent like every other request.

import (
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

func TestFailedUploadIsResetOnceAndReportsTheOriginalFailure(t *testing.T) {
	t.Parallel()
	const chunks = 5 // 4500 bytes at 1000 bytes per chunk
	tests := []struct {
		name       string
		failAt     int // 1-based request of the stream that fails
		wantChunks int // chunk requests sent, the failing one included
		completion bool
	}{
		{"the first chunk fails", 1, 1, false},
		{"a middle chunk fails", 3, 3, false},
		{"the last chunk fails", chunks, chunks, false},
		{"the completion fails", chunks + 1, chunks, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				env, dirs := streamEnv(t, "SNOWLUMA_MCP_UPLOAD_CHUNK_BYTES", "1000")
				tag := newTag(t)
				name := fake.FileNameMarker("report", "failupload:"+strconv.Itoa(tt.failAt)+",tag:"+tag, ".bin")
				file := writeFile(t, dirs.upload, name, randomBytes(t, 4500))
				s := start(t, version, env)
				r, traceID := s.uploadCall(t, file)

				require.True(t, r.IsError, "the upload must fail: %s", r.Text)
				assert.Equal(t, "stream_failed", r.Diag.Kind)
				assert.Contains(t, r.Diag.Message, "injected upload failure (request "+strconv.Itoa(tt.failAt)+")",
					"the original failure is reported")
				assert.NotContains(t, r.Diag.Message, fake.WordingResetCompleted, "the reset's answer is not the failure")

				sent := snow.ByTrace(traceID)
				require.Len(t, sent, tt.failAt+1, "the requests up to the failure, then one reset")
				assert.Len(t, snow.ByTag(tag), len(sent), "every request belongs to the tagged stream")
				id := paramsOf(t, sent[0]).StreamID
				require.NotEmpty(t, id)
				seen := map[int]bool{}
				for i, q := range sent[:tt.failAt] {
					p := paramsOf(t, q)
					assert.Equal(t, id, p.StreamID)
					assert.False(t, p.isReset(), "request %d is not a reset", i+1)
					if p.ChunkIndex != nil {
						assert.False(t, seen[*p.ChunkIndex], "chunk %d was sent twice: nothing is retried", *p.ChunkIndex)
						seen[*p.ChunkIndex] = true
					}
				}
				assert.Len(t, seen, tt.wantChunks)
				last := paramsOf(t, sent[tt.failAt-1])
				if tt.completion {
					require.NotNil(t, last.IsComplete, "the failing request is the completion")
					assert.True(t, *last.IsComplete)
				}

				reset := sent[tt.failAt]
				rp := paramsOf(t, reset)
				assert.True(t, rp.isReset(), "the last request is the reset")
				assert.Equal(t, id, rp.StreamID, "the reset names the failed stream")
				assert.Nil(t, rp.ChunkData, "a reset carries no data")
				assert.Greater(t, reset.Seq, sent[tt.failAt-1].Seq, "the reset comes after the failure")
				resets := 0
				for _, q := range snow.ByTag(tag) {
					if paramsOf(t, q).isReset() {
						resets++
					}
				}
				assert.Equal(t, 1, resets, "exactly one reset")

				for _, q := range sent {
					assert.Equal(t, r.Traceparent, q.Header.Get("traceparent"), "every request and the reset carry the call's traceparent")
					assert.Equal(t, uploadState, q.Header.Get("tracestate"), "and its tracestate")
					assertBearer(t, q.Header, token)
				}
				assert.False(t, snow.UploadOpen(id), "SnowLuma holds no half-built stream")
				_, kept := snow.Uploaded(id)
				assert.False(t, kept, "SnowLuma holds no merged file")
				assert.Equal(t, filepath.Base(file), *paramsOf(t, sent[0]).Filename)
			})
		})
	}
}
