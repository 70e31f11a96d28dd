package handlers

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/hub"
)

func TestEventToolsExistOnlyWithAHub(t *testing.T) {
	t.Parallel()
	names := func(d *Deps) []string {
		var out []string
		for _, tl := range All(d) {
			out = append(out, tl.Name)
		}
		return out
	}
	d := deps(t, config.ModeRead)
	assert.NotContains(t, names(d), "subscribe_events")
	d.Events = hub.New(hub.Options{})
	assert.Contains(t, names(d), "subscribe_events")
	assert.Contains(t, names(d), "unsubscribe_events")
	for _, tl := range All(d)[len(All(d))-2:] {
		assert.Equal(t, config.ModeRead, tl.MinMode, "%s needs read mode", tl.Name)
	}
}

func TestSubscribeFailuresHaveTheirCodes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		dial hub.Dialer
		args string
		code fault.Code
		says string
	}{
		{"refused token", func(context.Context) (hub.Conn, error) {
			return nil, &hub.Failure{Reason: hub.ReasonAuthRefused, Message: "SnowLuma closed with 1008.", NextStep: "Fix the token."}
		}, `{"self_id":10001}`, fault.CodeUpstreamAuth, "1008"},
		{"unreachable", func(context.Context) (hub.Conn, error) { return nil, errors.New("connection refused") },
			`{"self_id":10001}`, fault.CodeEventConnection, "connection refused"},
		{"invalid filter reaching the hub", nil, `{"self_id":0}`, fault.CodeInvalidArgument, "self_id"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := deps(t, config.ModeRead)
			d.Events = hub.New(hub.Options{Dial: c.dial})
			_, err := call(t, SubscribeEvents(d), c.args, nil)
			require.Error(t, err)
			assert.Equal(t, c.code, fault.CodeOf(err))
			assert.True(t, fault.NothingSent(err))
			assert.Contains(t, err.Error(), c.says)
		})
	}
}

// TestARefusedEventsTokenNamesTheWSNodeInMessageAndNextStep: the WS
// node refused, so the next step names its variable and node, not the
// upstream_auth default (the HTTP node's token), which would contradict
// the message and send the user into a loop between the two nodes.
func TestARefusedEventsTokenNamesTheWSNodeInMessageAndNextStep(t *testing.T) {
	t.Parallel()
	d := deps(t, config.ModeRead)
	d.Events = hub.New(hub.Options{Dial: func(context.Context) (hub.Conn, error) {
		return nil, &hub.Failure{Reason: hub.ReasonAuthRefused, Message: "SnowLuma closed the event connection with code 1008.", NextStep: hub.TokenAdvice}
	}})
	_, err := call(t, SubscribeEvents(d), `{"self_id":10001}`, nil)
	require.Error(t, err)
	assert.Equal(t, fault.CodeUpstreamAuth, fault.CodeOf(err))
	next := fault.NextOf(err)
	assert.Contains(t, next, "set SNOWLUMA_MCP_EVENTS_TOKEN to the WS 服务端 node's 授权 Token (or give both nodes the same Token)")
	assert.NotContains(t, next, "HTTP", "the HTTP node did not refuse")
	assert.NotContains(t, err.Error(), "HTTP")
}

func TestUnsubscribeRefusesWhatIsNotAnActiveResource(t *testing.T) {
	t.Parallel()
	d := deps(t, config.ModeRead)
	d.Events = hub.New(hub.Options{})
	for _, uri := range []string{"snowluma://onebot/actions", hub.URI("abc") + "?after=1", hub.URI("abc")} {
		_, err := call(t, UnsubscribeEvents(d), `{"uri":"`+uri+`"}`, nil)
		require.Error(t, err, uri)
		assert.Equal(t, fault.CodeInvalidArgument, fault.CodeOf(err), uri)
	}
}

func TestRuntimeInfoShowsEventLimitsOnlyWhenEventsAreOn(t *testing.T) {
	t.Parallel()
	d := deps(t, config.ModeRead)
	off, err := call(t, GetRuntimeInfo(d), `{}`, nil)
	require.NoError(t, err)
	assert.NotContains(t, off, "events")
	d.Events = hub.New(hub.Options{})
	on, err := call(t, GetRuntimeInfo(d), `{}`, nil)
	require.NoError(t, err)
	require.Contains(t, on, "events")
	assert.Equal(t, map[string]any{"active_resources": 0.0, "max_resources": 16.0, "max_events_per_resource": 256.0,
		"max_bytes_per_resource": 1048576.0, "max_frame_bytes": 262144.0}, on.(map[string]any)["events"])
}
