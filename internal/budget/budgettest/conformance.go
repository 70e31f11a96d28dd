package budgettest

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/budget"
	"github.com/snowluma/snowluma-mcp/internal/config"
)

// Open makes a fresh, empty store of the given limits on the given clock.
type Open func(config.SendPace, budget.Clock) budget.Store

// The targets the behaviours use.
var (
	G1 = budget.Target{Chat: "group", ID: "20001"}
	G2 = budget.Target{Chat: "group", ID: "20002"}
	U1 = budget.Target{Chat: "user", ID: "10002"}
)

// Behaviour is one rule every store keeps.
type Behaviour struct {
	Name string
	Run  func(t *testing.T, s budget.Store, c *Clock)
	// Limits are the budgets the store is opened with; Standard when zero.
	Limits config.SendPace
}

// Standard limits: a target holds 2 sends and refills one a second; the
// account holds 4 and refills one every 500 ms; a send may wait 2 s.
var Standard = config.SendPace{
	Target:  config.Budget{Burst: 2, Every: time.Second},
	Account: config.Budget{Burst: 4, Every: 500 * time.Millisecond},
	Wait:    2 * time.Second,
}

// Conformance runs every Behaviour against stores that open makes: Local
// and Shared pass it, and so must any new store.
func Conformance(t *testing.T, open Open) {
	for _, b := range Behaviours {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			limits := b.Limits
			if limits == (config.SendPace{}) {
				limits = Standard
			}
			c := New()
			b.Run(t, open(limits, c), c)
		})
	}
}

// want is what one Take must answer.
type want struct {
	ok     bool
	wait   time.Duration
	budget string // "" when it does not matter
}

// take asks s for t within the standard bound and checks the answer; a
// grant that need not wait goes at once.
func take(t *testing.T, s budget.Store, tg budget.Target, w want) budget.Grant {
	t.Helper()
	return takeWithin(t, s, tg, Standard.Wait, w)
}

func takeWithin(t *testing.T, s budget.Store, tg budget.Target, within time.Duration, w want) budget.Grant {
	t.Helper()
	g := s.Take(tg, within)
	require.Equal(t, w.ok, g.Ok, "ok of a send to %v", tg)
	require.Equal(t, w.wait, g.Wait, "wait of a send to %v", tg)
	if w.budget != "" {
		require.Equal(t, w.budget, g.Budget, "budget of a send to %v", tg)
	}
	if g.Ok && g.Wait == 0 {
		require.True(t, s.Go(&g), "a send that need not wait goes")
	}
	return g
}

func now(ok bool) want                     { return want{ok: ok} }
func after(d time.Duration, b string) want { return want{ok: true, wait: d, budget: b} }

