package e2e

// A raw JSON-RPC driver: the binary on plain pipes, one JSON message per
// line, for what the SDK client hides (exact result fields, cache hints,
// error codes, malformed input, byte-level JSON, process exit). Every
// error response it sees is checked for the invalid code 0.

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rpcError is a JSON-RPC error object.
type rpcError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
}

// rawMessage is one line read from stdout.
type rawMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Result  json.RawMessage `json:"result"`
	Error   *rpcError       `json:"error"`
	Line    []byte          `json:"-"`
}

// String shows the line, shortened and with any token redacted, for
// failure messages.
func (m rawMessage) String() string {
	s := redact(string(m.Line))
	if len(s) > 400 {
		s = s[:400] + "…"
	}
	return s
}

// fields returns the top-level keys of the result object.
func (m rawMessage) fields(t testing.TB) map[string]json.RawMessage {
	t.Helper()
	var f map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(m.Result, &f), "result is not an object: %s", m)
	return f
}

type rawServer struct {
	t       testing.TB
	version string
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	stderr  *syncBuffer
	lines   chan []byte
	exited  chan struct{}
	exitErr error
	nextID  int
	stdout  []string // every line read, for the secrets check
}

// startRaw starts the binary on pipes. version decides how requests are
// framed: modern requests carry the _meta triple, legacy ones need
// handshake first.
// awaitStderr waits until the binary's stderr holds want. Stderr is its
// own pipe, copied as it comes: a line the server wrote before it answered
// on stdout may still be on its way when the answer is read.
func (r *rawServer) awaitStderr(want, why string) {
	r.t.Helper()
	deadline := time.Now().Add(safety)
	for !strings.Contains(r.stderr.Raw(), want) {
		require.True(r.t, time.Now().Before(deadline), "%s: stderr never held %q:\n%s", why, want, r.stderr)
		time.Sleep(10 * time.Millisecond)
	}
}

func startRaw(t testing.TB, version string, vars map[string]string) *rawServer {
	t.Helper()
	cmd := command(vars)
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	// A plain pipe rather than StdoutPipe: Wait must not close our end
	// before every line the process wrote has been read.
	stdout, pw, err := os.Pipe()
	require.NoError(t, err)
	cmd.Stdout = pw
	r := &rawServer{t: t, version: version, cmd: cmd, stdin: stdin, stderr: &syncBuffer{},
		lines: make(chan []byte, 1024), exited: make(chan struct{})}
	cmd.Stderr = r.stderr
	require.NoError(t, cmd.Start())
	require.NoError(t, pw.Close())
	go func() {
		defer stdout.Close()
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
		for sc.Scan() {
			r.lines <- append([]byte(nil), sc.Bytes()...)
		}
		close(r.lines)
	}()
	go func() {
		r.exitErr = cmd.Wait()
		close(r.exited)
	}()
	t.Cleanup(func() {
		_ = r.stdin.Close()
		go func() {
			for range r.lines { // keep stdout drained so the process can exit
			}
		}()
		select {
		case <-r.exited:
		case <-time.After(safety):
			_ = r.cmd.Process.Kill()
			<-r.exited
		}
		assertNoSecrets(t, "stderr", r.stderr.Raw())
		for _, l := range r.stdout {
			assertNoSecrets(t, "stdout", l)
		}
	})
	return r
}

// writeLine writes one raw line (a newline is added).
func (r *rawServer) writeLine(line string) {
	r.t.Helper()
	_, err := io.WriteString(r.stdin, line+"\n")
	require.NoError(r.t, err)
}

// next reads the next message from stdout.
func (r *rawServer) next() rawMessage {
	r.t.Helper()
	select {
	case line, ok := <-r.lines:
		require.True(r.t, ok, "stdout closed; stderr:\n%s", r.stderr)
		r.stdout = append(r.stdout, string(line))
		var m rawMessage
		require.NoError(r.t, json.Unmarshal(line, &m), "stdout line is not JSON: %s", line)
		m.Line = line
		assert.Equal(r.t, "2.0", m.JSONRPC, "line: %s", line)
		if m.Error != nil {
			assert.NotZero(r.t, m.Error.Code, "error code 0 is not a JSON-RPC code: %s", line)
		}
		return m
	case <-time.After(safety):
		require.FailNow(r.t, "no message from the binary", "stderr:\n%s", r.stderr)
		return rawMessage{}
	}
}

