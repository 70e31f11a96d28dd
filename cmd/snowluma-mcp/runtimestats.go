package main

// A test hook, off by default: the soak tests (e2e/soak_test.go) must see
// whether the server's goroutines and heap return to where they were after
// thousands of calls, and neither is visible from outside the process
// (/proc shows threads and resident memory, not goroutines or the heap).
//
// With SNOWLUMA_MCP_DEBUG_RUNTIME_STATS=1 in the environment, each SIGUSR1
// collects garbage, hands freed memory back to the OS and writes one line
// to stderr:
//
//	snowluma-mcp: runtime stats: goroutines=12 heap_alloc=2345678 heap_objects=9876 sys=12345678
//
// Without the variable nothing is installed and SIGUSR1 keeps its default
// action. The line goes to stderr, never stdout, which carries only
// protocol messages. Windows has no SIGUSR1 and no other signal a test
// could send to one process, so there the hook does not exist
// (runtimestats_unix.go installs it) and the variable does nothing.

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/snowluma/snowluma-mcp/internal/config"
)

// statsEnv turns the hook on when it is exactly "1"; config knows it, so
// that setting it draws no unknown-variable warning.
const statsEnv = config.RuntimeStatsVar

// writeStats collects garbage first, so that heap figures are the live
// heap rather than whatever the collector had not reached yet, and writes
// the stats line in one write.
func writeStats(w io.Writer) {
	debug.FreeOSMemory()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	fmt.Fprintf(w, "snowluma-mcp: runtime stats: goroutines=%d heap_alloc=%d heap_objects=%d sys=%d\n",
		runtime.NumGoroutine(), m.HeapAlloc, m.HeapObjects, m.Sys)
}
