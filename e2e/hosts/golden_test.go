//go:build hosts

package hosts

// Golden files under testdata/: what each host handed the model, what it
// declared and which calls reached the server, normalised so that only a
// change in the server or the host shows as a diff (go test -tags hosts
// ./e2e/hosts -update, through make test-hosts UPDATE=1, rewrites them).

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// golden compares got with testdata/name, or writes it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "no golden file %s: run make test-hosts UPDATE=1 and review the diff", path)
	assert.Equal(t, string(want), got, "%s changed (a server or host change): if it is meant, run make test-hosts UPDATE=1 and review the diff", path)
}

// normalisers replace what changes from run to run. Order matters: the
// longer hex runs go first.
var normalisers = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)`), "<time>"},
	// Whether the event connection's first heartbeat came before a
	// result was written is a race, so the field goes altogether.
	{regexp.MustCompile(`,\\*"last_heartbeat\\*":\\*"<time>\\*"`), ""},
	{regexp.MustCompile(`(snowluma://[a-z/]*events/)[A-Za-z0-9_-]+`), "$1<subscription>"},
	{regexp.MustCompile(`\b[0-9a-f]{32}\b`), "<trace-id>"},
	{regexp.MustCompile(`_\d{13}_\d+\b`), "_<ms>_<n>"},
	{regexp.MustCompile(`\b[0-9a-f]{16}\b`), "<span-id>"},
	{regexp.MustCompile(`(127\.0\.0\.1|localhost):\d+`), "$1:<port>"},
	{regexp.MustCompile(`/scene-\d+`), "/scene-<n>"},
	{regexp.MustCompile(`(Wall time: )[0-9.]+( seconds)`), "${1}<wall>$2"},
	{regexp.MustCompile(`((?:\\*")(?:elapsed_ms|duration_ms|took_ms|latency_ms|uptime_s|uptime_ms)(?:\\*")\s*:\s*)\d+(\.\d+)?`), "${1}<n>"},
	{regexp.MustCompile(`((?:\\*")(?:pid|time|self_started_at|message_id|cursor|next_cursor|oldest_cursor|real_id)(?:\\*")\s*:\s*)-?\d+`), "${1}<n>"},
	{regexp.MustCompile(`(/tmp|/var/folders)/[^\s"\\]+`), "<tmp>"},
}

// normalise applies normalisers to a result as the model saw it.
func normalise(s string) string {
	for _, n := range normalisers {
		s = n.re.ReplaceAllString(s, n.with)
	}
	if !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	return s
}

// declared is what the host sent when it connected: each session's first
// message (initialize, or server/discover), the protocol version, the
// capabilities and clientInfo, in order.
func declared(t *testing.T, msgs []teeMessage) string {
	t.Helper()
	var out []json.RawMessage
	for _, m := range msgs {
		if !m.FromHost || (m.Msg.Method != "initialize" && m.Msg.Method != "server/discover") {
			continue
		}
		var p map[string]json.RawMessage
		_ = json.Unmarshal(m.Msg.Params, &p)
		entry := map[string]any{"method": m.Msg.Method}
		for _, k := range []string{"protocolVersion", "capabilities", "clientInfo"} {
			if v, ok := p[k]; ok {
				entry[k] = v
			}
		}
		if meta, ok := p["_meta"]; ok {
			entry["_meta"] = meta
		}
		b, err := json.Marshal(entry)
		require.NoError(t, err)
		out = append(out, b)
	}
	require.NotEmpty(t, out, "the host never connected to the server")
	return pretty(t, out)
}

// callsMade is every tools/call and resources/read the host made: the
// tool and its arguments as they reached the server.
func callsMade(t *testing.T, msgs []teeMessage) string {
	t.Helper()
	var out []json.RawMessage
	for _, m := range msgs {
		if !m.FromHost || (m.Msg.Method != "tools/call" && m.Msg.Method != "resources/read") {
			continue
		}
		var p map[string]json.RawMessage
		_ = json.Unmarshal(m.Msg.Params, &p)
		entry := map[string]json.RawMessage{"method": mustJSON(m.Msg.Method)}
		for _, k := range []string{"name", "arguments", "uri"} {
			if v, ok := p[k]; ok {
				entry[k] = v
			}
		}
		b, _ := json.Marshal(entry)
		out = append(out, b)
	}
	return normalise(pretty(t, out))
}

// pretty indents a list of JSON values, with sorted keys.
func pretty(t *testing.T, items []json.RawMessage) string {
	t.Helper()
	var v []any
	for _, it := range items {
		var x any
		require.NoError(t, json.Unmarshal(it, &x))
		v = append(v, x)
	}
	b, err := json.MarshalIndent(v, "", "  ")
	require.NoError(t, err)
	return string(b) + "\n"
}

func mustJSON(v any) json.RawMessage { b, _ := json.Marshal(v); return b }

// serverSaw is the client field of the server's get_runtime_info answer:
// what the server read from the host's declaration and what it therefore
// offers (docs/platforms.md's host table is generated from it and from
// connect.json, by cmd/docgen).
func serverSaw(t *testing.T, msgs []teeMessage) string {
	t.Helper()
	var callID string
	for _, m := range msgs {
		if m.FromHost && m.Msg.Method == "tools/call" && callID == "" {
			var p struct {
				Name string `json:"name"`
			}
			_ = json.Unmarshal(m.Msg.Params, &p)
			if p.Name == "get_runtime_info" {
				callID = string(m.Msg.ID)
			}
			continue
		}
		if callID == "" || m.FromHost || string(m.Msg.ID) != callID {
			continue
		}
		var res struct {
			StructuredContent struct {
				Result struct {
					Client json.RawMessage `json:"client"`
				} `json:"result"`
			} `json:"structuredContent"`
		}
		require.NoError(t, json.Unmarshal(m.Msg.Result, &res))
		require.NotEmpty(t, res.StructuredContent.Result.Client, "get_runtime_info's result has no client field")
		return pretty(t, []json.RawMessage{res.StructuredContent.Result.Client})
	}
	require.Fail(t, "no answer to get_runtime_info in the server's output")
	return ""
}
