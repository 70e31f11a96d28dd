//go:build !windows

package task

import (
	"errors"
	"io/fs"
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

// publish gives tmp the name dst unless dst exists (a hard link fails
// then), so of two servers writing it at once one wins whole; placed is
// false when dst was already there. tmp is gone either way.
func publish(tmp, dst string) (placed bool, err error) {
	err = os.Link(tmp, dst)
	_ = os.Remove(tmp)
	if errors.Is(err, fs.ErrExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return true, syncDir(filepath.Dir(dst))
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
