// Package trace is the stage that gives every tool call its own W3C trace
// context (see package span) and names the call's span in the result's
// _meta.traceparent, tool errors included.
package trace

import (
	"context"

	"github.com/snowluma/snowluma-mcp/internal/span"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// New returns the trace stage: it keeps no state, so it is a function.
func New() pipeline.Stage { return pipeline.StageFunc("trace", wrap) }

func wrap(_ *pipeline.Tool, next pipeline.Handler) pipeline.Handler {
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
