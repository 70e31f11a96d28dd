// Package calllog writes the one diagnostic line per tool call that lets an
// operator follow a call into SnowLuma's logs: the tool, the traceparent, the
// outcome, the failure kind and the duration. By design it has no access to
// arguments or results beyond the verdict, so message contents, tokens, file
// paths and tracestate cannot leak into it.
//
// It writes exactly one line per call: a synchronous call's; a background
// call's from its task's run, naming the tool the task runs and giving the
// work's outcome; or, for a background call refused before its task
// existed, from the admission, naming the tool called and giving the
// refusal. An admission that started a task writes nothing: its run writes
// the call's line.
package calllog

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/snowluma/snowluma-mcp/internal/span"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// Stage is the call log stage.
type Stage struct {
	mu  *sync.Mutex
	w   io.Writer
	now func() time.Time
}

// New returns a stage writing to w (stderr in production).
func New(w io.Writer, now func() time.Time) Stage {
	return Stage{mu: &sync.Mutex{}, w: w, now: now}
}

// Wrap implements pipeline.Stage.
func (s Stage) Wrap(t *pipeline.Tool, next pipeline.Handler) pipeline.Handler {
	return func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
		start := s.now()
		r, err := next(ctx, c)
		if r != nil && r.Task != nil {
			// An admitted background call: its task's run writes the line.
			return r, err
		}
		if r != nil && len(r.InputRequests) > 0 {
			// Not a completed call but a question to the user: the call's
			// line is written when it resumes (for legacy clients the SDK
			// resumes it inside the same tools/call).
			return r, err
		}
		outcome, kind := "failed", "internal"
		if r != nil {
			outcome, kind = string(r.Diagnostics.Outcome), r.Diagnostics.Kind
		}
		if kind == "" {
			kind = "-"
		}
		line := fmt.Sprintf("snowluma-mcp call tool=%s traceparent=%s outcome=%s kind=%s duration_ms=%.1f",
			t.Name, span.Traceparent(c.Span), outcome, kind, float64(s.now().Sub(start).Microseconds())/1000)
		if c.TraceNote != "" {
			line += " trace_meta=invalid_ignored"
		}
		s.mu.Lock()
		fmt.Fprintln(s.w, line)
		s.mu.Unlock()
		return r, err
	}
}
