package e2e

// The call log (TRACE-3, TRACE-4, Q-2): exactly one stderr line per tool
// call naming the tool, traceparent, outcome, kind and duration, and never
// the token, the message text, tracestate, baggage or the raw value of
// invalid trace metadata.

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

var logField = regexp.MustCompile(`(\w+)=(\S+)`)

// callLines returns the stderr lines that describe tool calls, keyed by
// traceparent, and how many there were.
func callLines(stderr string) (map[string]map[string]string, int) {
	out := map[string]map[string]string{}
	n := 0
	for _, l := range lines(stderr) {
		if !strings.Contains(l, " tool=") {
			continue
		}
		n++
		fields := map[string]string{}
		for _, m := range logField.FindAllStringSubmatch(l, -1) {
			fields[m[1]] = m[2]
		}
		fields["_line"] = l
		out[fields["traceparent"]] = fields
	}
	return out, n
}

func TestEveryCallLogsOneSafeLine(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		s := start(t, version, writeEnv())
		const text = "e2e-private-message-text-Zq81"
		const state = "e2evendor=tr4cestate-value"
		const bag = "user=bagg4ge-value"
		_, tp := newTrace(t)
		calls := []struct {
			tool string
			args map[string]any
			meta mcp.Meta
		}{
			{"list_categories", nil, nil},
			{"query_action", map[string]any{"action": "get_status"}, mcp.Meta{"traceparent": tp, "tracestate": state, "baggage": bag}},
			{"query_action", map[string]any{"action": "get_msg", "params": map[string]any{"message_id": 99}}, nil},
			{"query_action", map[string]any{"action": "send_group_msg", "params": map[string]any{"group_id": fake.GroupID, "message": text}}, nil},
			{"invoke_action", map[string]any{"action": "send_group_msg", "params": map[string]any{"group_id": fake.GroupID, "message": text}},
				mcp.Meta{"tracestate": state}},
			{"invoke_action", map[string]any{"action": "get_status", "params": map[string]any{fake.Marker: "http500"}}, nil},
			{"get_action", map[string]any{"name": "get_msg"}, mcp.Meta{"traceparent": "garbage-trace-meta-Xy7"}},
			{"get_action", map[string]any{"name": "get_status"}, mcp.Meta{"traceparent": tp, "tracestate": "Bad State Zk3!"}},
		}
		var results []toolResult
		for _, c := range calls {
			results = append(results, s.call(t, c.tool, c.args, c.meta))
		}
		stderr := s.closeCleanly(t)

		logged, n := callLines(stderr)
		require.Equal(t, len(calls), n, "exactly one line per call; stderr:\n%s", redact(stderr))
		for i, r := range results {
			f, ok := logged[r.Traceparent]
			require.True(t, ok, "no line for call %d (%s) with traceparent %s; stderr:\n%s", i, calls[i].tool, r.Traceparent, redact(stderr))
			assert.Equal(t, calls[i].tool, f["tool"])
			assert.Equal(t, r.Diag.Outcome, f["outcome"])
			wantKind := r.Diag.Kind
			if wantKind == "" {
				wantKind = "-"
			}
			assert.Equal(t, wantKind, f["kind"])
			assert.Regexp(t, `^[0-9]+(\.[0-9]+)?$`, f["duration_ms"])
		}
		for _, r := range results[len(results)-2:] {
			assert.Contains(t, logged[r.Traceparent]["_line"], "invalid", "invalid trace metadata gets one fixed diagnostic")
		}
		for _, r := range results[:len(results)-2] {
			assert.NotContains(t, logged[r.Traceparent]["_line"], "invalid", "valid or absent trace metadata gets no diagnostic")
		}

		for _, secret := range []string{text, "tr4cestate-value", "bagg4ge-value", "garbage-trace-meta-Xy7", "Zk3"} {
			assert.NotContains(t, stderr, secret, "stderr must not carry %q", secret)
		}
		assertNoSecrets(t, "stderr", stderr)
	})
}

// A background call writes one line too: its task's run writes it when
// the work ends, naming the tool the task runs; an admission refused
// before any task existed writes it at once, naming the tool called.
func TestABackgroundCallLogsOneLineWhetherAdmittedOrRefused(t *testing.T) {
	t.Parallel()
	env, _, _ := taskEnv(t)
	r := startRaw(t, modern, env)
	tag := newTag(t)

	refused := r.request("tools/call", withMeta(map[string]any{"name": "invoke_action_background",
		"arguments": map[string]any{"action": "no_such_action", "params": map[string]any{fake.Marker: "tag:" + tag}}}, tasksMeta()))
	require.Nil(t, refused.Error, "%s", refused)
	assert.NotContains(t, string(refused.Result), `"taskId"`, "refused: no task")
	got := awaitCallLines(t, r, 1)
	assert.Equal(t, "invoke_action_background", got[0]["tool"])
	assert.Equal(t, "failed", got[0]["outcome"])
	assert.Equal(t, "unknown_action", got[0]["kind"])

	h := decodeTask(t, startTask(r, "download_file_stream", map[string]any{"file": fake.FileHello}, tag, ""))
	require.Equal(t, "completed", awaitTask(t, r, h.TaskID).Status)
	got = awaitCallLines(t, r, 2)
	assert.Equal(t, "invoke_action", got[1]["tool"], "the task's run names the tool it runs")
	assert.Equal(t, "success", got[1]["outcome"])
	require.NoError(t, r.stdin.Close())
	require.Zero(t, r.waitExit())
	_, n := callLines(r.stderr.String())
	assert.Equal(t, 2, n, "one line per call, none for the admission of the one that ran")
}

// awaitCallLines waits until the binary's stderr holds n call lines (the
// pipe is read as it comes) and returns them in order.
func awaitCallLines(t *testing.T, r *rawServer, n int) []map[string]string {
	t.Helper()
	deadline := time.Now().Add(safety)
	for {
		var out []map[string]string
		for _, l := range lines(r.stderr.String()) {
			if strings.Contains(l, " tool=") {
				fields := map[string]string{}
				for _, m := range logField.FindAllStringSubmatch(l, -1) {
					fields[m[1]] = m[2]
				}
				out = append(out, fields)
			}
		}
		if len(out) >= n {
			return out
		}
		require.True(t, time.Now().Before(deadline), "fewer than %d call lines:\n%s", n, r.stderr)
		time.Sleep(20 * time.Millisecond)
	}
}
