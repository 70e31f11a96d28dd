//go:build !windows

package task

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// What the refusals of an exposed file or directory say on this platform.
var (
	exposedFileWords = []string{"mode 0644", "chmod 600"}
	exposedDirWords  = []string{"mode 0755", "chmod 700"}
)

func exposeFile(t *testing.T, path string) { require.NoError(t, os.Chmod(path, 0o644)) }

func exposeDir(t *testing.T, dir string) { require.NoError(t, os.Chmod(dir, 0o755)) }

func assertPrivateDir(t *testing.T, dir string) {
	st, err := os.Stat(dir)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), st.Mode().Perm(), dir)
}

func assertPrivateFile(t *testing.T, path string) {
	st, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm(), path)
}
