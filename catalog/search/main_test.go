package search

import (
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
