package stages

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestThePipelineDiagramIsTheDefaultOrder holds the one drawing of the
// stages, in docs/pipeline.md, to Default: a line of the drawing that
// starts in the first column names a stage, in order, and every stage has
// its line.
func TestThePipelineDiagramIsTheDefaultOrder(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "docs", "pipeline.md"))
	require.NoError(t, err)
	doc := string(b)
	start := strings.Index(doc, "```\n tools/call\n")
	require.GreaterOrEqual(t, start, 0, "docs/pipeline.md has no diagram starting at tools/call")
	drawing := doc[start+4:]
	drawing = drawing[:strings.Index(drawing, "```")]

	var drawn []string
	for _, l := range strings.Split(drawing, "\n") {
		if f := strings.Fields(l); len(f) > 1 && strings.HasPrefix(l, " ") && !strings.HasPrefix(l, "  ") && f[0] != "tools/call" && f[0] != "handler" {
			drawn = append(drawn, f[0])
		}
	}
	var names []string
	for _, p := range Places() {
		names = append(names, p.Name)
	}
	assert.Equal(t, names, drawn)
}
