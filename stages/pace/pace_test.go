package pace

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/internal/budget"
	"github.com/snowluma/snowluma-mcp/internal/budget/budgettest"
	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

var (
	sendGroupMsg = &catalog.Action{Name: "send_group_msg", Delivers: &catalog.Delivery{Targets: []catalog.DeliveryTarget{{Param: "group_id", Chat: catalog.ChatGroup}}}}
	sendMsg      = &catalog.Action{Name: "send_msg", Delivers: &catalog.Delivery{Targets: []catalog.DeliveryTarget{
		{Param: "group_id", Chat: catalog.ChatGroup}, {Param: "user_id", Chat: catalog.ChatUser}}}}
	getStatus = &catalog.Action{Name: "get_status", ReadOnly: true}

	invoke = &pipeline.Tool{Spec: pipeline.Spec{Name: "invoke_action", Actions: pipeline.AnyAction}}
)

// rig is the stage around a handler that records the clock time of every
// send that reaches it.
type rig struct {
	clock *budgettest.Clock
	meter *budget.Meter
	h     pipeline.Handler

	mu   sync.Mutex
	sent []time.Time
}

func newRig(limits config.SendPace, t *pipeline.Tool) *rig {
	r := &rig{clock: budgettest.New()}
	r.meter = budget.New(limits, r.clock)
	r.h = New(r.meter).Wrap(t, func(context.Context, *pipeline.Call) (*pipeline.Result, error) {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.sent = append(r.sent, r.clock.Now())
		return &pipeline.Result{Payload: "sent"}, nil
	})
	return r
}

func (r *rig) sends() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.sent)
}

// outcome is what one call came to.
type outcome struct {
	res       *pipeline.Result
	err       error
	announced []string
	call      *pipeline.Call
}

func (r *rig) call(ctx context.Context, a *catalog.Action, params string) outcome {
	var o outcome
	o.call = &pipeline.Call{Action: a, Params: json.RawMessage(params), Announce: func(_ context.Context, msg string) error {
		o.announced = append(o.announced, msg)
		return nil
	}}
	o.res, o.err = r.h(ctx, o.call)
	return o
}

// callWaiting makes a call that must wait for wait: it lets the clock move
// on once the call sleeps.
func (r *rig) callWaiting(t *testing.T, a *catalog.Action, params string, wait time.Duration) outcome {
	t.Helper()
	done := make(chan outcome)
	go func() { done <- r.call(context.Background(), a, params) }()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(t, r.clock.WaitForSleepers(ctx, 1), "the call waits")
	r.clock.Advance(wait)
	select {
	case o := <-done:
		return o
	case <-ctx.Done():
		require.FailNow(t, "the call was still held after its wait", "wait %s", wait)
		return outcome{}
	}
}

var limits = config.SendPace{
	Target:  config.Budget{Burst: 2, Every: time.Second},
	Account: config.Budget{Burst: 4, Every: 500 * time.Millisecond},
	Wait:    2 * time.Second,
}

func TestStagePassesWhatItDoesNotPace(t *testing.T) {
	t.Parallel()
	query := &pipeline.Tool{Spec: pipeline.Spec{Name: "query_action", Actions: pipeline.ReadActions}}
	docs := &pipeline.Tool{Spec: pipeline.Spec{Name: "get_action"}}
	tests := []struct {
		name   string
		limits config.SendPace
		tool   *pipeline.Tool
		action *catalog.Action
	}{
		{"an action that delivers nothing", limits, invoke, getStatus},
		{"a call that names no action", limits, invoke, nil},
		{"a tool that runs only reads", limits, query, sendGroupMsg},
		{"a tool that runs no actions", limits, docs, sendGroupMsg},
		{"any send when pacing is off", config.SendPace{Off: true}, invoke, sendGroupMsg},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := newRig(tt.limits, tt.tool)
			// A call held by the stage would wait on a clock that never
			// moves; the deadline turns that into a failure.
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			for range 20 {
				o := r.call(ctx, tt.action, `{"group_id":20001}`)
				require.NoError(t, o.err)
				assert.Zero(t, o.call.Held)
				assert.Empty(t, o.announced)
			}
			assert.Equal(t, 20, r.sends(), "every call went at once")
			if r.meter != nil {
				assert.Equal(t, 4, r.meter.Snapshot().Account.Available, "nothing was charged")
			}
		})
	}
}

