package e2e

// Starting the binary under the official Go SDK client, once per test and
// protocol generation, with a clean environment and stderr captured for
// log assertions.

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The two protocol generations every feature is tested on.
const (
	modern = "2026-07-28"
	legacy = "2025-11-25"
)

var versions = []string{modern, legacy}

// safety bounds waits that would otherwise hang the suite on a broken
// build. It is never an assertion about speed.
const safety = 30 * time.Second

// forEachVersion runs body as a parallel subtest per protocol generation.
func forEachVersion(t *testing.T, body func(t *testing.T, version string)) {
	t.Helper()
	for _, v := range versions {
		t.Run(v, func(t *testing.T) {
			t.Parallel()
			body(t, v)
		})
	}
}

// Environments for the three modes. The execution modes point at the
// shared fake with the right token.
func docsEnv() map[string]string { return map[string]string{"SNOWLUMA_MCP_MODE": "docs"} }

func readEnv() map[string]string {
	return map[string]string{"SNOWLUMA_MCP_MODE": "read", "SNOWLUMA_MCP_ENDPOINT": snow.URL(), "SNOWLUMA_MCP_TOKEN": token}
}

func writeEnv() map[string]string {
	e := readEnv()
	e["SNOWLUMA_MCP_MODE"] = "write"
	return e
}

// with returns a copy of env with the given key/value pairs set.
func with(env map[string]string, kv ...string) map[string]string {
	out := map[string]string{}
	for k, v := range env {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i]] = kv[i+1]
	}
	return out
}

// environ builds a process environment from scratch: only HOME (so the
// default download dir stays inside the test's temp dir) and vars. No
// proxy, no MCPGODEBUG, nothing inherited but a profile path.
func environ(vars map[string]string) []string {
	env := []string{"HOME=" + home}
	if _, set := vars["SNOWLUMA_MCP_STATE_DIR"]; !set {
		// The send budgets are shared by every server of an account
		// through the state directory, and the fake is one account: each
		// process gets a state of its own unless a test shares one.
		env = append(env, "SNOWLUMA_MCP_STATE_DIR="+freshStateDir())
	}
	if p := os.Getenv("SNOWLUMA_MCP_CPUPROFILE"); p != "" {
		// Only a binary built with SNOWLUMA_E2E_TAGS=profile reads it.
		env = append(env, "SNOWLUMA_MCP_CPUPROFILE="+p)
	}
	for k, v := range vars {
		env = append(env, k+"="+v)
	}
	return env
}

// freshStateDir is a new, private state directory under the suite's
// home, spelled as the binary under test spells paths.
func freshStateDir() string {
	dir, err := os.MkdirTemp(home, "state-")
	if err != nil {
		panic(err)
	}
	if exeSuffix != "" {
		return `Z:` + strings.ReplaceAll(dir, "/", `\`)
	}
	return dir
}

// syncBuffer is a bytes.Buffer safe for the exec copier and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// Raw is everything written so far.
func (s *syncBuffer) Raw() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// String is Raw with tokens redacted, so failure messages that quote
// stderr never put a secret into test logs.
func (s *syncBuffer) String() string { return redact(s.Raw()) }

// server is one running binary with an SDK client session.
type server struct {
	version  string
	session  *mcp.ClientSession
	stderr   *syncBuffer
	tools    map[string]*mcp.Tool
	closeErr error
	once     sync.Once
}

// start runs the binary with vars and connects at version. The session is
// closed at cleanup, which requires a clean exit and checks stderr for
// secrets.
func start(t *testing.T, version string, vars map[string]string) *server {
	t.Helper()
	return startWith(t, version, vars, nil)
}

// startWith is start with client options (for example a progress
// notification handler); nil means the defaults.
func startWith(t *testing.T, version string, vars map[string]string, opts *mcp.ClientOptions) *server {
	t.Helper()
	cs, _, stderr := connectWith(t, version, vars, opts)
	s := &server{version: version, session: cs, stderr: stderr}
	t.Cleanup(func() {
		s.close()
		assert.NoError(t, s.closeErr, "the binary must exit cleanly when stdin closes; stderr:\n%s", stderr)
		assertNoSecrets(t, "stderr", stderr.Raw())
	})
	s.tools = map[string]*mcp.Tool{}
	res, err := cs.ListTools(testCtx(t), nil)
	require.NoError(t, err)
	for _, tool := range res.Tools {
		s.tools[tool.Name] = tool
	}
	return s
}

// connect starts the binary with vars under the SDK client at version. It
// is shared by tests and benchmarks; the caller closes the session.
func connect(tb testing.TB, version string, vars map[string]string) (*mcp.ClientSession, *exec.Cmd, *syncBuffer) {
	tb.Helper()
	return connectWith(tb, version, vars, nil)
}

// connectWith is connect with client options; nil means the defaults.
func connectWith(tb testing.TB, version string, vars map[string]string, opts *mcp.ClientOptions) (*mcp.ClientSession, *exec.Cmd, *syncBuffer) {
	tb.Helper()
	cmd := command(vars)
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "snowluma-e2e", Version: "1.0.0"}, opts)
	ctx, cancel := context.WithTimeout(context.Background(), safety)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: exitGrace}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	require.NoError(tb, err, "connect; stderr:\n%s", stderr)
	if got := cs.InitializeResult().ProtocolVersion; got != version {
		_ = cs.Close()
		require.FailNow(tb, "the session must really use the requested generation", "got %s, want %s", got, version)
	}
	return cs, cmd, stderr
}

// close ends the session (closing stdin and waiting for the process) and
// returns everything the process wrote to stderr, unredacted.
func (s *server) close() string {
	s.once.Do(func() { s.closeErr = s.session.Close() })
	return s.stderr.Raw()
}

// closeCleanly closes and requires a clean exit.
func (s *server) closeCleanly(t *testing.T) string {
	t.Helper()
	out := s.close()
	require.NoError(t, s.closeErr, "the binary must exit cleanly when stdin closes; stderr:\n%s", redact(out))
	return out
}

// toolNames lists the advertised tool names.
func (s *server) toolNames() []string {
	var names []string
	for n := range s.tools {
		names = append(names, n)
	}
	return names
}

// ctx returns a context bounded by the safety timeout.
func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), safety)
	t.Cleanup(cancel)
	return ctx
}

// assertNoSecrets checks that neither token appears in any of texts. It
// never prints the texts or the tokens: a failure must not itself put the
// secret into the test log.
func assertNoSecrets(t testing.TB, where string, texts ...string) {
	t.Helper()
	for _, text := range texts {
		for _, secret := range []string{token, wrongToken, wsToken} {
			assert.False(t, strings.Contains(text, secret), "a token leaked into %s", where)
		}
	}
}

// redact replaces the tokens, for text quoted in failure messages.
func redact(s string) string {
	return strings.NewReplacer(token, "<token>", wrongToken, "<wrong-token>", wsToken, "<ws-token>").Replace(s)
}

// assertBearer checks the Authorization header without printing it.
func assertBearer(t *testing.T, h http.Header, tok string) {
	t.Helper()
	assert.True(t, h.Get("Authorization") == "Bearer "+tok, "Authorization is not exactly \"Bearer <configured token>\"")
}

// mustJSON marshals v for comparisons.
func mustJSON(t *testing.T, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}

// lines splits text into non-empty lines.
func lines(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}
