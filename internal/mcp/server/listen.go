package server

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/snowluma/snowluma-mcp/internal/hub"
	"github.com/snowluma/snowluma-mcp/internal/task"
)

// listens is the server's one registry of who listens for what: every
// subscriptions/listen gets one record, which may ask for event resource
// updates (listenevents.go), for task status (listentasks.go), or both, and
// every notification of ours leaves through one send path (send).
//
// The SDK's own listen support cannot carry either kind: it keys
// subscriptions by session, so two listens on one session clobber each
// other, drops delivery errors, knows nothing of event resources coming and
// going, and has no taskIds filter and no notifications/tasks (see the SDK
// workaround index in CONTRIBUTING.md). So the record is made here, found
// again from the listen's context, and made live once its acknowledgement
// has gone out: no notification ever precedes the acknowledgement, and
// none follows the listen's answer.
type listens struct {
	hub   *hub.Hub    // nil without live events
	store *task.Store // nil unless task status is served (tasks and a Wire)
	wire  *Wire

	mu      sync.Mutex
	sdkSend mcp.MethodHandler // the SDK's sending handler, captured by sending
	live    map[*listener]bool
	events  // event resource state, guarded by mu
}

// listener is one subscriptions/listen request.
type listener struct {
	id      any // the listen request's JSON-RPC id, the subscriptionId
	session *mcp.ServerSession
	// sending is held while anything is written for the listen, its
	// acknowledgement included; closed is set under it when the listen
	// ends, after which nothing more is written.
	sending sync.Mutex
	closed  bool

	// Event resources (guarded by listens.mu): the URIs it watches,
	// whether it asked for (and was granted) resourcesListChanged, and,
	// while the acknowledgement is being written, whether a change came
	// meanwhile.
	uris            map[string]bool
	lists           bool
	pending, missed bool

	// Tasks: whether it named taskIds at all, the tasks it is told about
	// (those asked for that exist), and what each task's last
	// notification said (guarded by sending).
	askedTasks bool
	taskIDs    []string
	sent       map[string]string
}

// listenKey marks the context of a subscriptions/listen call with its
// record.
type listenKey struct{}

// sendTimeout bounds one notification write.
const sendTimeout = 10 * time.Second

// newListens returns the registry, or nil when there is nothing to listen
// for: no live events, and no task status to tell (which needs the Wire).
func newListens(h *hub.Hub, store *task.Store, w *Wire) *listens {
	r := &listens{hub: h, wire: w, live: map[*listener]bool{}, events: newEvents()}
	if store != nil && w != nil {
		r.store = store
	}
	if h != nil {
		h.OnChange(r.changed)
	}
	if h == nil && r.store == nil {
		return nil
	}
	return r
}

// taskObserver is what the task runner calls when a task ends: nil when
// no task status is told.
func (r *listens) taskObserver() func(task.Record) {
	if r == nil || r.store == nil {
		return nil
	}
	// Off the task's own goroutine: a client that stops reading must not
	// hold up a task recording its end.
	return func(rec task.Record) { go r.taskChanged(rec.ID) }
}

// end marks the listen over, after whatever is being written for it.
func (l *listener) end() {
	l.sending.Lock()
	l.closed = true
	l.sending.Unlock()
}

// receiving gives each subscriptions/listen call its record, takes the
// taskIds the Wire carried in out of its _meta, and forgets the record when
// the call ends (the client cancelled, or the session closed). A listen
// with tasks to report on is held open here: the SDK's own listen returns
// at once when nothing it knows was asked for. Closing a listen never
// releases an event resource. Other requests only teach it which legacy
// sessions exist (they get list changes unasked).
func (r *listens) receiving(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		ss, _ := req.GetSession().(*mcp.ServerSession)
		if method != "subscriptions/listen" {
			if r.hub != nil && ss != nil && method != "server/discover" && !isModern(req) {
				r.mu.Lock()
				r.sessions[ss] = true
				r.mu.Unlock()
			}
			return next(ctx, method, req)
		}
		l := &listener{session: ss}
		if err := r.askTasks(l, req); err != nil {
			return nil, err
		}
		defer func() {
			// Runs before the SDK writes the listen's answer.
			l.end()
			r.mu.Lock()
			delete(r.live, l)
			r.mu.Unlock()
		}()
		res, err := next(context.WithValue(ctx, listenKey{}, l), method, req)
		if err == nil && len(l.taskIDs) > 0 {
			<-ctx.Done()
		}
		return res, err
	}
}

