package upload

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/frame"
)

// fakeLuma answers upload requests the way SnowLuma does, one frame each,
// and records every request.
type fakeLuma struct {
	mu       sync.Mutex
	requests []map[string]any
	failAt   int // fail the request with this index (0 = never; 1-based)
	received []byte
}

type body struct{ frames []*frame.Frame }

func (b *body) Next() (*frame.Frame, error) {
	if len(b.frames) == 0 {
		return nil, io.EOF
	}
	f := b.frames[0]
	b.frames = b.frames[1:]
	return f, nil
}
func (b *body) Close() error { return nil }

func (f *fakeLuma) Stream(ctx context.Context, action string, params json.RawMessage) (frame.Body, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var p map[string]any
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, err
	}
	f.requests = append(f.requests, p)
	answer := func(s string) (frame.Body, error) {
		fr, err := frame.Parse([]byte(s))
		if err != nil {
			return nil, err
		}
		return &body{frames: []*frame.Frame{fr}}, nil
	}
	if p["reset"] == true {
		return answer(`{"status":"failed","retcode":100,"data":{"type":"error","data_type":"error"},"wording":"Stream reset completed","message":"Stream reset completed"}`)
	}
	if len(f.requests) == f.failAt {
		return answer(`{"status":"failed","retcode":100,"data":{"type":"error","data_type":"error"},"wording":"disk full","message":"disk full"}`)
	}
	id := p["stream_id"].(string)
	if p["is_complete"] == true {
		sum := sha256.Sum256(f.received)
		if p["expected_sha256"] != hex.EncodeToString(sum[:]) {
			return answer(`{"status":"failed","retcode":100,"data":{"type":"error","data_type":"error"},"wording":"sha256 mismatch"}`)
		}
		return answer(fmt.Sprintf(`{"status":"ok","retcode":0,"data":{"type":"response","stream_id":%q,"status":"file_complete","received_chunks":1,"total_chunks":1,"file_path":"/tmp/snowluma-stream/upload/10001/%s__x","file_size":%d,"sha256":%q}}`,
			id, id, len(f.received), hex.EncodeToString(sum[:])))
	}
	data, _ := base64.StdEncoding.DecodeString(p["chunk_data"].(string))
	f.received = append(f.received, data...)
	return answer(fmt.Sprintf(`{"status":"ok","retcode":0,"data":{"type":"stream","stream_id":%q,"status":"chunk_received","received_chunks":1,"total_chunks":1}}`, id))
}

func setup(t *testing.T) (root, outside string) {
	t.Helper()
	base := t.TempDir()
	root, outside = filepath.Join(base, "root"), filepath.Join(base, "outside")
	require.NoError(t, os.MkdirAll(filepath.Join(root, "sub"), 0o755))
	require.NoError(t, os.MkdirAll(outside, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "hello.txt"), []byte("hello world"), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(root, "empty"), nil, 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(outside, "secret"), []byte("secret"), 0o600))
	require.NoError(t, os.MkdirAll(outside+"-twin", 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(outside+"-twin", "secret"), []byte("secret"), 0o600))
	return root, outside
}

// escapeCase is an input_file that must be refused before anything is sent.
type escapeCase struct {
	name  string
	input string
}

func TestSendRefusesEscapesBeforeSending(t *testing.T) {
	t.Parallel()
	root, outside := setup(t)
	tests := []struct {
		name  string
		root  string
		input string
		code  fault.Code
		says  string
	}{
		{"refuses without an upload root", "", "hello.txt", fault.CodeInvalidArgument, "automatic upload is disabled"},
		{"refuses a dot-dot path", root, "sub/../hello.txt", fault.CodeInvalidArgument, `contains a ".." component`},
		{"refuses an absolute path elsewhere", root, filepath.Join(outside, "secret"), fault.CodeInvalidArgument, "resolves outside the upload root"},
		{"refuses a sibling that starts with the root's name", root, filepath.Join(outside+"-twin", "secret"), fault.CodeInvalidArgument, "resolves outside the upload root"},
		{"refuses a directory", root, "sub", fault.CodeInvalidArgument, "not a regular file"},
		{"refuses a missing file", root, "nope.txt", fault.CodeInvalidArgument, "does not exist"},
		{"refuses the root itself as the root, not as outside it", root, root, fault.CodeInvalidArgument, "names the upload root itself"},
		{"refuses the root named relatively as the root", root, ".", fault.CodeInvalidArgument, "names the upload root itself"},
		{"refuses a file over the size limit", root, "hello.txt", fault.CodeLimit, ""},
	}
	escapes, _ := links(t, root, outside)
	for _, e := range escapes {
		tests = append(tests, struct {
			name  string
			root  string
			input string
			code  fault.Code
			says  string
		}{e.name, root, e.input, fault.CodeInvalidArgument, "resolves outside the upload root"})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			luma := &fakeLuma{}
			max := int64(1 << 20)
			if tt.code == fault.CodeLimit {
				max = 5
			}
			_, err := Send(context.Background(), luma, tt.input, Options{Root: tt.root, ChunkBytes: 4, MaxFile: max, ResetTimeout: time.Second}, nil)
			require.Error(t, err)
			assert.Equal(t, tt.code, fault.CodeOf(err), err.Error())
			assert.Contains(t, err.Error(), tt.says, "the message says what is actually wrong")
			if tt.root == "" {
				assert.Contains(t, fault.NextOf(err), "tell the user", "only the user can set the upload root")
				assert.Contains(t, fault.NextOf(err), RootVar)
				assert.NotContains(t, fault.NextOf(err), "Correct the arguments")
			}
			assert.Empty(t, luma.requests, "nothing is sent")
			assert.NotContains(t, err.Error(), "secret")
		})
	}
}

