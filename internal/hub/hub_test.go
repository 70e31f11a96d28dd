package hub

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/snowluma/event"
)

// wait bounds a wait that would otherwise hang on a broken build; it is
// never an assertion about speed.
const wait = 30 * time.Second

// fakeConn is a connection the test feeds frame by frame.
type fakeConn struct {
	frames chan []byte
	ends   chan error
	closed chan struct{}
	once   sync.Once
}

func newFakeConn() *fakeConn {
	return &fakeConn{frames: make(chan []byte), ends: make(chan error, 1), closed: make(chan struct{})}
}

func (c *fakeConn) Read() ([]byte, error) {
	select {
	case f := <-c.frames:
		return f, nil
	case err := <-c.ends:
		return nil, err
	case <-c.closed:
		return nil, io.EOF
	}
}

func (c *fakeConn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return nil
}

func (c *fakeConn) isClosed() bool {
	select {
	case <-c.closed:
		return true
	default:
		return false
	}
}

// send hands the reader one frame and returns once it has taken it.
func (c *fakeConn) send(t *testing.T, frame string) {
	t.Helper()
	select {
	case c.frames <- []byte(frame):
	case <-time.After(wait):
		require.FailNow(t, "the hub stopped reading")
	}
}

// clock is an injected clock that moves only when told.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// rig is a hub whose dials hand out fake connections, with a lifecycle
// frame already queued so the first subscription completes.
type rig struct {
	t     *testing.T
	hub   *Hub
	clock *clock
	mu    sync.Mutex
	conns []*fakeConn
	dials int
	fail  error // the next dial's error, if set
	ids   chan string
}

func newRig(t *testing.T, limits Limits) *rig { return newScreenedRig(t, limits, nil) }

// newScreenedRig is newRig with a screen over every kept event.
func newScreenedRig(t *testing.T, limits Limits, screen func([]byte) []byte) *rig {
	r := &rig{t: t, clock: &clock{now: time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)}, ids: make(chan string, 4096)}
	r.hub = New(Options{Now: r.clock.Now, Limits: limits, Dial: r.dial, Screen: screen, Changed: func(id string) {
		select {
		case r.ids <- id:
		default:
		}
	}})
	t.Cleanup(r.hub.Close)
	return r
}

func (r *rig) dial(ctx context.Context) (Conn, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.dials++
	if r.fail != nil {
		err := r.fail
		r.fail = nil
		return nil, err
	}
	c := newFakeConn()
	r.conns = append(r.conns, c)
	go func() {
		select {
		case c.frames <- []byte(lifecycle(10001)):
		case <-c.closed:
		}
	}()
	return c, nil
}

func (r *rig) conn(i int) *fakeConn {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.conns[i]
}

func (r *rig) dialCount() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.dials
}

func (r *rig) subscribe(f event.Filter) Info {
	r.t.Helper()
	if f.SelfID == 0 {
		f.SelfID = 10001
	}
	info, err := r.hub.Subscribe(context.Background(), f)
	require.NoError(r.t, err)
	return info
}

func (r *rig) read(id string, after uint64) Page {
	r.t.Helper()
	p, err := r.hub.Read(id, after)
	require.NoError(r.t, err)
	return p
}

// Frame builders in SnowLuma's event shapes (meta events from its
// packages/onebot/src/instance.ts, the others from
// packages/onebot/src/event-converter/).
func lifecycle(self int64) string {
	return fmt.Sprintf(`{"time":1764664200,"self_id":%d,"post_type":"meta_event","meta_event_type":"lifecycle","sub_type":"connect","status":{"online":true,"good":true}}`, self)
}

func heartbeat(self int64) string {
	return fmt.Sprintf(`{"time":1764664230,"self_id":%d,"post_type":"meta_event","meta_event_type":"heartbeat","status":{"online":true,"good":true},"interval":30000}`, self)
}

func groupMsg(self, group, user int64, text string) string {
	return fmt.Sprintf(`{"time":1764664201,"self_id":%d,"post_type":"message","message_type":"group","sub_type":"normal","message_id":1,"group_id":%d,"user_id":%d,"message":[{"type":"text","data":{"text":%q}}],"raw_message":%q,"font":0}`, self, group, user, text, text)
}

