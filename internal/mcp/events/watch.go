package events

import (
	"errors"
	"maps"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/snowluma/snowluma-mcp/internal/hub"
)

// The event side of the server's listen registry: update notifications on
// both generations, delivered here rather than through
// Server.ResourceUpdated:
//
//   - each listen is its own record, so two listens on one session each
//     get their own notifications with their own subscriptionId for as
//     long as they are open (the SDK's per-session keying clobbers them);
//   - a failed send marks the resource notification_failed, so a reader
//     learns it may have missed a change (ResourceUpdated only logs);
//   - changes are coalesced per resource while a send is in flight, so a
//     flood of events costs a bounded set of pending URIs, not a queue;
//   - event resources come and go without the SDK knowing, so list changes
//     are sent here too: to legacy sessions, which get them unasked, and to
//     listens that asked for resourcesListChanged.
//
// A change that comes while a listen's acknowledgement is being written is
// remembered and notified right after it, so none is lost.
//
// SDK contract tests (in the server package):
// TestSDKKeysResourceSubscriptionsBySession,
// TestSDKResourceUpdatedDropsSendErrors.

// Listen is one subscriptions/listen as the registry hands it over.
type Listen interface {
	// SubscriptionID is the listen's request id, which every notification
	// for it carries.
	SubscriptionID() any
	// Notify sends one notification for the listen, unless the listen has
	// ended, after whatever is being written for it.
	Notify(method string, params any) error
}

// Outbox is the registry's send path for a legacy session, which gets its
// notifications without a listen.
type Outbox interface {
	Notify(ss *mcp.ServerSession, method string, params any) error
}

// Watcher is who watches which event resource, with its own lock.
type Watcher struct {
	hub *hub.Hub
	out Outbox

	mu       sync.Mutex
	listens  map[Listen]*watch
	legacy   map[string]map[*mcp.ServerSession]bool // URI → sessions that called resources/subscribe
	dirty    map[string]bool                        // resource IDs changed since the last flush; "" is the list
	flushing bool
	// sessions are the legacy sessions seen, which get list changes
	// without asking; known is the set of resource IDs they were last
	// told about.
	sessions map[*mcp.ServerSession]bool
	known    map[string]bool
}

// watch is what one listen asked of the event side: the URIs it watches,
// whether it asked for resourcesListChanged, and, while its
// acknowledgement is being written, whether a change came meanwhile.
type watch struct {
	uris            map[string]bool
	lists           bool
	pending, missed bool
}

// NewWatcher returns the watcher of h's resources, told of every change.
func NewWatcher(h *hub.Hub, out Outbox) *Watcher {
	w := &Watcher{hub: h, out: out, listens: map[Listen]*watch{},
		legacy: map[string]map[*mcp.ServerSession]bool{}, dirty: map[string]bool{},
		sessions: map[*mcp.ServerSession]bool{}, known: map[string]bool{}}
	h.OnChange(w.changed)
	return w
}

// SawLegacy records a legacy session, which gets list changes unasked.
func (w *Watcher) SawLegacy(ss *mcp.ServerSession) {
	w.mu.Lock()
	w.sessions[ss] = true
	w.mu.Unlock()
}

// Watch records which event resources l watches as its acknowledgement is
// being written; until Acknowledged, changes for it are only remembered.
func (w *Watcher) Watch(l Listen, n mcp.NotificationSubscriptions) {
	wt := &watch{lists: n.ResourcesListChanged, uris: map[string]bool{}, pending: true}
	for _, uri := range n.ResourceSubscriptions {
		if _, isEvent := hub.IDOf(uri); isEvent {
			wt.uris[uri] = true
		}
	}
	w.mu.Lock()
	w.listens[l] = wt
	w.mu.Unlock()
}

// Acknowledged ends l's pending time: with its acknowledgement sent (ok)
// it is told what it missed meanwhile; otherwise it is owed nothing.
func (w *Watcher) Acknowledged(l Listen, ok bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	wt := w.listens[l]
	if wt == nil {
		return
	}
	if !ok {
		delete(w.listens, l)
		return
	}
	wt.pending = false
	if wt.missed {
		w.remind(wt)
	}
}

// Forget drops l, whose listen has ended.
func (w *Watcher) Forget(l Listen) {
	w.mu.Lock()
	delete(w.listens, l)
	w.mu.Unlock()
}

// remind queues what changed while a listen's acknowledgement was being
// written; w.mu is held.
func (w *Watcher) remind(wt *watch) {
	for uri := range wt.uris {
		if id, ok := hub.IDOf(uri); ok {
			w.dirty[id] = true
		}
	}
	if wt.lists {
		w.known = nil      // forces a list change out to everyone
		w.dirty[""] = true // "" stands for the list itself
	}
	w.startFlush()
}

