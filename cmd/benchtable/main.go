// Command benchtable runs the project's benchmarks and prints the
// performance table of docs/performance.md (markdown), one row per figure
// with the exact command that produced it. It exists so that the table is never typed by hand:
// every number in it comes from one run of `make bench`, and anyone can
// rerun a row with the command beside it.
//
// Each row runs its `go test -bench` command from the module root, one at
// a time (timings on a shared machine are noisy enough), and reads the
// standard benchmark output, custom b.ReportMetric units included. A
// command that fails, or prints no figure the row needs, gives a row that
// says so and a nonzero exit; a number is never made up.
//
//	go run ./cmd/benchtable [-rows REGEXP] [-raw DIR] [-timeout 10m]
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"time"
)

func main() {
	only := flag.String("rows", "", "run only the rows whose description matches this regexp")
	raw := flag.String("raw", "", "also save each command's raw output in this directory")
	limit := flag.Duration("timeout", 10*time.Minute, "end a row's command after this long (go test -timeout does not cover benchmarks)")
	flag.Parse()
	filter, err := regexp.Compile(*only)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchtable: -rows:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	goCmd := func(args []string) (string, error) { return command(ctx, *limit, "go", args) }
	code := run(os.Stdout, os.Stderr, filter, *raw, goCmd)
	stop()
	os.Exit(code)
}

// runner runs `go args…` and returns what it printed (stdout and stderr
// together) and how it ended.
type runner func(args []string) (string, error)

// command runs name with args for at most limit and returns its combined
// output. go test runs each benchmark binary as its own child, so the
// command gets a process group of its own and the whole group is killed
// at the limit (or on interrupt): no orphan may keep the output pipe open.
func command(ctx context.Context, limit time.Duration, name string, args []string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	var buf bytes.Buffer
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Stdout, cmd.Stderr = &buf, &buf
	ownGroup(cmd)
	cmd.WaitDelay = 10 * time.Second
	err := cmd.Run()
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		err = fmt.Errorf("timed out after %s", limit)
	}
	return buf.String(), err
}

// run measures every row that filter matches and prints the table; it
// returns 1 when any row has no figure.
func run(stdout, progress io.Writer, filter *regexp.Regexp, raw string, goCmd runner) int {
	began := time.Now()
	if raw != "" {
		if err := os.MkdirAll(raw, 0o755); err != nil {
			fmt.Fprintln(progress, "benchtable:", err)
			return 2
		}
	}
	var lines []line
	code := 0
	for i, r := range rows {
		if !filter.MatchString(r.what) {
			continue
		}
		command := "go " + shellQuote(r.args)
		fmt.Fprintf(progress, "benchtable: %s\n", command)
		text, err := goCmd(r.args)
		if raw != "" {
			if werr := os.WriteFile(filepath.Join(raw, fmt.Sprintf("%02d.txt", i+1)), []byte(command+"\n"+text), 0o644); werr != nil {
				fmt.Fprintln(progress, "benchtable:", werr)
			}
		}
		l := measure(r, text, err)
		l.command = command
		if l.failed {
			code = 1
			fmt.Fprintf(progress, "benchtable: no figure: %s\n", l.figure)
		}
		lines = append(lines, l)
	}
	fmt.Fprint(stdout, markdown(lines))
	fmt.Fprintf(stdout, "\nMeasured %s on %s/%s with %d CPUs, %s; the whole run took %s.\n",
		began.UTC().Format("2006-01-02 15:04 MST"), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version(),
		time.Since(began).Round(time.Second))
	return code
}

// measure turns one command's output and exit into a table line: its
// figure, or why there is none.
func measure(r row, text string, err error) line {
	l := line{what: r.what}
	out := parse(text)
	if err != nil {
		l.failed = true
		l.figure = failure(err, out, text)
		return l
	}
	rd := &reader{out: out}
	fig := r.figure(rd)
	if rd.err != nil {
		l.failed = true
		l.figure = rd.err.Error()
		return l
	}
	l.figure = fig
	return l
}

// failure says why a command failed: its exit and the first failure it
// reported, or else its last line of output.
func failure(err error, out output, text string) string {
	msg := err.Error()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		msg = fmt.Sprintf("exit status %d", ee.ExitCode())
	}
	switch {
	case len(out.failures) > 0:
		msg += "; " + out.failures[0]
	default:
		if ls := strings.Split(strings.TrimSpace(text), "\n"); ls[len(ls)-1] != "" {
			msg += "; " + ls[len(ls)-1]
		}
	}
	const most = 300
	if len(msg) > most {
		msg = msg[:most] + "…"
	}
	return msg
}
