package task

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/gofrs/flock"

	"github.com/snowluma/snowluma-mcp/internal/access"
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
	_, statErr := os.Stat(s.tasks)
	if err := bind(dir, scope, errors.Is(statErr, os.ErrNotExist)); err != nil {
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

// settleGone settles the tasks of every owner that is gone, and removes
// the lock files of gone owners that had none left (a server that exited
// cleanly removes its own). Cancel requests whose task has ended are
// removed too.
func (s *Store) settleGone() (int, error) {
	owners := map[string]bool{}
	s.mu.Lock()
	for _, r := range s.recs {
		if r.Status == Working {
			owners[ownerOf(r)] = true
		}
	}
	s.mu.Unlock()
	files, err := os.ReadDir(s.owners)
	if err != nil {
		return 0, err
	}
	for _, f := range files {
		owners[f.Name()] = true
	}
	delete(owners, s.owner)
	total := 0
	for owner := range owners {
		n, err := s.settleOwner(owner)
		if err != nil {
			return total, err
		}
		total += n
	}
	return total, s.sweepCancels()
}

// settleOwner settles the working tasks of owner when it is gone (its
// lock can be taken): with today's recovery, as after a restart. n is how
// many it settled; 0 when the owner lives or another server is settling
// it. A lock that cannot be taken for another reason counts as held: the
// tasks stay working, and the next read tries again.
func (s *Store) settleOwner(owner string) (n int, err error) {
	if owner == s.owner {
		return 0, nil
	}
	s.settling.Lock()
	defer s.settling.Unlock()
	l, ok, err := s.claim(owner)
	if err != nil || !ok {
		return 0, nil
	}
	// The owner is gone and this process alone holds its lock: nothing
	// else writes its tasks now. Read them as they are on disk.
	if err := s.refresh(); err != nil {
		_ = l.Close()
		return 0, err
	}
	var left []*Record
	s.mu.Lock()
	for _, r := range s.recs {
		if r.Status == Working && ownerOf(r) == owner {
			left = append(left, r)
		}
	}
	s.mu.Unlock()
	if n, err = s.recover(left); err != nil {
		// Keep the file: what it covers is not all settled.
		_ = l.Close()
		return n, err
	}
	return n, drop(l)
}

// recover settles the tasks a gone process left working. Their cleanups
// (a file removal, a reset sent to SnowLuma) run at once, each bounded by
// its own timeout, so the wait is for the slowest only.
func (s *Store) recover(left []*Record) (int, error) {
	notes := make([]string, len(left))
	saved := make([]bool, len(left))
	var wg sync.WaitGroup
	for i, r := range left {
		if _, err := os.Stat(s.path(r.ID, "result")); err == nil {
			saved[i] = true
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			notes[i] = s.sweep.sweep(r)
		}()
	}
	wg.Wait()
	for i, r := range left {
		next := *r
		next.UpdatedAt = s.now().UTC()
		if next.UpdatedAt.Before(next.CreatedAt) {
			next.UpdatedAt = next.CreatedAt
		}
		if saved[i] {
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
		s.mu.Lock()
		err := s.put(&next)
		s.mu.Unlock()
		if err != nil {
			return 0, err
		}
		s.clearCancel(r.ID)
	}
	return len(left), nil
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
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	if closed {
		return Record{}, errClosed
	}
	if err := writeAtomicAs(s.tasks, s.owner, id+".result", body); err != nil {
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
	r, err := s.readRecord(id)
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
	return access.Read(path, limit+1, private.File)
}