// step is one call and what it must come to.
type step struct {
	action   *catalog.Action
	params   string
	wait     time.Duration // how long it is held (the test moves the clock on by this much)
	refused  time.Duration // retry_after when it is refused
	announce string
	budget   string // in the refusal's message
}

func TestStagePacesDeliveries(t *testing.T) {
	t.Parallel()
	g1 := step{action: sendGroupMsg, params: `{"group_id":20001,"message":"hi"}`}
	g2 := step{action: sendGroupMsg, params: `{"group_id":20002,"message":"hi"}`}
	user := func(id string) step { return step{action: sendMsg, params: `{"user_id":` + id + `,"message":"hi"}`} }
	held := func(s step, d time.Duration, announce string) step { s.wait, s.announce = d, announce; return s }
	refused := func(s step, d time.Duration, budget string) step { s.refused, s.budget = d, budget; return s }
	tight := limits
	tight.Wait = 500 * time.Millisecond
	tests := []struct {
		name   string
		limits config.SendPace
		steps  []step
	}{
		{"lets a burst go at once", limits, []step{g1, g1}},
		{"holds the send after a burst and says why", limits, []step{g1, g1,
			held(g1, time.Second, "waiting 1.0 s for group 20001's send budget")}},
		{"refuses a send that would wait too long and sends nothing", tight, []step{g1, g1,
			refused(g1, time.Second, "group 20001's send budget")}},
		{"keeps one group from slowing another", limits, []step{g1, g1, g2, g2}},
		{"holds every target to the account's budget", limits, []step{g1, g2, user("10002"), user("10003"),
			held(user("10004"), 500*time.Millisecond, "waiting 0.5 s for the account's send budget")}},
		{"refuses on the account's budget when it runs out", config.SendPace{Target: limits.Target, Account: config.Budget{Burst: 1, Every: time.Minute}, Wait: time.Second},
			[]step{g1, refused(g2, time.Minute, "the account's send budget")}},
		{"routes send_msg by its group first", limits, []step{
			{action: sendMsg, params: `{"group_id":20001,"user_id":10002,"message":"hi"}`}, g1,
			held(g1, time.Second, "waiting 1.0 s for group 20001's send budget")}},
		{"reads a target given as a string", limits, []step{
			{action: sendGroupMsg, params: `{"group_id":" 20001 ","message":"hi"}`}, g1,
			held(g1, time.Second, "waiting 1.0 s for group 20001's send budget")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := newRig(tt.limits, invoke)
			for i, s := range tt.steps {
				before := r.sends()
				var o outcome
				if s.wait > 0 {
					o = r.callWaiting(t, s.action, s.params, s.wait)
				} else {
					o = r.call(context.Background(), s.action, s.params)
				}
				if s.refused > 0 {
					require.Error(t, o.err, "step %d", i)
					assert.Equal(t, before, r.sends(), "step %d: a refused send never reaches SnowLuma", i)
					d := pipeline.Failure(o.call, o.err).Diagnostics
					assert.Equal(t, pipeline.OutcomeFailed, d.Outcome)
					assert.Equal(t, string(fault.CodeRateLimited), d.Kind)
					assert.Equal(t, s.refused.Milliseconds(), d.RetryAfterMS)
					assert.Contains(t, d.Message, s.budget+" is spent")
					assert.Contains(t, d.Message, "nothing was sent")
					assert.NotEmpty(t, d.NextStep)
					continue
				}
				require.NoError(t, o.err, "step %d", i)
				assert.Equal(t, before+1, r.sends(), "step %d went", i)
				assert.Equal(t, s.wait, o.call.Held, "step %d held", i)
				if s.announce != "" {
					assert.Equal(t, []string{s.announce}, o.announced, "step %d", i)
				} else {
					assert.Empty(t, o.announced, "step %d", i)
				}
			}
		})
	}
}

