package e2e

// Stream cancellation (CANCEL-1, BASE-7): cancelling the client's context
// in the middle of a slow stream reaches the stream's HTTP body read, so
// SnowLuma sees its client go away; a download leaves no partial file;
// nothing is retried; the session keeps serving; and the call's log line
// says cancelled with an unknown outcome, since every stream action is a
// write. (The reset after a cancelled upload is proven in the upload
// package's TestSendResetsAfterCancellation.)

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

// cancelCase starts a slow stream call and says when it is under way and
// what must hold once it was cancelled.
type cancelCase struct {
	name string
	// args builds the invoke_action arguments; tag marks the fake requests.
	args func(t *testing.T, d streamDirs, tag string) map[string]any
	// started reports that the stream is far enough along to cancel.
	started func(t *testing.T, d streamDirs, traceID string) bool
	// after checks the requests once the fake saw the client go away.
	after func(t *testing.T, sent []fake.Request)
	// gone is the index of the request whose client must go away.
	gone int
}

func TestCancellingAStreamReachesSnowLuma(t *testing.T) {
	t.Parallel()
	tests := []cancelCase{
		{
			name: "a download mid-file",
			args: func(_ *testing.T, _ streamDirs, tag string) map[string]any {
				return map[string]any{"action": "download_file_stream", "params": map[string]any{
					"file": fake.FileSeed, "chunk_size": 10000, fake.Marker: "slowframes:300,tag:" + tag}}
			},
			started: func(t *testing.T, d streamDirs, _ string) bool {
				// A partial file holding at least one chunk.
				for _, n := range entries(t, d.download) {
					if info, err := os.Stat(filepath.Join(d.download, n)); err == nil && strings.HasPrefix(n, partialPrefix) && info.Size() > 0 {
						return true
					}
				}
				return false
			},
			after: func(t *testing.T, sent []fake.Request) { assert.Len(t, sent, 1, "nothing is retried") },
		},
		{
			name: "a generic stream between frames",
			args: func(_ *testing.T, _ streamDirs, tag string) map[string]any {
				return map[string]any{"action": "test_download_stream", "params": map[string]any{fake.Marker: "slowframes:300,tag:" + tag}}
			},
			started: func(_ *testing.T, _ streamDirs, traceID string) bool {
				sent := snow.ByTrace(traceID)
				return len(sent) == 1 && len(sent[0].Body) > 0
			},
			after: func(t *testing.T, sent []fake.Request) { assert.Len(t, sent, 1, "nothing is retried") },
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				env, dirs := streamEnv(t, "SNOWLUMA_MCP_UPLOAD_CHUNK_BYTES", "1000")
				s := start(t, version, env)
				traceID, tp := newTrace(t)
				tag := newTag(t)
				args := tt.args(t, dirs, tag)

				ctx, cancel := context.WithCancel(testCtx(t))
				defer cancel()
				type outcome struct {
					res *mcp.CallToolResult
					err error
				}
				done := make(chan outcome, 1)
				go func() {
					res, err := s.callRaw(ctx, "invoke_action", args, mcp.Meta{"traceparent": tp})
					done <- outcome{res, err}
				}()
				var early *outcome
				require.Eventually(t, func() bool {
					select {
					case o := <-done:
						early = &o
						return true
					default:
						return tt.started(t, dirs, traceID)
					}
				}, safety, 5*time.Millisecond, "the stream must be under way before we cancel")
				if early != nil {
					r := s.check(t, "invoke_action", early.res)
					require.FailNow(t, "the call ended before the stream was under way", "%s: %s", r.Diag.Kind, r.Text)
				}
				cancel()
				require.Error(t, (<-done).err, "the client call ends with its context")

				if !assert.Eventually(t, func() bool {
					sent := snow.ByTrace(traceID)
					return len(sent) > tt.gone && sent[tt.gone].ClientGone && sent[tt.gone].Done
				}, safety, 5*time.Millisecond, "SnowLuma must see the stream's client go away") {
					for _, q := range snow.ByTrace(traceID) {
						t.Logf("request %d: status %d gone %v done %v body %.160s", q.Seq, q.Status, q.ClientGone, q.Done, q.Body)
					}
					require.FailNow(t, "stopping", "stderr:\n%s", s.stderr)
				}
				require.Eventually(t, func() bool { return len(entries(t, dirs.download)) == 0 }, safety, 5*time.Millisecond,
					"no partial file may remain")
				dirs.assertOnlyInDownloadDir(t)

				// Whatever follows the cancellation (the upload's reset) is
				// done before the call's log line is written.
				after := s.run(t, "query_action", "get_status", nil, "")
				assert.False(t, after.res.IsError, "the session keeps serving: %s", after.res.Text)
				stderr := s.closeCleanly(t)
				fields, _ := callLines(stderr)
				var line map[string]string
				for tpKey, f := range fields {
					if strings.HasPrefix(tpKey, tp[:35]) { // version + trace ID
						line = f
					}
				}
				require.NotNil(t, line, "the cancelled call is logged; stderr:\n%s", redact(stderr))
				assert.Equal(t, "cancelled", line["kind"])
				assert.Equal(t, "unknown", line["outcome"], "a cancelled write may or may not have happened")
				tt.after(t, snow.ByTrace(traceID))
				assert.Len(t, snow.ByTag(tag), len(snow.ByTrace(traceID)))
			})
		})
	}
}