// Behaviours is the table.
var Behaviours = []Behaviour{
	{Name: "lets a burst go at once", Run: func(t *testing.T, s budget.Store, c *Clock) {
		take(t, s, G1, want{true, 0, "group 20001"})
		take(t, s, G1, want{true, 0, "group 20001"})
	}},
	{Name: "makes the sends after the burst wait their turn, one refill apart", Run: func(t *testing.T, s budget.Store, c *Clock) {
		take(t, s, G1, now(true))
		take(t, s, G1, now(true))
		take(t, s, G1, after(time.Second, "group 20001"))
		take(t, s, G1, after(2*time.Second, "group 20001"))
	}},
	{Name: "refuses a send that would wait past the bound, charging nothing", Run: func(t *testing.T, s budget.Store, c *Clock) {
		take(t, s, G1, now(true))
		take(t, s, G1, now(true))
		take(t, s, G1, after(time.Second, ""))
		take(t, s, G1, after(2*time.Second, ""))
		take(t, s, G1, want{false, 3 * time.Second, "group 20001"})
		take(t, s, G1, want{false, 3 * time.Second, "group 20001"})
	}},
	{Name: "refills over time", Run: func(t *testing.T, s budget.Store, c *Clock) {
		take(t, s, G1, now(true))
		take(t, s, G1, now(true))
		c.Advance(time.Second)
		take(t, s, G1, now(true))
		take(t, s, G1, after(time.Second, "group 20001"))
	}},
	{Name: "refills no further than the burst", Run: func(t *testing.T, s budget.Store, c *Clock) {
		c.Advance(time.Hour)
		take(t, s, G1, now(true))
		take(t, s, G1, now(true))
		take(t, s, G1, after(time.Second, "group 20001"))
	}},
	{Name: "keeps one target's budget from slowing another", Run: func(t *testing.T, s budget.Store, c *Clock) {
		take(t, s, G1, now(true))
		take(t, s, G1, now(true))
		take(t, s, G2, now(true))
		take(t, s, U1, now(true))
	}},
	{Name: "holds every target to the account's budget", Run: func(t *testing.T, s budget.Store, c *Clock) {
		for _, tg := range []budget.Target{G1, G2, U1, {Chat: "user", ID: "3"}} {
			take(t, s, tg, now(true))
		}
		take(t, s, budget.Target{Chat: "user", ID: "4"}, after(500*time.Millisecond, budget.Account))
	}},
	{Name: "charges a call without a target to the account alone", Run: func(t *testing.T, s budget.Store, c *Clock) {
		for range 4 {
			take(t, s, budget.Target{}, want{true, 0, budget.Account})
		}
		take(t, s, budget.Target{}, after(500*time.Millisecond, budget.Account))
		take(t, s, G1, after(time.Second, budget.Account))
	}},
	{Name: "names the budget that waits longest", Run: func(t *testing.T, s budget.Store, c *Clock) {
		take(t, s, G1, now(true))
		take(t, s, G1, now(true))
		take(t, s, G2, now(true))
		take(t, s, G2, now(true))
		// account: empty, next in 500 ms; group 20001: next in 1 s
		take(t, s, G1, after(time.Second, "group 20001"))
		take(t, s, U1, after(500*time.Millisecond, budget.Account))
	}},
	{Name: "charges a send that waits for its target to the account once, when it goes",
		Limits: config.SendPace{Target: config.Budget{Burst: 1, Every: 4 * time.Second}, Account: config.Budget{Burst: 6, Every: 2 * time.Second}, Wait: 10 * time.Second},
		Run: func(t *testing.T, s budget.Store, c *Clock) {
			take(t, s, G1, now(true))
			waiting := takeWithin(t, s, G1, 10*time.Second, after(4*time.Second, "group 20001"))
			assert.Equal(t, 5, s.Snapshot().Account.Available, "the waiting send has not spent the account yet")
			for i := range 5 {
				takeWithin(t, s, budget.Target{Chat: "group", ID: fmt.Sprint(30000 + i)}, 10*time.Second, now(true))
			}
			takeWithin(t, s, G2, 10*time.Second, after(2*time.Second, budget.Account))
			c.Advance(4 * time.Second)
			// 7 sends were charged to the account by now (one at 2 s); the
			// waiting one is the 8th, and 4 s of refill (2 sends) is
			// exactly what lets it go.
			require.True(t, s.Go(&waiting))
			a := s.Snapshot().Account
			assert.Equal(t, 0, a.Available)
			assert.Equal(t, int64(2000), a.NextFreeMS)
		}},
	{Name: "checks the account again when a waiting send goes, and gives its turn back when the account is spent",
		Limits: config.SendPace{Target: config.Budget{Burst: 1, Every: 4 * time.Second}, Account: config.Budget{Burst: 2, Every: 10 * time.Second}, Wait: 10 * time.Second},
		Run: func(t *testing.T, s budget.Store, c *Clock) {
			take(t, s, G1, now(true))
			waiting := takeWithin(t, s, G1, 10*time.Second, after(4*time.Second, "group 20001"))
			takeWithin(t, s, G2, 10*time.Second, now(true))
			c.Advance(4 * time.Second)
			require.False(t, s.Go(&waiting), "the account was spent while the send waited")
			// Its turn at group 20001 was given back: the next send there
			// waits only for the account (refilled 10 s after the first).
			takeWithin(t, s, G1, 10*time.Second, after(6*time.Second, budget.Account))
		}},
	{Name: "gives back the latest send in full", Limits: oneASecond, Run: func(t *testing.T, s budget.Store, c *Clock) {
		g := take(t, s, G1, now(true))
		s.Refund(&g)
		take(t, s, G1, now(true))
	}},
	{Name: "gives back once however often a send is refunded", Limits: oneASecond, Run: func(t *testing.T, s budget.Store, c *Clock) {
		take(t, s, G1, now(true))
		g := take(t, s, G1, after(time.Second, ""))
		again := g
		s.Refund(&g)
		s.Refund(&g)
		s.Refund(&again)
		take(t, s, G1, after(time.Second, "group 20001"))
		take(t, s, G1, after(2*time.Second, "group 20001"))
	}},
	{Name: "keeps the sends charged after a refunded one on their schedule", Limits: oneASecond, Run: func(t *testing.T, s budget.Store, c *Clock) {
		first := take(t, s, G1, now(true))
		take(t, s, G1, after(time.Second, ""))
		c.Advance(time.Second / 2)
		s.Refund(&first) // the second still goes at 1 s
		take(t, s, G1, after(1500*time.Millisecond, "group 20001"))
	}},
	{Name: "gives back what a refill gap left unused after a refunded send", Limits: oneASecond, Run: func(t *testing.T, s budget.Store, c *Clock) {
		first := take(t, s, G1, now(true))
		c.Advance(500 * time.Millisecond)
		s.Refund(&first)
		take(t, s, G1, now(true))
		take(t, s, G1, after(time.Second, "group 20001"))
	}},
	{Name: "never lets concurrent spenders overspend", Limits: config.SendPace{
		Target: config.Budget{Burst: 3, Every: time.Second}, Account: config.Budget{Burst: 50, Every: time.Millisecond}, Wait: 5 * time.Second,
	}, Run: func(t *testing.T, s budget.Store, c *Clock) {
		grants := make([]budget.Grant, 100)
		var wg sync.WaitGroup
		for i := range grants {
			wg.Go(func() { grants[i] = s.Take(G1, 5*time.Second) })
		}
		wg.Wait()
		waits := map[time.Duration]int{}
		refused := 0
		for _, g := range grants {
			if !g.Ok {
				refused++
				continue
			}
			waits[g.Wait]++
		}
		want := map[time.Duration]int{0: 3}
		for s := 1; s <= 5; s++ {
			want[time.Duration(s)*time.Second] = 1
		}
		assert.Equal(t, want, waits)
		assert.Equal(t, 100-8, refused)
	}},
	{Name: "never lets a window hold more than the burst, whatever sends, waits and refunds interleave", Limits: mixed, Run: interleaved},
	{Name: "reads what is left", Run: func(t *testing.T, s budget.Store, c *Clock) {
		assert.Equal(t, budget.Snapshot{Account: budget.State{Budget: budget.Account, Available: 4}, Targets: []budget.State{}}, s.Snapshot(), "a fresh store lists no targets")
		take(t, s, G1, now(true))
		take(t, s, G1, now(true))
		take(t, s, G2, now(true))
		c.Advance(250 * time.Millisecond)
		assert.Equal(t, budget.Snapshot{
			Account: budget.State{Budget: budget.Account, Available: 1, NextFreeMS: 0},
			Targets: []budget.State{{Budget: "group 20001", Available: 0, NextFreeMS: 750}, {Budget: "group 20002", Available: 1, NextFreeMS: 0}},
		}, s.Snapshot())
		c.Advance(2 * time.Second)
		assert.Empty(t, s.Snapshot().Targets, "targets whose budgets refilled are forgotten")
	}},
}

