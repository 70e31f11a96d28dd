package accesstest

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// NotAFile puts at path what a stored file must never be. A Windows
// folder cannot hold a named pipe (pipes live under \\.\pipe\ and their
// open never waits), so what stands in a file's place there is a
// directory, which an open with backup semantics admits.
func NotAFile(t testing.TB, path string) {
	t.Helper()
	require.NoError(t, os.Mkdir(path, 0o700))
}
