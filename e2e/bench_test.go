package e2e

// Performance is measured, never asserted: cold start to a first
// tools/list on the modern protocol, and the resident memory of an idle
// server after it has served a few calls.
//
//	go test -run '^$' -bench . ./e2e/

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
)

// BenchmarkColdStart starts the binary, connects at 2026-07-28 and lists
// the tools, once per op: the time from exec to the first tools/list
// answer. Closing the session (stdin EOF, the process's exit and the
// client's wait for it) comes after that answer and is not timed.
func BenchmarkColdStart(b *testing.B) {
	for _, mode := range []struct {
		name string
		env  func() map[string]string
	}{{"docs", docsEnv}, {"write", writeEnv}} {
		b.Run(mode.name, func(b *testing.B) {
			env := mode.env()
			for b.Loop() {
				cs, _, _ := connect(b, modern, env)
				res, err := cs.ListTools(context.Background(), nil)
				require.NoError(b, err)
				require.NotEmpty(b, res.Tools)
				b.StopTimer()
				require.NoError(b, cs.Close())
				b.StartTimer()
			}
		})
	}
}

// BenchmarkIdleRSS reports the resident set size of a running server that
// has answered a tools/list, a catalog read and a few tool calls, read
// from /proc/<pid>/status (VmRSS), as the metric rss-KiB.
// idleWait is how long BenchmarkIdleRSS leaves the server alone before it
// reads the resident set: the server's quiet spell (2 s) and a margin.
const idleWait = 3 * time.Second

func BenchmarkIdleRSS(b *testing.B) {
	for _, version := range versions {
		b.Run(version, func(b *testing.B) {
			cs, cmd, _ := connect(b, version, writeEnv())
			b.Cleanup(func() { _ = cs.Close() })
			ctx := context.Background()
			_, err := cs.ListTools(ctx, nil)
			require.NoError(b, err)
			_, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: catalogURI})
			require.NoError(b, err)
			for _, c := range []struct {
				name string
				args map[string]any
			}{
				{"list_actions", map[string]any{}},
				{"get_action", map[string]any{"name": "send_group_msg"}},
				{"query_action", map[string]any{"action": "get_status"}},
			} {
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.name, Arguments: c.args})
				require.NoError(b, err)
				require.False(b, res.IsError)
			}
			// Idle means quiet: the server hands its free memory back
			// once stdio has been silent for 2 s (cmd/snowluma-mcp's
			// quietAfter), and this reads the resident set after that.
			time.Sleep(idleWait)
			var kib int64
			for b.Loop() {
				kib = vmRSS(b, cmd.Process.Pid)
			}
			b.ReportMetric(float64(kib), "rss-KiB")
		})
	}
}

// vmRSS reads VmRSS (in KiB) of a process.
func vmRSS(tb testing.TB, pid int) int64 {
	tb.Helper()
	return procKiB(tb, pid, "VmRSS:")
}

// procKiB reads one KiB field of /proc/<pid>/status (VmRSS:, VmHWM: …).
func procKiB(tb testing.TB, pid int, field string) int64 {
	tb.Helper()
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	require.NoError(tb, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), field); ok {
			fields := strings.Fields(rest)
			require.NotEmpty(tb, fields)
			n, err := strconv.ParseInt(fields[0], 10, 64)
			require.NoError(tb, err)
			return n
		}
	}
	require.NoError(tb, sc.Err())
	require.FailNow(tb, "no such line", field)
	return 0
}
