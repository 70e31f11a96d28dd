// Package budget keeps the send budgets that stop an agent from getting the
// user's QQ account restricted: QQ's risk control freezes accounts that
// send in bursts, and an agent in a loop can send dozens of messages a
// second. There is one budget per target (a group or a user) and one for
// the whole account; a delivery spends from both, and goes when both allow.
//
// Each budget is a token bucket kept as the time it will be full again
// (the "theoretical arrival time" of GCRA), with exact integer arithmetic.
// A send that must wait is scheduled, not retried: the budget it waits for
// is charged at once for the time the send will go, which keeps the order
// of concurrent waiters. Any other budget is charged only when the send
// actually goes, and checked again then, because charging it for a future
// time would take from it the refill it earns during the wait.
//
// The state lives in a Store: Local keeps it in one process; Shared keeps
// it in a file per QQ account that every server of the account spends
// from. Both pass one behaviour table (budgettest.Conformance); New builds
// the Meter on either (on a Local when given none).
package budget

import (
	"context"
	"time"

	"github.com/snowluma/snowluma-mcp/internal/config"
)

// Target is where a delivery goes: a group or a user, by ID. The zero
// Target means the call names none, and only the account pays.
type Target struct {
	Chat string // catalog.ChatGroup or catalog.ChatUser
	ID   string // decimal
}

// String names the target for messages ("group 20001").
func (t Target) String() string { return t.Chat + " " + t.ID }

// Account is the name of the account-wide budget in a Grant.
const Account = "account"

// Clock is the time the budgets run on; tests inject a manual one.
type Clock interface {
	Now() time.Time
	// Sleep waits for d, or until ctx ends, whichever comes first.
	Sleep(ctx context.Context, d time.Duration) error
}

// Store holds the budgets of one account and makes each step atomic, so
// that concurrent spenders never overspend.
type Store interface {
	// Take asks to send to t now. A send that would wait longer than
	// within is refused and charges nothing. Otherwise the budgets the send
	// waits for (all of them when it need not wait) are charged for the
	// time it will go, and the others are left for Go.
	Take(t Target, within time.Duration) Grant
	// Go charges, when the send goes, the budgets Take left, checking them
	// again. When one of them can no longer pay now, Go gives back all the
	// grant was charged and reports false: the caller takes again.
	Go(g *Grant) bool
	// Refund gives back a granted send that never went out, exactly: the
	// budgets end as if it had never been charged, which keeps every send
	// charged since on its schedule. A grant is refunded at most once.
	Refund(g *Grant)
	// Snapshot reads what is left of the account's budget and of the
	// targets used recently.
	Snapshot() Snapshot
}

// Grant is the outcome of asking to send. When Ok, the send may go after
// Wait (and Go); otherwise nothing was charged and Wait is how long until
// it could go. Budget names the budget that decided the wait: Account, or
// the target's name.
type Grant struct {
	Ok     bool
	Wait   time.Duration
	Budget string
	Target Target
	// Charges are the store's bookkeeping for the account's budget (0) and
	// the target's (1).
	Charges [2]Charge
	// Err is set when the budgets could not be read at all (an unusable
	// state directory): the send is refused with it, not made to wait.
	Err error
}

// Charge is what a grant did to one budget.
type Charge struct {
	// ID names the send in the budget's record; 0 when it is not charged.
	ID uint64
	// Due means the budget is charged when the send goes (Store.Go).
	Due bool
}

// Meter is the send budgets of one server: the configured limits, the
// clock, and the store that holds the state.
type Meter struct {
	limits config.SendPace
	clock  Clock
	store  Store
	// recording: pacing is off, and sends are only recorded (New).
	recording bool
}

// New returns the meter for the configured pace on store (nil: an
// in-process one; the server passes a Shared one, so that every server of
// the account spends together), or nil when pacing is off on any other
// store.
//
// With pacing off on a Shared store, the meter only records: its sends
// never wait and are never refused, and they are charged to the shared
// budgets so that the account's other servers count them.
func New(sp config.SendPace, clock Clock, store Store) *Meter {
	if sp.Off {
		if sh, ok := store.(*Shared); ok && sh != nil {
			return &Meter{limits: sp, clock: clock, store: sh, recording: true}
		}
		return nil
	}
	if store == nil {
		store = NewLocal(sp, clock)
	}
	return &Meter{limits: sp, clock: clock, store: store}
}

// Recording reports whether the meter only records sends (pacing off).
func (m *Meter) Recording() bool { return m.recording }

// Shared reports whether the meter spends from the budgets every server
// of the account shares, and their state file (empty until the account
// is known).
func (m *Meter) Shared() (file string, shared bool) {
	if sh, ok := m.store.(*Shared); ok {
		return sh.Path(), true
	}
	return "", false
}

// Limits are the budgets the meter enforces.
func (m *Meter) Limits() config.SendPace { return m.limits }

// Clock is the time the meter runs on; the stage waits on it.
func (m *Meter) Clock() Clock { return m.clock }

// Take asks to send to t now, waiting at most within (see Store.Take).
func (m *Meter) Take(t Target, within time.Duration) Grant {
	if m.recording {
		return m.store.(*Shared).Record(t)
	}
	return m.store.Take(t, within)
}

// Go charges the rest of a grant as its send goes (see Store.Go).
func (m *Meter) Go(g *Grant) bool {
	if m.recording {
		return true // recorded when taken, for now
	}
	return m.store.Go(g)
}

// Refund gives back a send that never went out (see Store.Refund).
func (m *Meter) Refund(g *Grant) { m.store.Refund(g) }

// Snapshot reads the budgets now (see Store.Snapshot).
func (m *Meter) Snapshot() Snapshot { return m.store.Snapshot() }

// Budget is one budget's rule (see config.Budget).
type Budget = config.Budget

// Wall is the real clock.
type Wall struct{}

// Now implements Clock.
func (Wall) Now() time.Time { return time.Now() }

// Sleep implements Clock.
func (Wall) Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
