package task

// How a task's record ends. A run's end (conclude) is decided here,
// beside the writes that make it: completed with its saved result, failed
// or cancelled with a message that says what became of the transfer, and,
// when even that cannot be written, ended in memory as the next start
// will end it. The runner only says how the run ended (ending).

import (
	"bytes"
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

// ending is how a run ended, as its runner saw it: what the chain
// returned, and whether a cancel (cancelled) or the server's stop
// (stopping) had ended the run's context.
type ending struct {
	res                 Result
	err                 error
	cancelled, stopping bool
}

// conclude records how the run ended and removes any cancel request left
// for it. The record returned has ended even when writing it failed: the
// error then comes beside it, and the task is failed on disk, or, when
// not even that can be written, in memory, as the next start reads it.
func (t *running) conclude(e ending) (Record, error) {
	defer t.store.clearCancel(t.id)
	t.mu.Lock()
	queued := t.queued
	t.mu.Unlock()
	var rec Record
	var err error
	if queued {
		rec, err = t.unstarted(e)
	} else {
		rec, err = t.record(e)
	}
	if err != nil && !rec.Status.Terminal() {
		msg := fmt.Sprintf("the task ended, but how it ended could not be saved in SNOWLUMA_MCP_TASK_DIR (%v). SnowLuma may have acted: check the download directory or the remote side before starting it again", err)
		var ferr error
		if rec, ferr = t.store.Fail(t.id, msg); ferr != nil {
			// Not even the failure can be written: this process still
			// tells the truth, and a restart reads the record as unknown.
			rec = t.store.lost(t.id, msg+"; after a restart it reads as failed with the remote outcome unknown")
		}
	}
	return rec, err
}

// record stores how a task that got going ended; a run cut short says
// what became of what its transfer had begun (fate).
func (t *running) record(e ending) (Record, error) {
	res := e.res
	// A run cut short returns no result or an error result; a result
	// already in flight wins over the cancel or the stop.
	interrupted := res == nil || res.Failed()
	switch {
	case interrupted && e.stopping:
		fate := t.fate()
		if fate == "" {
			fate = "The remote outcome is unknown: SnowLuma may have received part of an upload."
		}
		return t.store.Fail(t.id, "the server stopped while this task was running, so the transfer was cancelled: "+fate+" The task is never replayed; start it again if you still need it.")
	case interrupted && e.cancelled:
		fate := t.fate()
		if fate == "" {
			fate = "it had left nothing behind yet."
		}
		return t.store.Cancel(t.id, "cancelled on request, and the transfer stopped: "+fate+" Cancelling does not undo what SnowLuma already received.")
	case e.err != nil || res == nil:
		return t.store.Fail(t.id, "the task's pipeline produced no result; SnowLuma may have acted, so check before starting it again")
	}
	body, err := res.Stored()
	if err != nil {
		return t.store.Fail(t.id, "the task's result could not be encoded: "+err.Error())
	}
	return t.store.Complete(t.id, body, Summary(res.Failed(), res.Outcome()))
}

// unstarted stores the end of a task that never got a stream slot: nothing
// was sent, so it failed (or was cancelled) without acting.
func (t *running) unstarted(e ending) (Record, error) {
	switch {
	case e.cancelled:
		return t.store.Cancel(t.id, "cancelled on request while waiting for a free stream slot; the transfer never started and nothing was sent to SnowLuma.")
	case e.stopping:
		return t.store.Fail(t.id, "the server stopped while this task waited for a free stream slot; the transfer never started and nothing was sent to SnowLuma. The task is never replayed; start it again if you still need it.")
	}
	why := "no stream slot became free"
	if e.res != nil && e.res.Message() != "" {
		why = e.res.Message()
	}
	return t.store.Fail(t.id, "the task never got a stream slot: "+why+". Start it again when fewer transfers run (or raise SNOWLUMA_MCP_MAX_STREAMS).")
}

// Render is the stored form of a finished call: exactly the tool result
// tools/call returns to a 2026-07-28 client (result is pipeline.Render's,
// and the resultType the protocol adds comes first), so tasks/get can hand
// it back unchanged.
func Render(result any) ([]byte, error) {
	data, err := json.Marshal(result)
	if err != nil {
		return nil, err
	}
	if !bytes.HasPrefix(data, []byte("{")) {
		return nil, fmt.Errorf("a tool result encoded as %.20q", data)
	}
	if bytes.Equal(data, []byte("{}")) {
		return []byte(`{"resultType":"complete"}`), nil
	}
	return append([]byte(`{"resultType":"complete",`), data[1:]...), nil
}

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
