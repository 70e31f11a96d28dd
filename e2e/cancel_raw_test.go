package e2e

// A cancelled request is not answered (issue 20 item 8): after
// notifications/cancelled the server stops the call and sends nothing for
// its id, as both cancellation specs ask; a client that forgot the id
// (TypeScript v1) would otherwise report "a response for an unknown message
// ID". Read at the wire, to the end of the session.

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

func TestCancelledCallIsNotAnswered(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		action string
		params map[string]any
	}{
		{"an ordinary write", "set_group_sign", map[string]any{"group_id": fake.GroupID, fake.Marker: "slow:60000"}},
		{"a download stream", "download_file_stream", map[string]any{"file": fake.FileSeed, "chunk_size": 10000, fake.Marker: "slowframes:150"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				env, _ := streamEnv(t)
				r := rawSession(t, version, env)
				traceID, tp := newTrace(t)
				id := r.send("tools/call", r.params(map[string]any{"name": "invoke_action",
					"arguments": map[string]any{"action": tt.action, "params": tt.params}}, map[string]any{"traceparent": tp}))
				require.Eventually(t, func() bool {
					reqs := snow.ByTrace(traceID)
					return len(reqs) == 1 && len(reqs[0].Body) > 0
				}, safety, 5*time.Millisecond, "the request must reach SnowLuma before we cancel")
				r.notify("notifications/cancelled", map[string]any{"requestId": id, "reason": "e2e cancels"})
				// The call's log line is written as it ends, just before
				// the SDK hands its answer to the transport.
				require.Eventually(t, func() bool {
					return strings.Contains(r.stderr.String(), tp[:35])
				}, safety, 5*time.Millisecond, "the cancelled call never ended")
				assert.Contains(t, r.stderr.String(), "kind=cancelled")

				after := r.request("tools/list", r.params(map[string]any{}, nil))
				require.Nil(t, after.Error, "the session serves on: %s", after)
				assertNeverAnswered(t, r, fmt.Sprint(id))
			})
		})
	}
}

// assertNeverAnswered ends the session (stdin EOF) and checks that no line
// the binary wrote, before or after, answers the call with the raw id.
func assertNeverAnswered(t *testing.T, r *rawServer, id string) {
	t.Helper()
	require.NoError(t, r.stdin.Close())
	assert.Zero(t, r.waitExit())
	lines := append([]string(nil), r.stdout...)
	for line := range r.lines {
		lines = append(lines, string(line))
	}
	for _, line := range lines {
		var m rawMessage
		require.NoError(t, json.Unmarshal([]byte(line), &m), "stdout line is not JSON: %.300s", line)
		assert.False(t, m.Method == "" && string(m.ID) == id, "the cancelled call was answered: %.300s", line)
	}
}
