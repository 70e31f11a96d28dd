package e2e

// Shutting down in the middle of a call (Q-1: lose nothing, leave nothing):
// when stdin closes or SIGTERM arrives during a slow download, the process
// cancels the call, lets it clean up and exits 0, so no partial file is
// left in the download directory and SnowLuma sees its client go away.

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

func TestShutdownMidDownloadLeavesNoPartialFile(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		stop func(t *testing.T, r *rawServer)
	}{
		{"on SIGTERM", func(t *testing.T, r *rawServer) { require.NoError(t, r.cmd.Process.Signal(syscall.SIGTERM)) }},
		{"when stdin closes", func(t *testing.T, r *rawServer) { require.NoError(t, r.stdin.Close()) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				env, dirs := streamEnv(t)
				r := rawSession(t, version, env)
				traceID, tp := newTrace(t)
				// 154 chunks, 300 ms apart: far longer than any shutdown.
				r.send("tools/call", r.params(map[string]any{"name": "invoke_action", "arguments": map[string]any{
					"action": "download_file_stream", "params": map[string]any{
						"file": fake.FileSeed, "chunk_size": 1000, fake.Marker: "slowframes:300,tag:" + newTag(t)}}},
					map[string]any{"traceparent": tp}))
				require.Eventually(t, func() bool { return hasPartial(dirs.download) }, safety, 10*time.Millisecond, "the download got under way")

				tt.stop(t, r)
				assert.Equal(t, 0, r.waitExit(), "a clean exit; stderr:\n%s", r.stderr)
				assertNoPartial(t, dirs.download)
				sent := snow.ByTrace(traceID)
				require.Len(t, sent, 1, "one request, never retried")
				require.Eventually(t, func() bool { return snow.ByTrace(traceID)[0].ClientGone }, safety, 10*time.Millisecond,
					"SnowLuma saw its client go away")
			})
		})
	}
}

func hasPartial(dir string) bool {
	es, _ := os.ReadDir(dir)
	for _, e := range es {
		if strings.HasPrefix(e.Name(), partialPrefix) {
			if info, err := os.Stat(filepath.Join(dir, e.Name())); err == nil && info.Size() > 0 {
				return true
			}
		}
	}
	return false
}
