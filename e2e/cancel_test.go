package e2e

// Cancellation (CANCEL-1): cancelling the client's context sends
// notifications/cancelled, which must reach the HTTP request to SnowLuma:
// the fake sees the connection end. The session keeps serving afterwards,
// and the call's log line reports the cancellation (unknown for a write).

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

func TestCancellationReachesTheHTTPRequest(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		tool        string
		action      string
		params      map[string]any
		wantOutcome string
	}{
		{"a cancelled read", "query_action", "get_status", map[string]any{}, "failed"},
		{"a cancelled write", "invoke_action", "set_group_sign", map[string]any{"group_id": fake.GroupID}, "unknown"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				s := start(t, version, writeEnv())
				traceID, tp := newTrace(t)
				params := map[string]any{fake.Marker: "slow:60000"}
				for k, v := range tt.params {
					params[k] = v
				}
				ctx, cancel := context.WithCancel(testCtx(t))
				done := make(chan error, 1)
				go func() {
					_, err := s.callRaw(ctx, tt.tool, map[string]any{"action": tt.action, "params": params}, mcp.Meta{"traceparent": tp})
					done <- err
				}()
				// Wait until SnowLuma has read the whole request: cancelling
				// while it is still being written cuts the request short
				// instead of leaving SnowLuma waiting on a departed client.
				require.Eventually(t, func() bool {
					reqs := snow.ByTrace(traceID)
					return len(reqs) == 1 && len(reqs[0].Body) > 0
				}, safety, 5*time.Millisecond, "the request must reach SnowLuma before we cancel")
				cancel()
				require.Error(t, <-done, "the client call ends with its context")

				require.Eventually(t, func() bool {
					reqs := snow.ByTrace(traceID)
					return len(reqs) == 1 && reqs[0].ClientGone
				}, safety, 5*time.Millisecond, "SnowLuma must see the request's connection end")
				assert.Len(t, snow.ByTrace(traceID), 1, "nothing is retried after a cancellation")

				after := s.run(t, "query_action", "get_status", nil, "")
				assert.False(t, after.res.IsError, "the session keeps serving: %s", after.res.Text)

				stderr := s.closeCleanly(t)
				var line string
				for _, l := range lines(stderr) {
					if strings.Contains(l, tp[:35]) { // version + trace ID
						line = l
					}
				}
				require.NotEmpty(t, line, "the cancelled call is logged; stderr:\n%s", redact(stderr))
				assert.Contains(t, line, "kind=cancelled")
				assert.Contains(t, line, "outcome="+tt.wantOutcome)
			})
		})
	}
}
