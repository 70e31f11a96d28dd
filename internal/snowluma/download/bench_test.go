package download_test

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/snowluma/snowluma-mcp/internal/snowluma/download"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/onebot"
)

// serveFile streams size bytes in SnowLuma's download framing, generating
// the bytes as it goes so the server side holds one chunk at a time.
func serveFile(size int64, chunk int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		bw := bufio.NewWriterSize(w, 256<<10)
		fmt.Fprintf(bw, `{"status":"ok","retcode":0,"data":{"type":"stream","data_type":"file_info","file_name":"bench.bin","file_size":%d,"chunk_size":%d},"message":"","wording":"","stream":"stream-action"}`+"\r\n\r\n", size, chunk)
		raw := make([]byte, chunk)
		for i := range raw {
			raw[i] = byte(i * 7)
		}
		// Every full chunk carries the same bytes, encoded once, so the
		// server's share of the CPU stays small beside the client's.
		full := base64.StdEncoding.EncodeToString(raw)
		var sent int64
		n := 0
		for ; sent < size; n++ {
			c := int(min(int64(chunk), size-sent))
			enc := full
			if c < chunk {
				enc = base64.StdEncoding.EncodeToString(raw[:c])
			}
			bw.WriteString(`{"status":"ok","retcode":0,"data":{"type":"stream","data_type":"file_chunk","index":`)
			bw.WriteString(strconv.Itoa(n))
			bw.WriteString(`,"data":"`)
			bw.WriteString(enc)
			bw.WriteString(`","size":`)
			bw.WriteString(strconv.Itoa(c))
			bw.WriteString(`,"progress":0,"base64_size":`)
			bw.WriteString(strconv.Itoa(len(enc)))
			bw.WriteString(`},"message":"","wording":"","stream":"stream-action"}` + "\r\n\r\n")
			sent += int64(c)
		}
		fmt.Fprintf(bw, `{"status":"ok","retcode":0,"data":{"type":"response","data_type":"file_complete","file_name":"bench.bin","total_chunks":%d,"total_bytes":%d,"message":"Download completed"},"message":"","wording":"","stream":"stream-action"}`+"\r\n\r\n", n, size)
		_ = bw.Flush()
	}
}

// peakRSS reads this process's high-water resident set size in KiB.
func peakRSS() float64 {
	data, _ := os.ReadFile("/proc/self/status")
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "VmHWM:") {
			v, _ := strconv.ParseFloat(strings.Fields(line)[1], 64)
			return v
		}
	}
	return 0
}

// BenchmarkDownload measures a download from a loopback server through the
// stream client to disk. peak-rss-MiB is the high-water mark of the whole
// benchmark process (server included): it must not grow with file size.
func BenchmarkDownload(b *testing.B) {
	for _, mib := range []int64{64, 512} {
		b.Run(fmt.Sprintf("%dMiB", mib), func(b *testing.B) {
			size := mib << 20
			srv := httptest.NewServer(serveFile(size, 64<<10))
			defer srv.Close()
			u, _ := url.Parse(srv.URL)
			client := onebot.New(u, "", onebot.StreamTimeouts{}).With(nil)
			dir := b.TempDir()
			quota := download.NewQuota(dir, 1<<40)
			b.SetBytes(size)
			b.ResetTimer()
			for b.Loop() {
				body, err := client.Stream(context.Background(), "download_file_stream", json.RawMessage(`{"file":"x"}`))
				if err != nil {
					b.Fatal(err)
				}
				saved, err := download.Save(body, download.Limits{Dir: dir, MaxFile: 1 << 40, Quota: quota}, nil)
				body.Close()
				if err != nil || saved.Size != size {
					b.Fatal(err)
				}
				b.StopTimer()
				_ = os.Remove(saved.Path)
				b.StartTimer()
			}
			b.ReportMetric(peakRSS()/1024, "peak-rss-MiB")
		})
	}
}