func TestSend(t *testing.T) {
	t.Parallel()
	root, outside := setup(t)
	type sendCase struct {
		name   string
		input  string
		chunks int
		data   string
	}
	tests := []sendCase{
		{"sends a file in chunks and completes it", "hello.txt", 3, "hello world"},
		{"accepts an absolute path inside the root", filepath.Join(root, "hello.txt"), 3, "hello world"},
		{"sends an empty file as one empty chunk", "empty", 1, ""},
	}
	if _, alias := links(t, root, outside); alias != "" {
		tests = append(tests, sendCase{"follows a symlink that stays inside", alias, 3, "hello world"})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			luma := &fakeLuma{}
			var acked []int64
			res, err := Send(context.Background(), luma, tt.input, Options{Root: root, ChunkBytes: 4, MaxFile: 100, ResetTimeout: time.Second},
				func(a, total int64) { acked = append(acked, a); assert.Equal(t, int64(len(tt.data)), total) })
			require.NoError(t, err)
			assert.Equal(t, tt.data, string(luma.received))
			require.Len(t, luma.requests, tt.chunks+1, "one request per chunk plus the completion")
			for i, r := range luma.requests[:tt.chunks] {
				assert.Equal(t, float64(i), r["chunk_index"])
				assert.Equal(t, float64(tt.chunks), r["total_chunks"])
				assert.Equal(t, float64(len(tt.data)), r["file_size"])
				assert.Regexp(t, `^[A-Za-z0-9_-]{1,128}$`, r["stream_id"])
			}
			last := luma.requests[tt.chunks]
			assert.Equal(t, true, last["is_complete"])
			assert.NotContains(t, last, "chunk_data")
			sum := sha256.Sum256([]byte(tt.data))
			assert.Equal(t, hex.EncodeToString(sum[:]), res.SHA256)
			assert.Equal(t, tt.chunks, res.Chunks)
			assert.Contains(t, string(res.Completion), `"file_path":"/tmp/snowluma-stream/upload/10001/`)
			assert.Len(t, acked, tt.chunks)
		})
	}
}

func TestSendResetsAfterAFailure(t *testing.T) {
	t.Parallel()
	root, _ := setup(t)
	tests := []struct {
		name   string
		failAt int
		reset  bool
	}{
		{"resets after a failed second chunk", 2, true},
		{"resets after a failed completion", 4, true},
		{"resets after a failed first chunk", 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			luma := &fakeLuma{failAt: tt.failAt}
			_, err := Send(context.Background(), luma, "hello.txt", Options{Root: root, ChunkBytes: 4, MaxFile: 100, ResetTimeout: time.Second}, nil)
			var failure *frame.Failure
			require.True(t, errors.As(err, &failure))
			assert.Equal(t, "disk full", failure.Frame.Wording, "the original failure is reported, not the reset's")
			last := luma.requests[len(luma.requests)-1]
			assert.Equal(t, tt.reset, last["reset"] == true)
			assert.Equal(t, luma.requests[0]["stream_id"], last["stream_id"])
			assert.Len(t, luma.requests, tt.failAt+1, "no retry: the failed request is not repeated")
		})
	}
}

func TestSendResetsAfterCancellation(t *testing.T) {
	t.Parallel()
	root, _ := setup(t)
	ctx, cancel := context.WithCancel(context.Background())
	luma := &cancellingLuma{fakeLuma: &fakeLuma{}, cancel: cancel}
	_, err := Send(ctx, luma, "hello.txt", Options{Root: root, ChunkBytes: 4, MaxFile: 100, ResetTimeout: time.Second}, nil)
	require.Error(t, err)
	assert.Equal(t, fault.CodeCancelled, fault.CodeOf(err))
	last := luma.requests[len(luma.requests)-1]
	assert.Equal(t, true, last["reset"])
}

// cancellingLuma cancels the call during the second chunk.
type cancellingLuma struct {
	*fakeLuma
	cancel context.CancelFunc
}

func (c *cancellingLuma) Stream(ctx context.Context, action string, params json.RawMessage) (frame.Body, error) {
	if strings.Contains(string(params), `"chunk_index":1`) {
		c.cancel()
		c.mu.Lock()
		c.requests = append(c.requests, map[string]any{"chunk_index": 1.0})
		c.mu.Unlock()
		return nil, fault.Errorf(fault.CodeCancelled, "call cancelled")
	}
	return c.fakeLuma.Stream(ctx, action, params)
}
