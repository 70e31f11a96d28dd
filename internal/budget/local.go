package budget

import (
	"sync"
	"time"

	"github.com/snowluma/snowluma-mcp/internal/config"
)

// Local is the in-process Store: the budgets live in this server's memory
// under one lock.
type Local struct {
	limits config.SendPace
	clock  Clock

	mu      sync.Mutex
	seq     uint64 // names every charge, across budgets and their lifetimes
	account bucket
	targets map[Target]*bucket
}

// NewLocal returns an in-process store of the given limits.
func NewLocal(sp config.SendPace, clock Clock) *Local {
	return &Local{limits: sp, clock: clock, targets: map[Target]*bucket{}}
}

// sweepAbove is how many target budgets the store keeps before it drops
// the full ones (those unused for longer than they take to refill).
const sweepAbove = 64

// Take implements Store.
func (l *Local) Take(t Target, within time.Duration) Grant {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.clock.Now()
	tb := l.targetLocked(t, now)
	da := l.account.delay(now, l.limits.Account)
	g := Grant{Budget: Account, Wait: da, Target: t}
	var dt time.Duration
	if tb != nil {
		if dt = tb.delay(now, l.limits.Target); dt >= g.Wait {
			g.Wait, g.Budget = dt, t.String()
		}
	}
	if g.Wait > within {
		if tb != nil && tb.unused() {
			delete(l.targets, t) // asked, never charged
		}
		return g
	}
	g.Ok = true
	at := now.Add(g.Wait)
	// The budgets the send waits for are charged for when it goes; a
	// budget that would let it go sooner is charged when it does go.
	if da == g.Wait {
		g.Charges[0].ID = l.chargeLocked(&l.account, at, l.limits.Account)
	} else {
		g.Charges[0].Due = true
	}
	if tb != nil {
		if dt == g.Wait {
			g.Charges[1].ID = l.chargeLocked(tb, at, l.limits.Target)
		} else {
			g.Charges[1].Due = true
		}
	}
	return g
}

// Go implements Store.
func (l *Local) Go(g *Grant) bool {
	if !g.Ok {
		return false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.clock.Now()
	tb := l.targetLocked(g.Target, now)
	buckets := [2]*bucket{&l.account, tb}
	rules := [2]Budget{l.limits.Account, l.limits.Target}
	for i, c := range g.Charges {
		if c.Due && buckets[i].delay(now, rules[i]) > 0 {
			l.refundLocked(g)
			if tb != nil && tb.unused() {
				delete(l.targets, g.Target)
			}
			return false
		}
	}
	for i := range g.Charges {
		if g.Charges[i].Due {
			g.Charges[i] = Charge{ID: l.chargeLocked(buckets[i], now, rules[i])}
		}
	}
	return true
}

// Refund implements Store.
func (l *Local) Refund(g *Grant) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.refundLocked(g)
}

func (l *Local) refundLocked(g *Grant) {
	if id := g.Charges[0].ID; id != 0 {
		l.account.refund(id, l.limits.Account)
	}
	if id := g.Charges[1].ID; id != 0 {
		if tb := l.targets[g.Target]; tb != nil {
			tb.refund(id, l.limits.Target)
		}
	}
	g.Charges = [2]Charge{}
}

// targetLocked is t's budget, made when t has none; nil for the zero
// Target.
func (l *Local) targetLocked(t Target, now time.Time) *bucket {
	if t == (Target{}) {
		return nil
	}
	tb := l.targets[t]
	if tb == nil {
		if len(l.targets) >= sweepAbove {
			l.sweepLocked(now)
		}
		tb = &bucket{}
		l.targets[t] = tb
	}
	return tb
}

func (l *Local) chargeLocked(b *bucket, at time.Time, r Budget) uint64 {
	l.seq++
	b.charge(l.seq, at, r)
	return l.seq
}

// sweepLocked drops the target budgets that are full again.
func (l *Local) sweepLocked(now time.Time) {
	for t, b := range l.targets {
		if !b.tat.After(now) {
			delete(l.targets, t)
		}
	}
}
