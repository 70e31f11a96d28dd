package fake_test

// The fake's download side of the stream API, byte for byte where
// SnowLuma's packages/onebot/src/actions/stream-download.ts fixes the bytes:
// test_download_stream's ten frames and terminal, the download actions'
// file_info / file_chunk / file_complete sequence (with the 150 KiB file
// observed on SnowLuma v1.11.1), source resolution per action, and the
// failures as failed terminal frames.

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

// testFrames is test_download_stream's ten intermediate frames.
func testFrames() []string {
	var out []string
	for i := 1; i <= 10; i++ {
		out = append(out, okFrame(fmt.Sprintf(`{"type":"stream","data":"Index-> %d","data_type":"data_chunk"}`, i)))
	}
	return out
}

func TestTestDownloadStreamSendsTenFramesAndATerminal(t *testing.T) {
	t.Parallel()
	complete := okFrame(`{"type":"response","data_type":"data_complete","data":"Stream transmission complete"}`)
	failed := failedTerminal("100", "This is a test error")
	tests := []struct {
		name   string
		params string
		want   []string
	}{
		{"without params it completes", `{}`, append(testFrames(), complete)},
		{"error false completes", `{"error":false}`, append(testFrames(), complete)},
		{"error true ends with a failed terminal", `{"error":true}`, append(testFrames(), failed)},
		{"error is coerced from a string", `{"error":"yes"}`, append(testFrames(), failed)},
		{"an invalid error flag is a param error before any frame", `{"error":"maybe"}`,
			[]string{failedTerminal("1400", "error: expected a boolean")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := streamCall(t, "test_download_stream", tt.params)
			assert.Equal(t, strings.Join(tt.want, fake.Delimiter)+fake.Delimiter, r.body)
		})
	}
}

func TestEveryStreamFrameCarriesTheEcho(t *testing.T) {
	t.Parallel()
	r := postStream(t, t.Context(), `{"action":"test_download_stream","params":{"error":true},"echo":{"n":7}}`, nil)
	require.NoError(t, r.readErr)
	assertStreamFraming(t, r)
	frames := r.frames()
	require.Len(t, frames, 11)
	for _, f := range frames {
		assert.True(t, strings.HasSuffix(f, `,"stream":"stream-action","echo":{"n":7}}`), f)
	}
}

type infoPacket struct {
	Type      string `json:"type"`
	DataType  string `json:"data_type"`
	FileName  string `json:"file_name"`
	FileSize  int64  `json:"file_size"`
	ChunkSize int64  `json:"chunk_size"`
}

type chunkPacket struct {
	Type       string `json:"type"`
	DataType   string `json:"data_type"`
	Index      int    `json:"index"`
	Data       string `json:"data"`
	Size       int    `json:"size"`
	Progress   int    `json:"progress"`
	Base64Size int    `json:"base64_size"`
}

type completePacket struct {
	Type        string `json:"type"`
	DataType    string `json:"data_type"`
	FileName    string `json:"file_name"`
	TotalChunks int    `json:"total_chunks"`
	TotalBytes  int64  `json:"total_bytes"`
	Message     string `json:"message"`
}

// download is a decoded download stream.
type download struct {
	info     infoPacket
	chunks   []chunkPacket
	complete completePacket
	data     []byte
}

// readDownload decodes a successful download stream in frame order.
func readDownload(t *testing.T, r streamReply) download {
	t.Helper()
	frames := r.frames()
	require.GreaterOrEqual(t, len(frames), 2, r.body)
	d := download{data: []byte{}}
	packet(t, frames[0], &d.info)
	for _, f := range frames[1 : len(frames)-1] {
		var c chunkPacket
		packet(t, f, &c)
		raw, err := base64.StdEncoding.DecodeString(c.Data)
		require.NoError(t, err)
		assert.Equal(t, len(raw), c.Size, "size is the raw byte count")
		assert.Equal(t, len(c.Data), c.Base64Size, "base64_size is the length of data")
		d.chunks = append(d.chunks, c)
		d.data = append(d.data, raw...)
	}
	packet(t, frames[len(frames)-1], &d.complete)
	assert.Equal(t, "file_info", d.info.DataType)
	assert.Equal(t, "stream", d.info.Type)
	assert.Equal(t, "response", d.complete.Type)
	assert.Equal(t, "file_complete", d.complete.DataType)
	assert.Equal(t, "Download completed", d.complete.Message)
	return d
}

