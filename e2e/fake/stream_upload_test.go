package fake_test

// The fake's upload_file_stream: one terminal frame per request, and the
// per-request decision order of handleUpload
// (packages/onebot/src/actions/stream-file.ts), walked through as
// request sequences on streams of their own (stream state is process-wide,
// so every scenario uses a fresh stream_id).

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

// upStep is one request of a scenario: params (with "$id" standing for the
// scenario's stream_id) and the exact single frame expected back.
type upStep struct {
	params string
	want   string
}

func chunkReceived(n, total int) string {
	return okFrame(`{"type":"stream","stream_id":"$id","status":"chunk_received","received_chunks":` +
		strconv.Itoa(n) + `,"total_chunks":` + strconv.Itoa(total) + `}`)
}

func fileCreated(n, total int) string {
	return okFrame(`{"type":"stream","stream_id":"$id","status":"file_created","received_chunks":` +
		strconv.Itoa(n) + `,"total_chunks":` + strconv.Itoa(total) + `}`)
}

func fileComplete(n, total int, name string, data []byte) string {
	sum := sha256.Sum256(data)
	return okFrame(`{"type":"response","stream_id":"$id","status":"file_complete","received_chunks":` +
		strconv.Itoa(n) + `,"total_chunks":` + strconv.Itoa(total) + `,"file_path":"` + fake.UploadDir + `/$id__` + name +
		`","file_size":` + strconv.Itoa(len(data)) + `,"sha256":"` + hex.EncodeToString(sum[:]) + `"}`)
}