func TestCancellingAWaitSendsNothing(t *testing.T) {
	t.Parallel()
	r := newRig(limits, invoke)
	params := `{"group_id":20001,"message":"hi"}`
	r.call(context.Background(), sendGroupMsg, params)
	r.call(context.Background(), sendGroupMsg, params)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan outcome)
	go func() { done <- r.call(ctx, sendGroupMsg, params) }()
	wait, stop := context.WithTimeout(context.Background(), 10*time.Second)
	defer stop()
	require.NoError(t, r.clock.WaitForSleepers(wait, 1))
	cancel()
	o := <-done
	require.Error(t, o.err)
	assert.Equal(t, 2, r.sends(), "the cancelled send never went")
	d := pipeline.Failure(&pipeline.Call{Action: sendGroupMsg}, o.err).Diagnostics
	assert.Equal(t, string(fault.CodeCancelled), d.Kind)
	assert.Equal(t, pipeline.OutcomeFailed, d.Outcome, "a write cancelled before sending did not happen")
	assert.Contains(t, d.Message, "nothing was sent")
	next := r.callWaiting(t, sendGroupMsg, params, time.Second)
	require.NoError(t, next.err)
	assert.Equal(t, time.Second, next.call.Held, "the cancelled send gave its place back")
}

// TestConcurrentSendsNeverOverspend sends 100 messages to one group at
// one instant: the burst goes at once, then one send per refill as far as
// the wait bound reaches, each at its own time; all others are refused.
func TestConcurrentSendsNeverOverspend(t *testing.T) {
	t.Parallel()
	lim := config.SendPace{Target: config.Budget{Burst: 3, Every: time.Second}, Account: config.Budget{Burst: 1000, Every: time.Millisecond}, Wait: 5 * time.Second}
	r := newRig(lim, invoke)
	start := r.clock.Now()
	outcomes := make(chan outcome, 100)
	for range 100 {
		go func() { outcomes <- r.call(context.Background(), sendGroupMsg, `{"group_id":20001}`) }()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(t, r.clock.WaitForSleepers(ctx, 5), "five sends wait, one per refill within 5 s")
	refused := 0
	for range 95 {
		if o := <-outcomes; o.err != nil {
			assert.Equal(t, fault.CodeRateLimited, fault.CodeOf(o.err))
			refused++
		}
	}
	assert.Equal(t, 92, refused)
	for range 5 {
		// One refill lets exactly one waiting send go; it is recorded
		// before the clock moves on again.
		r.clock.Advance(time.Second)
		require.NoError(t, (<-outcomes).err)
	}
	at := map[time.Duration]int{}
	for _, s := range r.sent {
		at[s.Sub(start)]++
	}
	assert.Equal(t, map[time.Duration]int{0: 3, time.Second: 1, 2 * time.Second: 1, 3 * time.Second: 1, 4 * time.Second: 1, 5 * time.Second: 1}, at)
}

func TestTargetOf(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		action *catalog.Action
		params string
		want   budget.Target
	}{
		{"reads a group", sendGroupMsg, `{"group_id":20001}`, budget.Target{Chat: "group", ID: "20001"}},
		{"takes the first target given", sendMsg, `{"user_id":10002,"group_id":20001}`, budget.Target{Chat: "group", ID: "20001"}},
		{"falls back to the next target", sendMsg, `{"user_id":10002}`, budget.Target{Chat: "user", ID: "10002"}},
		{"skips a zero target as SnowLuma does", sendMsg, `{"group_id":0,"user_id":10002}`, budget.Target{Chat: "user", ID: "10002"}},
		{"skips a negative target", sendMsg, `{"group_id":-5,"user_id":"10002"}`, budget.Target{Chat: "user", ID: "10002"}},
		{"skips a target that is no number", sendMsg, `{"group_id":"abc","user_id":true}`, budget.Target{}},
		{"reads a string as its number", sendGroupMsg, `{"group_id":"020001"}`, budget.Target{Chat: "group", ID: "20001"}},
		{"names none without params", sendGroupMsg, ``, budget.Target{}},
		{"names none for an action without target params", &catalog.Action{Delivers: &catalog.Delivery{Targets: []catalog.DeliveryTarget{}}}, `{"group_id":1}`, budget.Target{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, TargetOf(tt.action.Delivers, json.RawMessage(tt.params)))
		})
	}
}

// BenchmarkUnpacedCall measures what the stage costs a call it does not
// pace (invoke_action of get_status), beside the same handler bare.
func BenchmarkUnpacedCall(b *testing.B) {
	next := func(context.Context, *pipeline.Call) (*pipeline.Result, error) { return nil, nil }
	for _, bb := range []struct {
		name string
		h    pipeline.Handler
	}{
		{"bare", next},
		{"through_pace", New(budget.New(limits, budget.Wall{})).Wrap(invoke, next)},
	} {
		b.Run(bb.name, func(b *testing.B) {
			c := &pipeline.Call{Action: getStatus}
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				_, _ = bb.h(ctx, c)
			}
		})
	}
}
