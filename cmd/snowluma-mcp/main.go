// Command snowluma-mcp is the server binary, an MCP server over stdio for
// SnowLuma's OneBot v11 actions: it builds the long-lived parts and hands
// them to the server. stdout carries only protocol messages; every diagnostic goes to
// stderr. It never opens a listening socket.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"sync"
	"syscall"
	"time"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/cmd/snowluma-mcp/internal/server"
	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/mcp/stdio"
	"github.com/snowluma/snowluma-mcp/internal/setup"
	"github.com/snowluma/snowluma-mcp/uiasset"
)

func main() {
	check := func(asJSON bool) int { return runCheck(asJSON, os.Stdout, os.Stderr, os.Getenv, os.Environ()) }
	if code, done := commandLine(os.Args[1:], os.Stdout, os.Stderr, check); done {
		os.Exit(code)
	}
	if os.Getenv("GOGC") == "" {
		// The SDK's JSON decoding allocates a fresh 32 KiB buffer per
		// decode, several per message, while the live heap stays a few MiB:
		// at the default GOGC the collector runs every few calls and more
		// than doubles the time per call. A larger growth factor keeps the
		// heap small in absolute terms (measured: BenchmarkMCPQueryAction
		// 710 µs → 294 µs; idle RSS unchanged). Measured again once
		// admission stopped decoding lines through the SDK and the big
		// fixed answers went out by reference: the default (100) would
		// save 0.5-1.5 MiB of idle RSS and 4 MiB of event-flood peak,
		// but the collector then takes about 10% of the CPU of a modern
		// tools/list loop (the SDK still decodes each modern request's
		// _meta through fresh 32 KiB buffers), so 400 stays.
		debug.SetGCPercent(400)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		// A soft ceiling for that growth factor. Under a sustained event
		// flood the garbage of every frame let the heap grow to a peak RSS
		// of 35 MiB; with this limit the collector runs sooner once the
		// heap nears 20 MiB, and the peak stays near 26 MiB however long
		// the flood lasts (BenchmarkEventFlood). Ordinary calls keep a
		// heap well below it and are unaffected.
		debug.SetMemoryLimit(20 << 20)
	}
	hintAtTerminal(os.Stdin, os.Stderr)
	q := newQuiet(quietAfter, releaseMemory)
	code := run(q.reader(os.Stdin), q.writer(os.Stdout), os.Stderr, os.Getenv, os.Environ())
	atExit()
	os.Exit(code)
}

// atExit runs just before the process exits; only a profiling build
// (profile.go, -tags profile) sets it.
var atExit = func() {}

// loadPanel returns the embedded panel; a test replaces it to see a build
// without one.
var loadPanel = uiasset.HTML

// shutdownGrace bounds the wait for cancelled calls at exit.
const shutdownGrace = 5 * time.Second

// settle waits for calls to finish, at most for grace.
func settle(calls *sync.WaitGroup, grace time.Duration) {
	done := make(chan struct{})
	go func() {
		calls.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(grace):
	}
}

// run serves one MCP session. getenv reads the settings; environ, the whole
// environment as os.Environ gives it, is searched for variables named like
// settings that the server does not read.
func run(stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string, environ []string) int {
	// One reading of the settings, the same `check` makes: no setting
	// stops the server (an MCP host shows a process that exits at start
	// only as "failed to connect"). What cannot be used is explained, to
	// the person here and to the agent in the instructions, the affected
	// calls and get_runtime_info.
	cfg := setup.Decide(setup.Env{Getenv: getenv, Environ: environ}, true)
	for _, f := range cfg.Findings {
		say(stderr, f)
	}
	if cfg.Broken != nil {
		fmt.Fprintln(stderr, "snowluma-mcp: serving only the documentation tools until the setting is corrected; get_runtime_info and the server's instructions say what is wrong, and `snowluma-mcp check` tests the setting")
	}
	cat, err := catalog.Load()
	if err != nil {
		fmt.Fprintln(stderr, "snowluma-mcp: packaging error:", err)
		return 1
	}
	// A binary compiled with an empty panel says so at start, like a
	// broken catalog, rather than offering a panel it would serve blank.
	panel, err := loadPanel()
	if err != nil {
		fmt.Fprintln(stderr, "snowluma-mcp: packaging error:", err)
		return 1
	}
	// On Windows Go delivers Ctrl-C and Ctrl-Break as os.Interrupt, and
	// closing the console, logging off or shutting down as SIGTERM, so
	// the same two stop the server cleanly everywhere.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var calls sync.WaitGroup
	opts := parts(cfg, cat, stderr, &calls)
	opts.Panel = panel
	s := server.New(opts)
	err = s.Run(context.Background(), server.Transport(opts.Wire, stdio.Transport{In: stdin, Out: stdout, Stop: ctx.Done()}))
	if opts.Events != nil {
		// The MCP connection is over: every event resource goes with it,
		// and so does the event WebSocket.
		opts.Events.Close()
	}
	// The session is over and the SDK has cancelled what was still running;
	// give those calls, and background tasks, a moment to clean up after
	// themselves and record how they ended.
	if opts.Tasks != nil {
		s.StopTasks(shutdownGrace)
		defer opts.Tasks.Close()
	}
	settle(&calls, shutdownGrace)
	switch {
	case err == nil, errors.Is(err, io.EOF), errors.Is(err, stdio.ErrStopped):
		return 0
	default:
		fmt.Fprintln(stderr, "snowluma-mcp:", err)
		return 1
	}
}

// say prints one finding on stderr, as `check` words it.
func say(stderr io.Writer, f config.Finding) {
	kind := "warning"
	switch f.Effect {
	case config.Explain:
		kind = "configuration error"
	case config.Fixed:
		kind = "fixed"
	}
	fmt.Fprintf(stderr, "snowluma-mcp: %s: %s\n", kind, f.Line())
}
