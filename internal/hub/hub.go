// Package hub keeps the live event subscriptions of one server process: one
// WebSocket to SnowLuma shared by every subscription, opened by the first
// and closed with the last, and one bounded buffer per subscription that
// reads never consume. It is a plain type with no MCP in it; the server
// turns its resources into MCP resources and its changes into
// notifications.
//
// Nothing is ever lost without saying so: an evicted event shows as a gap
// at the reader's cursor, and a connection that ends is never silently
// replaced: every resource shows why it ended until it is released.
package hub

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/snowluma/snowluma-mcp/internal/snowluma/event"
)

// Limits bound what the hub holds, whatever the event rate.
type Limits struct {
	Resources int   // resources at once
	Events    int   // events kept per resource
	Bytes     int64 // event bytes kept per resource
	Frame     int64 // largest incoming frame
}

// DefaultLimits are the product's limits.
var DefaultLimits = Limits{Resources: 16, Events: 256, Bytes: 1 << 20, Frame: 256 << 10}

// Conn is an open event connection: one frame per Read.
type Conn interface {
	Read() ([]byte, error)
	Close() error
}

// Dialer opens the event connection. Its errors should be *Failure values
// that say what went wrong; any other error counts as a failed connect.
type Dialer func(ctx context.Context) (Conn, error)

// Options configure a hub.
type Options struct {
	Dial Dialer
	// Now stamps events and status changes; nil means time.Now.
	Now func() time.Time
	// Changed is told the ID of a resource whose events or status changed.
	// It runs on the connection's reader and must not block.
	Changed func(id string)
	// Handshake bounds how long a first subscription waits for the
	// connection to open and deliver its first frame; 0 means 30 s.
	Handshake time.Duration
	// Limits; the zero value means DefaultLimits.
	Limits Limits
	// Screen, when set, rewrites each event before any resource keeps it
	// (the third-party content policy, package content), so what it
	// withholds is never buffered, read or counted.
	Screen func(frame []byte) []byte
}

// Hub is the process's event subscriptions and their shared connection.
type Hub struct {
	opts Options

	changed atomic.Pointer[func(id string)]

	mu        sync.Mutex
	resources map[string]*resource
	link      *link // nil when no connection is open or wanted
	closed    bool
}

// New makes a hub. It connects nothing until the first subscription.
func New(o Options) *Hub {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Handshake <= 0 {
		o.Handshake = 30 * time.Second
	}
	if o.Limits == (Limits{}) {
		o.Limits = DefaultLimits
	}
	h := &Hub{opts: o, resources: map[string]*resource{}}
	if o.Changed != nil {
		h.OnChange(o.Changed)
	}
	return h
}

// OnChange sets who is told of changes (see Options.Changed), replacing
// any earlier; the server sets it once it knows how to notify.
func (h *Hub) OnChange(f func(id string)) { h.changed.Store(&f) }

// Limits are the hub's effective limits.
func (h *Hub) Limits() Limits { return h.opts.Limits }

// Refusal is a subscription the hub turned down before connecting; Kind
// says which rule it met.
type Refusal struct {
	Kind string // "invalid", "limit", "account", "disconnected", "closed"
	Msg  string
}

func (r *Refusal) Error() string { return r.Msg }

// ErrNotFound is a resource ID the hub does not hold (never made, or
// released).
var ErrNotFound = errors.New("no such event resource")

// Info describes a resource.
type Info struct {
	ID      string
	Filter  event.Filter
	Created time.Time
	Status  Status
}