func TestDownloadStreamsServeTheirFiles(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name         string
		action       string
		params       string
		target       string
		wantSizes    []int
		wantProgress []int // nil to skip
		wantFileSize int64
		wantChunk    int64
	}{
		{"the 150 KiB file observed on SnowLuma v1.11.1, at the default chunk size", "download_file_stream",
			`{"file":"` + fake.FileSeed + `"}`, fake.FileSeed,
			[]int{65536, 65536, 22528}, []int{43, 85, 100}, 153600, 65536},
		{"chunk_size cuts local files", "download_file_stream",
			`{"file":"` + fake.FileSeed + `","chunk_size":50000}`, fake.FileSeed,
			[]int{50000, 50000, 50000, 3600}, []int{33, 65, 98, 100}, 153600, 50000},
		{"chunk_size is capped at 16 MiB", "download_file_stream",
			`{"file":"` + fake.FileHello + `","chunk_size":99999999}`, fake.FileHello, []int{11}, []int{100}, 11, 16 << 20},
		{"a numeric-string chunk_size is coerced", "download_file_stream",
			`{"file":"` + fake.FileHello + `","chunk_size":"4"}`, fake.FileHello, []int{4, 4, 3}, []int{36, 73, 100}, 11, 4},
		{"a file:// URI is a local path", "download_file_stream",
			`{"file":"file://` + fake.FileHello + `"}`, fake.FileHello, []int{11}, []int{100}, 11, 65536},
		{"file_id is used when file is empty", "download_file_stream",
			`{"file":"","file_id":"` + fake.FileHello + `"}`, fake.FileHello, []int{11}, []int{100}, 11, 65536},
		{"an empty file has no chunks", "download_file_stream",
			`{"file":"` + fake.FileEmpty + `"}`, fake.FileEmpty, nil, nil, 0, 65536},
		{"a URL source has an unknown size and body-sized chunks", "download_file_stream",
			`{"file":"` + fake.FileURL + `","chunk_size":1000}`, fake.FileURL,
			[]int{16384, 16384, 16384, 848}, []int{0, 0, 0, 0}, 0, 1000},
		{"the image action finds a cached image", "download_file_image_stream",
			`{"file":"` + fake.ImageID + `"}`, fake.ImageID, nil, nil, 0, 65536},
		{"the record action finds a cached voice", "download_file_record_stream",
			`{"file_id":"` + fake.VoiceID + `"}`, fake.VoiceID, []int{16384, 3616}, []int{0, 0}, 0, 65536},
		{"the generic action finds a cached voice", "download_file_stream",
			`{"file":"` + fake.VoiceID + `"}`, fake.VoiceID, []int{16384, 3616}, nil, 0, 65536},
		{"local files work for the record action too", "download_file_record_stream",
			`{"file":"` + fake.FileHello + `"}`, fake.FileHello, []int{11}, nil, 11, 65536},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			src, ok := fake.StreamFileAt(tt.target)
			require.True(t, ok)
			d := readDownload(t, streamCall(t, tt.action, tt.params))
			assert.Equal(t, src.Data, d.data, "the chunks reassemble the file")
			assert.Equal(t, src.Name, d.info.FileName)
			assert.Equal(t, src.Name, d.complete.FileName)
			assert.Equal(t, tt.wantFileSize, d.info.FileSize)
			assert.Equal(t, tt.wantChunk, d.info.ChunkSize)
			assert.Equal(t, len(d.chunks), d.complete.TotalChunks)
			assert.Equal(t, int64(len(src.Data)), d.complete.TotalBytes)
			var sizes, progress []int
			for i, c := range d.chunks {
				assert.Equal(t, i, c.Index, "chunks come in index order from 0")
				sizes = append(sizes, c.Size)
				progress = append(progress, c.Progress)
			}
			if tt.wantSizes != nil {
				assert.Equal(t, tt.wantSizes, sizes)
			}
			if tt.wantProgress != nil {
				assert.Equal(t, tt.wantProgress, progress)
			}
		})
	}
}

