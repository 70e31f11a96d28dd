package hub

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/snowluma/snowluma-mcp/internal/snowluma/event"
)

// Entry is one event as a read returns it. Event is the frame exactly as
// SnowLuma sent it: third-party content, to be treated as data.
type Entry struct {
	Cursor     uint64          `json:"cursor"`
	ReceivedAt time.Time       `json:"received_at"`
	Event      json.RawMessage `json:"event"`
}

// Page is what one read of a resource sees.
type Page struct {
	Status Status       `json:"status"`
	Filter event.Filter `json:"filter"`
	Events []Entry      `json:"events"`
	// NextCursor is the cursor to read after next time: the newest event's.
	NextCursor uint64 `json:"next_cursor"`
	// OldestCursor is the oldest event still kept; nil when none is.
	OldestCursor *uint64 `json:"oldest_cursor"`
	// DroppedEvents counts the events after the reader's cursor that were
	// evicted before this read; Gap says whether there were any.
	DroppedEvents uint64 `json:"dropped_events"`
	Gap           bool   `json:"gap"`
	// NotificationFailed says an update notification about this resource
	// could not be delivered, so the reader may have missed a change.
	NotificationFailed bool `json:"notification_failed"`
}

// CursorError is an after cursor this resource never issued.
type CursorError struct {
	After, Newest uint64
}

func (e *CursorError) Error() string {
	return fmt.Sprintf("cursor %d is past this resource's newest cursor %d; cursors belong to one resource: read without ?after, or with a next_cursor this resource returned", e.After, e.Newest)
}

// Read returns the events after the cursor (all kept events for 0). It
// never consumes anything: the same read twice gives the same events.
func (h *Hub) Read(id string, after uint64) (Page, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	r, ok := h.resources[id]
	if !ok {
		return Page{}, ErrNotFound
	}
	b := &r.buf
	if after > b.last {
		return Page{}, &CursorError{After: after, Newest: b.last}
	}
	p := Page{
		Status: r.link.status(), Filter: r.filter, Events: b.after(after),
		NextCursor: b.last, NotificationFailed: r.notifyFailed,
	}
	if p.Events == nil {
		p.Events = []Entry{}
	}
	if o := b.oldest(); o > 0 {
		p.OldestCursor = &o
	}
	if ev := b.evicted(); ev > after {
		p.DroppedEvents = ev - after
		p.Gap = true
	}
	return p, nil
}
