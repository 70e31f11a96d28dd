// Package execute hands each execution call its own OneBot client, bound to
// the call's trace headers, so concurrent calls never share headers and
// handlers never touch tracing. The client itself never retries.
package execute

import (
	"context"

	"github.com/snowluma/snowluma-mcp/fault"
	"github.com/snowluma/snowluma-mcp/onebot"
	"github.com/snowluma/snowluma-mcp/pipeline"
	"github.com/snowluma/snowluma-mcp/stages/trace"
)

// Stage is the execution stage.
type Stage struct{ client *onebot.Client }

// New returns the stage; client is nil in docs mode.
func New(client *onebot.Client) Stage { return Stage{client: client} }

// Name implements pipeline.Stage.
func (Stage) Name() string { return "execute" }

// Wrap implements pipeline.Stage.
func (s Stage) Wrap(next pipeline.Handler) pipeline.Handler {
	return func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
		if s.client != nil {
			c.OneBot = s.client.With(trace.Headers(c.Span))
		} else if c.Tool.Route != pipeline.RouteNone {
			return nil, fault.Errorf(fault.CodeModeDenied, s.Name(), "no SnowLuma endpoint is configured (docs mode)")
		}
		return next(ctx, c)
	}
}
