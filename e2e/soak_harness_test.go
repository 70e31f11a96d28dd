package e2e

// Plumbing for the soak (issue 13 item 4a): a fixed mix of calls over
// stdio to the real binary, and the server's own runtime figures before
// and after it. Goroutines and the heap are invisible from outside the
// process, so the binary runs with SNOWLUMA_MCP_DEBUG_RUNTIME_STATS=1 and
// answers SIGUSR1 with a stats line on stderr, taken after a forced
// collection (cmd/snowluma-mcp/runtimestats.go); resident memory and
// threads come from /proc/<pid>/status.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

// soakCall is one kind of call in the mix, with what its result must say.
type soakCall struct {
	name    string
	tool    string
	args    map[string]any
	isError bool
	saves   bool // a download: the saved file is removed after the call
}

// soakUpload is the file every upload in the mix sends, relative to the
// upload root: one chunk plus the completion request.
const soakUpload = "soak.bin"

// soakMix is the cycle the soak repeats: docs tools, read calls, a stream
// download, an automatic upload, tool errors and an upstream failure.
var soakMix = []soakCall{
	{name: "a docs listing", tool: "list_categories", args: map[string]any{}},
	{name: "a docs lookup", tool: "get_action", args: map[string]any{"name": "send_group_msg"}},
	{name: "a keyword search", tool: "search_actions", args: map[string]any{"query": "群 禁言", "match": "keywords"}},
	{name: "a read call", tool: "query_action", args: map[string]any{"action": "get_status"}},
	{name: "another read call", tool: "query_action", args: map[string]any{"action": "get_login_info"}},
	{name: "a stream download", tool: "invoke_action", args: map[string]any{"action": "download_file_stream", "params": map[string]any{"file": fake.FileHello}}, saves: true},
	{name: "an automatic upload", tool: "invoke_action", args: map[string]any{"action": fake.UploadAction, "execution": map[string]any{"input_file": soakUpload}}},
	{name: "a docs tool error", tool: "get_action", args: map[string]any{"name": "nope_nope"}, isError: true},
	{name: "an unknown action", tool: "query_action", args: map[string]any{"action": "nope_nope"}, isError: true},
	{name: "an upstream HTTP 500", tool: "query_action", args: map[string]any{"action": "get_status", "params": map[string]any{fake.Marker: "http500"}}, isError: true},
}

// soakEnv is write mode with the test's own download dir and upload root
// (holding soakUpload) and the runtime-stats hook on.
func soakEnv(t testing.TB) map[string]string {
	t.Helper()
	env, dirs := streamEnv(t, "SNOWLUMA_MCP_DEBUG_RUNTIME_STATS", "1")
	require.NoError(t, os.WriteFile(filepath.Join(dirs.upload, soakUpload), []byte(strings.Repeat("soak ", 200)), 0o600))
	return env
}

// soak makes n calls, cycling through soakMix, and checks each result.
func soak(t testing.TB, r *rawServer, n int) {
	t.Helper()
	for i := range n {
		c := soakMix[i%len(soakMix)]
		m := r.callTool(c.tool, c.args, nil)
		isError, diag := toolOutcome(t, m)
		require.Equal(t, c.isError, isError, "call %d, %s: %s", i, c.name, m)
		require.NotEmpty(t, diag.Outcome, "call %d, %s: every result has diagnostics", i, c.name)
		if c.saves {
			res, _ := structured(t, m)
			var saved struct {
				SavedFile struct {
					Path string `json:"path"`
				} `json:"saved_file"`
			}
			require.NoError(t, json.Unmarshal(res, &saved))
			require.NoError(t, os.Remove(saved.SavedFile.Path), "call %d: the download is on disk", i)
		}
	}
}

// toolOutcome returns isError and the diagnostics of a raw tools/call answer.
func toolOutcome(t testing.TB, m rawMessage) (bool, diagnostics) {
	t.Helper()
	_, diag := structured(t, m)
	var body struct {
		IsError bool `json:"isError"`
	}
	require.NoError(t, json.Unmarshal(m.Result, &body))
	return body.IsError, diag
}

