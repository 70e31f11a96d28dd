package task

// A working task's record while its server runs it: created durably
// before the work starts, told durably what the transfer is about to
// leave behind, and noted in memory as it progresses.

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
)

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

// Note changes a working task's status message in memory only (progress:
// not worth an fsync, and lost harmlessly in a crash).
func (s *Store) Note(id, message string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r := s.recs[id]; r != nil && r.Status == Working {
		next := *r
		next.StatusMessage, next.UpdatedAt = clip(message), s.now().UTC()
		s.recs[id] = &next
	}
}