// Subscribe makes a resource for f. The first subscription opens the
// connection and waits (within ctx and the handshake bound) for its first
// frame, so a refused token or a wrong account is the caller's error, not a
// surprise later; a failed first subscription leaves nothing behind.
func (h *Hub) Subscribe(ctx context.Context, f event.Filter) (Info, error) {
	if err := f.Check(); err != nil {
		return Info{}, &Refusal{Kind: "invalid", Msg: err.Error()}
	}
	f = f.Normalize()
	h.mu.Lock()
	if err := h.admit(f); err != nil {
		h.mu.Unlock()
		return Info{}, err
	}
	l := h.link
	if l == nil {
		l = newLink(f.SelfID, h.opts.Now())
		h.link = l
		go h.run(l)
	}
	r := &resource{id: newID(), filter: f, link: l, created: h.opts.Now(), buf: newBuffer(h.opts.Limits)}
	h.resources[r.id] = r
	h.mu.Unlock()

	timer := time.NewTimer(h.opts.Handshake)
	defer timer.Stop()
	select {
	case <-l.ready:
	case <-ctx.Done():
		h.Release(r.id)
		return Info{}, ctx.Err()
	case <-timer.C:
		h.fail(l, &Failure{Reason: ReasonNoHandshake,
			Message:  fmt.Sprintf("the event connection delivered no frame within %s of being opened", h.opts.Handshake),
			NextStep: "Check that SNOWLUMA_MCP_EVENTS_URL is SnowLuma's WebSocket server with role Universal or Event (an Api-only server sends no events)."})
	}
	h.mu.Lock()
	if _, ok := h.resources[r.id]; !ok {
		h.mu.Unlock()
		return Info{}, &Refusal{Kind: "closed", Msg: "the resource was released while its connection was opening"}
	}
	if l.failure != nil && !l.everConnected {
		// The connection never worked: the subscription fails and leaves
		// nothing behind, so the next one may try afresh.
		conn, _ := h.releaseLocked(r.id)
		h.mu.Unlock()
		if conn != nil {
			_ = conn.Close()
		}
		return Info{}, l.failure
	}
	info := r.info()
	h.mu.Unlock()
	// A new resource is a change too: the list of resources has grown.
	h.tell([]string{r.id})
	return info, nil
}

// admit applies the rules a new subscription must meet; h.mu is held.
func (h *Hub) admit(f event.Filter) error {
	switch {
	case h.closed:
		return &Refusal{Kind: "closed", Msg: "the server is shutting down; no new event subscriptions"}
	case len(h.resources) >= h.opts.Limits.Resources:
		return &Refusal{Kind: "limit", Msg: fmt.Sprintf("%d event resources are active, the most one server holds; release one with unsubscribe_events first", len(h.resources))}
	case h.link != nil && h.link.state == StateDisconnected:
		return &Refusal{Kind: "disconnected", Msg: fmt.Sprintf("the event connection ended (%s) and is never reopened behind existing resources; release all %d event resources with unsubscribe_events, then subscribe again to open a fresh connection", h.link.failure.Reason, len(h.resources))}
	case h.link != nil && h.link.selfID != f.SelfID:
		return &Refusal{Kind: "account", Msg: fmt.Sprintf("the event connection serves account %d; release its %d event resources with unsubscribe_events before subscribing for account %d", h.link.selfID, len(h.resources), f.SelfID)}
	}
	return nil
}

// Release drops a resource and its buffer; releasing the last one closes
// the connection.
func (h *Hub) Release(id string) error {
	h.mu.Lock()
	conn, err := h.releaseLocked(id)
	h.mu.Unlock()
	if conn != nil {
		_ = conn.Close()
	}
	if err == nil {
		// Watchers learn of the release as a change: the resource is gone.
		h.tell([]string{id})
	}
	return err
}

// releaseLocked removes a resource and, if it was the last, detaches the
// link, returning its connection for the caller to close outside the lock.
func (h *Hub) releaseLocked(id string) (Conn, error) {
	if _, ok := h.resources[id]; !ok {
		return nil, ErrNotFound
	}
	delete(h.resources, id)
	if len(h.resources) > 0 || h.link == nil {
		return nil, nil
	}
	l := h.link
	h.link = nil
	l.released = true
	return l.conn, nil
}

// Close releases every resource and closes the connection; later
// subscriptions are refused. The server calls it when the MCP connection
// ends.
func (h *Hub) Close() {
	h.mu.Lock()
	h.closed = true
	clear(h.resources)
	var conn Conn
	if h.link != nil {
		h.link.released = true
		conn = h.link.conn
		h.link = nil
	}
	h.mu.Unlock()
	if conn != nil {
		_ = conn.Close()
	}
}

// List describes the active resources, oldest first.
func (h *Hub) List() []Info {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]Info, 0, len(h.resources))
	for _, r := range h.resources {
		out = append(out, r.info())
	}
	slices.SortFunc(out, func(a, b Info) int {
		if c := a.Created.Compare(b.Created); c != 0 {
			return c
		}
		return compareStrings(a.ID, b.ID)
	})
	return out
}

// Has reports whether id is an active resource.
func (h *Hub) Has(id string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	_, ok := h.resources[id]
	return ok
}

// NotificationFailed records that an update about id could not be
// delivered, so the next read says so.
func (h *Hub) NotificationFailed(id string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if r, ok := h.resources[id]; ok {
		r.notifyFailed = true
	}
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// newID names a resource: random, so a cursor or URI from one resource is
// never mistaken for another's, even across restarts.
func newID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
