package task

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Private permissions: task results can hold private account data.
const (
	dirPerm  = 0o700
	filePerm = 0o600
)

// tempPrefix starts the name of a file being written; a crash can leave
// one behind, and it was never part of the store.
const tempPrefix = ".tmp-"

// writeAtomic replaces dir/name with data so that a crash at any point
// leaves either the old file or the new one, whole: a temporary file in
// the same directory, fsync, rename, then fsync of the directory so the
// rename itself is durable.
func writeAtomic(dir, name string, data []byte) (err error) {
	f, err := os.CreateTemp(dir, tempPrefix+name+"-*") // mode 0600
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			_ = os.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err != nil {
		_ = f.Close()
		return err
	}
	if err = f.Sync(); err != nil {
		_ = f.Close()
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp, filepath.Join(dir, name)); err != nil {
		return err
	}
	return syncDir(dir)
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

// privateDir makes dir (mode 0700) if it does not exist and refuses one
// that others can read or enter.
func privateDir(dir string) error {
	if err := os.MkdirAll(dir, dirPerm); err != nil {
		return err
	}
	st, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	if perm := st.Mode().Perm(); perm&0o077 != 0 {
		return fmt.Errorf("%s has mode %04o, open to other users; task results can hold private data: run chmod 700 on it or choose another directory", dir, perm)
	}
	return nil
}

// privateFile refuses a store file that others could read or change.
func privateFile(path string, info fs.FileInfo) error {
	if !info.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", path)
	}
	if perm := info.Mode().Perm(); perm&0o077 != 0 {
		return fmt.Errorf("%s has mode %04o, open to other users: run chmod 600 on it", path, perm)
	}
	return nil
}

// ErrBusy is the refusal of a directory another process holds.
var ErrBusy = errors.New("task directory in use")

// lease takes the directory's exclusive runtime lease: an flock on
// dir/lease, held until the file is closed (or the process dies, when the
// kernel releases it, so a crash never leaves a stale lock).
func lease(dir string) (*os.File, error) {
	path := filepath.Join(dir, "lease")
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, filePerm)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		holder := ""
		if b, rerr := os.ReadFile(path); rerr == nil && len(b) > 0 && len(b) < 32 {
			holder = " (pid " + strings.TrimSpace(string(b)) + ")"
		}
		_ = f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%w: another snowluma-mcp process%s is using %s; each server needs its own SNOWLUMA_MCP_TASK_DIR (or stop the other one first)", ErrBusy, holder, dir)
		}
		return nil, fmt.Errorf("cannot lock %s: %w", path, err)
	}
	if err := f.Truncate(0); err == nil {
		_, _ = fmt.Fprintf(f, "%d\n", os.Getpid())
	}
	return f, nil
}
