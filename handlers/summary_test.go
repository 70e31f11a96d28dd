package handlers

import (
	"maps"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/hub"
)

// TestEveryToolHasASummary: the docs' tool tables take each tool's line
// from Summaries, so every tool All can return has one in both
// languages, and no line is left for a tool that is gone.
func TestEveryToolHasASummary(t *testing.T) {
	t.Parallel()
	d := deps(t, config.ModeWrite)
	d.Events = hub.New(hub.Options{})
	var names []string
	for _, tl := range All(d) {
		names = append(names, tl.Name)
		s := Summaries()[tl.Name]
		assert.NotEmpty(t, s.En, "%s: an English line", tl.Name)
		assert.NotEmpty(t, s.Zh, "%s: a Chinese line", tl.Name)
	}
	assert.ElementsMatch(t, names, slices.Collect(maps.Keys(Summaries())))
}
