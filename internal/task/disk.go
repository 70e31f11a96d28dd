package task

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gofrs/flock"
)

// Private permissions: task results can hold private account data. On
// Windows, where Go maps only the read-only bit to a mode, the same promise
// is kept with an owner-only access list (private_windows.go).
const (
	dirPerm  = 0o700
	filePerm = 0o600
)

// tempPrefix starts the name of a file being written; a crash can leave
// one behind, and it was never part of the store.
const tempPrefix = ".tmp-"

// writeAtomic replaces dir/name with data so that a crash at any point
// leaves either the old file or the new one, whole: a temporary file in
// the same directory, fsync, then a rename over the old file made durable
// as the platform allows (replace, in atomic_*.go).
func writeAtomic(dir, name string, data []byte) (err error) {
	f, err := createTemp(dir, tempPrefix+name+"-")
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
	return replace(tmp, filepath.Join(dir, name))
}

// privateDir makes dir private if it does not exist and refuses one that
// others can read or enter (what private means is per platform).
func privateDir(dir string) error {
	if err := makePrivateDir(dir); err != nil {
		return err
	}
	st, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	return dirIsPrivate(dir, st)
}

// privateFile refuses a store file that others could read or change.
func privateFile(path string, info fs.FileInfo) error {
	if !info.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", path)
	}
	return fileIsPrivate(path, info)
}

// ErrBusy is the refusal of a directory another process holds.
var ErrBusy = errors.New("task directory in use")

// leaseName is the locked file; holderName records who holds it. They are
// two files because Windows locks are mandatory: while the lease is held
// nobody else may read its bytes, not even to learn the holder's pid.
const (
	leaseName  = "lease"
	holderName = "lease.pid"
)

// lease takes the directory's exclusive runtime lease: an flock on
// dir/lease (LockFileEx on Windows), held until released or the process
// dies, when the system drops it, so a crash never leaves a stale lock.
func lease(dir string) (*flock.Flock, error) {
	path := filepath.Join(dir, leaseName)
	if err := prepareLease(path); err != nil {
		return nil, err
	}
	l := flock.New(path, flock.SetPermissions(filePerm))
	ok, err := l.TryLock()
	if err != nil {
		return nil, fmt.Errorf("cannot lock %s: %w", path, err)
	}
	if !ok {
		holder := ""
		if b, rerr := os.ReadFile(filepath.Join(dir, holderName)); rerr == nil && len(b) > 0 && len(b) < 32 {
			holder = " (pid " + strings.TrimSpace(string(b)) + ")"
		}
		return nil, fmt.Errorf("%w: another snowluma-mcp process%s is using %s; each server needs its own SNOWLUMA_MCP_TASK_DIR (or stop the other one first)", ErrBusy, holder, dir)
	}
	// Only the holder writes it, so what a refused server reads names the
	// process that refused it (a leftover from a dead holder is
	// overwritten by the next one).
	_ = writeAtomic(dir, holderName, fmt.Appendf(nil, "%d\n", os.Getpid()))
	return l, nil
}
