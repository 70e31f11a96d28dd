package budget

import (
	"math"
	"sort"
	"time"
)

// State is what is left of one budget.
type State struct {
	// Budget is Account or a target's name.
	Budget string `json:"budget"`
	// Available is how many sends could go at once right now.
	Available int `json:"available"`
	// NextFreeMS is how long until the next send could go without waiting
	// (0: now).
	NextFreeMS int64 `json:"next_free_ms"`
}

// Snapshot is the account's budget and those of the targets used
// recently (whose budgets have not yet refilled), by name.
type Snapshot struct {
	Account State   `json:"account"`
	Targets []State `json:"targets"`
	// Problem says why the budgets could not be read (the state
	// directory is unusable); Account and Targets are then empty, never
	// a full budget nobody keeps.
	Problem string `json:"problem,omitempty"`
}

// maxListed bounds the targets a snapshot lists.
const maxListed = 32

// Snapshot implements Store; it drops the target budgets that are
// full again, which is what keeps the meter's memory bounded by recent use.
func (l *Local) Snapshot() Snapshot {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.clock.Now()
	l.sweepLocked(now)
	s := Snapshot{Account: l.account.state(Account, now, l.limits.Account), Targets: []State{}}
	for t, b := range l.targets {
		s.Targets = append(s.Targets, b.state(t.String(), now, l.limits.Target))
	}
	sort.Slice(s.Targets, func(i, j int) bool {
		a, b := s.Targets[i], s.Targets[j]
		if a.Available != b.Available {
			return a.Available < b.Available
		}
		return a.Budget < b.Budget
	})
	if len(s.Targets) > maxListed {
		s.Targets = s.Targets[:maxListed]
	}
	return s
}

// state reads one budget at now.
func (b *bucket) state(name string, now time.Time, r Budget) State {
	owed := max(0, b.tat.Sub(now)) // refill still to come
	full := times(int64(r.Burst), r.Every)
	return State{
		Budget:     name,
		Available:  max(0, int((full-owed)/r.Every)),
		NextFreeMS: Ceil(b.delay(now, r)).Milliseconds(),
	}
}

// Ceil rounds d up to whole milliseconds, so that a wait reported as 0 ms
// is none, and one waited for in full is never reported short. A negative
// d is no wait, and one too long to round up is the longest whole number
// of milliseconds a Duration holds, never a wrapped-round negative one.
func Ceil(d time.Duration) time.Duration {
	const most = time.Duration(math.MaxInt64) / time.Millisecond * time.Millisecond
	switch {
	case d <= 0:
		return 0
	case d > most:
		return most
	}
	return (d + time.Millisecond - 1).Truncate(time.Millisecond)
}
