package search

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSearchOnAFile measures the search on any labelled file in the
// evaluation set's format (EVAL_FILE, a path), for a round of tuning on a
// probe set of its own without printing the held-out half's figures;
// EVAL_SHOW=1 logs each miss. A relative path is read from this package's
// directory. A held-out file is refused: its misses are never printed.
func TestSearchOnAFile(t *testing.T) {
	path := os.Getenv("EVAL_FILE")
	if path == "" {
		t.Skip("EVAL_FILE names no file to measure")
	}
	require.NotContains(t, filepath.Base(path), "heldout", "a held-out half is measured only in aggregate, by TestSearchGeneralises")
	abs, err := filepath.Abs(path)
	require.NoError(t, err)
	dir, err := filepath.Abs(evalDir)
	require.NoError(t, err)
	rel, err := filepath.Rel(dir, abs)
	require.NoError(t, err)
	f := measure(t, load(t), readLines[labelled](t, rel), os.Getenv("EVAL_SHOW") != "")
	t.Logf("%s: %v", path, f)
}
