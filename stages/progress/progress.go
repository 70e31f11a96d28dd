// Package progress throttles a handler's progress reports into the call's
// Notify (MCP progress notifications for a tools/call that carries
// _meta.progressToken, the task record for a background task): at most one
// per interval (250 ms), values strictly increasing, nothing after the
// result or a cancellation. The end of a transfer is never reported as
// progress: a value that reaches the known total is not sent, and the value
// still pending when the handler returns is dropped. The result says what
// was transferred, and a notification written just before it is one the
// TypeScript clients lose (they drop the call's progress handler as soon as
// they read the response, and a notification read in the same chunk is
// then reported as an error). A notification that cannot be delivered is
// not fatal, but the result's diagnostics say so.
package progress

import (
	"context"
	"sync"
	"time"

	"github.com/snowluma/snowluma-mcp/pipeline"
)

// Interval is the least time between two notifications of one call.
const Interval = 250 * time.Millisecond

// Stage is the progress stage.
type Stage struct{ interval time.Duration }

// New returns the stage.
func New(interval time.Duration) Stage { return Stage{interval: interval} }

// Wrap implements pipeline.Stage.
func (s Stage) Wrap(_ *pipeline.Tool, next pipeline.Handler) pipeline.Handler {
	return func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
		if c.Notify == nil {
			c.Progress = func(int64, int64) {}
			return next(ctx, c)
		}
		notify := c.Notify
		r := &reporter{interval: s.interval, last: -1, send: func(done, total int64) error {
			return notify(ctx, done, total)
		}}
		c.Progress = r.report
		res, err := next(ctx, c)
		deliveryErr := r.finish()
		if deliveryErr != nil && res != nil {
			res.Diagnostics.Note("progress notifications could not be delivered: " + deliveryErr.Error())
		}
		return res, err
	}
}

// reporter throttles one call's notifications.
type reporter struct {
	interval time.Duration
	send     func(done, total int64) error

	mu       sync.Mutex
	last     int64 // last value sent, -1 before the first
	sentAt   time.Time
	pending  bool
	done     int64
	total    int64
	timer    *time.Timer
	closed   bool
	firstErr error
}

func (r *reporter) report(done, total int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed || done <= r.last || (r.pending && done <= r.done) || (total > 0 && done >= total) {
		return // a complete transfer is the result's to report
	}
	r.pending, r.done, r.total = true, done, total
	if wait := r.interval - time.Since(r.sentAt); wait > 0 {
		r.armLocked(wait)
		return
	}
	r.flushLocked()
}

// armLocked sets the one timer that sends the pending value later.
func (r *reporter) armLocked(wait time.Duration) {
	if r.timer == nil {
		r.timer = time.AfterFunc(wait, r.fire)
	}
}

// fire sends the pending value unless the last send is still too recent
// (a report may have sent at once while the timer was waiting), in which
// case it waits again: two sends are never less than an interval apart.
func (r *reporter) fire() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.timer = nil
	if r.closed || !r.pending {
		return
	}
	if wait := r.interval - time.Since(r.sentAt); wait > 0 {
		r.armLocked(wait)
		return
	}
	r.flushLocked()
}

func (r *reporter) flushLocked() {
	if !r.pending {
		return
	}
	r.pending = false
	if err := r.send(r.done, r.total); err != nil && r.firstErr == nil {
		r.firstErr = err
	}
	r.last, r.sentAt = r.done, time.Now()
}

// finish stops the reporter, dropping any pending value: the result comes
// next and supersedes it. It returns the first delivery failure.
func (r *reporter) finish() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.timer != nil {
		r.timer.Stop()
		r.timer = nil
	}
	r.pending, r.closed = false, true
	return r.firstErr
}
