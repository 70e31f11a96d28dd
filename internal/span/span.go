// Package span is W3C trace context for one tool call: it derives a call's
// span from the caller's _meta (keeping a valid trace ID, always minting a
// new span ID) and formats the headers that carry it to SnowLuma. It lives
// below the stages because the trace stage, the call log and the execution
// stage all need it. It uses OpenTelemetry's propagation API only: no
// exporter, nothing recorded.
package span

import (
	"context"
	"crypto/rand"
	"net/http"

	"go.opentelemetry.io/otel/propagation"
	oteltrace "go.opentelemetry.io/otel/trace"
)

// InvalidNote is the one fixed diagnostic for malformed caller trace metadata.
const InvalidNote = "invalid trace metadata ignored"

// Limits of the W3C tracestate header that we enforce before forwarding.
const (
	maxTraceStateLen     = 512
	maxTraceStateMembers = 32
)

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
