package pace

import (
	"context"
	"io"
	"path/filepath"
	"strconv"
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
	"github.com/snowluma/snowluma-mcp/stages/stagetest"
)

// The catalog's deliveries (and one action that delivers nothing): the
// stage paces what the catalog declares.
var (
	sendForwardMsg = stagetest.Action("send_forward_msg")
	sendGroupMsg   = stagetest.Action("send_group_msg")
	sendMsg        = stagetest.Action("send_msg")
	getStatus      = stagetest.Action("get_status")

	invoke = stagetest.Invoke
)

// rig is the stage around a handler that records the clock time of every
// send that reaches it.
type rig struct {
	tool  *pipeline.Tool
	clock *budgettest.Clock
	meter *budget.Meter
	h     pipeline.Handler

	mu   sync.Mutex
	sent []time.Time
	fail error // what the handler returns, when set, instead of sending
}

func newRig(limits config.SendPace, t *pipeline.Tool) *rig {
	r := &rig{tool: t, clock: budgettest.New()}
	r.meter = budget.New(limits, r.clock, nil)
	r.h = New(r.meter).Wrap(t, func(context.Context, *pipeline.Call) (*pipeline.Result, error) {
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.fail != nil {
			return nil, r.fail
		}
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
	name := ""
	if a != nil {
		name = a.Name
	}
	o.call = stagetest.Call(r.tool, name, params)
	o.call.Announce = func(_ context.Context, msg string) error {
		o.announced = append(o.announced, msg)
		return nil
	}
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
			{action: sendGroupMsg, params: `{"group_id":"20001","message":"hi"}`}, g1,
			held(g1, time.Second, "waiting 1.0 s for group 20001's send budget")}},
		{"reads a whole number with a zero fraction as that number", limits, []step{
			{action: sendGroupMsg, params: `{"group_id":20001.0,"message":"hi"}`}, g1,
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
	d := pipeline.Failure(o.call, o.err).Diagnostics
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

// TestStageRefusesATargetSnowLumaWouldReadDifferently: a target spelled
// in a way SnowLuma reads as another number (or none) is refused as
// invalid_argument before anything is spent or sent.
func TestStageRefusesATargetSnowLumaWouldReadDifferently(t *testing.T) {
	t.Parallel()
	for _, params := range []string{
		`{"group_id":"0x4E21"}`, `{"group_id":20001.5}`, `{"group_id":"20001.7"}`,
		`{"group_id":"0x4E22p0","user_id":30003}`, `{"message_type":"group","user_id":30003}`,
	} {
		t.Run(params, func(t *testing.T) {
			t.Parallel()
			r := newRig(limits, invoke)
			o := r.call(context.Background(), sendForwardMsg, params)
			require.Error(t, o.err)
			d := pipeline.Failure(o.call, o.err).Diagnostics
			assert.Equal(t, string(fault.CodeInvalidArgument), d.Kind)
			assert.Equal(t, pipeline.OutcomeFailed, d.Outcome)
			assert.Contains(t, d.Message, "nothing was sent")
			assert.Zero(t, r.sends())
			assert.Equal(t, 4, r.meter.Snapshot().Account.Available, "nothing was charged")
			assert.Empty(t, r.meter.Snapshot().Targets)
		})
	}
}

// TestAReactionMustNameItsGroupWhilePaced: a delivery whose chat SnowLuma
// finds from the message (set_group_reaction without group_id) cannot be
// charged to that chat, so while pacing is on it is refused with nothing
// charged; with pacing off the meter only records, and it goes.
func TestAReactionMustNameItsGroupWhilePaced(t *testing.T) {
	t.Parallel()
	off := config.SendPace{Off: true}
	recording := func() *budget.Meter {
		dir := filepath.Join(t.TempDir(), "state")
		return budget.New(off, budgettest.New(), budget.NewShared(dir, func() (string, error) { return "10001", nil }, off, budgettest.New(), io.Discard))
	}
	tests := []struct {
		name   string
		meter  func() *budget.Meter
		params string
		sent   bool
	}{
		{"paced, a reaction naming its group goes", func() *budget.Meter { return budget.New(limits, budgettest.New(), nil) }, `{"group_id":20001,"message_id":-5,"code":"76"}`, true},
		{"paced, a reaction without its group is refused", func() *budget.Meter { return budget.New(limits, budgettest.New(), nil) }, `{"message_id":-5,"code":"76"}`, false},
		{"pacing off, a reaction without its group goes", recording, `{"message_id":-5,"code":"76"}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m := tt.meter()
			sent := 0
			h := New(m).Wrap(invoke, func(context.Context, *pipeline.Call) (*pipeline.Result, error) {
				sent++
				return &pipeline.Result{Payload: "sent"}, nil
			})
			c := stagetest.Call(invoke, "set_group_reaction", tt.params)
			_, err := h(context.Background(), c)
			if tt.sent {
				require.NoError(t, err)
				assert.Equal(t, 1, sent)
				return
			}
			require.Error(t, err)
			d := pipeline.Failure(c, err).Diagnostics
			assert.Equal(t, string(fault.CodeInvalidArgument), d.Kind)
			assert.Contains(t, d.Message, "params.group_id is required for pacing")
			assert.Contains(t, d.Message, "nothing was sent")
			assert.Zero(t, sent)
			assert.Equal(t, 4, m.Snapshot().Account.Available, "nothing was charged")
		})
	}
}

// TestAWaitingSendChargesTheAccountWhenItGoes: a send that waits for its
// group costs the account nothing while it waits, so other groups keep
// the account's whole budget; it is charged once, when it goes.
func TestAWaitingSendChargesTheAccountWhenItGoes(t *testing.T) {
	t.Parallel()
	lim := config.SendPace{Target: config.Budget{Burst: 1, Every: 4 * time.Second}, Account: config.Budget{Burst: 6, Every: 2 * time.Second}, Wait: 10 * time.Second}
	r := newRig(lim, invoke)
	g1 := `{"group_id":20001,"message":"hi"}`
	require.NoError(t, r.call(context.Background(), sendGroupMsg, g1).err)
	done := make(chan outcome)
	go func() { done <- r.call(context.Background(), sendGroupMsg, g1) }()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(t, r.clock.WaitForSleepers(ctx, 1))
	assert.Equal(t, 5, r.meter.Snapshot().Account.Available, "the waiting send has not spent the account")
	for id := range 5 {
		o := r.call(ctx, sendGroupMsg, `{"group_id":`+strconv.Itoa(30000+id)+`}`)
		require.NoError(t, o.err)
		assert.Zero(t, o.call.Held, "send %d to another group is not held by the waiting one", id)
	}
	r.clock.Advance(4 * time.Second)
	o := <-done
	require.NoError(t, o.err)
	assert.Equal(t, 4*time.Second, o.call.Held)
	// Six sends at 0 s and this one at 4 s, after 2 refills: one left.
	assert.Equal(t, 1, r.meter.Snapshot().Account.Available)
	assert.Equal(t, 7, r.sends())
}

// TestAWaitingSendChecksTheAccountAgainWhenItGoes: when the account was
// spent while a send waited for its group, the send waits on for the
// account, within the same bound, and says so once.
func TestAWaitingSendChecksTheAccountAgainWhenItGoes(t *testing.T) {
	t.Parallel()
	lim := config.SendPace{Target: config.Budget{Burst: 1, Every: 4 * time.Second}, Account: config.Budget{Burst: 2, Every: 10 * time.Second}, Wait: 10 * time.Second}
	r := newRig(lim, invoke)
	g1 := `{"group_id":20001,"message":"hi"}`
	require.NoError(t, r.call(context.Background(), sendGroupMsg, g1).err)
	done := make(chan outcome)
	go func() { done <- r.call(context.Background(), sendGroupMsg, g1) }()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(t, r.clock.WaitForSleepers(ctx, 1))
	require.NoError(t, r.call(ctx, sendGroupMsg, `{"group_id":20002}`).err, "the account's last send")
	r.clock.Advance(4 * time.Second)
	require.NoError(t, r.clock.WaitForSleepers(ctx, 1), "the send waits again, for the account")
	assert.Equal(t, 2, r.sends(), "and has not gone")
	r.clock.Advance(6 * time.Second)
	o := <-done
	require.NoError(t, o.err)
	assert.Equal(t, 10*time.Second, o.call.Held)
	assert.Equal(t, []string{"waiting 4.0 s for group 20001's send budget"}, o.announced)
	assert.Equal(t, 3, r.sends())
}

// TestAFailedSendSettlesItsBudget: a send that certainly never reached
// SnowLuma gives its budget back, one that may have keeps it spent, and
// the message says which.
func TestAFailedSendSettlesItsBudget(t *testing.T) {
	t.Parallel()
	lim := config.SendPace{Target: config.Budget{Burst: 1, Every: time.Minute}, Account: config.Budget{Burst: 10, Every: time.Millisecond}, Wait: 0}
	tests := []struct {
		name    string
		fail    error
		outcome pipeline.Outcome
		note    string
		refund  bool
	}{
		{"a refusal before the request was written gives it back",
			fault.Errorf(fault.CodeInvalidArgument, "execution.input_file applies only to upload_file_stream").Unsent(),
			pipeline.OutcomeFailed, "nothing reached SnowLuma, so the send budget it was charged was given back", true},
		{"a refused connection gives it back",
			fault.Errorf(fault.CodeTransport, "connection refused").Unsent(),
			pipeline.OutcomeFailed, "nothing reached SnowLuma, so the send budget it was charged was given back", true},
		{"a timeout after the request was written keeps it spent",
			fault.Errorf(fault.CodeTimeout, "no reply from SnowLuma in time"),
			pipeline.OutcomeUnknown, "the request may have reached SnowLuma, so its send budget stays spent", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := newRig(lim, invoke)
			r.fail = tt.fail
			params := `{"group_id":20001,"message":"hi"}`
			for range 2 {
				o := r.call(context.Background(), sendGroupMsg, params)
				require.Error(t, o.err)
				d := pipeline.Failure(o.call, o.err).Diagnostics
				assert.Equal(t, tt.outcome, d.Outcome)
				assert.Equal(t, tt.fail.Error()+"; "+tt.note, d.Message)
				assert.Equal(t, fault.CodeOf(tt.fail), fault.CodeOf(o.err), "the failure keeps its kind")
				if !tt.refund {
					break // the budget is spent: a second try is refused
				}
			}
			r.fail = nil
			o := r.call(context.Background(), sendGroupMsg, params)
			if tt.refund {
				require.NoError(t, o.err, "the budget was given back: the next send goes")
				return
			}
			require.Error(t, o.err)
			assert.Equal(t, fault.CodeRateLimited, fault.CodeOf(o.err), "the budget stays spent")
			assert.Zero(t, r.sends())
		})
	}
}

// BenchmarkPace measures what the stage costs: a call it does not pace
// (invoke_action of get_status) and a delivery that need not wait (its
// target read, both budgets charged when it goes), beside the same
// handler bare.
func BenchmarkPace(b *testing.B) {
	next := func(context.Context, *pipeline.Call) (*pipeline.Result, error) { return nil, nil }
	// Budgets that never make a send wait, so each call measures the
	// charge itself.
	roomy := config.SendPace{Target: config.Budget{Burst: 1 << 30, Every: time.Nanosecond}, Account: config.Budget{Burst: 1 << 30, Every: time.Nanosecond}, Wait: time.Second}
	stage := New(budget.New(roomy, budget.Wall{}, nil)).Wrap(invoke, next)
	for _, bb := range []struct {
		name string
		h    pipeline.Handler
		c    *pipeline.Call
	}{
		{"bare", next, stagetest.Call(invoke, "get_status", "")},
		{"unpaced", stage, stagetest.Call(invoke, "get_status", "")},
		{"paced", stage, stagetest.Call(invoke, "send_group_msg", `{"group_id":20001,"message":"hi"}`)},
	} {
		b.Run(bb.name, func(b *testing.B) {
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := bb.h(ctx, bb.c); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
