// Package deadline bounds how long a call may wait for SnowLuma (the
// ordinary request timeout; docs calls finish long before it).
// Cancellation itself needs no code here: the SDK cancels the call's context
// on notifications/cancelled and everything below honours it, down to the
// response-body read.
package deadline

import (
	"context"
	"time"

	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// Stage is the deadline stage.
type Stage struct{ timeout time.Duration }

// New returns the stage with the ordinary request timeout.
func New(timeout time.Duration) Stage { return Stage{timeout: timeout} }

// Wrap implements pipeline.Stage.
func (s Stage) Wrap(_ *pipeline.Tool, next pipeline.Handler) pipeline.Handler {
	return func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
		if err := ctx.Err(); err != nil {
			return nil, fault.Wrap(fault.CodeCancelled, err, "call cancelled before it started").Unsent()
		}
		if c.Action != nil && c.Action.Stream {
			// Streams keep their own connect and idle timeouts instead.
			return next(ctx, c)
		}
		ctx, cancel := context.WithTimeout(ctx, s.timeout)
		defer cancel()
		return next(ctx, c)
	}
}
