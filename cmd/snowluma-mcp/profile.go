//go:build profile

package main

import (
	"fmt"
	"os"
	"runtime/pprof"

	"github.com/snowluma/snowluma-mcp/internal/config"
)

// A build with -tags profile writes a CPU profile of the whole run to
// $SNOWLUMA_MCP_CPUPROFILE.<pid> when it exits normally, so the binary can
// be profiled under a benchmark that drives it over stdio (a test binary's
// -cpuprofile never sees the child). The ordinary build has none of this:
// no env var is read and runtime/pprof is not linked.
func init() {
	path := os.Getenv(config.CPUProfileVar)
	if path == "" {
		return
	}
	f, err := os.Create(fmt.Sprintf("%s.%d", path, os.Getpid()))
	if err != nil {
		fmt.Fprintln(os.Stderr, "snowluma-mcp: cpu profile:", err)
		return
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintln(os.Stderr, "snowluma-mcp: cpu profile:", err)
		_ = f.Close()
		return
	}
	atExit = func() {
		pprof.StopCPUProfile()
		_ = f.Close()
	}
}
