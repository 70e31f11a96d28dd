package task

// Settling the tasks of a server that is gone: what it left working is
// ended as a restart would end it, and what it left behind is cleaned up.

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"sync"
)

// unrecorded opens the message of a task found unfinished at start: the
// process that ran it is gone, and nobody knows how far SnowLuma got.
const unrecorded = "remote outcome unknown: the end of this task was never recorded (the server stopped while it was running, or could not write to SNOWLUMA_MCP_TASK_DIR), so it is marked failed and is never replayed."

// UnknownOutcome is the whole message of such a task whose record names
// nothing it left behind (it was written before leftovers were recorded,
// or the process died before the transfer began).
const UnknownOutcome = unrecorded + " SnowLuma may have acted (part or all of an upload may have arrived; a download's partial file may remain). Check the remote side or the download directory before starting the transfer again."

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
