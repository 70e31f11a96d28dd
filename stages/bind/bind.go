// Package bind binds each call to its own OneBot client, carrying the call's
// trace headers, so concurrent calls never share headers and handlers never
// touch tracing. It executes nothing: the handler sends the call's action. The client itself never retries. A stream action also takes
// a slot from the shared pool (see package slot) for as long as it runs.
package bind

import (
	"context"

	"github.com/snowluma/snowluma-mcp/internal/slot"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/onebot"
	"github.com/snowluma/snowluma-mcp/internal/span"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// Stage is the binding stage: the innermost, next to the handler.
type Stage struct {
	client *onebot.Client
	slots  *slot.Pool
}

// New returns the stage; client is nil in docs mode, where the gate has
// already refused every tool that runs actions.
func New(client *onebot.Client, slots *slot.Pool) Stage {
	return Stage{client: client, slots: slots}
}

// Wrap implements pipeline.Stage.
func (s Stage) Wrap(_ *pipeline.Tool, next pipeline.Handler) pipeline.Handler {
	if s.client == nil {
		return next
	}
	return func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
		c.OneBot = s.client.With(span.Headers(c.Span))
		if c.Action != nil && c.Action.Stream {
			release, err := s.slots.Acquire(ctx, func() { c.Queue(true, s.slots.Size()) })
			if err != nil {
				return nil, err
			}
			c.Queue(false, s.slots.Size())
			defer release()
		}
		return next(ctx, c)
	}
}
