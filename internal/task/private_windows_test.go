package task

// Windows' own cases of the task directory's privacy (the helpers and
// what Wine can show are described in package accesstest).

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/access/accesstest"
)

// TestPrivateDirRefusesAnInheritedOpenList: a directory made by hand
// under a folder that lets Users read (as C:\ does) is refused before
// anything is written into it, and the message says how to fix it.
func TestPrivateDirRefusesAnInheritedOpenList(t *testing.T) {
	t.Parallel()
	parent := t.TempDir()
	accesstest.ExposeDir(t, parent)
	dir := filepath.Join(parent, "tasks")
	require.NoError(t, os.Mkdir(dir, 0o700))
	_, _, err := Open(dir, testScope, nil, nil)
	require.Error(t, err)
	for _, w := range accesstest.DirWords {
		assert.Contains(t, err.Error(), w)
	}
	left, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, left, "nothing is written into a refused directory")
}

// TestPrivateDirBlocksAnOpenParent: a task directory the server creates
// under that same open folder keeps its own list and is accepted.
func TestPrivateDirBlocksAnOpenParent(t *testing.T) {
	t.Parallel()
	parent := t.TempDir()
	accesstest.ExposeDir(t, parent)
	dir := filepath.Join(parent, "tasks")
	s, _, err := Open(dir, testScope, nil, nil)
	require.NoError(t, err)
	defer s.Close()
	// Windows would also report the list protected (SE_DACL_PROTECTED);
	// Wine keeps no such flag, so only the effect is checked.
	accesstest.AssertPrivateDir(t, dir)
}
