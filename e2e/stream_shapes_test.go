package e2e

// The payloads stream calls return (a saved download, a completed upload,
// a generic stream's frames) and the upload requests the fake recorded, so
// that stream tests compare typed values instead of picking at JSON.

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

// savedResult is a download's result payload.
type savedResult struct {
	SavedFile struct {
		Path     string `json:"path"`
		FileName string `json:"file_name"`
		Size     int64  `json:"size"`
		SHA256   string `json:"sha256"`
		Chunks   int    `json:"chunks"`
	} `json:"saved_file"`
	Note string `json:"note"`
}

// uploadResult is an automatic upload's result payload.
type uploadResult struct {
	Upload struct {
		StreamID string `json:"stream_id"`
		FileName string `json:"file_name"`
		Size     int64  `json:"size"`
		SHA256   string `json:"sha256"`
		Chunks   int    `json:"chunks"`
	} `json:"upload"`
	Completion struct {
		Type           string `json:"type"`
		StreamID       string `json:"stream_id"`
		Status         string `json:"status"`
		ReceivedChunks int    `json:"received_chunks"`
		TotalChunks    int    `json:"total_chunks"`
		FilePath       string `json:"file_path"`
		FileSize       int64  `json:"file_size"`
		SHA256         string `json:"sha256"`
	} `json:"completion"`
	Note string `json:"note"`
}

// collected is a generic stream's result payload.
type collected struct {
	Frames     []json.RawMessage `json:"frames"`
	FrameCount int               `json:"frame_count"`
	Terminal   json.RawMessage   `json:"terminal"`
}

// wireFrames splits a recorded stream response into its frames.
func wireFrames(body []byte) []string {
	var out []string
	for _, p := range strings.Split(string(body), fake.Delimiter) {
		if strings.TrimSpace(p) != "" {
			out = append(out, p)
		}
	}
	return out
}

// uploadCall runs an automatic upload of input with a fresh trace (and
// tracestate uploadState) and returns the checked result and the trace ID of its requests.
func (s *server) uploadCall(t *testing.T, input string) (toolResult, string) {
	t.Helper()
	traceID, tp := newTrace(t)
	r := s.call(t, "invoke_action", map[string]any{
		"action":    fake.UploadAction,
		"execution": map[string]any{"input_file": input},
	}, mcp.Meta{"traceparent": tp, "tracestate": uploadState})
	return r, traceID
}

// uploadState is the tracestate every upload call passes, so that tests
// can check it reaches each of the call's requests.
const uploadState = "e2e=upload-state"

// upParams is what one upload request carried.
type upParams struct {
	keys           []string
	StreamID       string  `json:"stream_id"`
	ChunkIndex     *int    `json:"chunk_index"`
	TotalChunks    *int    `json:"total_chunks"`
	FileSize       *int64  `json:"file_size"`
	Filename       *string `json:"filename"`
	ChunkData      *string `json:"chunk_data"`
	IsComplete     *bool   `json:"is_complete"`
	ExpectedSHA256 *string `json:"expected_sha256"`
	Reset          *bool   `json:"reset"`
}

// paramsOf decodes an upload request's params.
func paramsOf(t *testing.T, q fake.Request) upParams {
	t.Helper()
	var p upParams
	require.NoError(t, json.Unmarshal(q.Params, &p), "params %s", q.Params)
	var m map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(q.Params, &m))
	for k := range m {
		p.keys = append(p.keys, k)
	}
	slices.Sort(p.keys)
	return p
}

// isReset reports a reset request.
func (p upParams) isReset() bool { return p.Reset != nil && *p.Reset }