// Subscribe is the SDK's SubscribeHandler, for resources/subscribe and for
// each URI of a listen (inListen), which is recorded by Watch instead.
// Only active event resources can be watched.
func (w *Watcher) Subscribe(req *mcp.SubscribeRequest, inListen bool) error {
	uri := req.Params.URI
	id, ok := hub.IDOf(uri)
	switch {
	case !ok && strings.HasPrefix(uri, hub.URIPrefix):
		return InvalidURI(uri, "subscribe to the event resource's URI exactly as subscribe_events returned it, without ?after")
	case !ok:
		return InvalidURI(uri, "only event resources (snowluma://onebot/events/<id>) change; the action catalog is fixed while the server runs")
	case !w.hub.Has(id):
		return InvalidURI(uri, "no active event resource has this URI: it was never created or has been released; subscribe_events creates one")
	}
	if inListen {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.legacy[uri] == nil {
		w.legacy[uri] = map[*mcp.ServerSession]bool{}
	}
	w.legacy[uri][req.Session] = true
	return nil
}

// Unsubscribe is the SDK's UnsubscribeHandler. For resources/unsubscribe
// it releases the event resource, as the product promises older clients;
// the SDK also calls it when a listen ends (inListen), and that releases
// nothing.
func (w *Watcher) Unsubscribe(req *mcp.UnsubscribeRequest, inListen bool) error {
	if inListen {
		return nil
	}
	uri := req.Params.URI
	id, ok := hub.IDOf(uri)
	if !ok {
		return InvalidURI(uri, "not an event resource URI; only event resources can be unsubscribed")
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
func (w *Watcher) changed(id string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.dirty[id] = true
	w.startFlush()
}

// startFlush makes sure a flush is running; w.mu is held.
func (w *Watcher) startFlush() {
	if !w.flushing {
		w.flushing = true
		go w.flush()
	}
}

// target is one notification to send: an update about resource id, or (id
// empty) a change of the resource list; to a listen, or with listen nil to
// a legacy session.
type target struct {
	id      string
	session *mcp.ServerSession
	listen  Listen
	method  string
	params  any
}

// flush sends one notification per changed resource and watcher until
// nothing is left to send.
func (w *Watcher) flush() {
	for {
		w.mu.Lock()
		if len(w.dirty) == 0 {
			w.flushing = false
			w.mu.Unlock()
			return
		}
		out := w.updates()
		if w.listChanged() {
			out = append(out, w.listChanges()...)
		}
		clear(w.dirty)
		w.mu.Unlock()
		for _, t := range out {
			var err error
			if t.listen != nil {
				err = t.listen.Notify(t.method, t.params)
			} else {
				err = w.out.Notify(t.session, t.method, t.params)
			}
			if err != nil && t.id != "" {
				w.hub.NotificationFailed(t.id)
			}
		}
	}
}

// updates are the resources/updated notifications for the dirty
// resources; w.mu is held.
func (w *Watcher) updates() []target {
	const method = "notifications/resources/updated"
	var out []target
	for id := range w.dirty {
		if id == "" {
			continue // only the list; see listChanges
		}
		uri := hub.URI(id)
		for ss := range w.legacy[uri] {
			out = append(out, target{id: id, session: ss, method: method, params: &mcp.ResourceUpdatedNotificationParams{URI: uri}})
		}
		for l, wt := range w.listens {
			if wt.uris[uri] && wt.pending {
				wt.missed = true
			} else if wt.uris[uri] {
				out = append(out, target{id: id, listen: l, method: method, params: &mcp.ResourceUpdatedNotificationParams{
					URI: uri, Meta: mcp.Meta{mcp.MetaKeySubscriptionID: l.SubscriptionID()},
				}})
			}
		}
		if !w.hub.Has(id) {
			delete(w.legacy, uri) // released: this was its last notification
		}
	}
	return out
}

// listChanges are the resources/list_changed notifications for legacy
// sessions and for listens that asked; w.mu is held.
func (w *Watcher) listChanges() []target {
	const method = "notifications/resources/list_changed"
	var out []target
	for ss := range w.sessions {
		out = append(out, target{session: ss, method: method, params: &mcp.ResourceListChangedParams{}})
	}
	for l, wt := range w.listens {
		if wt.lists && wt.pending {
			wt.missed = true
		} else if wt.lists {
			out = append(out, target{listen: l, method: method, params: &mcp.ResourceListChangedParams{
				Meta: mcp.Meta{mcp.MetaKeySubscriptionID: l.SubscriptionID()},
			}})
		}
	}
	return out
}

// listChanged reports whether the set of resources differs from the one
// last told, and remembers the new one; w.mu is held.
func (w *Watcher) listChanged() bool {
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