func notice(self, group, user int64) string {
	return fmt.Sprintf(`{"time":1764664204,"self_id":%d,"post_type":"notice","notice_type":"group_recall","group_id":%d,"operator_id":3,"user_id":%d,"message_id":5}`, self, group, user)
}

// settle returns once everything sent before it has been handled: the
// reader takes a frame only after handling the one before, so the second
// heartbeat being taken means the first, and all before it, are done.
func (r *rig) settle(c *fakeConn) {
	c.send(r.t, heartbeat(10001))
	c.send(r.t, heartbeat(10001))
}

func TestNewConnectsNothing(t *testing.T) {
	r := newRig(t, Limits{})
	assert.Empty(t, r.hub.List())
	assert.Zero(t, r.dialCount(), "making the hub or listing its resources must not connect")
}

func TestSubscriptionsShareOneConnection(t *testing.T) {
	r := newRig(t, Limits{})
	a := r.subscribe(event.Filter{})
	b := r.subscribe(event.Filter{Types: []event.Kind{event.KindNotice}})
	assert.Equal(t, 1, r.dialCount())
	assert.NotEqual(t, a.ID, b.ID)
	assert.Equal(t, StateConnected, a.Status.State)
	assert.Len(t, r.hub.List(), 2)
}

func TestReleasingTheLastResourceClosesTheConnection(t *testing.T) {
	r := newRig(t, Limits{})
	a, b := r.subscribe(event.Filter{}), r.subscribe(event.Filter{})
	require.NoError(t, r.hub.Release(a.ID))
	assert.False(t, r.conn(0).isClosed(), "one resource is still active")
	require.NoError(t, r.hub.Release(b.ID))
	assert.True(t, r.conn(0).isClosed())
	assert.ErrorIs(t, r.hub.Release(b.ID), ErrNotFound)
	r.subscribe(event.Filter{})
	assert.Equal(t, 2, r.dialCount(), "a subscription after the last release opens a fresh connection")
}

func TestCloseReleasesEverything(t *testing.T) {
	r := newRig(t, Limits{})
	a := r.subscribe(event.Filter{})
	r.hub.Close()
	assert.True(t, r.conn(0).isClosed())
	assert.Empty(t, r.hub.List())
	_, err := r.hub.Read(a.ID, 0)
	assert.ErrorIs(t, err, ErrNotFound)
	_, err = r.hub.Subscribe(context.Background(), event.Filter{SelfID: 10001})
	var ref *Refusal
	require.ErrorAs(t, err, &ref)
	assert.Equal(t, "closed", ref.Kind)
}

func TestFiltersChooseWhatEachResourceKeeps(t *testing.T) {
	r := newRig(t, Limits{})
	all := r.subscribe(event.Filter{})
	group := r.subscribe(event.Filter{GroupIDs: []int64{20001}})
	notices := r.subscribe(event.Filter{Types: []event.Kind{event.KindNotice}, UserIDs: []int64{30001}})
	c := r.conn(0)
	c.send(t, groupMsg(10001, 20001, 30001, "one"))
	c.send(t, groupMsg(10001, 20002, 30001, "two"))
	c.send(t, notice(10001, 20002, 30001))
	r.settle(c)
	assert.Len(t, r.read(all.ID, 0).Events, 3)
	assert.Len(t, r.read(group.ID, 0).Events, 1)
	assert.Len(t, r.read(notices.ID, 0).Events, 1)
}

func TestTheScreenRewritesEventsBeforeTheyAreKept(t *testing.T) {
	var screened []string
	var mu sync.Mutex
	r := newScreenedRig(t, Limits{}, func(frame []byte) []byte {
		mu.Lock()
		defer mu.Unlock()
		screened = append(screened, string(frame))
		return []byte(`{"screened":true}`)
	})
	a := r.subscribe(event.Filter{})
	c := r.conn(0)
	msg := groupMsg(10001, 20001, 30001, "words")
	c.send(t, msg)
	c.send(t, heartbeat(10001))
	r.settle(c)
	p := r.read(a.ID, 0)
	require.Len(t, p.Events, 1)
	assert.JSONEq(t, `{"screened":true}`, string(p.Events[0].Event), "a read sees only what the screen returned")
	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, []string{msg}, screened, "each event is screened once; meta events are not kept, so not screened")
}

