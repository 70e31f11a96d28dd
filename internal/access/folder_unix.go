//go:build !windows

package access

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"

	"github.com/snowluma/snowluma-mcp/internal/lang"
)

// openDir opens dir itself for reading, refusing a symlink in its place
// (O_NOFOLLOW) and anything that is not a directory.
func openDir(dir string) (*os.File, error) {
	fd, err := syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	return os.NewFile(uintptr(fd), dir), nil
}

// handleExposed is dirExposed for an opened folder.
func handleExposed(dir string, f *os.File, setting string) (what, fix lang.Text, err error) {
	st, err := f.Stat()
	if err != nil {
		return lang.Text{}, lang.Text{}, err
	}
	return dirExposed(dir, st, setting)
}

// ownedByMe reports whether this user owns the opened folder.
func ownedByMe(f *os.File) (bool, error) {
	st, err := f.Stat()
	if err != nil {
		return false, err
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	return ok && int(sys.Uid) == os.Getuid(), nil
}

// makePrivate sets mode 0700 on the opened folder (fchmod), then reads it
// again: until the chmod, another account could create an entry in it.
// The folder is reopened by name and must be the one the handle holds
// (a directory's read position is kept differently on each Unix, so the
// handle is not rewound) and still empty; otherwise its old mode is put
// back, so that it is refused now and at every later look alike, and the
// answer is errNotEmpty.
func makePrivate(f *os.File) error {
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if err := f.Chmod(DirPerm); err != nil {
		return err
	}
	empty, err := stillEmpty(f, st)
	if err == nil && empty {
		return nil
	}
	if rerr := f.Chmod(st.Mode().Perm()); rerr != nil {
		return errors.Join(errNotEmpty, fmt.Errorf("its mode could not be put back to %04o: %w", st.Mode().Perm(), rerr))
	}
	if err != nil {
		return err
	}
	return errNotEmpty
}

// stillEmpty reopens the folder f was opened on (st is its state) and
// reports whether it is the same folder and holds nothing.
func stillEmpty(f *os.File, st fs.FileInfo) (bool, error) {
	again, err := openDir(f.Name())
	if err != nil {
		return false, err
	}
	defer again.Close()
	now, err := again.Stat()
	if err != nil {
		return false, err
	}
	if !os.SameFile(st, now) {
		return false, nil
	}
	return isEmpty(again)
}
