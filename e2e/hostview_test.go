package e2e

// What a host hands its model of a failed call (issue 50, docs/platforms.md
// "What each host does to a result"): Claude Code gives the model the
// structuredContent of a result without isError and the text of one with
// it; Codex gives structuredContent and drops isError; Gemini CLI gives the
// text of a success and the whole raw result of an error. So a failure's
// outcome, kind, message and next step must be readable both in the
// structured result and in the text, whichever way the host chose.

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAFailureReadsTheSameThroughEveryHost(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		tool    string
		args    map[string]any
		isError bool
		kind    string
	}{
		{"a schema refusal", "get_action", map[string]any{"nme": "get_msg"}, true, "invalid_argument"},
		{"an unknown action", "query_action", map[string]any{"action": "get_mesage"}, true, "unknown_action"},
		{"a write given to the read tool", "query_action", map[string]any{"action": "send_group_msg", "params": map[string]any{"group_id": 1, "message": "x"}}, true, "wrong_tool"},
		{"SnowLuma's own failure", "query_action", map[string]any{"action": "get_msg", "params": map[string]any{"message_id": 987654321}}, false, "business_failure"},
	}
	forEachVersion(t, func(t *testing.T, version string) {
		s := start(t, version, readEnv())
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				r := s.call(t, tt.tool, tt.args, nil)
				require.Equal(t, tt.isError, r.IsError, r.Text)
				d := r.Diag
				assert.Equal(t, tt.kind, d.Kind)
				assert.Contains(t, []string{"failed", "unknown"}, d.Outcome, "Codex drops isError: the outcome says it failed")
				require.NotEmpty(t, d.Message)
				require.NotEmpty(t, d.NextStep)

				// Codex, and Claude Code for a result without isError:
				// the structuredContent, as JSON text.
				structured := string(mustJSON(t, r.Raw.StructuredContent))
				for _, want := range []string{`"outcome":"` + d.Outcome + `"`, `"kind":"` + d.Kind + `"`, `"message":`, `"next_step":`} {
					assert.Contains(t, structured, want, "the structured result names it")
				}
				// Claude Code for an error, Gemini CLI for a success:
				// the text blocks.
				var text []string
				for _, c := range r.Raw.Content {
					if tc, ok := c.(*mcp.TextContent); ok {
						text = append(text, tc.Text)
					}
				}
				all := strings.Join(text, "\n")
				assert.Contains(t, all, d.Message)
				assert.Contains(t, all, "outcome: "+d.Outcome)
				assert.Contains(t, all, d.Kind)
				assert.Contains(t, all, d.NextStep)
				// Gemini CLI for an error: the whole raw result, escaped
				// again inside its own JSON; it still parses back.
				raw, err := json.Marshal(r.Raw)
				require.NoError(t, err)
				wrapped, err := json.Marshal(map[string]string{"error": string(raw)})
				require.NoError(t, err)
				var back map[string]string
				require.NoError(t, json.Unmarshal(wrapped, &back))
				assert.Contains(t, back["error"], `"next_step"`)
			})
		}
	})
}
