// Package trace gives every tool call its own W3C trace context. A valid
// caller traceparent in the call's _meta keeps its trace ID; the call always
// gets a fresh span ID, so the traceparent on the result names this call and
// nothing else. It uses OpenTelemetry's propagation API only: no exporter,
// nothing recorded.
package trace

import (
	"context"
	"crypto/rand"
	"net/http"

	"go.opentelemetry.io/otel/propagation"
	oteltrace "go.opentelemetry.io/otel/trace"

	"github.com/snowluma/snowluma-mcp/pipeline"
)

// InvalidNote is the one fixed diagnostic for malformed caller trace metadata.
const InvalidNote = "invalid trace metadata ignored"

// Limits of the W3C tracestate header that we enforce before forwarding.
const (
	maxTraceStateLen     = 512
	maxTraceStateMembers = 32
)

// Stage is the trace stage.
type Stage struct{}

// New returns the trace stage.
func New() Stage { return Stage{} }

// Name implements pipeline.Stage.
func (Stage) Name() string { return "trace" }

// Wrap implements pipeline.Stage.
func (Stage) Wrap(next pipeline.Handler) pipeline.Handler {
	return func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
		c.Span, c.TraceNote = Start(meta(c))
		r, err := next(ctx, c)
		if r != nil {
			if r.Meta == nil {
				r.Meta = map[string]any{}
			}
			r.Meta["traceparent"] = Traceparent(c.Span)
		}
		return r, err
	}
}

func meta(c *pipeline.Call) map[string]any {
	if c.Request == nil || c.Request.Params == nil {
		return nil
	}
	return c.Request.Params.Meta
}

// Start derives the span context of a new call from the caller's _meta. The
// note is InvalidNote when the caller sent trace metadata we had to drop.
func Start(m map[string]any) (oteltrace.SpanContext, string) {
	carrier := propagation.MapCarrier{}
	note := ""
	tp, hasTP := m["traceparent"]
	ts, hasTS := m["tracestate"]
	if s, ok := tp.(string); ok {
		carrier["traceparent"] = s
	} else if hasTP {
		note = InvalidNote
	}
	if s, ok := ts.(string); ok && len(s) <= maxTraceStateLen {
		carrier["tracestate"] = s
	} else if hasTS {
		note = InvalidNote
	}
	parent := oteltrace.SpanContextFromContext(propagation.TraceContext{}.Extract(context.Background(), carrier))
	if carrier["traceparent"] != "" && !parent.IsValid() {
		note = InvalidNote
	}
	if carrier["tracestate"] != "" && parent.IsValid() &&
		(parent.TraceState().Len() == 0 || parent.TraceState().Len() > maxTraceStateMembers) {
		note = InvalidNote
	}
	cfg := oteltrace.SpanContextConfig{SpanID: newSpanID(), TraceFlags: oteltrace.FlagsSampled}
	if parent.IsValid() {
		cfg.TraceID = parent.TraceID()
		cfg.TraceFlags = parent.TraceFlags()
		if parent.TraceState().Len() <= maxTraceStateMembers {
			cfg.TraceState = parent.TraceState()
		}
	} else {
		cfg.TraceID = newTraceID()
	}
	return oteltrace.NewSpanContext(cfg), note
}

// Traceparent formats sc as a W3C traceparent value.
func Traceparent(sc oteltrace.SpanContext) string {
	return Headers(sc).Get("traceparent")
}

// Headers returns the HTTP headers that carry sc to SnowLuma: traceparent
// and, when present, tracestate. Baggage is never among them.
func Headers(sc oteltrace.SpanContext) http.Header {
	h := http.Header{}
	if sc.IsValid() {
		propagation.TraceContext{}.Inject(oteltrace.ContextWithSpanContext(context.Background(), sc), propagation.HeaderCarrier(h))
	}
	return h
}

func newTraceID() oteltrace.TraceID {
	var id oteltrace.TraceID
	for !id.IsValid() {
		_, _ = rand.Read(id[:])
	}
	return id
}

func newSpanID() oteltrace.SpanID {
	var id oteltrace.SpanID
	for !id.IsValid() {
		_, _ = rand.Read(id[:])
	}
	return id
}
