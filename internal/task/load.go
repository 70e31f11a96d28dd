package task

// Reading the task directory into the store's cache: every record at
// start, then the records other servers create or change, each one
// validated as it is read.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// load reads every metadata file and checks every result has one.
func (s *Store) load() error {
	entries, err := os.ReadDir(s.tasks)
	if err != nil {
		return err
	}
	results := map[string]bool{}
	var records []string
	for _, e := range entries {
		name := e.Name()
		path := filepath.Join(s.tasks, name)
		if strings.HasPrefix(name, tempPrefix) {
			// A write that never reached its rename is not part of the
			// store; one a live server is making is left to it.
			if s.leftBehind(name) {
				if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
					return err
				}
			}
			continue
		}
		id, kind, _ := strings.Cut(name, ".")
		if !validID(id) || (kind != "json" && kind != "result") {
			return fmt.Errorf("%w: unexpected file %s in the task directory; move it elsewhere", ErrCorrupt, path)
		}
		if kind == "result" {
			// Not opened here: loading must not cost a read per result.
			// Its type and mode are checked when it is read.
			results[id] = true
			continue
		}
		records = append(records, id)
	}
	recs, err := s.readRecords(records)
	if err != nil {
		return err
	}
	for i, id := range records {
		s.recs[id] = recs[i]
	}
	for id := range results {
		if s.recs[id] == nil {
			return fmt.Errorf("%w: result %s has no task record; restore the record or move the file aside", ErrCorrupt, s.path(id, "result"))
		}
	}
	return nil
}

// leftBehind reports whether a temporary file's writer is gone: its name
// carries a writer's owner id whose lock nobody holds, or none at all (an
// earlier version wrote it, and none runs while this one does).
func (s *Store) leftBehind(name string) bool {
	rest := strings.TrimPrefix(name, tempPrefix)
	if len(rest) > 33 && rest[32] == '-' && validID(rest[:32]) {
		w := rest[:32]
		return w != s.owner && !s.alive(w)
	}
	return true
}

// settled reports whether r, as cached, needs no reading again: it ended,
// or this process runs it.
func (s *Store) settled(r *Record) bool { return r.Status.Terminal() || r.Owner == s.owner }

// refresh brings the cache up to date with the disk: records other
// servers created, and the state of the working ones they run. A stray
// file is not this function's concern (the start refuses one).
func (s *Store) refresh() error {
	names, err := names(s.tasks)
	if err != nil {
		return err
	}
	var stale []string
	s.mu.Lock()
	for _, name := range names {
		id, kind, _ := strings.Cut(name, ".")
		if kind != "json" || !validID(id) {
			continue
		}
		if r := s.recs[id]; r == nil || !s.settled(r) {
			stale = append(stale, id)
		}
	}
	s.mu.Unlock()
	recs, err := s.readRecords(stale)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, id := range stale {
		// A settlement that ran meanwhile has the newer state.
		if cur := s.recs[id]; cur == nil || !s.settled(cur) {
			s.recs[id] = recs[i]
		}
	}
	return nil
}

// names lists dir's entries unsorted and without a stat of each: a list
// reads the whole task directory, so what it costs counts.
func names(dir string) ([]string, error) {
	d, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.Readdirnames(-1)
}

// loaders is how many records are read at once: opening a file costs a
// few system calls, which overlap well even on two cores.
const loaders = 8

// readRecords reads and validates the records of ids, in parallel. The
// error reported is that of the first failing id in order, so a damaged
// directory always gives the same message.
func (s *Store) readRecords(ids []string) ([]*Record, error) {
	recs := make([]*Record, len(ids))
	errs := make([]error, len(ids))
	var wg sync.WaitGroup
	for w := range min(loaders, len(ids)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(ids); i += loaders {
				recs[i], errs[i] = s.readRecord(ids[i])
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return recs, nil
}

// readRecord reads and validates one record from disk.
func (s *Store) readRecord(id string) (*Record, error) {
	path := s.path(id, "json")
	data, err := readPrivate(path, maxMeta)
	if err != nil {
		return nil, err
	}
	r, err := DecodeRecord(id, data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w; background tasks stay off until it is fixed: restore the file or move it aside", path, err)
	}
	return r, nil
}
