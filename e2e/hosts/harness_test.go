//go:build hosts

package hosts

// Running one host: a fresh HOME, the stand-in model API, a scene on the
// fake for events, the tee's log, and the checks every host shares.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

// hangGuard bounds one host run; a run that passes takes a fraction of it.
const hangGuard = 5 * time.Minute

// serverName is the name every host is given for the server.
const serverName = "snowluma"

// run is one host run.
type run struct {
	t      *testing.T
	home   string
	work   string
	teeLog string
	scene  *fake.Scene
	since  int // the fake's request count before the run
	model  *httptest.Server
	mu     sync.Mutex
	hits   []string          // the stand-in's requests, for failure messages
	output string            // the host's stdout and stderr tails, for failure messages
	tools  []json.RawMessage // the server's and the resource tools as the host last listed them
}

// seeTools keeps, of a tool list the host sent the model, the entries for
// the server's tools and the host's resource tools (by their JSON naming
// either); the last list wins, as Claude Code adds tools as they load.
func (r *run) seeTools(entries []json.RawMessage) {
	var keep []json.RawMessage
	for _, e := range entries {
		var t struct {
			Name string `json:"name"`
		}
		_ = json.Unmarshal(e, &t)
		n := strings.ToLower(t.Name)
		if strings.Contains(n, serverName) || strings.Contains(n, "mcp_resource") || strings.Contains(n, "mcpresource") {
			keep = append(keep, e)
		}
	}
	if len(keep) == 0 {
		return
	}
	r.mu.Lock()
	r.tools = keep
	r.mu.Unlock()
}

// newRun prepares a run with handler as the host's model API.
func newRun(t *testing.T, handler func(r *run) http.Handler) *run {
	t.Helper()
	base := t.TempDir()
	r := &run{t: t, home: filepath.Join(base, "home"), work: filepath.Join(base, "work"), teeLog: filepath.Join(base, "tee.log")}
	require.NoError(t, os.MkdirAll(r.home, 0o700))
	require.NoError(t, os.MkdirAll(r.work, 0o700))
	r.scene = snow.Scene(fake.SceneOptions{})
	r.since = len(snow.Requests())
	h := handler(r)
	r.model = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		r.hits = append(r.hits, req.Method+" "+req.URL.String())
		r.mu.Unlock()
		h.ServeHTTP(w, req)
	}))
	t.Cleanup(r.model.Close)
	return r
}

// serverEnv is the server's environment: write mode with events, at the fake.
func (r *run) serverEnv() map[string]string {
	return map[string]string{
		"SNOWLUMA_MCP_MODE":       "write",
		"SNOWLUMA_MCP_ENDPOINT":   snow.URL(),
		"SNOWLUMA_MCP_TOKEN":      token,
		"SNOWLUMA_MCP_EVENTS_URL": r.scene.URL(),
		"SNOWLUMA_MCP_STATE_DIR":  filepath.Join(r.home, "snowluma-state"),
	}
}

// pushEvent waits for the server's event connection and pushes one group
// message into it.
func (r *run) pushEvent() {
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	if _, err := r.scene.Next(ctx); err != nil {
		r.t.Errorf("the server never connected to the event endpoint: %v", err)
		return
	}
	r.scene.Push(fake.GroupMessage(r.scene.SelfID(), fake.GroupID, fake.AliceID, eventText))
	// The server stores the frame as soon as it reads it; the pause
	// makes a first read that misses it rare, and the step polls anyway.
	time.Sleep(500 * time.Millisecond)
}

// bin is an installed host's executable.
func bin(name string) string { return filepath.Join(hostsDir, "node_modules", ".bin", name) }

// exec runs the host with args and env (added to a minimal environment
// with the run's HOME and the refusing proxy), in the run's work folder.
// It returns stdout; a failure names the host's stderr tail.
func (r *run) exec(name string, args []string, env ...string) string {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin(name), args...)
	cmd.Dir = r.work
	cmd.Env = append([]string{
		"HOME=" + r.home, "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8", "TERM=dumb", "CI=1",
		"XDG_CONFIG_HOME=" + filepath.Join(r.home, ".config"), "XDG_CACHE_HOME=" + filepath.Join(r.home, ".cache"),
	}, proxyEnv()...)
	cmd.Env = append(cmd.Env, env...)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	r.t.Logf("%s ran for %s", name, time.Since(start).Round(time.Millisecond))
	r.output = "stderr (tail):\n" + tail(stderr.String()) + "\nstdout (tail):\n" + tail(stdout.String())
	if err != nil {
		r.mu.Lock()
		hits := strings.Join(r.hits, "\n  ")
		r.mu.Unlock()
		require.FailNow(r.t, name+" failed", "%v\nstderr (tail):\n%s\nstdout (tail):\n%s\nmodel API requests:\n  %s", err, tail(stderr.String()), tail(stdout.String()), hits)
	}
	return stdout.String()
}

