package task

// Who runs a task. Any number of servers share one task directory, so
// every working task names its owner: the server process that runs it,
// known by a random id. Each server holds an exclusive lock on
// owners/<its id> for as long as it lives, and the operating system drops
// that lock when the process dies, however it dies (flock; LockFileEx on
// Windows). So "is the owner gone?" is a question any server can ask
// without trusting pids, clocks or heartbeats: the owner's lock can be
// taken exactly when nobody holds it.
//
// Taking a gone owner's lock is also what makes settling its tasks
// exclusive: while one server holds it, no other can settle the same
// tasks, and the owner, being gone, writes nothing. The lock file is
// removed only after every task it covered is settled, so a missing file
// with a working task still naming it means a dead owner too (claim
// creates the file again to hold it).

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gofrs/flock"

	"github.com/snowluma/snowluma-mcp/internal/access"
)

// ErrBusy is the refusal of a directory that an earlier version of the
// server, which takes the directory for itself, is using.
var ErrBusy = errors.New("task directory in use")

// leaseName is locked shared by every running server and exclusively by
// the versions before directories were shared (they locked it whole), so
// neither kind can run beside the other: an earlier version would settle
// the tasks of a live server as its own leftovers. holderName is the pid
// those versions wrote (a locked file cannot be read on Windows).
const (
	leaseName  = "lease"
	holderName = "lease.pid"
)

// leaseDamaged refuses a lease in dir that is not a regular file, as
// share does once it has opened it: for Inspect, which takes no lock.
func leaseDamaged(dir string) error {
	path := filepath.Join(dir, leaseName)
	info, err := os.Stat(path)
	if err != nil {
		return nil // missing: the server makes it; unreadable: its open says
	}
	return access.Regular(path, info)
}

// unowned names the lock that covers working tasks with no owner: those
// an earlier version left behind. Owner ids are hex, so it never clashes.
const unowned = "unowned"

// share takes the directory's shared lease.
func share(dir string) (*flock.Flock, error) {
	path := filepath.Join(dir, leaseName)
	if err := access.Prepare(path); err != nil {
		return nil, err
	}
	l := access.Lock(path, true)
	ok, err := l.TryRLock()
	if herr := access.Held(l); herr != nil {
		return nil, herr
	}
	if err != nil {
		return nil, fmt.Errorf("cannot lock %s: %w", path, err)
	}
	if !ok {
		holder := ""
		if b, rerr := access.Read(filepath.Join(dir, holderName), 32, access.Regular); rerr == nil && len(b) > 0 && len(b) < 32 {
			holder = " (pid " + strings.TrimSpace(string(b)) + ")"
		}
		return nil, fmt.Errorf("%w: an earlier snowluma-mcp version%s is using %s and keeps it to itself; stop it, or update it to this version so that both can share the directory", ErrBusy, holder, dir)
	}
	return l, nil
}

// join gives this store an owner id and takes its lock. A fresh file can
// be found by another server between its creation and the lock, taken
// for a gone owner's and removed; the lock then holds a file nobody else
// can find, so join checks that the path is still the file it locked and
// otherwise starts again under a new id.
func (s *Store) join() error {
	for range 10 {
		var raw [16]byte
		if _, err := rand.Read(raw[:]); err != nil {
			return err
		}
		id := hex.EncodeToString(raw[:])
		l, ok, err := s.claim(id)
		if err != nil {
			return err
		}
		if ok {
			s.owner, s.own = id, l
			return nil
		}
	}
	return fmt.Errorf("cannot take a lock of its own in %s: another process keeps taking the new lock files", s.owners)
}

// claim takes owner's lock, creating its file when missing; ok is false
// while the owner (or another server settling its tasks) holds it.
func (s *Store) claim(owner string) (l *flock.Flock, ok bool, err error) {
	path := filepath.Join(s.owners, owner)
	if err := access.Prepare(path); err != nil {
		return nil, false, err
	}
	l = access.Lock(path, true)
	ok, err = l.TryLock()
	if herr := access.Held(l); herr != nil {
		return nil, false, herr
	}
	if err != nil || !ok {
		_ = l.Close()
		return nil, false, err
	}
	held, err1 := l.Stat()
	named, err2 := os.Stat(path)
	if err1 != nil || err2 != nil || !os.SameFile(held, named) {
		// Removed (and perhaps made again) by whoever settled this
		// owner last: what this lock covers is already settled.
		_ = l.Close()
		return nil, false, nil
	}
	return l, true, nil
}

// alive reports whether owner's lock is held now: a probe that leaves the
// file as it is. An owner whose file is gone is not alive.
func (s *Store) alive(owner string) bool {
	l := access.Lock(filepath.Join(s.owners, owner), false)
	ok, err := l.TryLock()
	if herr := access.Held(l); herr != nil {
		return true // damaged: counted as held, as settleOwner counts it
	}
	_ = l.Close()
	if errors.Is(err, fs.ErrNotExist) {
		return false
	}
	return err != nil || !ok
}

// ownerOf is the lock name that covers a record.
func ownerOf(r *Record) string {
	if r.Owner == "" {
		return unowned
	}
	return r.Owner
}
