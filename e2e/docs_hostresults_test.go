package e2e

// docs/platforms.md's table of what each host does to a result (issue 50,
// item 7) is held by the host suite's own captures: each claim a row makes
// is checked against the golden file of the step that shows it, so a host
// that changes its ways (make test-hosts UPDATE=1) fails here until the
// table says what it does now, in both languages.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hostGolden is one step's capture: what the host handed the model.
func hostGolden(t *testing.T, host, step string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("hosts", "testdata", host, step+".txt"))
	require.NoError(t, err)
	return string(b)
}

// tableRow is the row of a page's result table that starts with host.
func tableRow(t *testing.T, page, host string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "docs", page))
	require.NoError(t, err)
	for _, line := range strings.Split(string(b), "\n") {
		// The host table's rows name a version ("| Codex 0.171.0 |"); the
		// result table's name the host alone.
		if strings.HasPrefix(line, "| "+host+" |") {
			return line
		}
	}
	t.Fatalf("%s has no result-table row for %s", page, host)
	return ""
}

// asStructured reports whether s is a tool result's structuredContent as
// JSON text: a result and its diagnostics.
func asStructured(s string) bool {
	var v struct {
		Result      json.RawMessage `json:"result"`
		Diagnostics *struct {
			Outcome string `json:"outcome"`
		} `json:"diagnostics"`
	}
	return json.Unmarshal([]byte(strings.TrimSpace(s)), &v) == nil && v.Diagnostics != nil && v.Diagnostics.Outcome != ""
}

func TestTheResultTableIsWhatTheHostsDo(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		host   string // the row's first cell
		dir    string // the suite's capture folder
		tokens []string
		holds  func(t *testing.T, ok, failed func() string)
	}{
		{"claude code: structured content on success, the text alone on failure, tools behind ToolSearch",
			"Claude Code", "claude-code", []string{"`structuredContent`", "`ToolSearch`"},
			func(t *testing.T, ok, failed func() string) {
				var res struct {
					Content string `json:"content"`
				}
				require.NoError(t, json.Unmarshal([]byte(ok()), &res))
				assert.True(t, asStructured(res.Content), "a success reaches the model as structuredContent")
				require.NoError(t, json.Unmarshal([]byte(failed()), &res))
				assert.False(t, asStructured(res.Content), "a failure reaches the model as its text block")
				assert.Contains(t, res.Content, "\noutcome: failed")
				assert.Contains(t, hostGolden(t, "claude-code", "00-tool-search"), "tool_reference")
			}},
		{"gemini: success wrapped as untrusted, failure as the whole raw result escaped",
			"Gemini CLI", "gemini", []string{"`<untrusted_context>`", "`{\"error\": …}`"},
			func(t *testing.T, ok, failed func() string) {
				assert.Contains(t, ok(), `\u003cuntrusted_context\u003e`)
				f := failed()
				assert.Contains(t, f, `"error": "MCP tool`)
				assert.Contains(t, f, `\"structuredContent\"`, "the raw result, escaped, inside the error")
			}},
		{"codex: wall time then structured content, the error flag dropped",
			"Codex", "codex", []string{"`Wall time: … Output:`", "`structuredContent`", "`diagnostics`"},
			func(t *testing.T, ok, failed func() string) {
				for _, s := range []string{ok(), failed()} {
					head, body, found := strings.Cut(s, "Output:\n")
					require.True(t, found)
					assert.True(t, strings.HasPrefix(head, "Wall time: "))
					assert.True(t, asStructured(body), "structuredContent follows")
					assert.NotContains(t, s, "isError")
				}
				assert.Contains(t, failed(), `"outcome":"failed"`)
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			for _, page := range []string{"platforms.md", "zh-CN/platforms.md"} {
				row := tableRow(t, page, tt.host)
				for _, tok := range tt.tokens {
					assert.Contains(t, row, tok, "%s's row for %s", page, tt.host)
				}
			}
			tt.holds(t, func() string { return hostGolden(t, tt.dir, "06-read") },
				func() string { return hostGolden(t, tt.dir, "07-param-slip") })
		})
	}
}
