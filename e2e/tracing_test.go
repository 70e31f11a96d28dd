package e2e

// Call tracing (TRACE-1, TRACE-2, TRACE-4): the caller's trace ID is kept
// with a new span ID; every result, tool errors included, carries the
// call's traceparent; the HTTP request carries it (and a valid tracestate)
// as headers, never inside params; baggage goes nowhere; invalid trace
// metadata never rejects a call; concurrent calls never share headers.

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

// spanOf returns the parent-id field of a traceparent.
func spanOf(tp string) string {
	parts := strings.Split(tp, "-")
	if len(parts) != 4 {
		return ""
	}
	return parts[2]
}

func TestCallerTraceIsContinuedWithANewSpan(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		tool     string
		args     map[string]any
		isError  bool
		wantSent int
	}{
		{"a docs tool", "list_categories", map[string]any{}, false, 0},
		{"a successful query", "query_action", map[string]any{"action": "get_status"}, false, 1},
		{"a business failure", "query_action", map[string]any{"action": "get_msg", "params": map[string]any{"message_id": 7}}, false, 1},
		{"a gate refusal", "query_action", map[string]any{"action": "send_group_msg"}, true, 0},
		{"an unknown action", "query_action", map[string]any{"action": "nope_nope"}, true, 0},
		{"a transport failure", "query_action", map[string]any{"action": "get_status", "params": map[string]any{fake.Marker: "http500"}}, true, 1},
		{"a docs tool error", "get_action", map[string]any{"name": "nope_nope"}, true, 0},
		{"a connection check", "get_runtime_info", map[string]any{"check_connection": true}, false, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				s := start(t, version, readEnv())
				traceID, tp := newTrace(t)
				r := s.call(t, tt.tool, tt.args, mcp.Meta{"traceparent": tp})
				assert.Equal(t, tt.isError, r.IsError)
				assert.Equal(t, traceID, fake.TraceIDOf(r.Traceparent), "the caller's trace ID is kept")
				assert.NotEqual(t, spanOf(tp), spanOf(r.Traceparent), "the call gets its own span ID")
				assert.NotEqual(t, strings.Repeat("0", 16), spanOf(r.Traceparent))
				sent := snow.ByTrace(traceID)
				assert.Len(t, sent, tt.wantSent)
				for _, q := range sent {
					assert.Equal(t, r.Traceparent, q.Header.Get("traceparent"), "the HTTP request names this call's span")
				}
			})
		})
	}
}

func TestCallsWithoutTraceGetAFreshOne(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		s := start(t, version, readEnv())
		tag := newTag(t)
		a := s.call(t, "query_action", map[string]any{"action": "get_status", "params": map[string]any{fake.Marker: "tag:" + tag}}, nil)
		b := s.call(t, "list_categories", nil, nil)
		assert.NotEqual(t, fake.TraceIDOf(a.Traceparent), fake.TraceIDOf(b.Traceparent), "each call starts its own trace")
		sent := snow.ByTag(tag)
		require.Len(t, sent, 1)
		assert.Equal(t, a.Traceparent, sent[0].Header.Get("traceparent"), "a fresh trace is still forwarded")
		assert.Empty(t, sent[0].Header.Get("tracestate"))
	})
}

func TestTraceContextTravelsAsHeadersOnly(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		s := start(t, version, writeEnv())
		traceID, tp := newTrace(t)
		state := "e2evendor=st4te-value,other=o7her"
		r := s.call(t, "invoke_action", map[string]any{
			"action": "send_private_msg",
			"params": map[string]any{"user_id": fake.AliceID, "message": "hi"},
		}, mcp.Meta{"traceparent": tp, "tracestate": state, "baggage": "userId=bagg4ge-secret"})
		require.False(t, r.IsError, r.Text)
		sent := snow.ByTrace(traceID)
		require.Len(t, sent, 1)
		q := sent[0]
		assert.Equal(t, r.Traceparent, q.Header.Get("traceparent"))
		assert.Equal(t, state, q.Header.Get("tracestate"), "a valid tracestate is forwarded")
		assert.Empty(t, q.Header.Values("baggage"), "baggage is never forwarded")
		for _, leaked := range []string{traceID, "st4te-value", "bagg4ge-secret", "traceparent", "tracestate", "baggage"} {
			assert.NotContains(t, string(q.Body), leaked, "trace context must not travel inside the OneBot body")
		}
		for name, vals := range q.Header {
			for _, v := range vals {
				assert.NotContains(t, v, "bagg4ge-secret", "header %s carries baggage", name)
			}
		}
	})
}

