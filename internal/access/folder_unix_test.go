//go:build !windows

package access_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/access"
	"github.com/snowluma/snowluma-mcp/internal/access/accesstest"
)

// TestSecureNeverFollowsALink: a link named as the folder is refused, and
// the empty exposed folder it leads to is left as it was. (On Windows the
// handle is opened on the reparse point itself and refused by its
// attributes; Wine, which the Windows tests run under, shows a link as the
// folder it leads to, so that side cannot be shown there.)
func TestSecureNeverFollowsALink(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "tasks")
	target := path + "-target"
	require.NoError(t, os.Mkdir(target, 0o700))
	accesstest.ExposeDir(t, target)
	require.NoError(t, os.Symlink(target, path))
	_, err := tasks.Look(path)
	require.Error(t, err)
	fixed, err := tasks.Secure(path)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "is a link")
	assert.False(t, fixed)
	accesstest.AssertExposedDir(t, target)
}

// TestSecureRefusesAFolderSwappedWhileItIsMadePrivate: a folder put in
// the judged one's place (moved away by another account that can write
// the parent) is not the folder that was made private: refused, and the
// judged folder is left as it was found.
func TestSecureRefusesAFolderSwappedWhileItIsMadePrivate(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "tasks")
	require.NoError(t, os.Mkdir(path, 0o700))
	accesstest.ExposeDir(t, path)
	racing := access.WithBeforeFix(tasks, func(dir string) {
		require.NoError(t, os.Rename(dir, dir+"-judged"))
		require.NoError(t, os.Mkdir(dir, 0o700))
	})
	fixed, err := racing.Secure(path)
	require.Error(t, err)
	assert.False(t, fixed)
	assert.Contains(t, err.Error(), "open to other users")
	accesstest.AssertExposedDir(t, path+"-judged")
}

// TestDirRefusesALinkAsLookDoes: a store given a link to a private folder
// refuses it in Look's words, so that what `check` and setting_problems
// report as turned off (the send budgets, the task store) is off. (Wine
// shows a link as the folder it leads to; see above.)
func TestDirRefusesALinkAsLookDoes(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "state")
	target := path + "-target"
	require.NoError(t, os.Mkdir(target, 0o700))
	require.NoError(t, os.Symlink(target, path))
	_, looked := tasks.Look(path)
	require.Error(t, looked)
	err := tasks.Dir(path)
	require.Error(t, err)
	assert.Equal(t, looked.Error(), err.Error())
	assert.Contains(t, err.Error(), "is a link, not a directory: name the directory itself")
}