func TestMetaEventsAreCheckedButNeverKept(t *testing.T) {
	r := newRig(t, Limits{})
	a := r.subscribe(event.Filter{})
	r.clock.advance(time.Minute)
	r.settle(r.conn(0))
	p := r.read(a.ID, 0)
	assert.Empty(t, p.Events)
	require.NotNil(t, p.Status.LastHeartbeat)
	assert.Equal(t, r.clock.Now(), *p.Status.LastHeartbeat)
}

func TestReadsDoNotConsumeAndAfterSkipsWhatWasRead(t *testing.T) {
	r := newRig(t, Limits{})
	a := r.subscribe(event.Filter{})
	c := r.conn(0)
	start := r.clock.Now()
	for i := range 3 {
		c.send(t, groupMsg(10001, 1, 2, fmt.Sprint("m", i)))
		r.settle(c)
		r.clock.advance(time.Second)
	}
	first := r.read(a.ID, 0)
	again := r.read(a.ID, 0)
	// Status may move on (a heartbeat); what was read may not.
	assert.Equal(t, first.Events, again.Events, "a read consumes nothing")
	assert.Equal(t, first.NextCursor, again.NextCursor)
	require.Len(t, first.Events, 3)
	assert.Equal(t, []uint64{1, 2, 3}, []uint64{first.Events[0].Cursor, first.Events[1].Cursor, first.Events[2].Cursor})
	assert.Equal(t, uint64(3), first.NextCursor)
	assert.Equal(t, uint64(1), *first.OldestCursor)
	assert.False(t, first.Gap)
	assert.Equal(t, start, first.Events[0].ReceivedAt)
	assert.Equal(t, start.Add(2*time.Second), first.Events[2].ReceivedAt)

	c.send(t, groupMsg(10001, 1, 2, "m3"))
	r.settle(c)
	next := r.read(a.ID, first.NextCursor)
	require.Len(t, next.Events, 1)
	assert.Equal(t, uint64(4), next.Events[0].Cursor)
	assert.Contains(t, string(next.Events[0].Event), `"m3"`)
	empty := r.read(a.ID, next.NextCursor)
	assert.Empty(t, empty.Events)
	assert.Equal(t, uint64(4), empty.NextCursor)
}

func TestACursorThisResourceNeverIssuedIsRefused(t *testing.T) {
	r := newRig(t, Limits{})
	a := r.subscribe(event.Filter{})
	_, err := r.hub.Read(a.ID, 7)
	var ce *CursorError
	require.ErrorAs(t, err, &ce)
	assert.Contains(t, err.Error(), "cursors belong to one resource")
	_, err = r.hub.Read("nope", 0)
	assert.ErrorIs(t, err, ErrNotFound)
}

func TestOnlyEventsAfterSubscriptionAreVisible(t *testing.T) {
	r := newRig(t, Limits{})
	a := r.subscribe(event.Filter{})
	c := r.conn(0)
	c.send(t, groupMsg(10001, 1, 2, "before"))
	r.settle(c)
	b := r.subscribe(event.Filter{})
	c.send(t, groupMsg(10001, 1, 2, "after"))
	r.settle(c)
	assert.Len(t, r.read(a.ID, 0).Events, 2)
	later := r.read(b.ID, 0)
	require.Len(t, later.Events, 1)
	assert.Contains(t, string(later.Events[0].Event), "after")
}

