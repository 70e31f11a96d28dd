package server

import (
	"context"
	"errors"
	"maps"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/snowluma/snowluma-mcp/internal/hub"
)

// The event resource side of the listen registry: update notifications on
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

// events is the registry's event resource state; listens.mu guards it.
type events struct {
	legacy   map[string]map[*mcp.ServerSession]bool // URI → sessions that called resources/subscribe
	dirty    map[string]bool                        // resource IDs changed since the last flush; "" is the list
	flushing bool
	// sessions are the legacy sessions seen, which get list changes
	// without asking; known is the set of resource IDs they were last
	// told about.
	sessions map[*mcp.ServerSession]bool
	known    map[string]bool
}

func newEvents() events {
	return events{legacy: map[string]map[*mcp.ServerSession]bool{}, dirty: map[string]bool{},
		sessions: map[*mcp.ServerSession]bool{}, known: map[string]bool{}}
}

// watchEvents records which event resources an acknowledged listen
// watches; r.mu is held.
func (r *listens) watchEvents(l *listener, n mcp.NotificationSubscriptions) {
	if r.hub == nil {
		return
	}
	l.lists = n.ResourcesListChanged
	l.uris = map[string]bool{}
	for _, uri := range n.ResourceSubscriptions {
		if _, isEvent := hub.IDOf(uri); isEvent {
			l.uris[uri] = true
		}
	}
}

// remind queues what changed while l's acknowledgement was being written;
// r.mu is held.
func (r *listens) remind(l *listener) {
	for uri := range l.uris {
		if id, ok := hub.IDOf(uri); ok {
			r.dirty[id] = true
		}
	}
	if l.lists {
		r.known = nil      // forces a list change out to everyone
		r.dirty[""] = true // "" stands for the list itself
	}
	r.startFlush()
}

// subscribe is the SDK's SubscribeHandler, for resources/subscribe and for
// each URI of a listen. Only active event resources can be watched.
func (r *listens) subscribe(ctx context.Context, req *mcp.SubscribeRequest) error {
	uri := req.Params.URI
	id, ok := hub.IDOf(uri)
	switch {
	case !ok && strings.HasPrefix(uri, hub.URIPrefix):
		return invalidURI(uri, "subscribe to the event resource's URI exactly as subscribe_events returned it, without ?after")
	case !ok:
		return invalidURI(uri, "only event resources (snowluma://onebot/events/<id>) change; the action catalog is fixed while the server runs")
	case !r.hub.Has(id):
		return invalidURI(uri, "no active event resource has this URI: it was never created or has been released; subscribe_events creates one")
	}
	if ctx.Value(listenKey{}) != nil {
		return nil // a listen: recorded when its acknowledgement is sent
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.legacy[uri] == nil {
		r.legacy[uri] = map[*mcp.ServerSession]bool{}
	}
	r.legacy[uri][req.Session] = true
	return nil
}

// unsubscribe is the SDK's UnsubscribeHandler. For resources/unsubscribe it
// releases the event resource, as the product promises older clients; the
// SDK also calls it when a listen ends, and that releases nothing.
func (r *listens) unsubscribe(ctx context.Context, req *mcp.UnsubscribeRequest) error {
	if ctx.Value(listenKey{}) != nil {
		return nil
	}
	uri := req.Params.URI
	id, ok := hub.IDOf(uri)
	if !ok {
		return invalidURI(uri, "not an event resource URI; only event resources can be unsubscribed")
	}
	r.mu.Lock()
	delete(r.legacy, uri)
	r.mu.Unlock()
	if err := r.hub.Release(id); err != nil && !errors.Is(err, hub.ErrNotFound) {
		return err
	}
	return nil
}

// changed is the hub's change hook: it marks the resource and makes sure a
// flush is running. It never blocks on a send.
func (r *listens) changed(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.dirty[id] = true
	r.startFlush()
}

// startFlush makes sure a flush is running; r.mu is held.
func (r *listens) startFlush() {
	if !r.flushing {
		r.flushing = true
		go r.flush()
	}
}

// target is one event notification to send: an update about resource id,
// or (id empty) a change of the resource list.
type target struct {
	id      string
	session *mcp.ServerSession
	listen  *listener // nil for a legacy session
	method  string
	params  any
}

// flush sends one notification per changed resource and watcher until
// nothing is left to send.
func (r *listens) flush() {
	for {
		r.mu.Lock()
		if len(r.dirty) == 0 || r.sdkSend == nil {
			r.flushing = false
			r.mu.Unlock()
			return
		}
		out := r.updates()
		if r.listChanged() {
			out = append(out, r.listChanges()...)
		}
		clear(r.dirty)
		r.mu.Unlock()
		for _, t := range out {
			if err := r.deliver(t.listen, t.session, t.method, t.params); err != nil && t.id != "" {
				r.hub.NotificationFailed(t.id)
			}
		}
	}
}

// updates are the resources/updated notifications for the dirty
// resources; r.mu is held.
func (r *listens) updates() []target {
	const method = "notifications/resources/updated"
	var out []target
	for id := range r.dirty {
		if id == "" {
			continue // only the list; see listChanges
		}
		uri := hub.URI(id)
		for ss := range r.legacy[uri] {
			out = append(out, target{id: id, session: ss, method: method, params: &mcp.ResourceUpdatedNotificationParams{URI: uri}})
		}
		for l := range r.live {
			if l.uris[uri] && l.pending {
				l.missed = true
			} else if l.uris[uri] {
				out = append(out, target{id: id, session: l.session, listen: l, method: method, params: &mcp.ResourceUpdatedNotificationParams{
					URI: uri, Meta: mcp.Meta{mcp.MetaKeySubscriptionID: l.id},
				}})
			}
		}
		if !r.hub.Has(id) {
			delete(r.legacy, uri) // released: this was its last notification
		}
	}
	return out
}

// listChanges are the resources/list_changed notifications for legacy
// sessions and for listens that asked; r.mu is held.
func (r *listens) listChanges() []target {
	const method = "notifications/resources/list_changed"
	var out []target
	for ss := range r.sessions {
		out = append(out, target{session: ss, method: method, params: &mcp.ResourceListChangedParams{}})
	}
	for l := range r.live {
		if l.lists && l.pending {
			l.missed = true
		} else if l.lists {
			out = append(out, target{session: l.session, listen: l, method: method, params: &mcp.ResourceListChangedParams{
				Meta: mcp.Meta{mcp.MetaKeySubscriptionID: l.id},
			}})
		}
	}
	return out
}

// listChanged reports whether the set of resources differs from the one
// last told, and remembers the new one; r.mu is held.
func (r *listens) listChanged() bool {
	if r.hub == nil {
		return false
	}
	now := map[string]bool{}
	for _, info := range r.hub.List() {
		now[info.ID] = true
	}
	if maps.Equal(now, r.known) {
		return false
	}
	r.known = now
	return true
}
