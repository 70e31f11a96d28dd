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
			{`{"stream_id":"$id","total_chunks":2,"chunk_index":0,"chunk_data":"` + b64(hello) + `","filename":"r.txt"}`, chunkReceived(1, 2)},
			{`{"stream_id":"$id","chunk_index":0,"chunk_data":"` + b64([]byte("XXXXXX")) + `"}`, chunkReceived(1, 2)},
			{`{"stream_id":"$id","chunk_index":1,"chunk_data":"` + b64(world) + `"}`, chunkReceived(2, 2)},
			{`{"stream_id":"$id","is_complete":true}`, fileComplete(2, 2, "r.txt", whole)},
		}, whole, false},
		{"a filename on a later call is ignored", []upStep{
			{`{"stream_id":"$id","total_chunks":1,"filename":"first.txt"}`, fileCreated(0, 1)},
			{`{"stream_id":"$id","chunk_index":0,"chunk_data":"` + b64(whole) + `","filename":"second.txt"}`, chunkReceived(1, 1)},
			{`{"stream_id":"$id","is_complete":true,"filename":"third.txt"}`, fileComplete(1, 1, "first.txt", whole)},
		}, whole, false},
		{"a file_size beyond the limit on a later call is only recorded", []upStep{
			{`{"stream_id":"$id","total_chunks":1}`, fileCreated(0, 1)},
			{`{"stream_id":"$id","file_size":4294967297,"chunk_index":0,"chunk_data":"` + b64(whole) + `"}`, chunkReceived(1, 1)},
			{`{"stream_id":"$id","is_complete":true}`, fileComplete(1, 1, "upload_$id", whole)},
		}, whole, false},
		{"chunk_data is decoded as Node decodes base64, never refused", []upStep{
			{`{"stream_id":"$id","total_chunks":2,"chunk_index":0,"chunk_data":"aGVs bG8g\n$"}`, chunkReceived(1, 2)},
			{`{"stream_id":"$id","chunk_index":1,"chunk_data":"d29ybGQ=IGFnYWlu"}`, chunkReceived(2, 2)},
			{`{"stream_id":"$id","is_complete":true}`, fileComplete(2, 2, "upload_$id", whole)},
		}, whole, false},
		{"a numeric chunk_data is stringified, then decoded", []upStep{
			{`{"stream_id":"$id","total_chunks":1,"chunk_index":0,"chunk_data":1234}`, chunkReceived(1, 1)},
			{`{"stream_id":"$id","is_complete":true}`, fileComplete(1, 1, "upload_$id", []byte{0xd7, 0x6d, 0xf8})},
		}, []byte{0xd7, 0x6d, 0xf8}, false},
		{"is_complete beside a chunk does not complete", []upStep{
			{`{"stream_id":"$id","total_chunks":1,"chunk_index":0,"chunk_data":"` + b64(whole) + `","is_complete":true}`, chunkReceived(1, 1)},
		}, nil, true},
		{"a call without a chunk completes once every chunk is in", []upStep{
			{`{"stream_id":"$id","total_chunks":1,"chunk_index":0,"chunk_data":"` + b64(whole) + `","filename":"x.bin"}`, chunkReceived(1, 1)},
			{`{"stream_id":"$id","file_size":11}`, fileComplete(1, 1, "x.bin", whole)},
		}, whole, false},
		{"without a filename the merged file is named upload_<stream_id>", []upStep{
			{`{"stream_id":"$id","total_chunks":1,"chunk_index":0,"chunk_data":"` + b64(whole) + `"}`, chunkReceived(1, 1)},
			{`{"stream_id":"$id","is_complete":true}`, fileComplete(1, 1, "upload_$id", whole)},
		}, whole, false},
		{"separators and dot runs in the filename become underscores", []upStep{
			{`{"stream_id":"$id","total_chunks":1,"chunk_index":0,"chunk_data":"` + b64(whole) + `","filename":"../a\\b...txt"}`, chunkReceived(1, 1)},
			{`{"stream_id":"$id","is_complete":true}`, fileComplete(1, 1, "__a_b_txt", whole)},
		}, whole, false},
		{"leading dots and surrounding whitespace go from the filename", []upStep{
			{`{"stream_id":"$id","total_chunks":1,"chunk_index":0,"chunk_data":"` + b64(whole) + `","filename":".hidden name.txt \u3000"}`, chunkReceived(1, 1)},
			{`{"stream_id":"$id","is_complete":true}`, fileComplete(1, 1, "hidden name.txt", whole)},
		}, whole, false},
		{"a filename of dots only falls back to upload_<stream_id>", []upStep{
			{`{"stream_id":"$id","total_chunks":1,"chunk_index":0,"chunk_data":"` + b64(whole) + `","filename":"."}`, chunkReceived(1, 1)},
			{`{"stream_id":"$id","is_complete":true}`, fileComplete(1, 1, "upload_$id", whole)},
		}, whole, false},
		{"a numeric filename is stringified as JavaScript does", []upStep{
			{`{"stream_id":"$id","total_chunks":1,"chunk_index":0,"chunk_data":"` + b64(whole) + `","filename":1e21}`, chunkReceived(1, 1)},
			{`{"stream_id":"$id","is_complete":true}`, fileComplete(1, 1, "1e+21", whole)},
		}, whole, false},
		{"missing chunks are listed", []upStep{
			{`{"stream_id":"$id","total_chunks":3,"chunk_index":1,"chunk_data":"` + b64(hello) + `"}`, chunkReceived(1, 3)},
			{`{"stream_id":"$id","is_complete":true}`, failed("incomplete stream: missing 2 chunk(s) [0,2]")},
		}, nil, true},
		{"at most 16 missing chunks are listed", []upStep{
			{`{"stream_id":"$id","total_chunks":20,"is_complete":true}`,
				failed("incomplete stream: missing 20 chunk(s) [0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15…]")},
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
		{"reset after completion keeps the merged file", []upStep{
			{`{"stream_id":"$id","total_chunks":1,"chunk_index":0,"chunk_data":"` + b64(whole) + `"}`, chunkReceived(1, 1)},
			{`{"stream_id":"$id","is_complete":true}`, fileComplete(1, 1, "upload_$id", whole)},
			{`{"stream_id":"$id","reset":true}`, failed(fake.WordingResetCompleted)},
		}, whole, false},
		{"resetting a reopened stream of the same name removes the merged file", []upStep{
			{`{"stream_id":"$id","total_chunks":1,"chunk_index":0,"chunk_data":"` + b64(whole) + `","filename":"same.txt"}`, chunkReceived(1, 1)},
			{`{"stream_id":"$id","is_complete":true}`, fileComplete(1, 1, "same.txt", whole)},
			{`{"stream_id":"$id","total_chunks":2,"filename":"same.txt"}`, fileCreated(0, 2)},
			{`{"stream_id":"$id","reset":true}`, failed(fake.WordingResetCompleted)},
		}, nil, false},
		{"resetting a reopened stream of another name keeps the merged file", []upStep{
			{`{"stream_id":"$id","total_chunks":1,"chunk_index":0,"chunk_data":"` + b64(whole) + `","filename":"one.txt"}`, chunkReceived(1, 1)},
			{`{"stream_id":"$id","is_complete":true}`, fileComplete(1, 1, "one.txt", whole)},
			{`{"stream_id":"$id","total_chunks":2,"filename":"two.txt"}`, fileCreated(0, 2)},
			{`{"stream_id":"$id","reset":true}`, failed(fake.WordingResetCompleted)},
		}, whole, false},
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
		{"an empty stream_id is a param error", []upStep{
			{`{"stream_id":"","total_chunks":1}`, failedTerminal("1400", "stream_id: must not be empty")},
		}, nil, false},
		{"a non-integer total_chunks is a param error", []upStep{
			{`{"stream_id":"$id","total_chunks":"many"}`, failedTerminal("1400", "total_chunks: expected an integer")},
		}, nil, false},
		{"total_chunks 0 is a param error", []upStep{
			{`{"stream_id":"$id","total_chunks":0}`, failedTerminal("1400", "total_chunks: must be >= 1")},
		}, nil, false},
		{"a negative chunk_index is a param error", []upStep{
			{`{"stream_id":"$id","total_chunks":1,"chunk_index":-1,"chunk_data":""}`, failedTerminal("1400", "chunk_index: must be >= 0")},
		}, nil, false},
		{"a negative file_size is a param error", []upStep{
			{`{"stream_id":"$id","total_chunks":1,"file_size":-1}`, failedTerminal("1400", "file_size: must be >= 0")},
		}, nil, false},
		{"a negative file_retention is a param error", []upStep{
			{`{"stream_id":"$id","total_chunks":1,"file_retention":-5}`, failedTerminal("1400", "file_retention: must be >= 0")},
		}, nil, false},
		{"a null filename is a param error", []upStep{
			{`{"stream_id":"$id","total_chunks":1,"filename":null}`, failedTerminal("1400", "filename: expected a string")},
		}, nil, false},
		{"a non-boolean is_complete is a param error", []upStep{
			{`{"stream_id":"$id","total_chunks":1,"is_complete":"maybe"}`, failedTerminal("1400", "is_complete: expected a boolean")},
		}, nil, false},
		{"any non-zero number is a true reset", []upStep{
			{`{"stream_id":"$id","total_chunks":1}`, fileCreated(0, 1)},
			{`{"stream_id":"$id","reset":0.5}`, failed(fake.WordingResetCompleted)},
		}, nil, false},
		{"total_chunks beyond the limit", []upStep{
			{`{"stream_id":"$id","total_chunks":200001}`, failed("total_chunks exceeds limit (200000)")},
		}, nil, false},
		{"a file_size beyond the limit at creation", []upStep{
			{`{"stream_id":"$id","total_chunks":1,"file_size":4294967297}`, failed("file_size exceeds limit (4294967296 bytes)")},
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
