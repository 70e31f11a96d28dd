// Package trace is the stage that gives every tool call its own W3C trace
// context (see package span) and names the call's span in the result's
// _meta.traceparent, tool errors included.
package trace

import (
	"context"

	"github.com/snowluma/snowluma-mcp/internal/span"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// Stage is the trace stage; it keeps no state.
type Stage struct{}

// New returns the trace stage.
func New() pipeline.Stage { return Stage{} }

// Wrap implements pipeline.Stage.
func (Stage) Wrap(_ *pipeline.Tool, next pipeline.Handler) pipeline.Handler {
	return func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
		c.Span, c.TraceNote = span.Start(c.Meta)
		r, err := next(ctx, c)
		if r != nil {
			if r.Meta == nil {
				r.Meta = map[string]any{}
			}
			r.Meta["traceparent"] = span.Traceparent(c.Span)
		}
		return r, err
	}
}
