package task

// What a transfer leaves behind. A running task's record is its call's
// pipeline.Trail: what the transfer is about to leave behind goes into the
// record durably before it exists, so that a start after a crash can clean
// it up (Sweeper); how the cleanup went stays in memory for the task's
// last message (fate).

import (
	"errors"
	"fmt"
	"os"
	"strings"
)

// Partial implements pipeline.Trail.
func (t *running) Partial(path string) error {
	if err := t.store.leave(t.id, func(r *Record) { r.PartialFile = path }); err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.partial = path
	return nil
}

// Removed implements pipeline.Trail.
func (t *running) Removed(_ string, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.removed, t.removeErr = true, err
}

// Stream implements pipeline.Trail.
func (t *running) Stream(id string) error {
	if err := t.store.leave(t.id, func(r *Record) { r.UploadStream = id }); err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.stream = id
	return nil
}

// Reset implements pipeline.Trail.
func (t *running) Reset(_ string, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.reset, t.resetErr = true, err
}

// fate says, in the user's words, what became of a transfer that stopped
// before its end: its partial file, its upload stream. Empty when it had
// left nothing anywhere yet.
func (t *running) fate() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out string
	switch {
	case t.partial != "" && t.removed && t.removeErr == nil:
		out = "its partial download file was removed, so nothing of it is left on the MCP host."
	case t.partial != "" && t.removed:
		out = fmt.Sprintf("its partial download file %s could not be removed (%v); delete it yourself.", t.partial, t.removeErr)
	}
	switch {
	case t.stream != "" && t.reset && t.resetErr == nil:
		out += fmt.Sprintf(" The upload stream %s was reset and SnowLuma confirmed the reset, so it keeps none of the chunks it had received.", t.stream)
	case t.stream != "" && t.reset:
		out += fmt.Sprintf(" The reset of upload stream %s did not reach SnowLuma (%v), so SnowLuma keeps the chunks it received until the stream has been idle for 10 minutes.", t.stream, t.resetErr)
	case t.stream != "":
		out += " SnowLuma had received nothing of the upload, so there was nothing to reset."
	}
	return strings.TrimSpace(out)
}

// Sweeper cleans up what the tasks a dead process left unfinished had
// left behind, when a server settles them (at its start, or when it reads
// one). Either function may be nil, when that cleanup is not
// possible; the task's message then says what may remain.
type Sweeper struct {
	// RemovePartial deletes a download's partial file; an error matching
	// os.ErrNotExist means it was already gone.
	RemovePartial func(path string) error
	// ResetUpload asks SnowLuma to drop an upload stream. It must send
	// nothing but the reset: a reset is cleanup, never a replay.
	ResetUpload func(id string) error
}

// sweep cleans up after one unfinished task and says how it went, in
// sentences for the task's message. Empty when the record names nothing.
func (sw *Sweeper) sweep(r *Record) string {
	var out string
	if p := r.PartialFile; p != "" {
		var err error
		if sw == nil || sw.RemovePartial == nil {
			err = errors.New("this server could not clean it up")
		} else {
			err = sw.RemovePartial(p)
		}
		switch {
		case err == nil:
			out = "Its partial download file has since been removed, so nothing of it is left on the MCP host."
		case errors.Is(err, os.ErrNotExist):
			out = "Its partial download file was already gone, so nothing of it is left on the MCP host."
		default:
			out = fmt.Sprintf("Its partial download file %s could not be removed afterwards (%v); delete it yourself.", p, err)
		}
	}
	if id := r.UploadStream; id != "" {
		var err error
		if sw == nil || sw.ResetUpload == nil {
			err = errors.New("this server could not send one")
		} else {
			err = sw.ResetUpload(id)
		}
		if err == nil {
			out += fmt.Sprintf(" A reset of its upload stream %s has since been sent and SnowLuma confirmed it, so SnowLuma keeps none of the chunks it had received; a file SnowLuma had already completed is not removed by a reset and stays on the SnowLuma host. Start it again if you still need it.", id)
		} else {
			out += fmt.Sprintf(" The reset of its upload stream %s did not reach SnowLuma afterwards (%v), so SnowLuma keeps the chunks it received until the stream has been idle for 10 minutes, and a file it had already completed stays on the SnowLuma host.", id, err)
		}
	}
	return strings.TrimSpace(out)
}
