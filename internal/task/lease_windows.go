package task

import (
	"errors"
	"io/fs"
	"os"

	"github.com/gofrs/flock"
	"golang.org/x/sys/windows"
)

// drop releases a lock and then removes its file: Windows refuses to
// remove a file that is open without FILE_SHARE_DELETE, as the lock's
// own handle is. Another server may open the file in between; the
// removal then fails harmlessly (what the lock covered is settled) and
// whoever settles next removes it.
func drop(l *flock.Flock) error {
	err := l.Close()
	rerr := os.Remove(l.Path())
	if errors.Is(rerr, fs.ErrNotExist) || errors.Is(rerr, windows.ERROR_SHARING_VIOLATION) || errors.Is(rerr, windows.ERROR_ACCESS_DENIED) {
		rerr = nil
	}
	if err == nil {
		err = rerr
	}
	return err
}
