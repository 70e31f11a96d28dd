// Package progress throttles a handler's progress reports into the call's
// Notify (MCP progress notifications for a tools/call that carries
// _meta.progressToken, the task record for a background task): at most one
// per interval (250 ms), values strictly increasing, the last pending value
// sent just before a successful result, nothing after completion or
// cancellation. A notification that cannot be delivered is not fatal, but the
// result's diagnostics say so.
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

// Name implements pipeline.Stage.
func (Stage) Name() string { return "progress" }

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
		deliveryErr := r.finish(err == nil && res != nil && !res.IsError && ctx.Err() == nil)
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
	if r.closed || done <= r.last || (r.pending && done <= r.done) {
		return
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

// finish stops the reporter. On success the pending value goes out first;
// otherwise it is dropped. It returns the first delivery failure.
func (r *reporter) finish(success bool) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.timer != nil {
		r.timer.Stop()
		r.timer = nil
	}
	if success && !r.closed {
		r.flushLocked()
	}
	r.closed = true
	return r.firstErr
}
