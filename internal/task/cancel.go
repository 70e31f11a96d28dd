package task

// Cancel requests between servers. A task runs in the server that
// started it, but tasks/cancel may reach any server on the directory; one
// that does not run the task leaves a request file, cancel/<task id>,
// which the owner looks for while the task runs (Runner.watch). The file
// is removed when the task ends, or when the task is settled after its
// owner died.

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// requestCancel leaves a cancel request for task id.
func (s *Store) requestCancel(id string) error {
	return writeAtomicAs(s.cancels, s.owner, id, nil)
}

// cancelRequested reports whether a cancel request for task id is there.
func (s *Store) cancelRequested(id string) bool {
	_, err := os.Stat(filepath.Join(s.cancels, id))
	return err == nil
}

// clearCancel removes task id's cancel request, if any.
func (s *Store) clearCancel(id string) {
	_ = os.Remove(filepath.Join(s.cancels, id))
}

// sweepCancels removes the cancel requests (and the writes of them that
// never finished) whose task is not working: ended, or not there at all.
func (s *Store) sweepCancels() error {
	entries, err := os.ReadDir(s.cancels)
	if err != nil {
		return err
	}
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, tempPrefix) {
			if !s.leftBehind(name) {
				continue
			}
		} else if !validID(name) {
			continue // not a request this store writes; left as it is
		} else if r, err := s.current(name); err == nil && r.Status == Working {
			continue
		}
		if err := os.Remove(filepath.Join(s.cancels, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}
