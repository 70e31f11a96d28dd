//go:build !windows

package task

import (
	"fmt"
	"io/fs"
	"os"
)

// makePrivateDir creates dir (and missing parents) with mode 0700.
func makePrivateDir(dir string) error { return os.MkdirAll(dir, dirPerm) }

// createTemp creates a new file in dir, named prefix and a random suffix,
// with mode 0600.
func createTemp(dir, prefix string) (*os.File, error) { return os.CreateTemp(dir, prefix+"*") }

// prepareLease has nothing to do: the lock creates the file with mode 0600.
func prepareLease(string) error { return nil }

// dirIsPrivate refuses a directory with any group or other bit.
func dirIsPrivate(dir string, st fs.FileInfo) error {
	if perm := st.Mode().Perm(); perm&0o077 != 0 {
		return fmt.Errorf("%s has mode %04o, open to other users; task results can hold private data: run chmod 700 on it or choose another directory", dir, perm)
	}
	return nil
}

// fileIsPrivate refuses a file with any group or other bit.
func fileIsPrivate(path string, info fs.FileInfo) error {
	if perm := info.Mode().Perm(); perm&0o077 != 0 {
		return fmt.Errorf("%s has mode %04o, open to other users: run chmod 600 on it", path, perm)
	}
	return nil
}