func TestInvalidTraceMetadataNeverRejectsACall(t *testing.T) {
	t.Parallel()
	validID, validTP := "4bf92f3577b34da6a3ce929d0e0e4736", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	longValue := strings.Repeat("a", 250)
	tests := []struct {
		name        string
		meta        mcp.Meta
		keepTraceID string // "" when a fresh trace is expected
		wantState   string // forwarded tracestate
	}{
		{"a malformed traceparent", mcp.Meta{"traceparent": "not-a-traceparent"}, "", ""},
		{"an all-zero trace ID", mcp.Meta{"traceparent": "00-00000000000000000000000000000000-00f067aa0ba902b7-01"}, "", ""},
		{"a traceparent that is not a string", mcp.Meta{"traceparent": 12345}, "", ""},
		{"a malformed tracestate", mcp.Meta{"traceparent": validTP, "tracestate": "Not A Valid State!!"}, validID, ""},
		{"a tracestate over 512 characters", mcp.Meta{"traceparent": validTP,
			"tracestate": "a=" + longValue + ",b=" + longValue + ",c=" + longValue}, validID, ""},
		{"a tracestate with more than 32 members", mcp.Meta{"traceparent": validTP, "tracestate": manyMembers(33)}, validID, ""},
		{"a tracestate of exactly 32 members", mcp.Meta{"traceparent": validTP, "tracestate": manyMembers(32)}, validID, manyMembers(32)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				s := start(t, version, readEnv())
				tag := newTag(t)
				r := s.call(t, "query_action", map[string]any{"action": "get_status", "params": map[string]any{fake.Marker: "tag:" + tag}}, tt.meta)
				assert.False(t, r.IsError, "trace metadata never rejects a call: %s", r.Text)
				assert.Equal(t, "success", r.Diag.Outcome)
				if tt.keepTraceID != "" {
					assert.Equal(t, tt.keepTraceID, fake.TraceIDOf(r.Traceparent))
				} else {
					assert.NotEqual(t, validID, fake.TraceIDOf(r.Traceparent))
					assert.NotEqual(t, strings.Repeat("0", 32), fake.TraceIDOf(r.Traceparent))
				}
				sent := snow.ByTag(tag)
				require.Len(t, sent, 1)
				assert.Equal(t, r.Traceparent, sent[0].Header.Get("traceparent"))
				assert.Equal(t, tt.wantState, sent[0].Header.Get("tracestate"))
			})
		})
	}
}

// manyMembers builds a valid tracestate with n members.
func manyMembers(n int) string {
	var m []string
	for i := range n {
		m = append(m, fmt.Sprintf("k%d=v%d", i, i))
	}
	return strings.Join(m, ",")
}

func TestConcurrentCallsNeverShareHeaders(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		s := start(t, version, readEnv())
		const n = 8
		var wg sync.WaitGroup
		type outcome struct {
			traceID, state string
			res            *mcp.CallToolResult
			err            error
		}
		results := make([]outcome, n)
		for i := range n {
			traceID, tp := newTrace(t)
			results[i].traceID, results[i].state = traceID, fmt.Sprintf("call%d=v%d", i, i)
			wg.Add(1)
			go func() {
				defer wg.Done()
				res, err := s.callRaw(testCtx(t), "query_action",
					map[string]any{"action": "get_status", "params": map[string]any{fake.Marker: "slow:50"}},
					mcp.Meta{"traceparent": tp, "tracestate": results[i].state})
				results[i].res, results[i].err = res, err
			}()
		}
		wg.Wait()
		for _, o := range results {
			require.NoError(t, o.err)
			r := s.check(t, "query_action", o.res)
			sent := snow.ByTrace(o.traceID)
			require.Len(t, sent, 1)
			assert.Equal(t, r.Traceparent, sent[0].Header.Get("traceparent"))
			assert.Equal(t, o.state, sent[0].Header.Get("tracestate"))
		}
	})
}
