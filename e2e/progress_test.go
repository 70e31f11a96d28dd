package e2e

// Progress (PROG-1) through the official SDK client: a call with
// _meta.progressToken gets notifications/progress carrying that token,
// strictly increasing, throttled to at most one per 250 ms: download bytes
// written (total = the file size when SnowLuma announced it, none
// otherwise), upload bytes acknowledged, generic frame counts. The end is
// the result's to say: no notification reaches a known total, and the value
// pending when the call ends is dropped (issue 20 item 9: TypeScript
// clients lose a notification read with the result). A call without a
// token gets none. Ordering against the result is checked at the wire in
// progress_raw_test.go, because the SDK client hands responses over ahead
// of the notifications queued before them.

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

// throttle is the product's least spacing between two notifications of a
// call. The tests here never time the gaps the client sees (arrival times
// jitter with scheduling); they count: a call that took d from the client's
// request to its result cannot have sent more than d/throttle + 2
// notifications (the first at once included), whatever the machine's load. The spacing itself is held, at the sending
// side, by the progress stage's own tests.
const throttle = 250 * time.Millisecond

// progressItem is one received notification.
type progressItem struct {
	token    any
	progress float64
	total    float64
	message  string
	at       time.Time
}

func (p progressItem) String() string {
	return fmt.Sprintf("%v/%v@%s", p.progress, p.total, p.at.Format("15:04:05.000"))
}

// progressLog records every progress notification a client receives.
type progressLog struct {
	mu    sync.Mutex
	items []progressItem
}

func (l *progressLog) handle(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.items = append(l.items, progressItem{token: req.Params.ProgressToken, progress: req.Params.Progress,
		total: req.Params.Total, message: req.Params.Message, at: time.Now()})
}

// all returns a copy of everything received so far.
func (l *progressLog) all() []progressItem {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]progressItem(nil), l.items...)
}

// of returns the notifications carrying token.
func (l *progressLog) of(token string) []progressItem {
	var out []progressItem
	for _, it := range l.all() {
		if it.token == token {
			out = append(out, it)
		}
	}
	return out
}

// startWithProgress starts a server whose client records progress.
func startWithProgress(t *testing.T, version string, env map[string]string) (*server, *progressLog) {
	t.Helper()
	log := &progressLog{}
	s := startWith(t, version, env, &mcp.ClientOptions{ProgressNotificationHandler: log.handle})
	return s, log
}

// settle returns the notifications of token once the client has handled
// every one the server sent before it: it makes one more call with a token
// of its own and waits for that call's first notification (the first value
// always goes out at once), since the client handles notifications in
// arrival order. It also returns the marker token.
func (l *progressLog) settle(t *testing.T, s *server, token string) ([]progressItem, string) {
	t.Helper()
	marker := "marker-" + newTag(t)
	r := s.call(t, "invoke_action", map[string]any{"action": "test_download_stream",
		"params": map[string]any{fake.Marker: "slowframes:5"}}, mcp.Meta{"progressToken": marker})
	require.False(t, r.IsError, r.Text)
	require.Eventually(t, func() bool { return len(l.of(marker)) > 0 }, safety, 5*time.Millisecond,
		"the marker call's first notification never arrived")
	return l.of(token), marker
}

