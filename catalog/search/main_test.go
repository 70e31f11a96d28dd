package search

import (
	"context"
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

// suggested is the names of what x suggests for query, of which there is
// at least one.
func suggested(t *testing.T, x *Index, query string) []string {
	t.Helper()
	got := names(x.Suggest(context.Background(), query, catalog.Filter{}))
	require.NotEmpty(t, got, query)
	return got
}
