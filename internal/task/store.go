package task

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/gofrs/flock"
)

// unrecorded opens the message of a task found unfinished at start: the
// process that ran it is gone, and nobody knows how far SnowLuma got.
const unrecorded = "remote outcome unknown: the end of this task was never recorded (the server stopped while it was running, or could not write to SNOWLUMA_MCP_TASK_DIR), so it is marked failed and is never replayed."

// UnknownOutcome is the whole message of such a task whose record names
// nothing it left behind (it was written before leftovers were recorded,
// or the process died before the transfer began).
const UnknownOutcome = unrecorded + " SnowLuma may have acted (part or all of an upload may have arrived; a download's partial file may remain). Check the remote side or the download directory before starting the transfer again."

// CodeInternal is the JSON-RPC code of a failed task's error: failed is
// for failures outside the tool itself.
const CodeInternal = -32603

// maxMessage bounds a stored status message.
const maxMessage = 2048

// Store is the task directory, leased by this process.
type Store struct {
	dir, tasks string
	lease      *flock.Flock
	now        func() time.Time

	mu   sync.Mutex
	recs map[string]*Record
}

// Open leases dir, checks it belongs to scope and loads every record. A
// task left working by an earlier process is marked failed with
// UnknownOutcome (or completed, when its result had been saved whole just
// before the process died); recovered counts them. Any unreadable,
// misplaced or corrupt file is an error naming it: nothing is skipped.
//
// What those tasks had recorded leaving behind (a partial file, an upload
// stream) is cleaned up with sweep (nil cleans nothing), and each task's
// message says how that went.
func Open(dir string, scope Scope, now func() time.Time, sweep *Sweeper) (s *Store, recovered int, err error) {
	if now == nil {
		now = time.Now
	}
	if !filepath.IsAbs(dir) {
		return nil, 0, fmt.Errorf("task directory %q is not absolute", dir)
	}
	if err := privateDir(dir); err != nil {
		return nil, 0, err
	}
	l, err := lease(dir)
	if err != nil {
		return nil, 0, err
	}
	defer func() {
		if err != nil {
			_ = l.Close()
		}
	}()
	s = &Store{dir: dir, tasks: filepath.Join(dir, "tasks"), lease: l, now: now, recs: map[string]*Record{}}
	_, statErr := os.Stat(s.tasks)
	if err := bind(dir, scope, errors.Is(statErr, os.ErrNotExist)); err != nil {
		return nil, 0, err
	}
	if err := privateDir(s.tasks); err != nil {
		return nil, 0, err
	}
	results, err := s.load()
	if err != nil {
		return nil, 0, err
	}
	if recovered, err = s.recover(results, sweep); err != nil {
		return nil, 0, err
	}
	return s, recovered, nil
}

// Close releases the lease.
func (s *Store) Close() error { return s.lease.Close() }

