package fake_test

// The stream fault markers: each changes only the request that carries it
// (or, for uploads, the stream whose file name carries it), and the slow
// ones notice a client that goes away.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

func TestDownloadFaultMarkersBendTheFrames(t *testing.T) {
	t.Parallel()
	seed, ok := fake.StreamFileAt(fake.FileSeed)
	require.True(t, ok)
	tests := []struct {
		name   string
		target string
		marker string
		check  func(t *testing.T, d download)
	}{
		{"a short slowframes changes nothing", fake.FileSeed, "slowframes:5", func(t *testing.T, d download) {
			assert.Equal(t, seed.Data, d.data)
			assert.Equal(t, int64(153600), d.info.FileSize)
		}},
		{"announce replaces file_size", fake.FileHello, "announce:999", func(t *testing.T, d download) {
			assert.Equal(t, int64(999), d.info.FileSize)
			assert.Equal(t, 1, d.chunks[0].Progress, "progress follows the announced size")
			assert.Equal(t, int64(11), d.complete.TotalBytes)
		}},
		{"unannounced sends file_size 0 and progress 0", fake.FileSeed, "unannounced", func(t *testing.T, d download) {
			assert.Zero(t, d.info.FileSize)
			for _, c := range d.chunks {
				assert.Zero(t, c.Progress)
			}
			assert.Equal(t, seed.Data, d.data)
		}},
		{"outoforder swaps two chunks", fake.FileSeed, "outoforder", func(t *testing.T, d download) {
			var order []int
			for _, c := range d.chunks {
				order = append(order, c.Index)
			}
			assert.Equal(t, []int{0, 2, 1}, order)
		}},
		{"badtotal reports one byte too many", fake.FileSeed, "badtotal", func(t *testing.T, d download) {
			assert.Equal(t, int64(153601), d.complete.TotalBytes)
			assert.Equal(t, 3, d.complete.TotalChunks)
		}},
		{"badchunks reports one chunk too many", fake.FileSeed, "badchunks", func(t *testing.T, d download) {
			assert.Equal(t, 4, d.complete.TotalChunks)
			assert.Equal(t, int64(153600), d.complete.TotalBytes)
		}},
		{"rename serves any file name", fake.FileHello, fake.RenameMarker("../../x/.hidden"), func(t *testing.T, d download) {
			assert.Equal(t, "../../x/.hidden", d.info.FileName)
			assert.Equal(t, "../../x/.hidden", d.complete.FileName)
			assert.Equal(t, []byte("hello world"), d.data)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := streamCall(t, "download_file_stream", `{"file":`+jsonString(tt.target)+`,"_fake":`+jsonString(tt.marker)+`}`)
			tt.check(t, readDownload(t, r))
		})
	}
}

func TestTruncationMarkersEndStreamsEarly(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		action     string
		params     string
		wantFrames int
		wantCut    bool
	}{
		{"truncate ends a test stream cleanly without its terminal", "test_download_stream", `{"_fake":"truncate:3"}`, 3, false},
		{"truncate ends a download mid-file", "download_file_stream",
			`{"file":"` + fake.FileSeed + `","chunk_size":10000,"_fake":"truncate:4"}`, 4, false},
		{"cut drops the connection mid-body", "download_file_stream",
			`{"file":"` + fake.FileSeed + `","chunk_size":10000,"_fake":"cut:2"}`, 2, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := postStream(t, t.Context(), `{"action":"`+tt.action+`","params":`+tt.params+`}`, nil)
			if tt.wantCut {
				require.Error(t, r.readErr, "the chunked body is left incomplete")
			} else {
				require.NoError(t, r.readErr)
				assertStreamFraming(t, r)
			}
			frames := r.frames()
			require.Len(t, frames, tt.wantFrames)
			for _, f := range frames {
				var env struct {
					Status string `json:"status"`
					Data   struct {
						Type string `json:"type"`
					} `json:"data"`
				}
				require.NoError(t, json.Unmarshal([]byte(f), &env))
				assert.Equal(t, "stream", env.Data.Type, "only intermediate frames arrive")
			}
		})
	}
}

func TestSlowStreamsRecordThatTheClientWentAway(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		body       func(tag string) string
		firstFrame bool // a frame is sent before the wait
	}{
		{"slowframes between frames", func(tag string) string {
			return `{"action":"test_download_stream","params":{"_fake":"slowframes:60000,tag:` + tag + `"}}`
		}, true},
		{"slowupload before an upload request is processed", func(tag string) string {
			return `{"action":"upload_file_stream","params":{"stream_id":"slow_` + tag + `","total_chunks":1,"_fake":"slowupload:1,tag:` + tag + `"}}`
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tag := newTraceID(t)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			started, done := make(chan struct{}), make(chan error, 1)
			go func() { done <- readSlowly(ctx, tt.body(tag), tt.firstFrame, started) }()
			select {
			case <-started:
			case err := <-done:
				require.NoError(t, err, "the stream must start")
			case <-time.After(20 * time.Second):
				require.FailNow(t, "the stream never started")
			}
			cancel()
			require.Error(t, <-done)
			require.Eventually(t, func() bool {
				r := srv.ByTag(tag)
				return len(r) == 1 && r[0].ClientGone && r[0].Done
			}, 20*time.Second, 5*time.Millisecond)
			q := srv.ByTag(tag)[0]
			assert.Equal(t, tt.firstFrame, strings.Contains(string(q.Response), "Index-> 1"))
			assert.NotContains(t, string(q.Response), `"type":"response"`, "no terminal frame went out")
			assert.NotContains(t, string(q.Response), "Index-> 2", "nothing is sent after the client left")
			assert.False(t, srv.UploadOpen("slow_"+tag), "nothing was processed for a client that left")
		})
	}
}

