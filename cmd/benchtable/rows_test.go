package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// module is the import path the rows' packages live under.
const module = "github.com/snowluma/snowluma-mcp"

// TestThePerformanceDocShowsEveryRow: docs/performance.md's table has one
// line per row, in the table's order, each with the row's description and
// its command as make bench prints them, so a row changed here without a
// fresh run pasted there fails.
func TestThePerformanceDocShowsEveryRow(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "performance.md"))
	require.NoError(t, err)
	var got []string
	for _, l := range strings.Split(string(doc), "\n") {
		if strings.HasPrefix(l, "| ") && !strings.HasPrefix(l, "| what |") {
			got = append(got, l)
		}
	}
	require.Len(t, got, len(rows), "docs/performance.md has a different number of rows")
	for i, r := range rows {
		assert.True(t, strings.HasPrefix(got[i], "| "+cell(r.what)+" | "), "row %d is %q, want %q first", i, got[i], r.what)
		assert.True(t, strings.HasSuffix(got[i], " | `"+cell("go "+shellQuote(r.args))+"` |"), "row %d's command: %q", i, got[i])
	}
}