func TestDownloadFailuresAreFailedTerminalFrames(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		action  string
		params  string
		retcode string
		reason  string
	}{
		{"no target", "download_file_stream", `{}`, "100", fake.WordingFileRequired},
		{"empty file and file_id", "download_file_stream", `{"file":"","file_id":""}`, "100", fake.WordingFileRequired},
		{"an unknown target", "download_file_stream", `{"file":"nope.jpg"}`, "100", fake.WordingFileNotFound},
		{"a path in the stream dir that does not exist", "download_file_stream",
			`{"file":"` + fake.StreamDir + `/missing.bin"}`, "100", fake.WordingFileNotFound},
		{"an existing file outside the stream dir", "download_file_stream",
			`{"file":"` + fake.OutsideFile + `"}`, "100", fake.WordingLocalForbidden},
		{"a path escaping the stream dir", "download_file_stream",
			`{"file":"` + fake.StreamDir + `/../../etc/hosts"}`, "100", fake.WordingLocalForbidden},
		{"a loopback URL", "download_file_stream", `{"file":"http://127.0.0.1:3000/x"}`, "100", fake.WordingPrivateURL},
		{"a private URL", "download_file_stream", `{"file":"https://10.1.2.3/x"}`, "100", fake.WordingPrivateURL},
		{"the image action skips the voice cache", "download_file_image_stream",
			`{"file":"` + fake.VoiceID + `"}`, "100", fake.WordingFileNotFound},
		{"the record action skips the image cache", "download_file_record_stream",
			`{"file":"` + fake.ImageID + `"}`, "100", fake.WordingFileNotFound},
		{"chunk_size 0 is a param error", "download_file_stream",
			`{"file":"` + fake.FileHello + `","chunk_size":0}`, "1400", "chunk_size: must be >= 1"},
		{"a non-integer chunk_size is a param error", "download_file_stream",
			`{"file":"` + fake.FileHello + `","chunk_size":"big"}`, "1400", "chunk_size: expected an integer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := streamCall(t, tt.action, tt.params)
			assert.Equal(t, failedTerminal(tt.retcode, tt.reason)+fake.Delimiter, r.body,
				"a failure before any data is one failed terminal frame")
		})
	}
}

func TestStreamRequestsAreRecordedWithTheirFrames(t *testing.T) {
	t.Parallel()
	trace := newTraceID(t)
	r := postStream(t, t.Context(), `{"action":"test_download_stream","params":{"_fake":"tag:`+trace+`"}}`,
		map[string]string{"traceparent": "00-" + trace + "-00f067aa0ba902b7-01"})
	require.NoError(t, r.readErr)
	reqs := srv.ByTrace(trace)
	require.Len(t, reqs, 1)
	assert.Equal(t, reqs, srv.ByTag(trace))
	assert.Equal(t, "test_download_stream", reqs[0].Action)
	assert.Equal(t, http.StatusOK, reqs[0].Status)
	assert.Equal(t, r.body, string(reqs[0].Response), "the record holds every frame as sent")
	assert.True(t, reqs[0].Done)
	assert.False(t, reqs[0].ClientGone)
}

func TestUnknownStreamLikeActionsAreStillUnknown(t *testing.T) {
	t.Parallel()
	r := post(t, `{"action":"download_file_stream_v2","params":{}}`, nil)
	assert.Equal(t, `{"status":"failed","retcode":1404,"data":null,"wording":"unknown action"}`, r.body)
	assert.Equal(t, "application/json; charset=utf-8", r.header.Get("Content-Type"))
}
