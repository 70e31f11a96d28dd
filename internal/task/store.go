package task

// The store itself: the directory it joins and leaves, and the one way a
// record is written (put). Reading, settling, answering and ending records
// each have a file of their own beside it.

import (
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/gofrs/flock"

	"github.com/snowluma/snowluma-mcp/internal/access"
)

// Store is the task directory as one server process sees it. Other
// servers may share the directory: this one runs and records its own
// tasks (the records name it as their owner), reads everyone's from disk,
// and settles those whose owner is gone.
type Store struct {
	dir, tasks, owners, cancels string
	shared, own                 *flock.Flock
	// owner is this process's owner id (lease.go).
	owner string
	now   func() time.Time
	sweep *Sweeper
	// screen rewrites each result read for this reader (SetScreen).
	screen Screen

	// settling makes this process settle one gone owner at a time.
	settling sync.Mutex

	mu sync.Mutex
	// recs holds every record seen: this process's own working tasks as
	// they are (progress is kept only here), others as last read.
	recs   map[string]*Record
	closed bool
}

// errClosed refuses a write after Close: by then another server may
// already be settling what this one left working.
var errClosed = errors.New("the task store is closed")

// Open joins dir (taking this process's owner lock), checks it belongs to
// scope and loads every record. A task left working by a server that is
// gone is marked failed with UnknownOutcome (or completed, when its result
// had been saved whole just before the process died); recovered counts
// them. Tasks that live servers run are left to them. Any unreadable,
// misplaced or corrupt file is an error naming it: nothing is skipped.
//
// What those tasks had recorded leaving behind (a partial file, an upload
// stream) is cleaned up with sweep (nil cleans nothing), and each task's
// message says how that went. The store keeps sweep for the gone owners
// it finds later, when it reads their tasks.
func Open(dir string, scope Scope, now func() time.Time, sweep *Sweeper) (s *Store, recovered int, err error) {
	if now == nil {
		now = time.Now
	}
	if !filepath.IsAbs(dir) {
		return nil, 0, fmt.Errorf("task directory %q is not absolute", dir)
	}
	if err := private.Dir(dir); err != nil {
		return nil, 0, err
	}
	shared, err := share(dir)
	if err != nil {
		return nil, 0, err
	}
	st := &Store{dir: dir, tasks: filepath.Join(dir, "tasks"), owners: filepath.Join(dir, "owners"), cancels: filepath.Join(dir, "cancel"),
		shared: shared, now: now, sweep: sweep, recs: map[string]*Record{}}
	defer func() {
		if err != nil {
			_ = st.release()
		}
	}()
	s = st
	if err := bind(dir, scope, true); err != nil {
		return nil, 0, err
	}
	for _, d := range []string{s.tasks, s.owners, s.cancels} {
		if err := private.Dir(d); err != nil {
			return nil, 0, err
		}
	}
	if err := s.join(); err != nil {
		return nil, 0, err
	}
	if err := s.load(); err != nil {
		return nil, 0, err
	}
	if recovered, err = s.settleGone(); err != nil {
		return nil, 0, err
	}
	return s, recovered, nil
}

// Close releases this process's locks and removes its owner lock file.
// A task of its own still working (one that did not stop in time) is
// then settled by the next server that reads it.
func (s *Store) Close() error {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	return s.release()
}

func (s *Store) release() error {
	var err error
	if s.own != nil {
		err = drop(s.own)
	}
	if cerr := s.shared.Close(); err == nil {
		err = cerr
	}
	return err
}

func (s *Store) path(id, kind string) string { return filepath.Join(s.tasks, id+"."+kind) }

// put writes r durably and then makes it current in memory; s.mu is held.
func (s *Store) put(r *Record) error {
	if s.closed {
		return errClosed
	}
	data, err := r.encode()
	if err != nil {
		return err
	}
	if err := writeAtomicAs(s.tasks, s.owner, r.ID+".json", data); err != nil {
		return err
	}
	s.recs[r.ID] = r
	return nil
}

// readPrivate reads a store file of at most limit bytes (one more is read,
// so a longer file fails validation), refusing one others could read.
func readPrivate(path string, limit int64) ([]byte, error) {
	return access.Read(path, limit+1, private.File)
}