// TestALaggingUploadRequestIsProcessedAfterTheClientLeft: lagupload
// stands for SnowLuma finishing a request whose body it has read, so the
// stream exists once the lag is over although nobody waited for it.
func TestALaggingUploadRequestIsProcessedAfterTheClientLeft(t *testing.T) {
	t.Parallel()
	tag := newTraceID(t)
	ctx, cancel := context.WithCancel(context.Background())
	started, done := make(chan struct{}), make(chan error, 1)
	go func() {
		done <- readSlowly(ctx, `{"action":"upload_file_stream","params":{"stream_id":"lag_`+tag+`","total_chunks":2,"_fake":"lagupload:1,tag:`+tag+`"}}`, false, started)
	}()
	select {
	case <-started:
	case err := <-done:
		require.NoError(t, err, "the stream must start")
	}
	cancel()
	require.Error(t, <-done)
	assert.False(t, srv.UploadOpen("lag_"+tag), "not processed yet")
	require.Eventually(t, func() bool {
		r := srv.ByTag(tag)
		return len(r) == 1 && r[0].Done
	}, 20*time.Second, 5*time.Millisecond)
	assert.True(t, srv.UploadOpen("lag_"+tag), "processed although the client had left")
}

// readSlowly posts body, signals started once the headers (and with
// firstFrame, the first frame) arrived, then reads until the body ends.
func readSlowly(ctx context.Context, body string, firstFrame bool, started chan<- struct{}) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL(), strings.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	if firstFrame {
		var got []byte
		for !bytes.HasSuffix(got, []byte(fake.Delimiter)) {
			b, err := br.ReadByte()
			if err != nil {
				return err
			}
			got = append(got, b)
		}
	}
	close(started)
	_, err = io.ReadAll(br)
	return err
}

func TestUploadFaultsFollowTheirStream(t *testing.T) {
	t.Parallel()
	data := []byte("hello world")
	tests := []struct {
		name    string
		first   func(id, tag string) string // params of the first request
		failAt  int                         // 1-based request that fails; 0 for none
		wantAll bool                        // every request is found by the tag
	}{
		{"failupload in _fake fails the nth request of the stream", func(id, tag string) string {
			return `{"stream_id":"` + id + `","total_chunks":2,"chunk_index":0,"chunk_data":"` + b64(data[:6]) + `","_fake":"failupload:2,tag:` + tag + `"}`
		}, 2, true},
		{"a marker in the file name applies to the whole stream", func(id, tag string) string {
			return `{"stream_id":"` + id + `","total_chunks":2,"chunk_index":0,"chunk_data":"` + b64(data[:6]) +
				`","filename":` + jsonString(fake.FileNameMarker("a", "failupload:3,tag:"+tag, ".bin")) + `}`
		}, 3, true},
		{"without a marker nothing fails", func(id, tag string) string {
			return `{"stream_id":"` + id + `","total_chunks":2,"chunk_index":0,"chunk_data":"` + b64(data[:6]) + `"}`
		}, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tag := newTraceID(t)
			id := "flt_" + tag
			bodies := []string{
				tt.first(id, tag),
				`{"stream_id":"` + id + `","chunk_index":1,"chunk_data":"` + b64(data[6:]) + `"}`,
				`{"stream_id":"` + id + `","is_complete":true}`,
				`{"stream_id":"` + id + `","reset":true}`,
			}
			for i, b := range bodies {
				r := streamCall(t, fake.UploadAction, b)
				frames := r.frames()
				require.Len(t, frames, 1)
				injected := i+1 == tt.failAt
				assert.Equal(t, injected, strings.Contains(frames[0], "injected upload failure (request "),
					"request %d: %s", i+1, frames[0])
			}
			if tt.wantAll {
				assert.Len(t, srv.ByTag(tag), len(bodies), "completion and reset carry the stream's marker too")
			} else {
				assert.Empty(t, srv.ByTag(tag))
			}
			assert.False(t, srv.UploadOpen(id))
		})
	}
}

func TestFailAfterEndsWithAFailedTerminalMidStream(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		action string
		params string
		want   []string
	}{
		{"a test stream fails after two frames", "test_download_stream", `{"_fake":"failafter:2"}`,
			append(testFrames()[:2], failedTerminal("100", "injected stream failure after 2 frames"))},
		{"a download fails after file_info and two chunks", "download_file_stream",
			`{"file":"` + fake.FileSeed + `","chunk_size":10000,"_fake":"failafter:3"}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := streamCall(t, tt.action, tt.params)
			frames := r.frames()
			if tt.want != nil {
				assert.Equal(t, tt.want, frames)
				return
			}
			require.Len(t, frames, 4)
			assert.Contains(t, frames[0], `"data_type":"file_info"`)
			assert.Contains(t, frames[1], `"index":0`)
			assert.Contains(t, frames[2], `"index":1`)
			assert.Equal(t, failedTerminal("100", "injected stream failure after 3 frames"), frames[3])
		})
	}
}
