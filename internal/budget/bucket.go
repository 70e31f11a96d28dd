package budget

import (
	"math"
	"slices"
	"time"
)

// bucket is one budget. tat is when it will be full again (zero or past
// means full now). record keeps the charges since the budget was last
// full, so that a refund can replay them without the refunded one: that
// is what makes a refund exact whatever was charged after it.
type bucket struct {
	base   time.Time // tat before the first recorded charge
	record []charge
	tat    time.Time
}

type charge struct {
	id uint64
	at time.Time
}

// maxRecord bounds a budget's record. A charge folded out of it can no
// longer be refunded; that only happens after this many sends in a row
// that each found the budget short of full, and gives back too little,
// never too much.
const maxRecord = 256

// unused says the budget was never charged, or has nothing on record.
func (b *bucket) unused() bool { return b.tat.IsZero() && len(b.record) == 0 }

// delay is how long a send asked for at now must wait for this budget:
// until the refill of all but one send is still to come. Sub saturates, so
// a tat beyond any Duration gives the longest wait, never a negative one.
func (b *bucket) delay(now time.Time, r Budget) time.Duration {
	owed := b.tat.Sub(now)
	if owed <= 0 {
		return 0
	}
	return max(0, owed-times(int64(r.Burst)-1, r.Every))
}

// times is n intervals of every (n >= 0, every >= 0), saturating at the
// longest Duration rather than overflowing.
func times(n int64, every time.Duration) time.Duration {
	if n <= 0 || every <= 0 {
		return 0
	}
	if every > time.Duration(math.MaxInt64)/time.Duration(n) {
		return time.Duration(math.MaxInt64)
	}
	return time.Duration(n) * every
}

// span is how far ahead of now a budget's times can reach: a full refill
// and one interval more (0 for a budget that holds nothing back).
func span(r Budget) time.Duration {
	if r.Burst < 1 || r.Every <= 0 {
		return 0
	}
	return times(int64(r.Burst)+1, r.Every)
}

// after is tat once a send that goes at at is charged: one interval after
// the later of the two, but never further ahead of at than span. A send
// beyond an empty budget (a server with pacing off records every send)
// leaves the budget spent, not in a debt that would hold the account's
// paced sends longer than a full refill; and so no honest state holds a
// time further ahead than span, which is how a reader tells a clock set
// back (Shared.written).
func after(tat, at time.Time, r Budget) time.Time {
	next := later(tat, at).Add(r.Every)
	if s := span(r); s > 0 && next.After(at.Add(s)) {
		return at.Add(s)
	}
	return next
}

// charge spends one send, named id, that goes at at.
func (b *bucket) charge(id uint64, at time.Time, r Budget) {
	if !b.tat.After(at) {
		// Full when this send goes: a refund of what came before could
		// give back nothing, so the record starts again from here.
		b.base, b.record = b.tat, b.record[:0]
	}
	if len(b.record) == maxRecord {
		b.base = after(b.base, b.record[0].at, r)
		b.record = slices.Delete(b.record, 0, 1)
	}
	b.record = append(b.record, charge{id: id, at: at})
	b.tat = after(b.tat, at, r)
}

// refund removes the send named id and replays the rest.
func (b *bucket) refund(id uint64, r Budget) {
	i := slices.IndexFunc(b.record, func(c charge) bool { return c.id == id })
	if i < 0 {
		return
	}
	b.record = slices.Delete(b.record, i, i+1)
	b.tat = b.base
	for _, c := range b.record {
		b.tat = after(b.tat, c.at, r)
	}
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
