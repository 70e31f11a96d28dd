package search

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/catalog"
)

// load is the embedded catalog's index, as the server uses it.
func load(t testing.TB) *Index {
	t.Helper()
	cat, err := catalog.Load()
	require.NoError(t, err)
	return For(cat)
}

// orderKey is the catalog's order of names (catalog's build.go).
func orderKey(name string) string { return strings.ReplaceAll(name, "_", " ") }
