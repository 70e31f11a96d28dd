//go:build hosts

package hosts

// The MCP server a host starts is this test binary in tee mode: it runs
// snowluma-mcp with the same environment and copies each JSON-RPC line in
// both directions to a log, so the suite sees what the host declared when
// it connected (and every call it made) without touching the server.

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"sync"
)

// teeFlag, as the first argument, makes the test binary the tee:
// hosts.test -snowluma-tee LOG SERVER.
const teeFlag = "-snowluma-tee"

// teeArgs are the command arguments a host is given for the server.
func teeArgs(log string) []string { return []string{teeFlag, log, binary} }

// tee runs args[1] and logs the lines of stdin (prefixed "> ") and stdout
// ("< ") to args[0], appending: a host may start the server more than once.
func tee(args []string) int {
	if len(args) != 2 {
		return 2
	}
	log, err := os.OpenFile(args[0], os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return 2
	}
	defer log.Close()
	var mu sync.Mutex
	write := func(prefix string, line []byte) {
		mu.Lock()
		defer mu.Unlock()
		_, _ = log.Write(append(append([]byte(prefix), line...), '\n'))
	}
	cmd := exec.Command(args[1])
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return 2
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return 2
	}
	if err := cmd.Start(); err != nil {
		return 2
	}
	go func() {
		copyLines(os.Stdin, in, func(l []byte) { write("> ", l) })
		_ = in.Close()
	}()
	copyLines(out, os.Stdout, func(l []byte) { write("< ", l) })
	if err := cmd.Wait(); err != nil {
		return 1
	}
	return 0
}

// copyLines copies r to w line by line, calling seen with each line.
func copyLines(r io.Reader, w io.Writer, seen func([]byte)) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 64*1024*1024)
	for sc.Scan() {
		line := sc.Bytes()
		seen(line)
		if _, err := w.Write(append(append([]byte(nil), line...), '\n')); err != nil {
			return
		}
	}
}
