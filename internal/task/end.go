package task

// How a task's record ends: completed with its saved result, failed or
// cancelled with a message, and, when even that cannot be written, ended
// in memory as the next start will end it.

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
)

// CodeInternal is the JSON-RPC code of a failed task's error: failed is
// for failures outside the tool itself.
const CodeInternal = -32603

// maxMessage bounds a stored status message.
const maxMessage = 2048

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