// send writes a request and returns its ID.
func (r *rawServer) send(method string, params any) int {
	r.t.Helper()
	r.nextID++
	msg := map[string]any{"jsonrpc": "2.0", "id": r.nextID, "method": method}
	if params != nil {
		msg["params"] = params
	}
	b, err := json.Marshal(msg)
	require.NoError(r.t, err)
	r.writeLine(string(b))
	return r.nextID
}

// await reads until the response with id, skipping notifications.
func (r *rawServer) await(id int) rawMessage {
	r.t.Helper()
	want := fmt.Sprint(id)
	for {
		m := r.next()
		if m.Method == "" && string(m.ID) == want {
			return m
		}
	}
}

// request sends a request and waits for its response.
func (r *rawServer) request(method string, params any) rawMessage {
	r.t.Helper()
	return r.await(r.send(method, params))
}

// notify writes a notification.
func (r *rawServer) notify(method string, params any) {
	r.t.Helper()
	msg := map[string]any{"jsonrpc": "2.0", "method": method}
	if params != nil {
		msg["params"] = params
	}
	b, err := json.Marshal(msg)
	require.NoError(r.t, err)
	r.writeLine(string(b))
}

// modernMeta is the per-request _meta triple of 2026-07-28 requests.
func modernMeta(version string) map[string]any {
	return map[string]any{
		"io.modelcontextprotocol/protocolVersion":    version,
		"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "snowluma-e2e-raw", "version": "1.0.0"},
		"io.modelcontextprotocol/clientCapabilities": map[string]any{},
	}
}

// params builds request params for this server's generation: modern
// requests get the _meta triple merged with meta; legacy ones get meta as is.
func (r *rawServer) params(p map[string]any, meta map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range p {
		out[k] = v
	}
	m := map[string]any{}
	if r.version >= modern {
		for k, v := range modernMeta(r.version) {
			m[k] = v
		}
	}
	for k, v := range meta {
		m[k] = v
	}
	if len(m) > 0 {
		out["_meta"] = m
	}
	return out
}

// handshake runs the legacy initialize handshake; modern servers need none.
func (r *rawServer) handshake() {
	r.t.Helper()
	if r.version >= modern {
		return
	}
	res := r.request("initialize", map[string]any{
		"protocolVersion": r.version,
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "snowluma-e2e-raw", "version": "1.0.0"},
	})
	require.Nil(r.t, res.Error, "initialize: %s", res)
	var init struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	require.NoError(r.t, json.Unmarshal(res.Result, &init))
	require.Equal(r.t, r.version, init.ProtocolVersion)
	r.notify("notifications/initialized", nil)
}

// rawSession starts a raw server and completes its handshake.
func rawSession(t *testing.T, version string, vars map[string]string) *rawServer {
	t.Helper()
	r := startRaw(t, version, vars)
	r.handshake()
	return r
}

// callTool sends tools/call and returns the response.
func (r *rawServer) callTool(name string, args any, meta map[string]any) rawMessage {
	r.t.Helper()
	return r.request("tools/call", r.params(map[string]any{"name": name, "arguments": args}, meta))
}

// waitExit waits for the process to exit (bounded by safety only to
// avoid hanging) and returns its exit code.
func (r *rawServer) waitExit() int {
	r.t.Helper()
	select {
	case <-r.exited:
	case <-time.After(safety):
		require.FailNow(r.t, "the binary did not exit", "stderr:\n%s", r.stderr)
	}
	var ee *exec.ExitError
	if errors.As(r.exitErr, &ee) {
		return ee.ExitCode()
	}
	require.NoError(r.t, r.exitErr)
	return 0
}

// structured extracts structuredContent from a raw tools/call result,
// byte for byte as it came over the wire.
func structured(t testing.TB, m rawMessage) (result json.RawMessage, diag diagnostics) {
	t.Helper()
	require.Nil(t, m.Error, "tools/call failed: %s", m)
	var body struct {
		StructuredContent struct {
			Result      json.RawMessage `json:"result"`
			Diagnostics diagnostics     `json:"diagnostics"`
		} `json:"structuredContent"`
	}
	require.NoError(t, json.Unmarshal(m.Result, &body))
	return body.StructuredContent.Result, body.StructuredContent.Diagnostics
}
