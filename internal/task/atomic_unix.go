//go:build !windows

package task

import (
	"os"
	"path/filepath"
)

// replace renames tmp over dst (rename(2) replaces atomically) and then
// syncs the directory, so that the rename itself survives a crash.
func replace(tmp, dst string) error {
	if err := os.Rename(tmp, dst); err != nil {
		return err
	}
	return syncDir(filepath.Dir(dst))
}

// syncDir makes the directory's entries (a rename, a new file) durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
