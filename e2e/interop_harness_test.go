package e2e

// Running the interop clients (e2e/clients): real MCP clients from npm,
// pinned in e2e/clients/package.json and installed by `make build` from the
// committed lockfile. A node script does the client's work against the
// real binary and prints one JSON report; the Go test asserts on that
// report and on what the shared fake SnowLuma recorded. Missing node or
// missing packages fail the test with the set-up command: these tests are
// part of make test and are never skipped.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// The negotiation modes of @modelcontextprotocol/client 2.4.0 that every
// SDK case runs in: legacy sends initialize (2025-11-25); auto probes with
// server/discover and takes 2026-07-28 from this server; modern pins
// 2026-07-28.
var interopEras = []string{"legacy", "auto", "modern"}

// forEachEra runs body as a parallel subtest per negotiation mode.
func forEachEra(t *testing.T, body func(t *testing.T, era string)) {
	t.Helper()
	for _, era := range interopEras {
		t.Run(era, func(t *testing.T) {
			t.Parallel()
			body(t, era)
		})
	}
}

// wantVersion is the protocol version a negotiation mode must end on.
func wantVersion(era string) string {
	if era == "legacy" {
		return legacy
	}
	return modern
}

// wantEra is what client.getProtocolEra() must say for a negotiation mode.
func wantEra(era string) string {
	if era == "legacy" {
		return "legacy"
	}
	return "modern"
}

var (
	clientsOnce sync.Once
	clientsDir  string
	clientsErr  string
)

// interopClients returns node and e2e/clients, failing the test when node
// or the pinned packages are missing or not the pinned versions.
func interopClients(t *testing.T) (node, dir string) {
	t.Helper()
	node, err := exec.LookPath("node")
	require.NoError(t, err, "the interop tests need node (>= 20.19): .ci/run installs it; then run make build")
	clientsOnce.Do(func() { clientsDir, clientsErr = checkClients() })
	require.Empty(t, clientsErr, "the interop clients are not installed as pinned: run make build (npm ci in e2e/clients)")
	return node, clientsDir
}

// checkClients compares every dependency pinned in e2e/clients/package.json
// with the installed package's version; it returns a message for the first
// mismatch, or "".
func checkClients() (string, string) {
	root, err := moduleRoot()
	if err != nil {
		return "", err.Error()
	}
	dir := filepath.Join(root, "e2e", "clients")
	var manifest struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return "", err.Error()
	}
	if err := json.Unmarshal(b, &manifest); err != nil {
		return "", err.Error()
	}
	for name, want := range manifest.Dependencies {
		var installed struct {
			Version string `json:"version"`
		}
		b, err := os.ReadFile(filepath.Join(dir, "node_modules", name, "package.json"))
		if err != nil {
			return "", name + " is not installed: " + err.Error()
		}
		if err := json.Unmarshal(b, &installed); err != nil || installed.Version != want {
			return "", name + " " + installed.Version + " is installed, " + want + " is pinned"
		}
	}
	return dir, ""
}

// interopRun is one run of a client script, started but not yet finished,
// for tests that must tell the script when to go on (stdin) while it runs.
type interopRun struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout bytes.Buffer
	stderr *syncBuffer
	cancel context.CancelFunc
}

// startClient starts e2e/clients/<script> in negotiation mode era against a
// binary started with vars; args are the case's own inputs.
func startClient(t *testing.T, script, era string, vars map[string]string, args map[string]any) *interopRun {
	t.Helper()
	node, dir := interopClients(t)
	serverEnv := map[string]string{"HOME": home, "SNOWLUMA_MCP_STATE_DIR": freshStateDir()}
	for k, v := range vars {
		serverEnv[k] = v
	}
	if args == nil {
		args = map[string]any{}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*safety)
	r := &interopRun{t: t, stderr: &syncBuffer{}, cancel: cancel}
	r.cmd = exec.CommandContext(ctx, node, filepath.Join(dir, script))
	r.cmd.Dir = dir
	r.cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + home,
		"INTEROP_BINARY=" + binary, "INTEROP_SERVER_ENV=" + string(mustJSON(t, serverEnv)),
		"INTEROP_ERA=" + era, "INTEROP_ARGS=" + string(mustJSON(t, args)),
	}
	stdin, err := r.cmd.StdinPipe()
	require.NoError(t, err)
	r.stdin = stdin
	r.cmd.Stdout, r.cmd.Stderr = &r.stdout, r.stderr
	require.NoError(t, r.cmd.Start())
	t.Cleanup(func() {
		cancel()
		_ = r.cmd.Wait()
	})
	return r
}

// say writes one line to the script's stdin.
func (r *interopRun) say(line string) {
	r.t.Helper()
	w := bufio.NewWriter(r.stdin)
	_, err := w.WriteString(line + "\n")
	require.NoError(r.t, err)
	require.NoError(r.t, w.Flush())
}

// finish waits for the script, requires a clean exit, checks its output
// for secrets and decodes its report into out.
func (r *interopRun) finish(out any) {
	r.t.Helper()
	_ = r.stdin.Close()
	err := r.cmd.Wait()
	r.cancel()
	require.NoError(r.t, err, "the client script failed; stderr:\n%s", r.stderr)
	assertNoSecrets(r.t, "client script output", r.stdout.String(), r.stderr.Raw())
	require.NoError(r.t, json.Unmarshal(r.stdout.Bytes(), out), "client script report: %s", redact(r.stdout.String()))
}

// runClient runs a script to its end and decodes its report into out.
func runClient(t *testing.T, script, era string, vars map[string]string, args map[string]any, out any) {
	t.Helper()
	startClient(t, script, era, vars, args).finish(out)
}

// negotiatedReport is the part of every SDK script's report that says
// what the client negotiated.
type negotiatedReport struct {
	Era             string `json:"era"`
	ProtocolVersion string `json:"protocolVersion"`
}

// assertNegotiated checks that the client really ran in the mode asked.
func (n negotiatedReport) assertNegotiated(t *testing.T, era string) {
	t.Helper()
	require.Equal(t, wantEra(era), n.Era, "client.getProtocolEra()")
	require.Equal(t, wantVersion(era), n.ProtocolVersion, "client.getNegotiatedProtocolVersion()")
}

// clientError is how the scripts report a thrown error.
type clientError struct {
	Name    string          `json:"name"`
	Code    json.RawMessage `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
}

// clientResult is a CallToolResult as the client handed it over.
type clientResult struct {
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	IsError           bool   `json:"isError"`
	ResultType        string `json:"resultType"`
	StructuredContent struct {
		Result      json.RawMessage `json:"result"`
		Diagnostics diagnostics     `json:"diagnostics"`
	} `json:"structuredContent"`
}

// decode unmarshals the structured result into v.
func (r clientResult) decode(t *testing.T, v any) {
	t.Helper()
	require.NoError(t, json.Unmarshal(r.StructuredContent.Result, v), "%s", r.StructuredContent.Result)
}
