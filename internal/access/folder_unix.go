//go:build !windows

package access

import (
	"io/fs"
	"os"
	"syscall"
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
func handleExposed(dir string, f *os.File, setting string) (what, fix string, err error) {
	st, err := f.Stat()
	if err != nil {
		return "", "", err
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

// makePrivate sets mode 0700 on the opened folder (fchmod).
func makePrivate(f *os.File) error { return f.Chmod(DirPerm) }