// tail is the last lines of s, for failure messages.
func tail(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > 40 {
		lines = lines[len(lines)-40:]
	}
	return strings.Join(lines, "\n")
}

// teeMessage is one JSON-RPC line the tee logged.
type teeMessage struct {
	FromHost bool
	Msg      struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
		Result json.RawMessage `json:"result"`
	}
}

// messages reads the tee's log.
func (r *run) messages() []teeMessage {
	r.t.Helper()
	f, err := os.Open(r.teeLog)
	require.NoError(r.t, err, "the host never started the server")
	defer f.Close()
	var out []teeMessage
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 64*1024*1024)
	for sc.Scan() {
		line := sc.Text()
		var m teeMessage
		m.FromHost = strings.HasPrefix(line, "> ")
		if json.Unmarshal([]byte(line[2:]), &m.Msg) == nil {
			out = append(out, m)
		}
	}
	return out
}

// check holds the run: each step's result as the model saw it, what the
// host declared, the calls that reached the server, and what reached the
// fake SnowLuma.
func (r *run) check(host string, c *conductor) {
	r.t.Helper()
	if *update {
		// A step renamed or dropped leaves no stale file behind.
		require.NoError(r.t, os.RemoveAll(filepath.Join("testdata", host)))
	}
	assert.Empty(r.t, egress.attempts(), "a host tried to leave 127.0.0.1 (refused by the proxy)")
	results, done := c.finished()
	require.True(r.t, done, "the stand-in never reached the end of the script; results so far: %v\n%s", keys(results), r.output)
	for _, s := range c.steps {
		got, ok := results[s.Name]
		if assert.True(r.t, ok, "no result recorded for step %s", s.Name) {
			golden(r.t, filepath.Join(host, s.Name+".txt"), normalise(got))
		}
	}
	msgs := r.messages()
	golden(r.t, filepath.Join(host, "connect.json"), declared(r.t, msgs))
	golden(r.t, filepath.Join(host, "calls.json"), callsMade(r.t, msgs))
	r.mu.Lock()
	tools := r.tools
	r.mu.Unlock()
	require.NotEmpty(r.t, tools, "the host never listed the server's tools to the model")
	golden(r.t, filepath.Join(host, "tools.json"), normalise(pretty(r.t, tools)))
	if c.index("01-runtime-info") >= 0 {
		golden(r.t, filepath.Join(host, "client.json"), serverSaw(r.t, msgs))
	}
	assert.NotContains(r.t, strings.Join(values(results), "\n"), token, "the SnowLuma token reached the model")
	if c.index("10-read-events") >= 0 {
		assert.Contains(r.t, results["10-read-events"], eventText, "the model read the pushed event through the host's resource tool")
	}
}

// checkSnowLuma holds what reached the fake during the run: the slip
// never did, the read and the send did, the send's quoted group id as a
// number.
func (r *run) checkSnowLuma() {
	r.t.Helper()
	var infos, sends []fake.Request
	for _, q := range snow.Requests()[r.since:] {
		switch q.Action {
		case "get_group_member_info":
			infos = append(infos, q)
		case "send_group_msg":
			sends = append(sends, q)
		}
	}
	for _, q := range infos {
		assert.NotContains(r.t, string(q.Params), "user_idd", "the parameter slip reached SnowLuma")
	}
	assert.Len(r.t, infos, 1, "only the well-formed read reaches SnowLuma's get_group_member_info")
	if assert.Len(r.t, sends, 1, "the send reaches SnowLuma once") {
		assert.JSONEq(r.t, fmt.Sprintf(`{"group_id":%d,"message":"hello from the host suite"}`, fake.GroupID), string(sends[0].Params), "the quoted group id arrives as a number")
	}
}

// checkNothingSent holds that no send reached the fake during the run.
func (r *run) checkNothingSent() {
	r.t.Helper()
	for _, q := range snow.Requests()[r.since:] {
		assert.NotEqual(r.t, "send_group_msg", q.Action, "a send the host refused reached SnowLuma")
	}
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func values(m map[string]string) []string {
	var out []string
	for _, v := range m {
		out = append(out, v)
	}
	return out
}