func TestEvictionIsVisibleAsGapAndDroppedEvents(t *testing.T) {
	cases := []struct {
		name   string
		limits Limits
		sends  int
		kept   int
	}{
		{"by count", Limits{Resources: 16, Events: 4, Bytes: 1 << 20, Frame: 1 << 18}, 10, 4},
		{"by bytes", Limits{Resources: 16, Events: 256, Bytes: 600, Frame: 1 << 18}, 10, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, tc.limits)
			a := r.subscribe(event.Filter{})
			c := r.conn(0)
			for i := range tc.sends {
				c.send(t, groupMsg(10001, 1, 2, fmt.Sprint("m", i)))
			}
			r.settle(c)
			p := r.read(a.ID, 0)
			require.Len(t, p.Events, tc.kept)
			dropped := uint64(tc.sends - tc.kept)
			assert.True(t, p.Gap)
			assert.Equal(t, dropped, p.DroppedEvents)
			assert.Equal(t, dropped+1, *p.OldestCursor)
			assert.Equal(t, uint64(tc.sends), p.NextCursor)

			behind := r.read(a.ID, 2)
			assert.Equal(t, dropped-2, behind.DroppedEvents, "a reader at cursor 2 missed the evicted events after it")
			caughtUp := r.read(a.ID, dropped)
			assert.False(t, caughtUp.Gap)
			assert.Zero(t, caughtUp.DroppedEvents)
		})
	}
}

func TestMemoryStaysBoundedUnderAFlood(t *testing.T) {
	r := newRig(t, Limits{})
	ids := make([]string, 16)
	for i := range ids {
		ids[i] = r.subscribe(event.Filter{}).ID
	}
	c := r.conn(0)
	big := groupMsg(10001, 1, 2, strings.Repeat("x", 8000))
	for range 1000 {
		c.send(t, big)
	}
	r.settle(c)
	r.hub.mu.Lock()
	defer r.hub.mu.Unlock()
	for _, id := range ids {
		b := &r.hub.resources[id].buf
		assert.LessOrEqual(t, b.bytes, int64(1<<20))
		assert.LessOrEqual(t, b.n, 256)
		assert.Equal(t, uint64(1000), b.last)
	}
}

func TestSixteenResourcesAtMost(t *testing.T) {
	r := newRig(t, Limits{})
	for range 16 {
		r.subscribe(event.Filter{})
	}
	_, err := r.hub.Subscribe(context.Background(), event.Filter{SelfID: 10001})
	var ref *Refusal
	require.ErrorAs(t, err, &ref)
	assert.Equal(t, "limit", ref.Kind)
	assert.Contains(t, err.Error(), "unsubscribe_events")
}

func TestAnotherAccountIsRefusedWhileTheConnectionServesOne(t *testing.T) {
	r := newRig(t, Limits{})
	r.subscribe(event.Filter{})
	_, err := r.hub.Subscribe(context.Background(), event.Filter{SelfID: 777})
	var ref *Refusal
	require.ErrorAs(t, err, &ref)
	assert.Equal(t, "account", ref.Kind)
}

func TestInvalidFiltersAreRefusedBeforeConnecting(t *testing.T) {
	r := newRig(t, Limits{})
	_, err := r.hub.Subscribe(context.Background(), event.Filter{SelfID: 0})
	var ref *Refusal
	require.ErrorAs(t, err, &ref)
	assert.Equal(t, "invalid", ref.Kind)
	assert.Zero(t, r.dialCount())
}

func TestTheConnectionStopsVisiblyAndIsNeverReopenedBehindResources(t *testing.T) {
	cases := []struct {
		name   string
		frame  string
		err    error
		reason string
	}{
		{"account mismatch", groupMsg(10002, 1, 2, "x"), nil, ReasonAccount},
		{"meta event of another account", heartbeat(10002), nil, ReasonAccount},
		{"malformed frame", `{"self_id":10001,`, nil, ReasonMalformed},
		{"oversize frame", groupMsg(10001, 1, 2, strings.Repeat("y", 300<<10)), nil, ReasonFrameTooLarge},
		{"drop", "", errors.New("unexpected EOF"), ReasonConnectionLost},
		{"worded failure", "", &Failure{Reason: ReasonClosedByServer, Message: "closed", NextStep: "release with unsubscribe_events"}, ReasonClosedByServer},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, Limits{})
			a, b := r.subscribe(event.Filter{}), r.subscribe(event.Filter{})
			c := r.conn(0)
			c.send(t, groupMsg(10001, 1, 2, "kept"))
			r.clock.advance(time.Minute)
			if tc.err != nil {
				c.ends <- tc.err
			} else {
				c.send(t, tc.frame)
			}
			select {
			case <-c.closed:
			case <-time.After(wait):
				require.FailNow(t, "the connection was not closed")
			}
			for _, id := range []string{a.ID, b.ID} {
				p := r.read(id, 0)
				assert.Equal(t, StateDisconnected, p.Status.State)
				require.NotNil(t, p.Status.Failure)
				assert.Equal(t, tc.reason, p.Status.Reason)
				assert.Contains(t, p.Status.NextStep, "unsubscribe_events")
				assert.Equal(t, r.clock.Now(), p.Status.Since)
				assert.Len(t, p.Events, 1, "what arrived before stays readable")
			}
			_, err := r.hub.Subscribe(context.Background(), event.Filter{SelfID: 10001})
			var ref *Refusal
			require.ErrorAs(t, err, &ref)
			assert.Equal(t, "disconnected", ref.Kind)
			assert.Equal(t, 1, r.dialCount(), "no silent reconnect")

			require.NoError(t, r.hub.Release(a.ID))
			require.NoError(t, r.hub.Release(b.ID))
			r.subscribe(event.Filter{})
			assert.Equal(t, 2, r.dialCount(), "after releasing everything a subscription opens a fresh connection")
		})
	}
}

