package task

// A task's record while this server runs it. The run changes the record
// through it alone: the call's hooks (progress, the wait for a stream
// slot, what the transfer is about to leave behind: trail.go) write into
// it while it runs, and conclude (end.go) writes how it ended. The runner
// starts, cancels and stops runs; it never writes a record, and nothing
// the run reports passes back through it.

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"sync"
)

// running is the record of one task this server runs.
type running struct {
	store *Store
	id    string

	mu sync.Mutex
	// queued says the task waits for a stream slot: nothing was sent.
	queued bool
	// What the transfer left behind, and how its cleanup went (trail.go).
	partial, stream     string
	removed, reset      bool
	removeErr, resetErr error
}

// newRun records a new working task durably and returns the record of its
// run beside it; only then may the work start.
func (s *Store) newRun(tool, action string) (*running, Record, error) {
	rec, err := s.Create(tool, action)
	if err != nil {
		return nil, Record{}, err
	}
	return &running{store: s, id: rec.ID}, rec, nil
}

// Create records a new working task durably and returns it. Only after it
// returns may the work start.
func (s *Store) Create(tool, action string) (Record, error) {
	var raw [16]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return Record{}, err
	}
	now := s.now().UTC()
	r := &Record{Version: recordVersion, ID: hex.EncodeToString(raw[:]), Tool: tool, Action: action,
		Status: Working, StatusMessage: "running", CreatedAt: now, UpdatedAt: now, Owner: s.owner}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.put(r); err != nil {
		return Record{}, err
	}
	return *r, nil
}

// leave records durably, on a working task, what its transfer is about
// to leave behind; only after it returns may the thing exist.
func (s *Store) leave(id string, set func(r *Record)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	cur := s.recs[id]
	if cur == nil {
		return ErrNotFound
	}
	if cur.Status.Terminal() {
		return fmt.Errorf("task %s already ended as %s", id, cur.Status)
	}
	next := *cur
	set(&next)
	return s.put(&next)
}

// note changes a working task's status message in memory only (progress:
// not worth an fsync, and lost harmlessly in a crash).
func (s *Store) note(id, message string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r := s.recs[id]; r != nil && r.Status == Working {
		next := *r
		next.StatusMessage, next.UpdatedAt = clip(message), s.now().UTC()
		s.recs[id] = &next
	}
}

// hooks have the task's call report to this record: its progress, its
// wait for a stream slot and what its transfer leaves behind.
func (t *running) hooks() Hooks {
	return Hooks{Progress: t.progress, Queued: t.queue, Trail: t}
}

// progress keeps the latest progress in the task's status message; it is
// the task run's Progress.
func (t *running) progress(_ context.Context, done, total int64) error {
	if total > 0 {
		t.store.note(t.id, fmt.Sprintf("running: %d of %d transferred", done, total))
	} else {
		t.store.note(t.id, fmt.Sprintf("running: %d transferred", done))
	}
	return nil
}

// queue keeps the status message honest while the task waits for a
// stream slot: it is not running, and nothing has been sent. It is the
// task call's Queued.
func (t *running) queue(waiting bool, n int) {
	t.mu.Lock()
	t.queued = waiting
	t.mu.Unlock()
	if waiting {
		t.store.note(t.id, fmt.Sprintf("waiting for a free stream slot: all %d are in use by other transfers, so nothing has been sent to SnowLuma yet", n))
	} else {
		t.store.note(t.id, "running")
	}
}

// cancelAsked reports whether another server left a cancel request
// for this task (cancel.go).
func (t *running) cancelAsked() bool { return t.store.cancelRequested(t.id) }
