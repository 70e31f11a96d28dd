package span

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"

func TestStart(t *testing.T) {
	t.Parallel()
	many := make([]string, 33)
	for i := range many {
		many[i] = "k" + string(rune('a'+i%26)) + strings.Repeat("x", i/26) + "=v"
	}
	tests := []struct {
		name      string
		meta      map[string]any
		keepTrace bool
		state     string
		note      string
	}{
		{"starts a new trace without metadata", nil, false, "", ""},
		{"keeps the caller's trace id", map[string]any{"traceparent": parent}, true, "", ""},
		{"forwards a valid tracestate", map[string]any{"traceparent": parent, "tracestate": "vendor=abc,other=1"}, true, "vendor=abc,other=1", ""},
		{"drops a malformed traceparent with the fixed note", map[string]any{"traceparent": "00-zz-00-01"}, false, "", InvalidNote},
		{"drops a non-string traceparent", map[string]any{"traceparent": 42}, false, "", InvalidNote},
		{"drops a tracestate over 512 characters", map[string]any{"traceparent": parent, "tracestate": "a=" + strings.Repeat("b", 600)}, true, "", InvalidNote},
		{"drops a tracestate over 32 members", map[string]any{"traceparent": parent, "tracestate": strings.Join(many, ",")}, true, "", InvalidNote},
		{"drops a malformed tracestate", map[string]any{"traceparent": parent, "tracestate": "not a list"}, true, "", InvalidNote},
		{"ignores baggage", map[string]any{"traceparent": parent, "baggage": "user=secret"}, true, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			sc, note := Start(tt.meta)
			require.True(t, sc.IsValid())
			assert.Equal(t, tt.note, note)
			assert.NotEqual(t, "00f067aa0ba902b7", sc.SpanID().String(), "every call gets a new span")
			if tt.keepTrace {
				assert.Equal(t, "4bf92f3577b34da6a3ce929d0e0e4736", sc.TraceID().String())
			} else {
				assert.NotEqual(t, "4bf92f3577b34da6a3ce929d0e0e4736", sc.TraceID().String())
			}
			assert.Equal(t, tt.state, sc.TraceState().String())
			h := Headers(sc)
			assert.Equal(t, Traceparent(sc), h.Get("traceparent"))
			assert.Equal(t, tt.state, h.Get("tracestate"))
			assert.Empty(t, h.Get("baggage"))
		})
	}
}

func TestConcurrentCallsGetDistinctSpans(t *testing.T) {
	t.Parallel()
	a, _ := Start(map[string]any{"traceparent": parent})
	b, _ := Start(map[string]any{"traceparent": parent})
	assert.NotEqual(t, a.SpanID(), b.SpanID())
}
