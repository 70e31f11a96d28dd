package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeCapture writes one host's capture as make test-hosts does.
func writeCapture(t *testing.T, root, dir, connect, client string) {
	t.Helper()
	d := filepath.Join(root, "e2e", "hosts", "testdata", dir)
	require.NoError(t, os.MkdirAll(d, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(d, "connect.json"), []byte(connect), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(d, "client.json"), []byte(client), 0o644))
}

// TestTheHostTableFollowsTheCaptures: each row is read from the host
// suite's capture, so a host that declares something new changes the page.
func TestTheHostTableFollowsTheCaptures(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	off := `{"on":false,"line":""}`
	writeCapture(t, root, "claude-code",
		`[{"method":"server/discover","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"version":"9.9.9"}}}]`,
		`[{"declared":["elicitation.form","extensions/io.modelcontextprotocol/tasks","roots"],"background_transfers":{"on":true},"preview_panel":`+off+`,"ask_for_missing_params":{"on":true}}]`)
	writeCapture(t, root, "gemini",
		`[{"method":"initialize","protocolVersion":"2025-06-18","clientInfo":{"version":"1.2.3"}}]`,
		`[{"declared":[],"background_transfers":`+off+`,"preview_panel":`+off+`,"ask_for_missing_params":`+off+`}]`)
	writeCapture(t, root, "codex",
		`[{"method":"initialize","protocolVersion":"2025-06-18","clientInfo":{"version":"0.1.0"}}]`,
		`[{"declared":["elicitation.form","elicitation.url"],"background_transfers":`+off+`,"preview_panel":`+off+`,"ask_for_missing_params":{"on":true}}]`)

	tests := []struct {
		name string
		lang Lang
		want []string
	}{
		{"English", English, []string{
			"| Claude Code 9.9.9 | 2026-07-28 | extension `io.modelcontextprotocol/tasks`, `roots`, `elicitation` form | on | off: previews are text | on |",
			"| Gemini CLI 1.2.3 | 2025-06-18 | nothing | off: in the foreground through `query_action`/`invoke_action` | off: previews are text | off: the agent asks in chat |",
			"| Codex 0.1.0 | 2025-06-18 | `elicitation` form and url |",
		}},
		{"Chinese", Chinese, []string{
			"| Claude Code 9.9.9 | 2026-07-28 | 扩展 `io.modelcontextprotocol/tasks`，`roots`，`elicitation` 的 form | 可用 |",
			"| Codex 0.1.0 | 2025-06-18 | `elicitation` 的 form 和 url |",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := hostTable(root, tt.lang)
			require.NoError(t, err)
			for _, w := range tt.want {
				assert.Contains(t, got, w)
			}
		})
	}
}

// TestAMissingCaptureIsAnError: the table is never written from nothing.
func TestAMissingCaptureIsAnError(t *testing.T) {
	t.Parallel()
	_, err := hostTable(t.TempDir(), English)
	require.Error(t, err)
	assert.True(t, strings.Contains(err.Error(), "connect.json"), err.Error())
}