func TestStreamsReportProgress(t *testing.T) {
	t.Parallel()
	seed, ok := fake.StreamFileAt(fake.FileSeed)
	require.True(t, ok)
	size := float64(len(seed.Data))
	tests := []struct {
		name      string
		args      func(t *testing.T, d streamDirs) map[string]any
		all       float64 // everything transferred: never exceeded, never sent when total is known
		total     float64 // 0: no total may be sent
		step      float64 // every value but an unannounced last one is a multiple of step
		minCount  int
		throttled bool // many more frames than 250 ms periods: the throttle shows in the count
	}{
		{"a slow download reports bytes written against the file size", func(*testing.T, streamDirs) map[string]any {
			return map[string]any{"action": "download_file_stream", "params": map[string]any{
				"file": fake.FileSeed, "chunk_size": 10000, fake.Marker: "slowframes:70"}}
		}, size, size, 10000, 3, true},
		{"a download of unknown size reports bytes without a total", func(*testing.T, streamDirs) map[string]any {
			return map[string]any{"action": "download_file_stream", "params": map[string]any{
				"file": fake.FileSeed, "chunk_size": 10000, fake.Marker: "unannounced,slowframes:30"}}
		}, size, 0, 10000, 1, false},
		{"a generic stream reports frame counts", func(*testing.T, streamDirs) map[string]any {
			return map[string]any{"action": "test_download_stream", "params": map[string]any{fake.Marker: "slowframes:80"}}
		}, 10, 0, 1, 2, true},
		{"an upload reports acknowledged bytes against the file size", func(t *testing.T, d streamDirs) map[string]any {
			file := writeFile(t, d.upload, "progress.bin", randomBytes(t, 4500))
			return map[string]any{"action": fake.UploadAction, "execution": map[string]any{"input_file": file}}
		}, 4500, 4500, 1000, 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				env, dirs := streamEnv(t, "SNOWLUMA_MCP_UPLOAD_CHUNK_BYTES", "1000")
				s, log := startWithProgress(t, version, env)
				token := "tok-" + newTag(t)
				began := time.Now()
				r := s.call(t, "invoke_action", tt.args(t, dirs), mcp.Meta{"progressToken": token})
				took := time.Since(began)
				require.False(t, r.IsError, r.Text)

				items, marker := log.settle(t, s, token)
				t.Logf("progress notifications: %v", items)
				require.GreaterOrEqual(t, len(items), tt.minCount, "too few notifications: %v", items)
				for i, it := range items {
					if i > 0 {
						assert.Greater(t, it.progress, items[i-1].progress, "progress must strictly increase")
					}
					assert.Equal(t, tt.total, it.total, "total is the file size when known, absent otherwise")
					if i < len(items)-1 || it.progress < tt.all {
						assert.Zero(t, mod(it.progress, tt.step), "%v is not a chunk or frame boundary", it.progress)
					}
				}
				last := items[len(items)-1].progress
				if tt.total > 0 {
					assert.Less(t, last, tt.total, "the complete transfer is the result's to report, never a notification")
				} else {
					assert.LessOrEqual(t, last, tt.all)
				}
				if tt.throttled {
					assert.LessOrEqual(t, len(items), int(took/throttle)+2,
						"more notifications than one per 250 ms allows in the %v the call took", took)
				}
				assert.Len(t, log.all(), len(items)+len(log.of(marker)), "no notification carries another token")
			})
		})
	}
}

func mod(a, b float64) float64 { return a - b*float64(int64(a/b)) }

func TestNoProgressWithoutAToken(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args func(t *testing.T, d streamDirs) map[string]any
	}{
		{"a download", func(*testing.T, streamDirs) map[string]any {
			return map[string]any{"action": "download_file_stream", "params": map[string]any{
				"file": fake.FileSeed, "chunk_size": 10000, fake.Marker: "slowframes:30"}}
		}},
		{"a generic stream", func(*testing.T, streamDirs) map[string]any {
			return map[string]any{"action": "test_download_stream", "params": map[string]any{fake.Marker: "slowframes:30"}}
		}},
		{"an upload", func(t *testing.T, d streamDirs) map[string]any {
			file := writeFile(t, d.upload, "quiet.bin", randomBytes(t, 3000))
			return map[string]any{"action": fake.UploadAction, "execution": map[string]any{"input_file": file}}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				env, dirs := streamEnv(t, "SNOWLUMA_MCP_UPLOAD_CHUNK_BYTES", "1000")
				s, log := startWithProgress(t, version, env)
				r := s.call(t, "invoke_action", tt.args(t, dirs), nil)
				require.False(t, r.IsError, r.Text)
				// The client handles notifications in arrival order, so once
				// a later call's notifications are in, any sent for the call
				// above would be too.
				_, marker := log.settle(t, s, "")
				for _, it := range log.all() {
					assert.Equal(t, marker, it.token, "a call without a progress token got a notification")
				}
			})
		})
	}
}