func TestAFirstSubscriptionWhoseConnectionFailsLeavesNothing(t *testing.T) {
	r := newRig(t, Limits{})
	r.fail = &Failure{Reason: ReasonAuthRefused, Message: "refused"}
	_, err := r.hub.Subscribe(context.Background(), event.Filter{SelfID: 10001})
	var f *Failure
	require.ErrorAs(t, err, &f)
	assert.Equal(t, ReasonAuthRefused, f.Reason)
	assert.Empty(t, r.hub.List())

	r.fail = errors.New("dial tcp: connection refused")
	_, err = r.hub.Subscribe(context.Background(), event.Filter{SelfID: 10001})
	require.ErrorAs(t, err, &f)
	assert.Equal(t, ReasonConnectFailed, f.Reason)

	r.subscribe(event.Filter{})
	assert.Equal(t, 3, r.dialCount())
}

func TestAFirstFrameOfAnotherAccountFailsTheSubscription(t *testing.T) {
	r := newRig(t, Limits{})
	_, err := r.hub.Subscribe(context.Background(), event.Filter{SelfID: 555})
	var f *Failure
	require.ErrorAs(t, err, &f)
	assert.Equal(t, ReasonAccount, f.Reason)
	assert.Contains(t, f.Message, "10001")
	assert.Empty(t, r.hub.List())
}

func TestChangesAreReportedAndNotificationFailuresRemembered(t *testing.T) {
	r := newRig(t, Limits{})
	a := r.subscribe(event.Filter{})
	for len(r.ids) > 0 {
		<-r.ids
	}
	r.conn(0).send(t, groupMsg(10001, 1, 2, "x"))
	select {
	case id := <-r.ids:
		assert.Equal(t, a.ID, id)
	case <-time.After(wait):
		require.FailNow(t, "no change reported")
	}
	assert.False(t, r.read(a.ID, 0).NotificationFailed)
	r.hub.NotificationFailed(a.ID)
	assert.True(t, r.read(a.ID, 0).NotificationFailed)
}

func TestAConnectionThatSendsNothingFailsTheFirstSubscription(t *testing.T) {
	silent := newFakeConn()
	h := New(Options{Handshake: 50 * time.Millisecond, Dial: func(context.Context) (Conn, error) { return silent, nil }})
	t.Cleanup(h.Close)
	_, err := h.Subscribe(context.Background(), event.Filter{SelfID: 10001})
	var f *Failure
	require.ErrorAs(t, err, &f)
	assert.Equal(t, ReasonNoHandshake, f.Reason)
	assert.Contains(t, f.NextStep, "Universal or Event")
	assert.Empty(t, h.List())
	assert.True(t, silent.isClosed())
}

func TestACancelledFirstSubscriptionLeavesNothing(t *testing.T) {
	silent := newFakeConn()
	h := New(Options{Dial: func(context.Context) (Conn, error) { return silent, nil }})
	t.Cleanup(h.Close)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := h.Subscribe(ctx, event.Filter{SelfID: 10001})
	require.ErrorIs(t, err, context.Canceled)
	assert.Empty(t, h.List())
	require.Eventually(t, silent.isClosed, wait, time.Millisecond, "the connection nobody wants is closed")
}
