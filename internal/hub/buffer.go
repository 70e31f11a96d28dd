package hub

import (
	"time"

	"github.com/snowluma/snowluma-mcp/internal/snowluma/event"
)

// entry is one buffered event; raw is shared, never modified.
type entry struct {
	cursor uint64
	at     time.Time
	raw    []byte
}

// buffer is a resource's events: a ring bounded by count and by bytes.
// Cursors count every event the resource ever accepted, from 1, so the
// cursors of evicted events are exactly those below the oldest kept.
type buffer struct {
	ring     []entry
	head, n  int
	bytes    int64
	maxBytes int64
	last     uint64 // cursor of the newest event; 0 before the first
}

func newBuffer(l Limits) buffer {
	return buffer{ring: make([]entry, l.Events), maxBytes: l.Bytes}
}

// push appends an event, evicting the oldest until both bounds hold.
func (b *buffer) push(raw []byte, at time.Time) {
	for b.n > 0 && (b.n == len(b.ring) || b.bytes+int64(len(raw)) > b.maxBytes) {
		old := &b.ring[b.head]
		b.bytes -= int64(len(old.raw))
		*old = entry{}
		b.head = (b.head + 1) % len(b.ring)
		b.n--
	}
	b.last++
	b.ring[(b.head+b.n)%len(b.ring)] = entry{cursor: b.last, at: at, raw: raw}
	b.n++
	b.bytes += int64(len(raw))
}

// oldest is the cursor of the oldest kept event; 0 when none is kept.
func (b *buffer) oldest() uint64 {
	if b.n == 0 {
		return 0
	}
	return b.ring[b.head].cursor
}

// evicted is how many events were dropped from the front.
func (b *buffer) evicted() uint64 {
	if b.n == 0 {
		return b.last
	}
	return b.oldest() - 1
}

// after returns the kept events with cursors above cursor, in order.
func (b *buffer) after(cursor uint64) []Entry {
	var out []Entry
	for i := 0; i < b.n; i++ {
		e := b.ring[(b.head+i)%len(b.ring)]
		if e.cursor > cursor {
			out = append(out, Entry{Cursor: e.cursor, ReceivedAt: e.at, Event: e.raw})
		}
	}
	return out
}

// resource is one subscription: its filter, its buffer and what its reader
// must be told.
type resource struct {
	id           string
	filter       event.Filter
	link         *link
	created      time.Time
	buf          buffer
	notifyFailed bool
}

func (r *resource) info() Info {
	return Info{ID: r.id, Filter: r.filter, Created: r.created, Status: r.link.status()}
}