// runtimeStats is the server's state at one moment: goroutines and live
// heap after a forced collection (from the hook), resident memory and OS
// threads (from /proc).
type runtimeStats struct {
	Goroutines  int
	HeapAlloc   int64 // bytes
	HeapObjects int64
	RSSKiB      int64
	Threads     int64
}

func (s runtimeStats) String() string {
	return fmt.Sprintf("goroutines=%d heap=%.2f MiB (%d objects) rss=%.1f MiB threads=%d",
		s.Goroutines, float64(s.HeapAlloc)/(1<<20), s.HeapObjects, float64(s.RSSKiB)/1024, s.Threads)
}

var statsLine = regexp.MustCompile(`snowluma-mcp: runtime stats: goroutines=(\d+) heap_alloc=(\d+) heap_objects=(\d+) sys=\d+\n`)

// stats asks the binary for its runtime stats (SIGUSR1) and waits for the
// new line on stderr. The wait is bounded by safety against a hang only.
func (r *rawServer) stats(t testing.TB) runtimeStats {
	t.Helper()
	before := len(statsLine.FindAllString(r.stderr.Raw(), -1))
	require.NoError(t, r.cmd.Process.Signal(syscall.SIGUSR1))
	deadline := time.Now().Add(safety)
	for {
		all := statsLine.FindAllStringSubmatch(r.stderr.Raw(), -1)
		if len(all) > before {
			m := all[len(all)-1]
			g, _ := strconv.Atoi(m[1])
			heap, _ := strconv.ParseInt(m[2], 10, 64)
			objects, _ := strconv.ParseInt(m[3], 10, 64)
			pid := r.cmd.Process.Pid
			return runtimeStats{Goroutines: g, HeapAlloc: heap, HeapObjects: objects,
				RSSKiB: procKiB(t, pid, "VmRSS:"), Threads: procCount(t, pid, "Threads:")}
		}
		require.True(t, time.Now().Before(deadline), "no runtime stats line on stderr:\n%s", r.stderr)
		time.Sleep(5 * time.Millisecond)
	}
}

// procCount reads one plain number field of /proc/<pid>/status.
func procCount(tb testing.TB, pid int, field string) int64 {
	tb.Helper()
	return procKiB(tb, pid, field) // the parser takes the first number, units or not
}

// settledStats takes stats until the goroutine count is back within the
// tolerance of base or the safety bound passes, and returns the last.
// Calls that have answered may still be unwinding (a finished download's
// cleanup, an HTTP connection going idle), so one sample could catch
// them; this waits for the count, never for a time.
func (r *rawServer) settledStats(t testing.TB, base runtimeStats) runtimeStats {
	t.Helper()
	deadline := time.Now().Add(safety)
	for {
		s := r.stats(t)
		if s.Goroutines <= base.Goroutines+goroutineSlack || !time.Now().Before(deadline) {
			return s
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Tolerances for "back to baseline". A leaked goroutine per call would
// leave hundreds behind, and a leak of 512 bytes per call (or 52 bytes per
// call over the benchmark's 10,000) would exceed the heap slack; the slack
// absorbs only what legitimately varies, such as an idle keep-alive
// connection (two goroutines) or a buffer kept for reuse. Measured on the
// development VM: goroutines 11 → 11, live heap +6 to +44 KiB after 10,000
// calls. Resident memory is the coarse backstop: the live heap is the
// precise check.
const (
	goroutineSlack = 4
	heapSlack      = 512 << 10 // bytes
	rssSlackKiB    = 8 << 10
)

// assertBackToBaseline checks after against base within the tolerances.
func assertBackToBaseline(t testing.TB, base, after runtimeStats) {
	t.Helper()
	require.LessOrEqual(t, after.Goroutines, base.Goroutines+goroutineSlack, "goroutines: baseline %s, after %s", base, after)
	require.LessOrEqual(t, after.HeapAlloc, base.HeapAlloc+heapSlack, "live heap: baseline %s, after %s", base, after)
	require.LessOrEqual(t, after.RSSKiB, base.RSSKiB+rssSlackKiB, "resident memory: baseline %s, after %s", base, after)
}
