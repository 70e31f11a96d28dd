// Package budget keeps the send budgets that stop an agent from getting the
// user's QQ account restricted: QQ's risk control freezes accounts that
// send in bursts, and an agent in a loop can send dozens of messages a
// second. There is one budget per target (a group or a user) and one for
// the whole account; a delivery spends from both, and goes when both allow.
//
// Each budget is a token bucket kept as the time it will be full again
// (the "theoretical arrival time" of GCRA): exact integer arithmetic, one
// timestamp per budget, and a send that must wait is scheduled, not
// retried. A Meter is safe for concurrent use; concurrent spenders never
// overspend, because a send is charged to both budgets under one lock at
// the moment it will actually go.
package budget

import (
	"context"
	"sync"
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

// Meter holds the budgets of one server.
type Meter struct {
	limits config.SendPace
	clock  Clock

	mu      sync.Mutex
	account bucket
	targets map[Target]*bucket
}

// New returns the meter for the configured pace, or nil when pacing is off.
func New(sp config.SendPace, clock Clock) *Meter {
	if sp.Off {
		return nil
	}
	return &Meter{limits: sp, clock: clock, targets: map[Target]*bucket{}}
}

// Limits are the budgets the meter enforces.
func (m *Meter) Limits() config.SendPace { return m.limits }

// Clock is the time the meter runs on; the stage waits on it.
func (m *Meter) Clock() Clock { return m.clock }

// Grant is the outcome of asking to send. When Ok, the send may go after
// Wait and has been charged; otherwise nothing was charged and Wait is how
// long until it could go. Budget names the budget that decided the wait:
// Account, or the target's name.
type Grant struct {
	Ok     bool
	Wait   time.Duration
	Budget string

	m      *Meter
	target Target
	seqs   [2]uint64
}

// sweepAbove is how many target budgets the meter keeps before it drops
// the full ones (those unused for longer than they take to refill).
const sweepAbove = 64

// Take asks to send to t now. A send that would wait longer than the
// configured bound is refused and charges nothing; any other is charged
// to the account and to t, at the time it will go.
func (m *Meter) Take(t Target) Grant {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.clock.Now()
	var tb *bucket
	if t != (Target{}) {
		if tb = m.targets[t]; tb == nil {
			if len(m.targets) >= sweepAbove {
				m.sweepLocked(now)
			}
			tb = &bucket{}
			m.targets[t] = tb
		}
	}
	g := Grant{Budget: Account, Wait: m.account.delay(now, m.limits.Account), m: m, target: t}
	if tb != nil {
		if d := tb.delay(now, m.limits.Target); d >= g.Wait {
			g.Wait, g.Budget = d, t.String()
		}
	}
	if g.Wait > m.limits.Wait {
		if tb != nil && tb.tat.IsZero() {
			delete(m.targets, t) // asked, never charged
		}
		return g
	}
	g.Ok = true
	at := now.Add(g.Wait)
	g.seqs[0] = m.account.charge(at, m.limits.Account)
	if tb != nil {
		g.seqs[1] = tb.charge(at, m.limits.Target)
	}
	return g
}

// Cancel gives back a granted send that did not go (its wait was
// cancelled). A budget gets it back only when no later send was charged to
// it since; otherwise the later sends keep their schedule and the budget
// stays as spent, which is never too generous.
func (g Grant) Cancel() {
	if !g.Ok || g.m == nil {
		return
	}
	m := g.m
	m.mu.Lock()
	defer m.mu.Unlock()
	m.account.undo(g.seqs[0], m.limits.Account)
	if tb := m.targets[g.target]; tb != nil {
		tb.undo(g.seqs[1], m.limits.Target)
	}
}

// sweepLocked drops the target budgets that are full again.
func (m *Meter) sweepLocked(now time.Time) {
	for t, b := range m.targets {
		if !b.tat.After(now) {
			delete(m.targets, t)
		}
	}
}

// bucket is one budget: tat is when it will be full again (zero or past
// means full now), seq counts the sends charged to it.
type bucket struct {
	tat time.Time
	seq uint64
}

// delay is how long a send asked for at now must wait for this budget.
func (b *bucket) delay(now time.Time, r Budget) time.Duration {
	base := b.tat
	if base.Before(now) {
		base = now
	}
	return max(0, base.Add(r.Every-time.Duration(r.Burst)*r.Every).Sub(now))
}

// charge spends one send that goes at at, and returns its sequence number.
func (b *bucket) charge(at time.Time, r Budget) uint64 {
	if b.tat.Before(at) {
		b.tat = at
	}
	b.tat = b.tat.Add(r.Every)
	b.seq++
	return b.seq
}

// undo gives back the send numbered seq if it is still the latest. The
// count moves on either way, so a grant cancelled twice gives back once.
func (b *bucket) undo(seq uint64, r Budget) {
	if seq == 0 || seq != b.seq {
		return
	}
	b.tat = b.tat.Add(-r.Every)
	b.seq++
}

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