func sha(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

func TestUploadFollowsTheDecisionOrder(t *testing.T) {
	t.Parallel()
	hello, world := []byte("hello "), []byte("world")
	whole := []byte("hello world")
	failed := func(reason string) string { return failedTerminal("100", reason) }
	tests := []struct {
		name      string
		steps     []upStep
		wantFinal []byte // merged bytes kept at the end; nil for none
		wantOpen  bool
	}{
		{"the minimal client sequence completes and drops the state", []upStep{
			{`{"stream_id":"$id","total_chunks":2,"file_size":11,"filename":"hi.txt"}`, fileCreated(0, 2)},
			{`{"stream_id":"$id","total_chunks":2,"chunk_index":0,"chunk_data":"` + b64(hello) + `"}`, chunkReceived(1, 2)},
			{`{"stream_id":"$id","chunk_index":1,"chunk_data":"` + b64(world) + `"}`, chunkReceived(2, 2)},
			{`{"stream_id":"$id","is_complete":true,"expected_sha256":"` + sha(whole) + `"}`, fileComplete(2, 2, "hi.txt", whole)},
			{`{"stream_id":"$id","is_complete":true}`, failed(fake.WordingTotalRequired)},
		}, whole, false},
		{"the first call may carry chunk 0", []upStep{
			{`{"stream_id":"$id","total_chunks":1,"chunk_index":0,"chunk_data":"` + b64(whole) + `","filename":"a.txt"}`, chunkReceived(1, 1)},
			{`{"stream_id":"$id","is_complete":true}`, fileComplete(1, 1, "a.txt", whole)},
		}, whole, false},
		{"a repeated chunk is idempotent", []upStep{
			{`{"stream_id":"$id","total_chunks":2,"chunk_index":0,"chunk_data":"` + b64(hello) + `"}`, chunkReceived(1, 2)},
			{`{"stream_id":"$id","chunk_index":0,"chunk_data":"` + b64([]byte("XXXXXX")) + `"}`, chunkReceived(1, 2)},
			{`{"stream_id":"$id","chunk_index":1,"chunk_data":"` + b64(world) + `","filename":"r.txt"}`, chunkReceived(2, 2)},
			{`{"stream_id":"$id","is_complete":true}`, fileComplete(2, 2, "r.txt", whole)},
		}, whole, false},
		{"is_complete beside a chunk does not complete", []upStep{
			{`{"stream_id":"$id","total_chunks":1,"chunk_index":0,"chunk_data":"` + b64(whole) + `","is_complete":true}`, chunkReceived(1, 1)},
		}, nil, true},
		{"a call without a chunk completes once every chunk is in", []upStep{
			{`{"stream_id":"$id","total_chunks":1,"chunk_index":0,"chunk_data":"` + b64(whole) + `","filename":"x.bin"}`, chunkReceived(1, 1)},
			{`{"stream_id":"$id","file_size":11}`, fileComplete(1, 1, "x.bin", whole)},
		}, whole, false},
		{"without a filename the merged file is named file", []upStep{
			{`{"stream_id":"$id","total_chunks":1,"chunk_index":0,"chunk_data":"` + b64(whole) + `"}`, chunkReceived(1, 1)},
			{`{"stream_id":"$id","is_complete":true}`, fileComplete(1, 1, "file", whole)},
		}, whole, false},
		{"separators in the filename stay inside the upload dir", []upStep{
			{`{"stream_id":"$id","total_chunks":1,"chunk_index":0,"chunk_data":"` + b64(whole) + `","filename":"../a/b.txt"}`, chunkReceived(1, 1)},
			{`{"stream_id":"$id","is_complete":true}`, fileComplete(1, 1, ".._a_b.txt", whole)},
		}, whole, false},
		{"missing chunks are listed", []upStep{
			{`{"stream_id":"$id","total_chunks":3,"chunk_index":1,"chunk_data":"` + b64(hello) + `"}`, chunkReceived(1, 3)},
			{`{"stream_id":"$id","is_complete":true}`, failed("incomplete stream: missing 2 chunk(s) [0,2]")},
		}, nil, true},
		{"at most 16 missing chunks are listed", []upStep{
			{`{"stream_id":"$id","total_chunks":20,"is_complete":true}`,
				failed("incomplete stream: missing 20 chunk(s) [0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,…]")},
		}, nil, true},
		{"a sha256 mismatch keeps the stream for a reset", []upStep{
			{`{"stream_id":"$id","total_chunks":1,"chunk_index":0,"chunk_data":"` + b64(whole) + `"}`, chunkReceived(1, 1)},
			{`{"stream_id":"$id","is_complete":true,"expected_sha256":"` + strings.Repeat("0", 64) + `"}`,
				failed("sha256 mismatch (expected " + strings.Repeat("0", 64) + ", got " + sha(whole) + ")")},
			{`{"stream_id":"$id","verify_only":true}`, fileCreated(1, 1)},
		}, nil, true},
		{"reset always answers an error frame and drops everything", []upStep{
			{`{"stream_id":"$id","total_chunks":1,"chunk_index":0,"chunk_data":"` + b64(whole) + `"}`, chunkReceived(1, 1)},
			{`{"stream_id":"$id","reset":true}`, failed(fake.WordingResetCompleted)},
			{`{"stream_id":"$id","verify_only":true}`, failed(fake.WordingStreamNotFound)},
		}, nil, false},
		{"reset removes a merged file", []upStep{
			{`{"stream_id":"$id","total_chunks":1,"chunk_index":0,"chunk_data":"` + b64(whole) + `"}`, chunkReceived(1, 1)},
			{`{"stream_id":"$id","is_complete":true}`, fileComplete(1, 1, "file", whole)},
			{`{"stream_id":"$id","reset":true}`, failed(fake.WordingResetCompleted)},
		}, nil, false},
		{"reset of an unknown stream is still an error frame", []upStep{
			{`{"stream_id":"$id","reset":true}`, failed(fake.WordingResetCompleted)},
		}, nil, false},
		{"reset comes before verify_only and creation", []upStep{
			{`{"stream_id":"$id","reset":true,"verify_only":true,"total_chunks":1}`, failed(fake.WordingResetCompleted)},
		}, nil, false},
		{"verify_only of an unknown stream", []upStep{
			{`{"stream_id":"$id","verify_only":true,"total_chunks":1}`, failed(fake.WordingStreamNotFound)},
		}, nil, false},
		{"a new stream needs total_chunks", []upStep{
			{`{"stream_id":"$id","chunk_index":0,"chunk_data":"` + b64(whole) + `"}`, failed(fake.WordingTotalRequired)},
		}, nil, false},
		{"a chunk index beyond total_chunks", []upStep{
			{`{"stream_id":"$id","total_chunks":2,"chunk_index":2,"chunk_data":"` + b64(whole) + `"}`, failed("invalid chunk index: 2")},
		}, nil, true},
		{"chunk_data without chunk_index only creates", []upStep{
			{`{"stream_id":"$id","total_chunks":2,"chunk_data":"` + b64(whole) + `"}`, fileCreated(0, 2)},
		}, nil, true},
		{"an invalid stream_id", []upStep{
			{`{"stream_id":"bad id!","total_chunks":1}`, failed(fake.WordingInvalidStreamID)},
		}, nil, false},
		{"a missing stream_id is a param error", []upStep{
			{`{"total_chunks":1}`, failedTerminal("1400", "stream_id: is required")},
		}, nil, false},
		{"a non-integer total_chunks is a param error", []upStep{
			{`{"stream_id":"$id","total_chunks":"many"}`, failedTerminal("1400", "total_chunks: expected an integer")},
		}, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			id := "fake_" + newTraceID(t)
			for i, step := range tt.steps {
				params := strings.ReplaceAll(step.params, "$id", id)
				r := streamCall(t, fake.UploadAction, params)
				assert.Equal(t, strings.ReplaceAll(step.want, "$id", id)+fake.Delimiter, r.body,
					"step %d: one request is answered by exactly one frame", i)
			}
			final, ok := srv.Uploaded(id)
			assert.Equal(t, tt.wantFinal != nil, ok, "a merged file is kept")
			assert.Equal(t, tt.wantFinal, final)
			assert.Equal(t, tt.wantOpen, srv.UploadOpen(id))
			if srv.UploadOpen(id) {
				// Stream state is process-wide, as in SnowLuma: leave none.
				streamCall(t, fake.UploadAction, `{"stream_id":"`+id+`","reset":true}`)
			}
		})
	}
}
