//go:build !windows

package accesstest

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// What the refusal of an exposed file or directory says on this platform.
var (
	FileWords = []string{"mode 0644", "open to other users", "chmod 600"}
	DirWords  = []string{"mode 0755", "open to other users", "chmod 700", "does not exist yet"}
)

// ExposeFile lets other users read path.
func ExposeFile(t testing.TB, path string) { t.Helper(); require.NoError(t, os.Chmod(path, 0o644)) }

// ExposeDir lets other users enter dir.
func ExposeDir(t testing.TB, dir string) { t.Helper(); require.NoError(t, os.Chmod(dir, 0o755)) }

// AssertPrivateDir: dir has mode 0700.
func AssertPrivateDir(t testing.TB, dir string) {
	t.Helper()
	st, err := os.Stat(dir)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), st.Mode().Perm(), dir)
}

// AssertPrivateFile: path has mode 0600.
func AssertPrivateFile(t testing.TB, path string) {
	t.Helper()
	st, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm(), path)
}

// AssertExposedDir: dir still lets other users in (a refusal changed
// nothing).
func AssertExposedDir(t testing.TB, dir string) {
	t.Helper()
	st, err := os.Stat(dir)
	require.NoError(t, err)
	assert.NotZero(t, st.Mode().Perm()&0o077, dir)
}
