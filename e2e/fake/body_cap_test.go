package fake_test

// SnowLuma's request body cap: readRequestBody
// (packages/onebot/src/network/http-server-adapter.ts) accepts up to 2 MiB
// of body; one byte more and the socket is destroyed, so the client gets
// no HTTP response at all (observed on SnowLuma v1.11.1), for ordinary and
// stream actions alike. The fake must draw the line at exactly the same
// byte, so a product request that crosses it fails in the suite as it would
// live.

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const bodyCap = 2 << 20

// padded is a JSON request for action whose body is exactly size bytes.
func padded(t *testing.T, action string, size int) string {
	t.Helper()
	head := `{"action":"` + action + `","params":{"stream_id":"cap","pad":"`
	tail := `"}}`
	require.Greater(t, size, len(head)+len(tail))
	return head + strings.Repeat("x", size-len(head)-len(tail)) + tail
}

func TestBodyCapIsSnowLumas(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		action   string
		size     int
		answered bool
	}{
		{"an ordinary request of exactly 2 MiB is answered", "get_status", bodyCap, true},
		{"an ordinary request one byte over gets no response", "get_status", bodyCap + 1, false},
		{"a stream request of exactly 2 MiB is answered", "upload_file_stream", bodyCap, true},
		{"a stream request one byte over gets no response", "upload_file_stream", bodyCap + 1, false},
		{"a far larger request gets no response", "upload_file_stream", 3 * bodyCap, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			body := padded(t, tt.action, tt.size)
			require.Len(t, body, tt.size)
			r, err := call(t, context.Background(), srv, http.MethodPost, "/", "application/json", "Bearer "+token, body, nil)
			if !tt.answered {
				assert.Error(t, err, "the socket is torn down without an HTTP response")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, http.StatusOK, r.status)
		})
	}
}

func TestBodyCapComesAfterAuth(t *testing.T) {
	t.Parallel()
	r, err := call(t, context.Background(), srv, http.MethodPost, "/", "application/json", "Bearer nope", padded(t, "get_status", bodyCap+1), nil)
	require.NoError(t, err, "SnowLuma refuses the token before it reads the body")
	assert.Equal(t, http.StatusUnauthorized, r.status)
}

func TestHangUploadDropsOnlyTheNamedRequests(t *testing.T) {
	t.Parallel()
	tag := newTraceID(t)
	id := "hang_" + tag
	bodies := []string{
		`{"stream_id":"` + id + `","total_chunks":2,"chunk_index":0,"chunk_data":"aGVsbG8=","_fake":"hangupload:2,hangupload:3,tag:` + tag + `"}`,
		`{"stream_id":"` + id + `","chunk_index":1,"chunk_data":"aGVsbG8="}`,
		`{"stream_id":"` + id + `","reset":true}`,
		`{"stream_id":"` + id + `","reset":true}`,
	}
	dropped := []bool{false, true, true, false}
	for i, b := range bodies {
		r := postStream(t, context.Background(), `{"action":"upload_file_stream","params":`+b+`}`, nil)
		if dropped[i] {
			assert.Error(t, r.readErr, "request %d is cut off", i+1)
			assert.Empty(t, r.frames(), "request %d gets no frame", i+1)
			continue
		}
		require.NoError(t, r.readErr, "request %d", i+1)
		require.Len(t, r.frames(), 1, "request %d", i+1)
	}
	assert.False(t, srv.UploadOpen(id), "the last reset went through")
	assert.Len(t, srv.ByTag(tag), len(bodies))
}
