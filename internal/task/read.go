package task

// What the store answers about tasks: one record, a page of them, a
// result body; working tasks whose server is gone are settled first.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"sort"
)

// ErrNotFound is a task id this store never issued.
var ErrNotFound = errors.New("no such task")

// Get returns a task's record as it is now, from disk unless this process
// runs it or it has ended. A working task whose owner is gone is settled
// first, so it is never shown working after its server died.
func (s *Store) Get(id string) (Record, error) {
	if !validID(id) {
		return Record{}, ErrNotFound
	}
	rec, err := s.current(id)
	if err != nil || rec.Status != Working || rec.Owner == s.owner {
		return rec, err
	}
	n, err := s.settleOwner(ownerOf(&rec))
	if err != nil {
		return rec, fmt.Errorf("task %s was left working by a server that is gone, and settling it failed: %w", id, err)
	}
	if n == 0 {
		return rec, nil
	}
	return s.current(id)
}

// current is a task's record from the cache when that is settled, else
// from disk.
func (s *Store) current(id string) (Record, error) {
	s.mu.Lock()
	if r := s.recs[id]; r != nil && s.settled(r) {
		s.mu.Unlock()
		return *r, nil
	}
	s.mu.Unlock()
	r, err := readRecord(s.tasks, id)
	if errors.Is(err, fs.ErrNotExist) {
		return Record{}, ErrNotFound
	}
	if err != nil {
		return Record{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if cur := s.recs[id]; cur != nil && s.settled(cur) {
		return *cur, nil
	}
	s.recs[id] = r
	return *r, nil
}

// Runs reports whether this process runs (or ran) the task of r, so that
// it hears of every change of its status.
func (s *Store) Runs(r Record) bool { return r.Owner == s.owner }

// Screen rewrites a completed task's saved result body for the server
// reading it: a record outlives the settings it was saved under (a restart
// that turns lockdown on, or another server sharing the directory), so
// what a reader is shown is screened for the reader's trust settings, not
// the runner's. An error withholds the whole result.
type Screen func(r Record, body []byte) ([]byte, error)

// SetScreen makes every result read (Result) pass through f; nil passes
// them unchanged. Set it once, before the store serves anyone.
func (s *Store) SetScreen(f Screen) { s.screen = f }

// Result reads a completed task's result body, proves it is the one
// written (same size, same digest), and screens it for this reader
// (SetScreen).
func (s *Store) Result(r Record) ([]byte, error) {
	if r.Result == nil {
		return nil, fmt.Errorf("task %s has no result", r.ID)
	}
	path := s.path(r.ID, "result")
	body, err := readPrivate(path, MaxRecord)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(body)
	if int64(len(body)) != r.Result.Size || !bytes.Equal([]byte(hex.EncodeToString(sum[:])), []byte(r.Result.SHA256)) {
		return nil, fmt.Errorf("%w: %s does not match its record (size or digest)", ErrCorrupt, path)
	}
	if s.screen != nil {
		return s.screen(r, body)
	}
	return body, nil
}

// Page lists records newest first, as they are on disk (working tasks
// whose owner is gone settled first), after the position of cursor (the
// last record of the previous page; nil for the first), at most limit.
// more reports whether records remain after the page.
func (s *Store) Page(cursor *Record, limit int) (page []Record, more bool, err error) {
	if err := s.refresh(); err != nil {
		return nil, false, err
	}
	gone := map[string]bool{}
	s.mu.Lock()
	for _, r := range s.recs {
		if r.Status == Working && r.Owner != s.owner {
			gone[ownerOf(r)] = true
		}
	}
	s.mu.Unlock()
	for owner := range gone {
		if _, err := s.settleOwner(owner); err != nil {
			return nil, false, err
		}
	}
	s.mu.Lock()
	all := make([]Record, 0, len(s.recs))
	for _, r := range s.recs {
		all = append(all, *r)
	}
	s.mu.Unlock()
	sort.Slice(all, func(i, j int) bool { return newer(all[i], all[j]) })
	start := 0
	if cursor != nil {
		start = sort.Search(len(all), func(i int) bool { return newer(*cursor, all[i]) })
	}
	end := min(start+limit, len(all))
	return all[start:end], end < len(all), nil
}

// newer orders records newest first, by creation and then by id, so the
// order is total and a page boundary never moves.
func newer(a, b Record) bool {
	if !a.CreatedAt.Equal(b.CreatedAt) {
		return a.CreatedAt.After(b.CreatedAt)
	}
	return a.ID > b.ID
}
