// Package execute hands each execution call its own OneBot client, bound to
// the call's trace headers, so concurrent calls never share headers and
// handlers never touch tracing. The client itself never retries. It also
// holds the stream slots: at most SNOWLUMA_MCP_MAX_STREAMS stream actions run
// at once; the next one waits for a free slot for up to the stream connect
// timeout, then fails with kind "limit".
package execute

import (
	"context"
	"time"

	"github.com/snowluma/snowluma-mcp/fault"
	"github.com/snowluma/snowluma-mcp/onebot"
	"github.com/snowluma/snowluma-mcp/pipeline"
	"github.com/snowluma/snowluma-mcp/stages/trace"
)

// Stage is the execution stage.
type Stage struct {
	client *onebot.Client
	slots  chan struct{}
	wait   time.Duration
}

// New returns the stage; client is nil in docs mode. maxStreams slots are
// shared by every call of the server; a stream waits at most wait for one.
func New(client *onebot.Client, maxStreams int, wait time.Duration) Stage {
	return Stage{client: client, slots: make(chan struct{}, max(maxStreams, 1)), wait: wait}
}

// Name implements pipeline.Stage.
func (Stage) Name() string { return "execute" }

// Wrap implements pipeline.Stage.
func (s Stage) Wrap(next pipeline.Handler) pipeline.Handler {
	return func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
		if s.client == nil {
			if c.Tool.Route != pipeline.RouteNone {
				return nil, fault.Errorf(fault.CodeModeDenied, s.Name(), "no SnowLuma endpoint is configured (docs mode)")
			}
			return next(ctx, c)
		}
		c.OneBot = s.client.With(trace.Headers(c.Span))
		if c.Action != nil && c.Action.Stream {
			release, err := s.acquire(ctx)
			if err != nil {
				return nil, err
			}
			defer release()
		}
		return next(ctx, c)
	}
}

func (s Stage) acquire(ctx context.Context) (func(), error) {
	timer := time.NewTimer(s.wait)
	defer timer.Stop()
	select {
	case s.slots <- struct{}{}:
		return func() { <-s.slots }, nil
	case <-ctx.Done():
		return nil, fault.Wrap(fault.CodeCancelled, s.Name(), ctx.Err(), "cancelled while waiting for a free stream slot")
	case <-timer.C:
		return nil, fault.Errorf(fault.CodeLimit, s.Name(), "all %d stream slots stayed busy for %s", cap(s.slots), s.wait)
	}
}