// sending captures the SDK's sending handler and turns a listen's
// acknowledgement into the moment its record goes live.
func (r *listens) sending(next mcp.MethodHandler) mcp.MethodHandler {
	r.mu.Lock()
	r.sdkSend = next
	r.mu.Unlock()
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		l, ok := ctx.Value(listenKey{}).(*listener)
		p, isAck := req.GetParams().(*mcp.SubscriptionsAcknowledgedParams)
		if method != "notifications/subscriptions/acknowledged" || !ok || !isAck || p == nil {
			return next(ctx, method, req)
		}
		return r.acknowledge(ctx, l, p, func() (mcp.Result, error) { return next(ctx, method, req) })
	}
}

// acknowledge records l as the SDK acknowledges it and sends the
// acknowledgement: the SDK's own (sdkAck), or for a listen that asked for
// tasks one that also echoes the taskIds it honours, which only the Wire
// can write. Then it tells the listen what it missed while pending and
// each of its tasks' state.
func (r *listens) acknowledge(ctx context.Context, l *listener, p *mcp.SubscriptionsAcknowledgedParams, sdkAck func() (mcp.Result, error)) (mcp.Result, error) {
	l.sending.Lock()
	defer l.sending.Unlock()
	r.mu.Lock()
	l.id = p.Meta[mcp.MetaKeySubscriptionID]
	r.watchEvents(l, p.Notifications)
	l.pending = true
	r.live[l] = true
	r.mu.Unlock()
	var (
		res mcp.Result
		err error
	)
	if l.askedTasks {
		var ack map[string]any
		if ack, err = withTaskIDs(p, l.taskIDs); err == nil {
			err = r.send(ctx, l.session, "notifications/subscriptions/acknowledged", ack)
		}
	} else {
		res, err = sdkAck()
	}
	r.mu.Lock()
	l.pending = false
	if err != nil {
		delete(r.live, l)
		l.closed = true // never acknowledged: owed nothing
		r.mu.Unlock()
		return nil, err
	}
	if l.missed {
		r.remind(l)
	}
	r.mu.Unlock()
	for _, id := range l.taskIDs {
		r.tell(l, id)
	}
	return res, nil
}

// send is the one way every notification of ours leaves. Those the SDK
// knows go through its sending handler, so they reach the session they are
// for and pass its sending middleware; those it cannot send (the tasks
// extension's notifications/tasks, an acknowledgement that echoes taskIds)
// go onto the Wire, in the same stream. A caller writing for a listen
// holds its sending lock and has checked that it is open.
func (r *listens) send(ctx context.Context, ss *mcp.ServerSession, method string, params any) error {
	r.mu.Lock()
	sdk := r.sdkSend
	r.mu.Unlock()
	switch p := params.(type) {
	case *mcp.ResourceUpdatedNotificationParams:
		if ss == nil || sdk == nil {
			return errNoSession
		}
		_, err := sdk(ctx, method, &mcp.ServerRequest[*mcp.ResourceUpdatedNotificationParams]{Session: ss, Params: p})
		return err
	case *mcp.ResourceListChangedParams:
		if ss == nil || sdk == nil {
			return errNoSession
		}
		_, err := sdk(ctx, method, &mcp.ServerRequest[*mcp.ResourceListChangedParams]{Session: ss, Params: p})
		return err
	}
	return r.wire.notify(ctx, method, params)
}

// errNoSession is a resource notification with nowhere to go.
var errNoSession = errors.New("no MCP session to notify")

// deliver sends one notification outside any request, bounded by
// sendTimeout, to listen l (unless it has ended) or, with l nil, to a
// legacy session.
func (r *listens) deliver(l *listener, ss *mcp.ServerSession, method string, params any) error {
	if l != nil {
		l.sending.Lock()
		defer l.sending.Unlock()
		if l.closed {
			return nil // the listen ended: it is owed nothing more
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), sendTimeout)
	defer cancel()
	return r.send(ctx, ss, method, params)
}
