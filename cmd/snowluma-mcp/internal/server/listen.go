package server

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/snowluma/snowluma-mcp/cmd/snowluma-mcp/internal/server/tasks"
	"github.com/snowluma/snowluma-mcp/internal/hub"
	"github.com/snowluma/snowluma-mcp/internal/mcp/events"
	"github.com/snowluma/snowluma-mcp/internal/mcp/generation"
	"github.com/snowluma/snowluma-mcp/internal/task"
)

// listens is the server's one registry of who listens for what: every
// subscriptions/listen gets one record, which may ask for event resource
// updates (the events package), for task status (the tasks package), or
// both, and every notification of ours leaves through one send path
// (send). Each extension keeps its own state about a listen under its own
// lock and sees the record only as the small interface it declares
// (events.Listen, tasks.Listen): the registry owns only what
// every listen has, its id, session, send lock and end.
//
// The SDK's own listen support cannot carry either kind: it keys
// subscriptions by session, so two listens on one session clobber each
// other, drops delivery errors, knows nothing of event resources coming and
// going, and has no taskIds filter and no notifications/tasks (see the SDK
// workaround index in CONTRIBUTING.md; SDK contract tests:
// TestSDKKeysResourceSubscriptionsBySession,
// TestSDKResourceUpdatedDropsSendErrors). So the record is made here, found
// again from the listen's context, and made live once its acknowledgement
// has gone out: no notification ever precedes the acknowledgement, and
// none follows the listen's answer.
type listens struct {
	events *events.Watcher // nil without live events
	tasks  *tasks.Listens  // nil unless task status is served (tasks and a Wire)
	wire   *Wire

	mu      sync.Mutex
	sdkSend mcp.MethodHandler // the SDK's sending handler, captured by sending
}

// listener is one subscriptions/listen request.
type listener struct {
	r       *listens
	id      any // the listen request's JSON-RPC id, the subscriptionId
	session *mcp.ServerSession
	// sending is held while anything is written for the listen, its
	// acknowledgement included; closed is set under it when the listen
	// ends, after which nothing more is written.
	sending sync.Mutex
	closed  bool
}

// listenKey marks the context of a subscriptions/listen call with its
// record.
type listenKey struct{}

// sendTimeout bounds one notification write.
const sendTimeout = 10 * time.Second

// newListens returns the registry, or nil when there is nothing to listen
// for: no live events, and no task status to tell (which needs the Wire).
func newListens(h *hub.Hub, store *task.Store, w *Wire) *listens {
	r := &listens{wire: w}
	if store != nil && w != nil {
		r.tasks = tasks.NewListens(store)
	}
	if h != nil {
		r.events = events.NewWatcher(h, sessionOutbox{r})
	}
	if r.events == nil && r.tasks == nil {
		return nil
	}
	return r
}

// taskObserver is what the task runner calls when a task's status
// changes: nil when no task status is told.
func (r *listens) taskObserver() func(task.Record) {
	if r == nil || r.tasks == nil {
		return nil
	}
	return r.tasks.Observe
}

// SubscriptionID is the listen's subscriptionId (events.Listen, tasks.Listen).
func (l *listener) SubscriptionID() any { return l.id }

// Notify sends one notification for l outside any request, bounded by
// sendTimeout, unless the listen has ended (events.Listen, tasks.Listen).
func (l *listener) Notify(method string, params any) error {
	l.sending.Lock()
	defer l.sending.Unlock()
	if l.closed {
		return nil // the listen ended: it is owed nothing more
	}
	return l.r.deliver(l.session, method, params)
}

// end marks the listen over, after whatever is being written for it.
func (l *listener) end() {
	l.sending.Lock()
	l.closed = true
	l.sending.Unlock()
}

// sessionOutbox sends to a legacy session (events.Outbox).
type sessionOutbox struct{ r *listens }

func (o sessionOutbox) Notify(ss *mcp.ServerSession, method string, params any) error {
	return o.r.deliver(ss, method, params)
}

// subscribe and unsubscribe are the SDK's Subscribe and UnsubscribeHandler;
// within a listen the record, not the SDK's call, says what it watches.
func (r *listens) subscribe(ctx context.Context, req *mcp.SubscribeRequest) error {
	return r.events.Subscribe(req, ctx.Value(listenKey{}) != nil)
}

func (r *listens) unsubscribe(ctx context.Context, req *mcp.UnsubscribeRequest) error {
	return r.events.Unsubscribe(req, ctx.Value(listenKey{}) != nil)
}

// receiving gives each subscriptions/listen call its record, lets the task
// side take the taskIds the Wire carried in, and forgets the record when
// the call ends (the client cancelled, or the session closed). A listen
// with tasks to report on is held open here: the SDK's own listen returns
// at once when nothing it knows was asked for. Closing a listen never
// releases an event resource. Other requests only teach the event side
// which legacy sessions exist (they get list changes unasked).
func (r *listens) receiving(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		ss, _ := req.GetSession().(*mcp.ServerSession)
		if method != "subscriptions/listen" {
			if r.events != nil && ss != nil && method != "server/discover" && !generation.Modern(req) {
				r.events.SawLegacy(ss)
			}
			return next(ctx, method, req)
		}
		l := &listener{r: r, session: ss}
		hold, err := r.tasks.Admit(l, req)
		if err != nil {
			return nil, err
		}
		defer func() {
			// Runs before the SDK writes the listen's answer.
			l.end()
			if r.events != nil {
				r.events.Forget(l)
			}
			r.tasks.Forget(l)
		}()
		res, err := next(context.WithValue(ctx, listenKey{}, l), method, req)
		if err == nil && hold {
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
// tasks the task side's, which also echoes the taskIds it honours. While
// it is written the event side only remembers what changes; once it is
// out, each side tells the listen what it is owed.
func (r *listens) acknowledge(ctx context.Context, l *listener, p *mcp.SubscriptionsAcknowledgedParams, sdkAck func() (mcp.Result, error)) (mcp.Result, error) {
	l.sending.Lock()
	l.id = p.Meta[mcp.MetaKeySubscriptionID]
	if r.events != nil {
		r.events.Watch(l, p.Notifications)
	}
	var (
		res mcp.Result
		err error
	)
	if ack, asked, aerr := r.tasks.Acknowledgement(l, p); aerr != nil {
		err = aerr
	} else if asked {
		err = r.send(ctx, l.session, "notifications/subscriptions/acknowledged", ack)
	} else {
		res, err = sdkAck()
	}
	if err != nil {
		l.closed = true // never acknowledged: owed nothing
	}
	l.sending.Unlock()
	if r.events != nil {
		r.events.Acknowledged(l, err == nil)
	}
	if err != nil {
		r.tasks.Forget(l)
		return nil, err
	}
	r.tasks.Acknowledged(l)
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
// sendTimeout.
func (r *listens) deliver(ss *mcp.ServerSession, method string, params any) error {
	ctx, cancel := context.WithTimeout(context.Background(), sendTimeout)
	defer cancel()
	return r.send(ctx, ss, method, params)
}