// load reads every metadata file and notes which result files exist.
func (s *Store) load() (map[string]bool, error) {
	entries, err := os.ReadDir(s.tasks)
	if err != nil {
		return nil, err
	}
	results := map[string]bool{}
	var records []string
	for _, e := range entries {
		name := e.Name()
		path := filepath.Join(s.tasks, name)
		if strings.HasPrefix(name, tempPrefix) {
			// A write that never reached its rename: not part of the store.
			if err := os.Remove(path); err != nil {
				return nil, err
			}
			continue
		}
		id, kind, _ := strings.Cut(name, ".")
		if !validID(id) || (kind != "json" && kind != "result") {
			return nil, fmt.Errorf("%w: unexpected file %s in the task directory; move it elsewhere", ErrCorrupt, path)
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
		return nil, err
	}
	for i, id := range records {
		s.recs[id] = recs[i]
	}
	for id := range results {
		if s.recs[id] == nil {
			return nil, fmt.Errorf("%w: result %s has no task record; restore the record or move the file aside", ErrCorrupt, s.path(id, "result"))
		}
	}
	return results, nil
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
	for w := range loaders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(ids); i += loaders {
				path := s.path(ids[i], "json")
				data, err := readPrivate(path, maxMeta)
				if err == nil {
					recs[i], err = DecodeRecord(ids[i], data)
					if err != nil {
						err = fmt.Errorf("%s: %w; the server will not start without it: restore the file or move it aside", path, err)
					}
				}
				errs[i] = err
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

// recover settles the tasks an earlier process left working. Their
// cleanups (a file removal, a reset sent to SnowLuma) run at once, each
// bounded by its own timeout, so the start waits for the slowest only.
func (s *Store) recover(results map[string]bool, sweep *Sweeper) (int, error) {
	var left []*Record
	for _, r := range s.recs {
		if r.Status == Working {
			left = append(left, r)
		}
	}
	notes := make([]string, len(left))
	var wg sync.WaitGroup
	for i, r := range left {
		if !results[r.ID] {
			wg.Add(1)
			go func() {
				defer wg.Done()
				notes[i] = sweep.sweep(r)
			}()
		}
	}
	wg.Wait()
	for i, r := range left {
		next := *r
		next.UpdatedAt = s.now().UTC()
		if results[r.ID] {
			// The result was written whole (renames are atomic) but its
			// record was not (the process died, or the write failed): the
			// task did finish, as Complete already told the agent.
			body, err := readPrivate(s.path(r.ID, "result"), MaxRecord)
			if err != nil {
				return 0, err
			}
			sum := sha256.Sum256(body)
			next.Status, next.Result = Completed, &Body{Size: int64(len(body)), SHA256: hex.EncodeToString(sum[:])}
			next.StatusMessage = summaryOf(body)
		} else {
			msg := UnknownOutcome
			if notes[i] != "" {
				msg = unrecorded + " " + notes[i]
			}
			msg = clip(msg)
			next.Status, next.Error, next.StatusMessage = Failed, &Error{Code: CodeInternal, Message: msg}, msg
		}
		if err := s.put(&next); err != nil {
			return 0, err
		}
	}
	return len(left), nil
}

func (s *Store) path(id, kind string) string { return filepath.Join(s.tasks, id+"."+kind) }

// put writes r durably and then makes it current in memory.
func (s *Store) put(r *Record) error {
	data, err := r.encode()
	if err != nil {
		return err
	}
	if err := writeAtomic(s.tasks, r.ID+".json", data); err != nil {
		return err
	}
	s.recs[r.ID] = r
	return nil
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
		Status: Working, StatusMessage: "running", CreatedAt: now, UpdatedAt: now}
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

// ErrNotFound is a task id this store never issued.
var ErrNotFound = errors.New("no such task")

// finish moves a working task to a terminal state.
func (s *Store) finish(id string, set func(r *Record)) (Record, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	cur := s.recs[id]
	if cur == nil {
		return Record{}, ErrNotFound
	}
	if cur.Status.Terminal() {
		return *cur, fmt.Errorf("task %s already ended as %s", id, cur.Status)
	}
	next := *cur
	set(&next)
	next.StatusMessage = clip(next.StatusMessage)
	next.UpdatedAt = s.now().UTC()
	if next.UpdatedAt.Before(next.CreatedAt) {
		next.UpdatedAt = next.CreatedAt
	}
	if err := s.put(&next); err != nil {
		return *cur, err
	}
	return next, nil
}

// Complete stores a finished task's result body (the rendered tool
// result) and then its record. A body over the record limit is not
// truncated: the task is stored as failed with a message that says so.
//
// The saved result is the commit point: once it is on disk whole, the
// task has completed, and a restart recovers it as completed from that
// file (recover). So when the record after it cannot be written, the task
// is completed in this process too, with the message a restart will give
// (message must be Summary of the body's verdict), and the error is
// returned beside it. Reporting it failed would tell the agent to run a
// finished transfer again, and the next start would contradict it.
func (s *Store) Complete(id string, body []byte, message string) (Record, error) {
	if len(body)+maxMeta > MaxRecord {
		return s.Fail(id, fmt.Sprintf("the task finished, but its result (%d bytes) is over the %d-byte limit on a stored task record, so it was not kept. SnowLuma has acted: the transfer ran to its end. Check the download directory or the remote side; re-running stores the same oversized result.", len(body), MaxRecord-maxMeta))
	}
	if err := writeAtomic(s.tasks, id+".result", body); err != nil {
		return Record{}, err
	}
	sum := sha256.Sum256(body)
	set := func(r *Record) {
		r.Status, r.StatusMessage = Completed, message
		r.Result = &Body{Size: int64(len(body)), SHA256: hex.EncodeToString(sum[:])}
	}
	rec, err := s.finish(id, set)
	if err != nil && !rec.Status.Terminal() {
		return s.settle(id, set), err
	}
	return rec, err
}

// Summary is a completed task's status message, from its result's verdict:
// the runner gives it from the result it holds, a restart from the saved
// body, so both say the same.
func Summary(isError bool, outcome string) string {
	switch {
	case isError:
		return "completed with a tool error; see result.structuredContent.diagnostics"
	case outcome != "":
		return "completed: outcome " + outcome
	}
	return "completed"
}

// summaryOf is Summary of a saved result body.
func summaryOf(body []byte) string {
	var r struct {
		IsError           bool `json:"isError"`
		StructuredContent struct {
			Diagnostics struct {
				Outcome string `json:"outcome"`
			} `json:"diagnostics"`
		} `json:"structuredContent"`
	}
	_ = json.Unmarshal(body, &r) // a body without them is still a finished task
	return Summary(r.IsError, r.StructuredContent.Diagnostics.Outcome)
}

// Fail ends a task as failed with message.
func (s *Store) Fail(id, message string) (Record, error) {
	return s.finish(id, func(r *Record) {
		r.Status, r.StatusMessage = Failed, message
		r.Error = &Error{Code: CodeInternal, Message: clip(message)}
	})
}

// Cancel ends a task as cancelled with message.
func (s *Store) Cancel(id, message string) (Record, error) {
	return s.finish(id, func(r *Record) { r.Status, r.StatusMessage = Cancelled, message })
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

// Get returns a task's record.
func (s *Store) Get(id string) (Record, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r := s.recs[id]; r != nil {
		return *r, nil
	}
	return Record{}, ErrNotFound
}

// Result reads a completed task's result body and proves it is the one
// written: same size, same digest.
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
	return body, nil
}

// Page lists records newest first, after the position of cursor (the
// last record of the previous page; nil for the first), at most limit.
// more reports whether records remain after the page.
func (s *Store) Page(cursor *Record, limit int) (page []Record, more bool) {
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
	return all[start:end], end < len(all)
}

// newer orders records newest first, by creation and then by id, so the
// order is total and a page boundary never moves.
func newer(a, b Record) bool {
	if !a.CreatedAt.Equal(b.CreatedAt) {
		return a.CreatedAt.After(b.CreatedAt)
	}
	return a.ID > b.ID
}

func clip(s string) string {
	if len(s) <= maxMessage {
		return s
	}
	cut := maxMessage
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}

// lost marks a task failed in memory only, when even recording its failure
// failed: this process reports the truth, and the record on disk still
// says working, which the next start also turns into a failure.
func (s *Store) lost(id, message string) Record {
	return s.settle(id, func(r *Record) {
		r.Status, r.StatusMessage, r.Error = Failed, clip(message), &Error{Code: CodeInternal, Message: clip(message)}
	})
}

// settle ends a working task in memory only, for when its record cannot be
// written; the status it sets must be the one the next start will give.
func (s *Store) settle(id string, set func(r *Record)) Record {
	s.mu.Lock()
	defer s.mu.Unlock()
	cur := s.recs[id]
	if cur == nil {
		return Record{}
	}
	if cur.Status.Terminal() {
		return *cur
	}
	next := *cur
	set(&next)
	next.UpdatedAt = s.now().UTC()
	s.recs[id] = &next
	return next
}

// readPrivate reads a store file of at most limit bytes (one more is read,
// so a longer file fails validation), refusing one others could read.
func readPrivate(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := privateFile(path, info); err != nil {
		return nil, err
	}
	return io.ReadAll(io.LimitReader(f, limit+1))
}
