package access

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/gofrs/flock"
)

// ErrNotRegular marks a stored path that holds something other than a
// regular file: a named pipe, a directory, a device or a socket put where
// this server only ever writes files. It is damaged, like a file that
// cannot be parsed, and refused without waiting on it.
var ErrNotRegular = errors.New("not a regular file")

// Open opens the stored file at path for reading, the one way this server
// opens what it keeps (budgets, task records, results, the scope). It
// never waits on what is there instead of a file: opening a named pipe
// for reading blocks until a writer appears, which would hang the start
// or a send for good, so the open does not block (openStored, per
// platform) and the handle is refused unless it is a regular file.
func Open(path string) (*os.File, error) {
	f, err := openStored(path)
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err == nil {
		err = Regular(path, info)
	}
	if err != nil {
		_ = f.Close()
		return nil, err
	}
	return f, nil
}

// Lock is the lock on the stored lock file at path, opened as Open opens
// a stored file (created with FilePerm when create is set): a named pipe
// put in its place opens at once instead of waiting for a writer. Whoever
// tries the lock then calls Held, which refuses it.
func Lock(path string, create bool) *flock.Flock {
	flag := os.O_RDONLY | noBlock
	if create {
		flag |= os.O_CREATE
	}
	return flock.New(path, flock.SetFlag(flag), flock.SetPermissions(FilePerm))
}

// Held checks the file of a lock just tried (held or not, a path that is
// gone passes): anything but a regular file is refused as damaged, and
// the lock let go.
func Held(l *flock.Flock) error {
	info, err := l.Stat()
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err == nil {
		err = Regular(l.Path(), info)
	}
	if err != nil {
		_ = l.Close()
	}
	return err
}

// Regular refuses info, path's, unless it is a regular file, naming what
// it is instead.
func Regular(path string, info fs.FileInfo) error {
	if info.Mode().IsRegular() {
		return nil
	}
	return fmt.Errorf("%s is %s, %w: it is damaged (this server only ever writes regular files there); move it aside", path, kind(info.Mode()), ErrNotRegular)
}

// kind names a file type that is not a regular file.
func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeSymlink != 0:
		return "a link"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "something"
}
