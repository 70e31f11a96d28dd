package events

import (
	"context"
	"fmt"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/hub"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/event"
)

// waitFor bounds waits that would otherwise hang on a broken build; it is
// never an assertion about speed.
const waitFor = 30 * time.Second

// feed is an event connection that greets once and then waits to close.
type feed struct {
	greeted bool
	closed  chan struct{}
	once    sync.Once
}

func (f *feed) Read() ([]byte, error) {
	if !f.greeted {
		f.greeted = true
		return []byte(`{"time":1,"self_id":10001,"post_type":"meta_event","meta_event_type":"lifecycle","sub_type":"connect"}`), nil
	}
	<-f.closed
	return nil, io.EOF
}

func (f *feed) Close() error {
	f.once.Do(func() { close(f.closed) })
	return nil
}

// activeResource is a hub with one active resource.
func activeResource(t *testing.T) (*hub.Hub, string) {
	t.Helper()
	h := hub.New(hub.Options{Dial: func(context.Context) (hub.Conn, error) { return &feed{closed: make(chan struct{})}, nil }})
	t.Cleanup(h.Close)
	info, err := h.Subscribe(context.Background(), event.Filter{SelfID: 10001})
	require.NoError(t, err)
	return h, info.ID
}

// recorder is a listen and an outbox that write down what they send.
type recorder struct {
	id   string
	sent chan string
	fail bool
}

func (r *recorder) SubscriptionID() any { return r.id }

func (r *recorder) Notify(method string, params any) error {
	r.sent <- fmt.Sprintf("%s %s %v", r.id, method, subscriptionOf(params))
	if r.fail {
		return io.ErrClosedPipe
	}
	return nil
}

func subscriptionOf(params any) any {
	switch p := params.(type) {
	case *mcp.ResourceUpdatedNotificationParams:
		return p.Meta[mcp.MetaKeySubscriptionID]
	case *mcp.ResourceListChangedParams:
		return p.Meta[mcp.MetaKeySubscriptionID]
	}
	return nil
}

type nowhere struct{}

func (nowhere) Notify(*mcp.ServerSession, string, any) error { return nil }

func next(t *testing.T, sent chan string) string {
	t.Helper()
	select {
	case s := <-sent:
		return s
	case <-time.After(waitFor):
		require.FailNow(t, "nothing was sent")
		return ""
	}
}

// idle waits until no flush is running.
func idle(t *testing.T, w *Watcher) {
	t.Helper()
	require.Eventually(t, func() bool {
		w.mu.Lock()
		defer w.mu.Unlock()
		return !w.flushing
	}, waitFor, time.Millisecond)
}

func TestAChangeWhileAListenIsBeingAcknowledgedIsNotifiedRightAfter(t *testing.T) {
	t.Parallel()
	h, id := activeResource(t)
	w := NewWatcher(h, nowhere{})
	l := &recorder{id: "L", sent: make(chan string, 8)}
	w.Watch(l, mcp.NotificationSubscriptions{ResourceSubscriptions: []string{hub.URI(id)}})
	w.changed(id)
	idle(t, w)
	assert.Empty(t, l.sent, "nothing goes out while the acknowledgement is being written")
	w.Acknowledged(l, true)
	assert.Equal(t, "L notifications/resources/updated L", next(t, l.sent))
}

func TestAListenNeverAcknowledgedIsOwedNothing(t *testing.T) {
	t.Parallel()
	h, id := activeResource(t)
	w := NewWatcher(h, nowhere{})
	l := &recorder{id: "L", sent: make(chan string, 8)}
	w.Watch(l, mcp.NotificationSubscriptions{ResourceSubscriptions: []string{hub.URI(id)}, ResourcesListChanged: true})
	w.changed(id)
	idle(t, w)
	w.Acknowledged(l, false)
	w.changed(id)
	idle(t, w)
	assert.Empty(t, l.sent)
}

func TestAForgottenListenHearsNoMore(t *testing.T) {
	t.Parallel()
	h, id := activeResource(t)
	w := NewWatcher(h, nowhere{})
	l := &recorder{id: "L", sent: make(chan string, 8)}
	w.Watch(l, mcp.NotificationSubscriptions{ResourceSubscriptions: []string{hub.URI(id)}})
	w.Acknowledged(l, true)
	w.changed(id)
	assert.Equal(t, "L notifications/resources/updated L", next(t, l.sent))
	w.Forget(l)
	w.changed(id)
	idle(t, w)
	assert.Empty(t, l.sent)
}

func TestAFailedUpdateMarksTheResource(t *testing.T) {
	t.Parallel()
	h, id := activeResource(t)
	w := NewWatcher(h, nowhere{})
	l := &recorder{id: "L", sent: make(chan string, 8), fail: true}
	w.Watch(l, mcp.NotificationSubscriptions{ResourceSubscriptions: []string{hub.URI(id)}})
	w.Acknowledged(l, true)
	w.changed(id)
	next(t, l.sent)
	idle(t, w)
	page, err := h.Read(id, 0)
	require.NoError(t, err)
	assert.True(t, page.NotificationFailed, "a reader learns it may have missed a change")
}

func TestOnlyURIsOfEventResourcesAreWatched(t *testing.T) {
	t.Parallel()
	h, id := activeResource(t)
	w := NewWatcher(h, nowhere{})
	l := &recorder{id: "L", sent: make(chan string, 8)}
	w.Watch(l, mcp.NotificationSubscriptions{ResourceSubscriptions: []string{"snowluma://onebot/actions", hub.URI(id) + "?after=1"}})
	w.Acknowledged(l, true)
	w.changed(id)
	idle(t, w)
	assert.Empty(t, l.sent)
}
