package server

import (
	"context"
	"errors"
	"maps"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/snowluma/snowluma-mcp/internal/hub"
)

// watch delivers update notifications for event resources, on both
// generations, itself rather than through Server.ResourceUpdated:
//
//   - The SDK keys subscriptions by session, so two subscriptions/listen on
//     one session clobber each other (the later one's ID replaces the
//     earlier's, and the first to close deletes both). Here each listen is
//     its own record, found from its context, so each gets its own
//     notifications with its own subscriptionId for as long as it is open.
//   - ResourceUpdated drops delivery errors (it only logs them); a failed
//     send here marks the resource notification_failed, so a reader learns
//     it may have missed a change.
//   - Changes are coalesced per resource while a send is in flight, so a
//     flood of events costs a bounded set of pending URIs, not a queue.
//   - Event resources come and go without the SDK knowing, so the list
//     changes are sent here too: to legacy sessions, which get them
//     unasked, and to listens that asked for resourcesListChanged.
//
// A listen is recorded as the SDK sends its acknowledgement (seen in
// sending middleware) and becomes live once the acknowledgement is out, so
// no notification ever precedes it; a change that comes while it is being
// sent is remembered and notified right after, so none is lost either.
// Sends go through the SDK's own sending handler, captured from that
// middleware.
type watch struct {
	hub *hub.Hub

	mu       sync.Mutex
	send     mcp.MethodHandler
	listens  map[*listen]bool
	legacy   map[string]map[*mcp.ServerSession]bool // URI → sessions that called resources/subscribe
	dirty    map[string]bool                        // resource IDs changed since the last flush
	flushing bool
	// sessions are the legacy sessions seen, which get list changes
	// without asking; known is the set of resource IDs they were last
	// told about.
	sessions map[*mcp.ServerSession]bool
	known    map[string]bool
}

// listen is one subscriptions/listen request for event resources.
type listen struct {
	listener
	session *mcp.ServerSession
	uris    map[string]bool
	lists   bool // asked for (and was granted) resourcesListChanged
	// pending is true while the acknowledgement is being written;
	// missed says a change came meanwhile. Both are guarded by w.mu.
	pending, missed bool
}

// listener is what every listen record has: its subscriptionId, and the rule
// that nothing is written for a listen after its answer. sending is held
// while anything for the listen is written, and closed is set under it
// when the listen ends.
type listener struct {
	id      any // the listen request's JSON-RPC id, the subscriptionId
	sending sync.Mutex
	closed  bool
}

// end marks the listen over, after whatever is being written for it.
func (s *listener) end() {
	s.sending.Lock()
	s.closed = true
	s.sending.Unlock()
}

// listenKey marks the context of a subscriptions/listen call with its
// record.
type listenKey struct{}

// sendTimeout bounds one notification write.
const sendTimeout = 10 * time.Second

func newWatch(h *hub.Hub) *watch {
	w := &watch{hub: h, listens: map[*listen]bool{}, legacy: map[string]map[*mcp.ServerSession]bool{}, dirty: map[string]bool{},
		sessions: map[*mcp.ServerSession]bool{}, known: map[string]bool{}}
	h.OnChange(w.changed)
	return w
}

// receiving gives each subscriptions/listen call its record and forgets
// it when the call ends (the client cancelled, or the session closed).
// Closing a listen never releases an event resource.
func (w *watch) receiving(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		ss, _ := req.GetSession().(*mcp.ServerSession)
		if method != "subscriptions/listen" {
			if ss != nil && method != "server/discover" && !isModern(req) {
				w.mu.Lock()
				w.sessions[ss] = true
				w.mu.Unlock()
			}
			return next(ctx, method, req)
		}
		l := &listen{session: ss}
		defer func() {
			// Runs before the SDK writes the listen's answer.
			l.end()
			w.mu.Lock()
			delete(w.listens, l)
			w.mu.Unlock()
		}()
		return next(context.WithValue(ctx, listenKey{}, l), method, req)
	}
}

// sending captures the SDK's sending handler and records a listen once
// its acknowledgement has gone out.
func (w *watch) sending(next mcp.MethodHandler) mcp.MethodHandler {
	w.mu.Lock()
	w.send = next
	w.mu.Unlock()
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		l, ok := ctx.Value(listenKey{}).(*listen)
		p, isAck := req.GetParams().(*mcp.SubscriptionsAcknowledgedParams)
		if method != "notifications/subscriptions/acknowledged" || !ok || !isAck || p == nil {
			return next(ctx, method, req)
		}
		w.mu.Lock()
		l.id = p.Meta[mcp.MetaKeySubscriptionID]
		l.lists = p.Notifications.ResourcesListChanged
		l.uris = map[string]bool{}
		for _, uri := range p.Notifications.ResourceSubscriptions {
			if _, isEvent := hub.IDOf(uri); isEvent {
				l.uris[uri] = true
			}
		}
		l.pending = true
		w.listens[l] = true
		w.mu.Unlock()
		res, err := next(ctx, method, req)
		w.mu.Lock()
		defer w.mu.Unlock()
		l.pending = false
		if err != nil {
			delete(w.listens, l)
			return res, err
		}
		if l.missed {
			// Tell it now what changed while it was being acknowledged.
			for uri := range l.uris {
				if id, ok := hub.IDOf(uri); ok {
					w.dirty[id] = true
				}
			}
			if l.lists {
				w.known = nil      // forces a list change out to everyone
				w.dirty[""] = true // "" stands for the list itself
			}
			w.startFlush()
		}
		return res, err
	}
}

