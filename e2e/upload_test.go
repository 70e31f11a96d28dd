package e2e

// Automatic upload (BASE-7, TRACE-2): invoke_action with
// execution.input_file sends the file's exact bytes to SnowLuma with
// upload_file_stream, one request per chunk and then a separate completion
// request, every request carrying the call's traceparent as a header; the
// result names the merged file on the SnowLuma host.

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

func TestAutomaticUploadSendsExactBytes(t *testing.T) {
	t.Parallel()
	const chunk = 4096
	tests := []struct {
		name       string
		size       int
		input      func(t *testing.T, d streamDirs, file string) string // what execution.input_file says
		wantChunks int
	}{
		{"an absolute path over several chunks", 10000, func(_ *testing.T, _ streamDirs, file string) string { return file }, 3},
		{"a path relative to the upload root", 10000, func(_ *testing.T, _ streamDirs, _ string) string { return "sub/report.bin" }, 3},
		{"a file of exactly one chunk", chunk, func(_ *testing.T, _ streamDirs, file string) string { return file }, 1},
		{"an empty file still sends one chunk", 0, func(_ *testing.T, _ streamDirs, file string) string { return file }, 1},
		{"a symlink that stays inside the root", 5000, func(t *testing.T, d streamDirs, file string) string {
			link := filepath.Join(d.upload, "link.bin")
			require.NoError(t, os.Symlink(file, link))
			return link
		}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				env, dirs := streamEnv(t, "SNOWLUMA_MCP_UPLOAD_CHUNK_BYTES", "4096")
				data := randomBytes(t, tt.size)
				file := writeFile(t, dirs.upload, "sub/report.bin", data)
				s := start(t, version, env)
				r, traceID := s.uploadCall(t, tt.input(t, dirs, file))
				require.False(t, r.IsError, r.Text)
				assert.Equal(t, "success", r.Diag.Outcome)
				var got uploadResult
				r.decodeResult(t, &got)
				id := got.Upload.StreamID
				require.NotEmpty(t, id)

				uploaded, ok := snow.Uploaded(id)
				require.True(t, ok, "SnowLuma has the merged file")
				assert.True(t, string(data) == string(uploaded), "SnowLuma reassembled different bytes (%d vs %d)", len(uploaded), len(data))

				assert.Equal(t, int64(tt.size), got.Upload.Size)
				assert.Equal(t, sha256Hex(data), got.Upload.SHA256)
				assert.Equal(t, tt.wantChunks, got.Upload.Chunks)
				assert.Equal(t, "file_complete", got.Completion.Status)
				assert.Equal(t, id, got.Completion.StreamID)
				assert.Equal(t, fake.UploadPath(id, "report.bin"), got.Completion.FilePath)
				assert.Equal(t, int64(tt.size), got.Completion.FileSize)
				assert.Equal(t, sha256Hex(data), got.Completion.SHA256)
				assert.Contains(t, got.Note, "SnowLuma host", "the result says where file_path lives")
				var shape struct {
					Upload map[string]any `json:"upload"`
				}
				r.decodeResult(t, &shape)
				assert.NotContains(t, shape.Upload, "completion", "the completion appears once, beside the upload summary")

				sent := snow.ByTrace(traceID)
				require.Len(t, sent, tt.wantChunks+1, "one request per chunk plus one completion")
				var sentBytes []byte
				for i, q := range sent[:tt.wantChunks] {
					p := paramsOf(t, q)
					assert.Equal(t, fake.UploadAction, q.Action)
					assert.Equal(t, id, p.StreamID)
					require.NotNil(t, p.ChunkIndex, "request %d carries chunk_index", i)
					assert.Equal(t, i, *p.ChunkIndex, "chunks go in order, each once")
					require.NotNil(t, p.TotalChunks)
					assert.Equal(t, tt.wantChunks, *p.TotalChunks)
					require.NotNil(t, p.FileSize)
					assert.Equal(t, int64(tt.size), *p.FileSize)
					require.NotNil(t, p.ChunkData)
					raw, err := base64.StdEncoding.DecodeString(*p.ChunkData)
					require.NoError(t, err)
					assert.LessOrEqual(t, len(raw), chunk, "a chunk never exceeds SNOWLUMA_MCP_UPLOAD_CHUNK_BYTES")
					sentBytes = append(sentBytes, raw...)
					assert.Nil(t, p.IsComplete, "completion is never asked for beside a chunk")
					assertChunkReceived(t, q, id)
				}
				assert.True(t, string(data) == string(sentBytes), "the chunks carry the file's bytes in order")

				done := paramsOf(t, sent[tt.wantChunks])
				assert.Equal(t, id, done.StreamID)
				require.NotNil(t, done.IsComplete)
				assert.True(t, *done.IsComplete)
				assert.Nil(t, done.ChunkData, "the completion is a separate request without chunk data")
				require.NotNil(t, done.ExpectedSHA256)
				assert.Equal(t, sha256Hex(data), *done.ExpectedSHA256)

				for _, q := range sent {
					assert.Equal(t, r.Traceparent, q.Header.Get("traceparent"), "every upload request names this call")
					assert.Equal(t, uploadState, q.Header.Get("tracestate"), "a valid tracestate travels with every request")
					assertBearer(t, q.Header, token)
					assert.NotContains(t, paramsOf(t, q).keys, "traceparent", "trace context never travels in params")
					assert.False(t, paramsOf(t, q).isReset(), "a successful upload sends no reset")
				}
				assert.False(t, snow.UploadOpen(id))
				b, err := os.ReadFile(file)
				require.NoError(t, err)
				assert.Equal(t, data, b, "the input file is left as it was")
			})
		})
	}
}

// assertChunkReceived checks that the fake acknowledged a chunk request.
func assertChunkReceived(t *testing.T, q fake.Request, id string) {
	t.Helper()
	frames := wireFrames(q.Response)
	require.Len(t, frames, 1, "SnowLuma answers each upload request with one frame")
	data := frameData(t, frames[0])
	assert.Equal(t, "chunk_received", data["status"])
	assert.Equal(t, id, data["stream_id"])
}

// frameData decodes the data member of one frame.
func frameData(t *testing.T, frame string) map[string]any {
	t.Helper()
	var env struct {
		Data map[string]any `json:"data"`
	}
	require.NoError(t, json.Unmarshal([]byte(frame), &env))
	return env.Data
}
