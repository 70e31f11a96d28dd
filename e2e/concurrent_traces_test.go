package e2e

// Concurrency over one connection (issue 13 item 4b): 64 calls in flight
// at once on a single stdio session, each with its own W3C traceparent in
// _meta. Every result, successes and failures alike, must carry its own
// caller's trace ID with a span of its own, and every request the fake
// saw for a trace must name that call's span: no call may pick up another
// call's trace under load.

import (
	"fmt"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

func TestSixtyFourConcurrentCallsKeepTheirOwnTraces(t *testing.T) {
	t.Parallel()
	// The kinds cycle, so that successes, upstream failures and tool
	// errors interleave; the slow marker keeps the upstream calls in
	// flight together.
	kinds := []struct {
		name     string
		tool     string
		args     map[string]any
		isError  bool
		wantSent int
	}{
		{"a slow read call", "query_action", map[string]any{"action": "get_status", "params": map[string]any{fake.Marker: "slow:30"}}, false, 1},
		{"an upstream HTTP 500", "query_action", map[string]any{"action": "get_status", "params": map[string]any{fake.Marker: "http500"}}, true, 1},
		{"a docs tool error", "get_action", map[string]any{"name": "nope_nope"}, true, 0},
		{"a docs call", "list_categories", map[string]any{}, false, 0},
	}
	const n = 64
	forEachVersion(t, func(t *testing.T, version string) {
		s := start(t, version, readEnv())
		type call struct {
			kind    int
			traceID string
			sentTP  string
			res     *mcp.CallToolResult
			err     error
		}
		calls := make([]call, n)
		var ready, done sync.WaitGroup
		release := make(chan struct{})
		for i := range calls {
			c := &calls[i]
			c.kind = i % len(kinds)
			c.traceID, c.sentTP = newTrace(t)
			ready.Add(1)
			done.Add(1)
			go func() {
				defer done.Done()
				ready.Done()
				<-release // start together, so the calls overlap
				k := kinds[c.kind]
				c.res, c.err = s.callRaw(testCtx(t), k.tool, k.args, mcp.Meta{"traceparent": c.sentTP})
			}()
		}
		ready.Wait()
		close(release)
		done.Wait()

		spans := map[string]int{}
		for i, c := range calls {
			k := kinds[c.kind]
			require.NoError(t, c.err, "call %d (%s)", i, k.name)
			r := s.check(t, k.tool, c.res)
			assert.Equal(t, k.isError, r.IsError, "call %d (%s): %s", i, k.name, r.Text)
			assert.Equal(t, c.traceID, fake.TraceIDOf(r.Traceparent), "call %d (%s) keeps its caller's trace ID", i, k.name)
			assert.NotEqual(t, spanOf(c.sentTP), spanOf(r.Traceparent), "call %d (%s) gets its own span", i, k.name)
			spans[spanOf(r.Traceparent)]++
			sent := snow.ByTrace(c.traceID)
			assert.Len(t, sent, k.wantSent, "call %d (%s)", i, k.name)
			for _, q := range sent {
				assert.Equal(t, r.Traceparent, q.Header.Get("traceparent"), "call %d (%s): the HTTP request names this call's span", i, k.name)
			}
		}
		assert.Len(t, spans, n, fmt.Sprintf("%d calls, %d distinct spans", n, len(spans)))
	})
}
