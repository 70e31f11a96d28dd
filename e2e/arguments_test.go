package e2e

// Tool arguments at their edges, over the wire: what JSON Schema accepts is
// decoded, refusals read plainly, and a huge argument is never echoed back
// whole.

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestArgumentEdges(t *testing.T) {
	t.Parallel()
	huge := strings.Repeat("名", 2<<20) // 6 MiB of UTF-8
	tests := []struct {
		name    string
		tool    string
		args    map[string]any
		isError bool
		want    string // in the text (the message for errors)
	}{
		{"takes an integral float as an integer", "list_actions", map[string]any{"limit": 5.0}, false, `"count":5`},
		{"takes an exponent as an integer", "list_actions", map[string]any{"limit": 1, "offset": 1.76e2}, false, `"count":1`},
		{"refuses null for an integer in plain words", "list_actions", map[string]any{"limit": nil}, true, "arguments.limit: want integer, got null"},
		{"refuses a fraction for an integer", "list_actions", map[string]any{"limit": 5.5}, true, "arguments.limit: want integer, got number"},
		{"names the allowed values of an enum", "search_actions", map[string]any{"query": "x", "match": "fuzzy"}, true, "must be one of [substring keywords]"},
		{"names the argument a slip meant and the one left out", "get_action", map[string]any{"nme": "get_msg"}, true,
			`arguments: unexpected additional properties ["nme"] (did you mean name in place of "nme"?); required: missing properties: ["name"]`},
		{"names every problem of a search in one refusal", "search_actions", map[string]any{"querry": "禁言", "limit": 0}, true,
			`unexpected additional properties ["querry"] (did you mean query in place of "querry"?); required: missing properties: ["query"]; arguments.limit: minimum violated`},
		{"caps a huge unknown action name", "get_action", map[string]any{"name": huge}, true, "(6291456 bytes)"},
		{"caps a huge unknown category", "list_actions", map[string]any{"category": huge}, true, "(6291456 bytes)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				s := start(t, version, docsEnv())
				r := s.call(t, tt.tool, tt.args, nil)
				require.Equal(t, tt.isError, r.IsError, r.Text)
				assert.Contains(t, r.Text, tt.want)
				assert.NotContains(t, r.Text, "reflect.Value")
				if tt.isError {
					assert.Equal(t, "failed", r.Diag.Outcome)
					assert.Less(t, len(r.Text), 1024, "an error message stays short, whatever the argument")
					assert.Less(t, len(r.Diag.Message), 1024)
				}
			})
		})
	}
}
