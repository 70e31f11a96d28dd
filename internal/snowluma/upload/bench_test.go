package upload_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/snowluma/snowluma-mcp/internal/snowluma/onebot"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/upload"
)

// ack answers every upload request the way SnowLuma does: one frame, after
// reading (not storing) the chunk.
// The stream ID is found without decoding the whole body, so the server's
// share of the CPU stays small beside the client's.
func ack(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	id := streamID.FindSubmatch(body)
	status, typ := "chunk_received", "stream"
	if bytes.Contains(body, []byte(`"is_complete":true`)) {
		status, typ = "file_complete", "response"
	}
	fmt.Fprintf(w, `{"status":"ok","retcode":0,"data":{"type":%q,"stream_id":%q,"status":%q,"file_path":"/tmp/x"},"stream":"stream-action"}`+"\r\n\r\n",
		typ, id[1], status)
}

var streamID = regexp.MustCompile(`"stream_id":"([A-Za-z0-9_-]+)"`)

// BenchmarkUpload measures an automatic upload of a 64 MiB file in 512 KiB
// chunks (the default) to a loopback server.
func BenchmarkUpload(b *testing.B) {
	const size = 64 << 20
	root := b.TempDir()
	path := filepath.Join(root, "big.bin")
	data := make([]byte, size)
	for i := range data {
		data[i] = byte(i * 13)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(ack))
	defer srv.Close()
	u, _ := url.Parse(srv.URL)
	client := onebot.New(u, "", onebot.StreamTimeouts{}).With(nil)
	opts := upload.Options{Root: root, ChunkBytes: 512 << 10, MaxFile: 1 << 30, ResetTimeout: time.Second}
	b.SetBytes(size)
	for b.Loop() {
		res, err := upload.Send(context.Background(), client, "big.bin", opts, nil)
		if err != nil || res.Size != size {
			b.Fatal(err)
		}
	}
}
