//go:build !windows

package accesstest

import (
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// NotAFile puts at path what a stored file must never be and an open may
// wait on: a named pipe, whose open for reading blocks until a writer
// comes.
func NotAFile(t testing.TB, path string) {
	t.Helper()
	require.NoError(t, syscall.Mkfifo(path, 0o600))
}
