//go:build !windows

package task

import (
	"errors"
	"io/fs"
	"os"

	"github.com/gofrs/flock"
)

// drop removes a lock's file while still holding the lock, then releases
// it, so nobody can take the lock of a file about to vanish.
func drop(l *flock.Flock) error {
	err := os.Remove(l.Path())
	if errors.Is(err, fs.ErrNotExist) {
		err = nil
	}
	if cerr := l.Close(); err == nil {
		err = cerr
	}
	return err
}
