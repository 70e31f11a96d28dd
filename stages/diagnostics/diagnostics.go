// Package diagnostics is the diagnostics stage: it guarantees that every call
// ends as a result with a verdict and an encoded payload, ready for
// pipeline.Render. A failure raised inside it (by a stage: arguments, gate,
// params, timeout; or by the handler: transport, SnowLuma's reply) becomes
// a tool error through pipeline.Failure, and so does its own, a payload
// that cannot be encoded: no error leaves it. A business failure SnowLuma
// reports in its envelope is no error: the handler's result carries it.
package diagnostics

import (
	"context"

	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/payload"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// Stage is the diagnostics stage.
type Stage struct{}

// New returns the stage.
func New() Stage { return Stage{} }

// Wrap implements pipeline.Stage.
func (s Stage) Wrap(_ *pipeline.Tool, next pipeline.Handler) pipeline.Handler {
	return func(ctx context.Context, c *pipeline.Call) (r *pipeline.Result, _ error) {
		// How long a send was held for its budget belongs to every
		// verdict: the result, a failure after the wait, a refusal.
		defer func() { r.Diagnostics.HeldMS = c.Held.Milliseconds() }()
		r, err := next(ctx, c)
		if err != nil {
			return pipeline.Failure(c, err), nil
		}
		encoded, err := payload.Encode(r.Payload)
		if err != nil {
			return pipeline.Failure(c, fault.Wrap(fault.CodeInternal, err, "encode result")), nil
		}
		r.Payload = encoded
		if r.Diagnostics.Outcome == "" {
			r.Diagnostics.Outcome = pipeline.OutcomeSuccess
		}
		return r, nil
	}
}
