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
	"slices"
	"strings"
	"sync"
)

// load reads every metadata file and checks every result has one.
func (s *Store) load() error {
	records, temps, err := scan(s.tasks)
	if err != nil {
		return err
	}
	for _, name := range temps {
		// A write that never reached its rename is not part of the
		// store; one a live server is making is left to it.
		if s.leftBehind(name) {
			if err := os.Remove(filepath.Join(s.tasks, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
	}
	ids := make([]string, 0, len(records))
	for id := range records {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	recs, err := readRecords(s.tasks, ids)
	if err != nil {
		return err
	}
	for i, id := range ids {
		s.recs[id] = recs[i]
	}
	return nil
}

// scan lists the task directory tasks: the ids that have a record, and the
// names of temporary files. A file the store does not write, or a result
// without its record, is ErrCorrupt. Results are not opened: loading must
// not cost a read per result; a result's type and mode are checked when it
// is read.
func scan(tasks string) (records map[string]bool, temps []string, err error) {
	entries, err := os.ReadDir(tasks)
	if err != nil {
		return nil, nil, err
	}
	records = map[string]bool{}
	results := map[string]bool{}
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, tempPrefix) {
			temps = append(temps, name)
			continue
		}
		id, kind, _ := strings.Cut(name, ".")
		if !validID(id) || (kind != "json" && kind != "result") {
			return nil, nil, fmt.Errorf("%w: unexpected file %s in the task directory; move it elsewhere", ErrCorrupt, filepath.Join(tasks, name))
		}
		if kind == "result" {
			results[id] = true
		} else {
			records[id] = true
		}
	}
	for id := range results {
		if !records[id] {
			return nil, nil, fmt.Errorf("%w: result %s has no task record; restore the record or move the file aside", ErrCorrupt, filepath.Join(tasks, id+".result"))
		}
	}
	return records, temps, nil
}

// Inspect reads the task directory dir as a server opening it would
// (every record read and validated, every result matched to its record)
// and changes nothing: what `snowluma-mcp check` asks, so that it fails
// wherever the server would turn background tasks off. A directory whose
// store was never made is fine.
func Inspect(dir string) error {
	if err := leaseDamaged(dir); err != nil {
		return err
	}
	tasks := filepath.Join(dir, "tasks")
	if _, err := os.Stat(tasks); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	records, _, err := scan(tasks)
	if err != nil {
		return err
	}
	ids := make([]string, 0, len(records))
	for id := range records {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	_, err = readRecords(tasks, ids)
	return err
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
	recs, err := readRecords(s.tasks, stale)
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
func readRecords(tasks string, ids []string) ([]*Record, error) {
	recs := make([]*Record, len(ids))
	errs := make([]error, len(ids))
	var wg sync.WaitGroup
	for w := range min(loaders, len(ids)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(ids); i += loaders {
				recs[i], errs[i] = readRecord(tasks, ids[i])
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

// readRecord reads and validates one record of the task directory tasks.
func readRecord(tasks, id string) (*Record, error) {
	path := filepath.Join(tasks, id+".json")
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
