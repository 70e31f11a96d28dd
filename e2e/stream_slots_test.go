package e2e

// Stream slots (BASE-7): at most SNOWLUMA_MCP_MAX_STREAMS stream
// executions run at once. The product documents its choice: the next one
// waits for a slot up to the stream connect timeout, then fails with kind
// "limit" without sending anything. Ordinary calls never need a slot.

import (
	"context"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

func TestBusyStreamSlotsRefuseTheNextStream(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		env, _ := streamEnv(t, "SNOWLUMA_MCP_MAX_STREAMS", "1", "SNOWLUMA_MCP_STREAM_CONNECT_TIMEOUT_MS", "300")
		s := start(t, version, env)

		// The one slot is held by a slow stream until we cancel it.
		busyTrace, busyTP := newTrace(t)
		ctx, cancel := context.WithCancel(testCtx(t))
		defer cancel()
		done := make(chan error, 1)
		go func() {
			_, err := s.callRaw(ctx, "invoke_action", map[string]any{"action": "test_download_stream",
				"params": map[string]any{fake.Marker: "slowframes:60000"}}, mcp.Meta{"traceparent": busyTP})
			done <- err
		}()
		require.Eventually(t, func() bool { return len(snow.ByTrace(busyTrace)) == 1 }, safety, 5*time.Millisecond)

		c := s.run(t, "invoke_action", "download_file_stream", map[string]any{"file": fake.FileHello}, "")
		assert.True(t, c.res.IsError, "no slot is free: %s", c.res.Text)
		assert.Equal(t, "limit", c.res.Diag.Kind)
		assert.Equal(t, "failed", c.res.Diag.Outcome, "nothing reached SnowLuma, so the stream did not happen")
		c.assertNothingSent(t)

		plain := s.run(t, "query_action", "get_status", nil, "")
		assert.False(t, plain.res.IsError, "ordinary calls need no stream slot: %s", plain.res.Text)

		cancel()
		require.Error(t, <-done)
		require.Eventually(t, func() bool {
			sent := snow.ByTrace(busyTrace)
			return len(sent) == 1 && sent[0].ClientGone
		}, safety, 5*time.Millisecond)
		again := s.run(t, "invoke_action", "download_file_stream", map[string]any{"file": fake.FileHello}, "")
		assert.False(t, again.res.IsError, "a freed slot is usable again: %s", again.res.Text)
	})
}
