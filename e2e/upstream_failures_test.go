package e2e

// Transport failures (BASE-6, RESULT-2): HTTP 401 and 5xx, non-JSON
// replies, a dropped connection and a timeout are tool errors with
// result null and a kind from a known cause; nothing is ever retried;
// an asynchronous acknowledgement is "unknown"; a write whose wait broke
// off may have happened, so its outcome is "unknown" too.

import (
	"net"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

func TestTransportFailuresAreToolErrorsSentOnce(t *testing.T) {
	t.Parallel()
	sendParams := map[string]any{"group_id": fake.GroupID, "message": "maybe sent"}
	tests := []struct {
		name        string
		env         func() map[string]string
		tool        string
		action      string
		params      map[string]any
		faults      string
		wantKind    string
		wantOutcome string
	}{
		{"HTTP 401 from a wrong token", func() map[string]string { return with(readEnv(), "SNOWLUMA_MCP_TOKEN", wrongToken) },
			"query_action", "get_status", nil, "", "upstream_auth", "failed"},
		{"HTTP 500 on a read", readEnv, "query_action", "get_status", nil, "http500", "upstream_http", "failed"},
		{"HTTP 500 on a write", writeEnv, "invoke_action", "send_group_msg", sendParams, "http500", "upstream_http", "unknown"},
		{"a reply that is not JSON", readEnv, "query_action", "get_status", nil, "notjson", "bad_reply", "failed"},
		{"a dropped connection on a read", readEnv, "query_action", "get_status", nil, "hangup", "transport", "failed"},
		{"a dropped connection on a write", writeEnv, "invoke_action", "send_group_msg", sendParams, "hangup", "transport", "unknown"},
		{"a timeout on a read", func() map[string]string { return with(readEnv(), "SNOWLUMA_MCP_TIMEOUT_MS", "1000") },
			"query_action", "get_status", nil, "slow:20000", "timeout", "failed"},
		{"a timeout on a write", func() map[string]string { return with(writeEnv(), "SNOWLUMA_MCP_TIMEOUT_MS", "1000") },
			"invoke_action", "send_group_msg", sendParams, "slow:20000", "timeout", "unknown"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				s := start(t, version, tt.env())
				c := s.run(t, tt.tool, tt.action, tt.params, tt.faults)
				assert.True(t, c.res.IsError)
				assert.Equal(t, "null", string(c.res.Result))
				assert.Equal(t, tt.wantKind, c.res.Diag.Kind)
				assert.Equal(t, tt.wantOutcome, c.res.Diag.Outcome)
				assert.NotEmpty(t, c.res.Diag.NextStep)
				assert.Len(t, c.sent(t), 1, "exactly one request: nothing is retried")
			})
		})
	}
}

func TestTimedOutRequestIsAbandoned(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		s := start(t, version, with(writeEnv(), "SNOWLUMA_MCP_TIMEOUT_MS", "1000"))
		c := s.run(t, "invoke_action", "set_group_sign", map[string]any{"group_id": fake.GroupID}, "slow:20000")
		require.Equal(t, "timeout", c.res.Diag.Kind)
		require.Eventually(t, func() bool {
			sent := c.sent(t)
			return len(sent) == 1 && sent[0].ClientGone
		}, safety, 10*time.Millisecond, "the timed-out request's connection must be closed")
	})
}

func TestAsyncAcknowledgementIsUnknown(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		s := start(t, version, writeEnv())
		c := s.run(t, "invoke_action", "set_group_ban", map[string]any{"group_id": fake.GroupID, "user_id": fake.AliceID}, "async")
		assert.False(t, c.res.IsError, "an acknowledgement is an envelope, not a transport failure")
		assert.Equal(t, "unknown", c.res.Diag.Outcome)
		sent := c.sent(t)
		require.Len(t, sent, 1)
		assert.JSONEq(t, `{"status":"async","retcode":1,"data":null}`, string(c.res.Result))
	})
}

func TestAnUnreachableEndpointIsATransportError(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	closed := "http://" + l.Addr().String() + "/"
	require.NoError(t, l.Close())
	forEachVersion(t, func(t *testing.T, version string) {
		s := start(t, version, with(writeEnv(), "SNOWLUMA_MCP_ENDPOINT", closed))
		tests := []struct {
			name, tool, action string
			params             map[string]any
			wantOutcome        string
		}{
			{"a read", "query_action", "get_status", nil, "failed"},
			{"a write whose dial was refused: nothing reached SnowLuma", "invoke_action", "set_group_sign", map[string]any{"group_id": fake.GroupID}, "failed"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				c := s.run(t, tt.tool, tt.action, tt.params, "")
				assert.True(t, c.res.IsError)
				assert.Equal(t, "transport", c.res.Diag.Kind)
				assert.Equal(t, tt.wantOutcome, c.res.Diag.Outcome)
				assert.Equal(t, "null", string(c.res.Result))
			})
		}
	})
}