// subscribe is the SDK's SubscribeHandler, for resources/subscribe and for
// each URI of a listen. Only active event resources can be watched.
func (w *watch) subscribe(ctx context.Context, req *mcp.SubscribeRequest) error {
	uri := req.Params.URI
	id, ok := hub.IDOf(uri)
	switch {
	case !ok && strings.HasPrefix(uri, hub.URIPrefix):
		return invalidURI(uri, "subscribe to the event resource's URI exactly as subscribe_events returned it, without ?after")
	case !ok:
		return invalidURI(uri, "only event resources (snowluma://onebot/events/<id>) change; the action catalog is fixed while the server runs")
	case !w.hub.Has(id):
		return invalidURI(uri, "no active event resource has this URI: it was never created or has been released; subscribe_events creates one")
	}
	if ctx.Value(listenKey{}) != nil {
		return nil // a listen: recorded when its acknowledgement is sent
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.legacy[uri] == nil {
		w.legacy[uri] = map[*mcp.ServerSession]bool{}
	}
	w.legacy[uri][req.Session] = true
	return nil
}

// unsubscribe is the SDK's UnsubscribeHandler. For resources/unsubscribe it
// releases the event resource, as the product promises older clients; the
// SDK also calls it when a listen ends, and that releases nothing.
func (w *watch) unsubscribe(ctx context.Context, req *mcp.UnsubscribeRequest) error {
	if ctx.Value(listenKey{}) != nil {
		return nil
	}
	uri := req.Params.URI
	id, ok := hub.IDOf(uri)
	if !ok {
		return invalidURI(uri, "not an event resource URI; only event resources can be unsubscribed")
	}
	w.mu.Lock()
	delete(w.legacy, uri)
	w.mu.Unlock()
	if err := w.hub.Release(id); err != nil && !errors.Is(err, hub.ErrNotFound) {
		return err
	}
	return nil
}

// changed is the hub's change hook: it marks the resource and makes sure a
// flush is running. It never blocks on a send.
func (w *watch) changed(id string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.dirty[id] = true
	w.startFlush()
}

// startFlush makes sure a flush is running; w.mu is held.
func (w *watch) startFlush() {
	if !w.flushing {
		w.flushing = true
		go w.flush()
	}
}

// target is one notification to send: an update about resource id, or
// (id empty) a change of the resource list.
type target struct {
	id      string
	session *mcp.ServerSession
	params  *mcp.ResourceUpdatedNotificationParams
	list    *mcp.ResourceListChangedParams
	listen  *listen // nil for a legacy session
}

// flush sends one notification per changed resource and watcher until
// nothing is left to send.
func (w *watch) flush() {
	for {
		w.mu.Lock()
		if len(w.dirty) == 0 || w.send == nil {
			w.flushing = false
			w.mu.Unlock()
			return
		}
		var out []target
		for id := range w.dirty {
			if id == "" {
				continue // only the list; checked below
			}
			uri := hub.URI(id)
			for ss := range w.legacy[uri] {
				out = append(out, target{id: id, session: ss, params: &mcp.ResourceUpdatedNotificationParams{URI: uri}})
			}
			for l := range w.listens {
				if l.uris[uri] && l.pending {
					l.missed = true
				} else if l.uris[uri] {
					out = append(out, target{id: id, session: l.session, listen: l, params: &mcp.ResourceUpdatedNotificationParams{
						URI: uri, Meta: mcp.Meta{mcp.MetaKeySubscriptionID: l.id},
					}})
				}
			}
			if !w.hub.Has(id) {
				delete(w.legacy, uri) // released: this was its last notification
			}
		}
		if w.listChanged() {
			for ss := range w.sessions {
				out = append(out, target{session: ss, list: &mcp.ResourceListChangedParams{}})
			}
			for l := range w.listens {
				if l.lists && l.pending {
					l.missed = true
				} else if l.lists {
					out = append(out, target{session: l.session, listen: l, list: &mcp.ResourceListChangedParams{
						Meta: mcp.Meta{mcp.MetaKeySubscriptionID: l.id},
					}})
				}
			}
		}
		clear(w.dirty)
		send := w.send
		w.mu.Unlock()
		for _, t := range out {
			if err := w.deliver(send, t); err != nil && t.id != "" {
				w.hub.NotificationFailed(t.id)
			}
		}
	}
}

// listChanged reports whether the set of resources differs from the one
// last told, and remembers the new one; w.mu is held.
func (w *watch) listChanged() bool {
	now := map[string]bool{}
	for _, info := range w.hub.List() {
		now[info.ID] = true
	}
	if maps.Equal(now, w.known) {
		return false
	}
	w.known = now
	return true
}

func (w *watch) deliver(send mcp.MethodHandler, t target) error {
	if t.session == nil {
		return errors.New("no session")
	}
	if l := t.listen; l != nil {
		l.sending.Lock()
		defer l.sending.Unlock()
		if l.closed {
			return nil // the listen ended: it is owed nothing more
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), sendTimeout)
	defer cancel()
	if t.list != nil {
		_, err := send(ctx, "notifications/resources/list_changed",
			&mcp.ServerRequest[*mcp.ResourceListChangedParams]{Session: t.session, Params: t.list})
		return err
	}
	_, err := send(ctx, "notifications/resources/updated",
		&mcp.ServerRequest[*mcp.ResourceUpdatedNotificationParams]{Session: t.session, Params: t.params})
	return err
}
