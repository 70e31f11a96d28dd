package handlers

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// TestAPagedSearchNoteNamesThePagesFirst: the note of a paged search
// speaks of the actions on the page it returns, never of the full list's
// first, which another page holds.
func TestAPagedSearchNoteNamesThePagesFirst(t *testing.T) {
	t.Parallel()
	tool := SearchActions(deps(t, config.ModeDocs))
	full := pagedSearch(t, tool, `{"query":"禁言"}`)
	all := entryNames(full["actions"])
	require.Greater(t, len(all), 3, "the query has more hits than one page")
	tests := []struct {
		name, args string
		first      string // the page's first action, "" for an empty page
	}{
		{"the second page", `{"query":"禁言","limit":2,"offset":2}`, all[2]},
		{"the first page", `{"query":"禁言","limit":2}`, all[0]},
		{"past the end", `{"query":"禁言","limit":2,"offset":500}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m := pagedSearch(t, tool, tt.args)
			note, _ := m["note"].(string)
			require.NotEmpty(t, note, "a ranked list beside the hits is explained")
			page := entryNames(m["actions"])
			if tt.first == "" {
				assert.Empty(t, page)
				assert.Contains(t, note, "This page holds none of the actions")
				return
			}
			require.NotEmpty(t, page)
			assert.Equal(t, tt.first, page[0])
			assert.Contains(t, note, "The first of actions on this page, "+page[0]+",")
			if page[0] != all[0] {
				assert.NotContains(t, note, all[0]+", is not", "the full list's first is not on this page")
			}
		})
	}
}

// pagedSearch runs search_actions with the arguments given and decodes
// the result as a model reads it.
func pagedSearch(t *testing.T, tool *pipeline.Tool, args string) map[string]any {
	t.Helper()
	v, err := call(t, tool, args, nil)
	require.NoError(t, err)
	raw, err := json.Marshal(v)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(raw, &m))
	return m
}