// oneASecond: a target holds one send and refills it each second; the
// account stays out of the way; a send may wait 5 s.
var oneASecond = config.SendPace{
	Target:  config.Budget{Burst: 1, Every: time.Second},
	Account: config.Budget{Burst: 100, Every: time.Millisecond},
	Wait:    5 * time.Second,
}

// mixed are tight budgets for interleaved.
var mixed = config.SendPace{
	Target:  config.Budget{Burst: 2, Every: 300 * time.Millisecond},
	Account: config.Budget{Burst: 4, Every: 100 * time.Millisecond},
	Wait:    time.Second,
}

// interleaved runs rounds in which workers send, at one instant, to three
// targets, while the clock moves on between rounds by random steps: some
// sends go at once, some wait and go in a later round (or find the account
// spent and give their turn back), a third of those that went are
// refunded a few rounds later as if they had failed before being sent. Every budget's sends
// that went and were kept must then fit its token bucket.
func interleaved(t *testing.T, s budget.Store, c *Clock) {
	limits := mixed
	targets := []budget.Target{G1, G2, U1}
	type pending struct {
		g  budget.Grant
		at time.Time
	}
	var (
		mu      sync.Mutex
		waiting []pending
		sent    = map[budget.Target][]time.Time{}
	)
	rng := rand.New(rand.NewPCG(1, 2))
	type flight struct {
		g      budget.Grant
		at     time.Time
		refund bool
		done   int // the round its outcome is known
	}
	var inflight []flight
	refunds := 0
	for round := range 200 {
		// A waiting send wakes when its wait is over: the clock never
		// steps past the first one due.
		step := time.Duration(rng.IntN(120)) * time.Millisecond
		mu.Lock()
		for _, p := range waiting {
			step = min(step, p.at.Sub(c.Now()))
		}
		mu.Unlock()
		c.Advance(step)
		at := c.Now()
		mu.Lock()
		due := waiting[:0:0]
		var later []pending
		for _, p := range waiting {
			if at.Before(p.at) {
				later = append(later, p)
			} else {
				due = append(due, p)
			}
		}
		waiting = later
		mu.Unlock()
		var wg sync.WaitGroup
		// The outcomes known this round, settled while others send.
		mu.Lock()
		var still []flight
		for _, f := range inflight {
			if f.done > round {
				still = append(still, f)
				continue
			}
			wg.Go(func() {
				if f.refund {
					s.Refund(&f.g)
				}
				mu.Lock()
				defer mu.Unlock()
				if f.refund {
					refunds++
					return
				}
				sent[f.g.Target] = append(sent[f.g.Target], f.at)
				sent[budget.Target{}] = append(sent[budget.Target{}], f.at)
			})
		}
		inflight = still
		mu.Unlock()
		for w := range 6 {
			seed := rng.Uint64()
			wg.Go(func() {
				r := rand.New(rand.NewPCG(seed, uint64(w)))
				var g budget.Grant
				if w < len(due) {
					g = due[w].g
				} else {
					g = s.Take(targets[r.IntN(len(targets))], limits.Wait)
					if !g.Ok {
						return
					}
					if g.Wait > 0 {
						mu.Lock()
						waiting = append(waiting, pending{g, at.Add(g.Wait)})
						mu.Unlock()
						return
					}
				}
				if !s.Go(&g) {
					return
				}
				// The outcome is known a few rounds later, after other
				// sends were charged.
				mu.Lock()
				inflight = append(inflight, flight{g, at, r.IntN(3) == 0, round + 1 + r.IntN(3)})
				mu.Unlock()
			})
		}
		for _, p := range due[min(len(due), 6):] {
			s.Refund(&p.g) // cancelled while waiting
		}
		wg.Wait()
	}
	for _, f := range inflight {
		sent[f.g.Target] = append(sent[f.g.Target], f.at)
		sent[budget.Target{}] = append(sent[budget.Target{}], f.at)
	}
	require.NotEmpty(t, sent[budget.Target{}])
	require.NotZero(t, refunds)
	for tg, times := range sent {
		rule := limits.Target
		if tg == (budget.Target{}) {
			rule = limits.Account
		}
		assert.NoError(t, fits(times, rule), "%v", tg)
	}
}

// fits checks that sends at times never outrun a token bucket: between
// any two of them, at most the burst plus what refilled in between.
func fits(times []time.Time, r config.Budget) error {
	sort.Slice(times, func(i, j int) bool { return times[i].Before(times[j]) })
	for i := range times {
		for j := i + r.Burst; j < len(times); j++ {
			if need := time.Duration(j-i+1-r.Burst) * r.Every; times[j].Sub(times[i]) < need {
				return fmt.Errorf("%d sends within %s: a bucket of %d refilling every %s allows them only %s apart", j-i+1, times[j].Sub(times[i]), r.Burst, r.Every, need)
			}
		}
	}
	return nil
}
