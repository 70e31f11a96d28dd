package e2e

// Generic streams (BASE-7): a stream action that is neither a download nor
// an automatic upload returns its intermediate frames and its terminal
// frame as SnowLuma sent them; a failed terminal frame is a tool error
// with SnowLuma's reason; a stream cut short is a tool error. Explicit
// upload_file_stream params (no execution) run the upload protocol by hand,
// one request per call, each answered as a generic stream.

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

func TestTestDownloadStreamReturnsItsFrames(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		env, _ := streamEnv(t)
		s := start(t, version, env)
		c := s.run(t, "invoke_action", "test_download_stream", nil, "")
		require.False(t, c.res.IsError, c.res.Text)
		assert.Equal(t, "success", c.res.Diag.Outcome)
		var got collected
		c.res.decodeResult(t, &got)

		sent := c.sent(t)
		require.Len(t, sent, 1)
		wire := wireFrames(sent[0].Response)
		require.Len(t, wire, 11)
		assert.Equal(t, 10, got.FrameCount)
		require.Len(t, got.Frames, 10)
		for i, f := range got.Frames {
			assert.JSONEq(t, wire[i], string(f), "frame %d is SnowLuma's frame", i)
			var env struct {
				Data struct {
					Type, Data, DataType string
				} `json:"data"`
			}
			require.NoError(t, json.Unmarshal(f, &env))
			assert.Equal(t, fmt.Sprintf("Index-> %d", i+1), env.Data.Data)
		}
		assert.JSONEq(t, wire[10], string(got.Terminal))
		assert.JSONEq(t, `{"status":"ok","retcode":0,"data":{"type":"response","data_type":"data_complete","data":"Stream transmission complete"},"message":"","wording":"","stream":"stream-action"}`,
			string(got.Terminal))
	})
}

func TestGenericStreamFailuresAreToolErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		params      map[string]any
		faults      string
		wantKind    string
		wantText    string
		wantOutcome string
	}{
		{"error true ends with SnowLuma's failure", map[string]any{"error": true}, "", "stream_failed", "This is a test error", "failed"},
		{"a stream that ends before its terminal frame is broken, not a bad reply", nil, "truncate:4", "stream_broken", "ended before its terminal frame", ""},
		{"a connection cut mid-stream", nil, "cut:4", "transport", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				env, _ := streamEnv(t)
				s := start(t, version, env)
				c := s.run(t, "invoke_action", "test_download_stream", tt.params, tt.faults)
				require.True(t, c.res.IsError, c.res.Text)
				assert.Equal(t, "null", string(c.res.Result))
				assert.Equal(t, tt.wantKind, c.res.Diag.Kind, c.res.Diag.Message)
				if tt.wantText != "" {
					assert.Contains(t, c.res.Diag.Message, tt.wantText)
				}
				if tt.wantOutcome != "" {
					assert.Equal(t, tt.wantOutcome, c.res.Diag.Outcome)
				}
				assert.Len(t, c.sent(t), 1, "nothing is retried")
			})
		})
	}
}

func TestExplicitUploadParamsRunAsAGenericStream(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		env, _ := streamEnv(t)
		s := start(t, version, env)
		id := "e2e_" + newTag(t)
		data := []byte("hello explicit upload")

		step := func(params map[string]any) (execCall, collected) {
			c := s.run(t, "invoke_action", fake.UploadAction, params, "")
			require.False(t, c.res.IsError, c.res.Text)
			var got collected
			c.res.decodeResult(t, &got)
			// The fake records its answer when its handler returns, which
			// may be just after the product has read the frame.
			var sent []fake.Request
			require.Eventually(t, func() bool {
				sent = c.sent(t)
				return len(sent) == 1 && sent[0].Done
			}, safety, 5*time.Millisecond, "one call, one request")
			assert.Equal(t, 0, got.FrameCount, "SnowLuma answers an upload request with a single frame")
			assert.Empty(t, got.Frames)
			wire := wireFrames(sent[0].Response)
			require.Len(t, wire, 1)
			assert.JSONEq(t, wire[0], string(got.Terminal), "the terminal is SnowLuma's frame")
			return c, got
		}
		_, chunk := step(map[string]any{"stream_id": id, "total_chunks": 1, "chunk_index": 0,
			"chunk_data": base64.StdEncoding.EncodeToString(data), "filename": "explicit.txt"})
		assert.JSONEq(t, `{"type":"stream","stream_id":"`+id+`","status":"chunk_received","received_chunks":1,"total_chunks":1}`,
			string(dataOf(t, chunk.Terminal)))
		assert.True(t, snow.UploadOpen(id))

		_, done := step(map[string]any{"stream_id": id, "is_complete": true, "expected_sha256": sha256Hex(data)})
		var complete struct {
			Status   string `json:"status"`
			FilePath string `json:"file_path"`
			FileSize int64  `json:"file_size"`
			SHA256   string `json:"sha256"`
		}
		require.NoError(t, json.Unmarshal(dataOf(t, done.Terminal), &complete))
		assert.Equal(t, "file_complete", complete.Status)
		assert.Equal(t, fake.UploadPath(id, "explicit.txt"), complete.FilePath)
		assert.Equal(t, int64(len(data)), complete.FileSize)
		assert.Equal(t, sha256Hex(data), complete.SHA256)
		got, ok := snow.Uploaded(id)
		require.True(t, ok)
		assert.Equal(t, data, got)

		t.Run("an explicit reset is SnowLuma's error frame", func(t *testing.T) {
			c := s.run(t, "invoke_action", fake.UploadAction, map[string]any{"stream_id": id, "reset": true}, "")
			assert.True(t, c.res.IsError)
			assert.Equal(t, "stream_failed", c.res.Diag.Kind)
			assert.Contains(t, c.res.Diag.Message, fake.WordingResetCompleted)
			assert.Len(t, c.sent(t), 1, "the reset reached SnowLuma")
			// cleanupUpload (stream-file.ts) finds no open stream once it
			// completed, so the merged file stays.
			kept, ok := snow.Uploaded(id)
			assert.True(t, ok, "a reset after completion keeps the merged file")
			assert.Equal(t, data, kept)
		})
	})
}

// dataOf returns the data member of a frame.
func dataOf(t *testing.T, frame json.RawMessage) json.RawMessage {
	t.Helper()
	var env struct {
		Data json.RawMessage `json:"data"`
	}
	require.NoError(t, json.Unmarshal(frame, &env))
	return env.Data
}
