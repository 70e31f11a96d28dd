package hub

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/snowluma/snowluma-mcp/internal/snowluma/event"
)

// link is one event connection and what is known about it. Its fields are
// guarded by the hub's mutex; ready closes once, when the first frame
// passed its checks or the connection failed first.
type link struct {
	selfID        int64
	conn          Conn
	state         string
	since         time.Time
	heartbeat     time.Time
	failure       *Failure
	everConnected bool
	released      bool // no resource wants it any more
	ready         chan struct{}
	readyClosed   bool
}

func newLink(selfID int64, now time.Time) *link {
	return &link{selfID: selfID, state: StateConnecting, since: now, ready: make(chan struct{})}
}

func (l *link) status() Status {
	s := Status{State: l.state, Since: l.since, Failure: l.failure}
	if !l.heartbeat.IsZero() {
		hb := l.heartbeat
		s.LastHeartbeat = &hb
	}
	return s
}

// markReady closes ready once; the hub's mutex is held.
func (l *link) markReady() {
	if !l.readyClosed {
		l.readyClosed = true
		close(l.ready)
	}
}

// run dials and then reads frames until the connection ends or is
// released. Frames are handled one at a time, so a flood waits on this
// reader rather than piling up in memory.
func (h *Hub) run(l *link) {
	ctx, cancel := context.WithTimeout(context.Background(), h.opts.Handshake)
	conn, err := h.opts.Dial(ctx)
	cancel()
	if err != nil {
		h.fail(l, asFailure(err, ReasonConnectFailed))
		return
	}
	h.mu.Lock()
	if l.released || l.state == StateDisconnected {
		h.mu.Unlock()
		_ = conn.Close()
		return
	}
	l.conn = conn
	h.mu.Unlock()
	for {
		frame, err := conn.Read()
		if err != nil {
			h.fail(l, asFailure(err, ReasonConnectionLost))
			return
		}
		if !h.ingest(l, frame) {
			return
		}
	}
}

// ingest checks one frame and hands an event to every resource whose filter
// it passes. It reports whether the connection goes on.
func (h *Hub) ingest(l *link, frame []byte) bool {
	if int64(len(frame)) > h.opts.Limits.Frame {
		h.fail(l, &Failure{Reason: ReasonFrameTooLarge,
			Message:  fmt.Sprintf("SnowLuma sent a frame larger than %d bytes; the event connection was stopped.", h.opts.Limits.Frame),
			NextStep: "A frame this large is not an ordinary event." + ReleaseAdvice})
		return false
	}
	e, err := event.Decode(frame)
	if err != nil {
		h.fail(l, &Failure{Reason: ReasonMalformed,
			Message:  fmt.Sprintf("SnowLuma sent a frame that is not a OneBot event (%v); the event connection was stopped.", err),
			NextStep: "Check that SNOWLUMA_MCP_EVENTS_URL is SnowLuma's OneBot v11 WebSocket server." + ReleaseAdvice})
		return false
	}
	if e.SelfID != l.selfID {
		h.fail(l, &Failure{Reason: ReasonAccount,
			Message:  fmt.Sprintf("an event for account %d arrived on the connection subscribed for account %d; the event connection was stopped.", e.SelfID, l.selfID),
			NextStep: "Check self_id against get_login_info: SnowLuma is logged in to a different account." + ReleaseAdvice})
		return false
	}
	now := h.opts.Now()
	kept := e.Raw
	if h.opts.Screen != nil && e.Kind != event.KindMeta {
		kept = h.opts.Screen(e.Raw)
	}
	var changed []string
	h.mu.Lock()
	if l.released || l.state == StateDisconnected {
		h.mu.Unlock()
		return false
	}
	if l.state == StateConnecting {
		l.state, l.since, l.everConnected = StateConnected, now, true
		l.markReady()
		changed = h.idsLocked()
	}
	if e.Kind == event.KindMeta {
		if e.MetaType == "heartbeat" {
			l.heartbeat = now
		}
	} else {
		for id, r := range h.resources {
			if r.filter.Match(e) {
				r.buf.push(kept, now)
				changed = append(changed, id)
			}
		}
	}
	h.mu.Unlock()
	h.tell(changed)
	return true
}

// fail ends the connection for the reason given, unless it already ended
// or was released. Every resource keeps it as its status.
func (h *Hub) fail(l *link, f *Failure) {
	h.mu.Lock()
	if l.released || l.state == StateDisconnected {
		h.mu.Unlock()
		return
	}
	l.state, l.since, l.failure = StateDisconnected, h.opts.Now(), f
	l.markReady()
	conn := l.conn
	ids := h.idsLocked()
	h.mu.Unlock()
	if conn != nil {
		_ = conn.Close()
	}
	h.tell(ids)
}

func (h *Hub) idsLocked() []string {
	ids := make([]string, 0, len(h.resources))
	for id := range h.resources {
		ids = append(ids, id)
	}
	return ids
}

func (h *Hub) tell(ids []string) {
	f := h.changed.Load()
	if f == nil {
		return
	}
	for _, id := range ids {
		(*f)(id)
	}
}

// asFailure keeps a *Failure and words anything else as reason.
func asFailure(err error, reason string) *Failure {
	var f *Failure
	if errors.As(err, &f) {
		return f
	}
	if reason == ReasonConnectFailed {
		return &Failure{Reason: reason,
			Message:  fmt.Sprintf("the event connection could not be opened: %v", err),
			NextStep: "Check that SnowLuma is running and SNOWLUMA_MCP_EVENTS_URL points at its WebSocket server, then subscribe again."}
	}
	return &Failure{Reason: reason,
		Message:  fmt.Sprintf("the event connection was lost: %v", err),
		NextStep: "Check that SnowLuma is still running." + ReleaseAdvice}
}
