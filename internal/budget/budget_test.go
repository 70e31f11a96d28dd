package budget

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/budget/budgettest"
	"github.com/snowluma/snowluma-mcp/internal/config"
)

var (
	g1 = Target{Chat: "group", ID: "20001"}
	g2 = Target{Chat: "group", ID: "20002"}
	u1 = Target{Chat: "user", ID: "10002"}
)

// step asks to send to target after advancing the clock, and says what the
// meter must answer.
type step struct {
	advance time.Duration
	target  Target
	ok      bool
	wait    time.Duration
	budget  string
}

func TestMeter(t *testing.T) {
	t.Parallel()
	// A target holds 2 sends and refills one a second; the account holds 4
	// and refills one every 500 ms; a send may wait 2 s.
	limits := config.SendPace{Target: Budget{Burst: 2, Every: time.Second}, Account: Budget{Burst: 4, Every: 500 * time.Millisecond}, Wait: 2 * time.Second}
	tests := []struct {
		name  string
		steps []step
	}{
		{"lets a burst go at once", []step{
			{0, g1, true, 0, "group 20001"}, {0, g1, true, 0, "group 20001"},
		}},
		{"makes the send after the burst wait for the refill", []step{
			{0, g1, true, 0, ""}, {0, g1, true, 0, ""},
			{0, g1, true, time.Second, "group 20001"},
			{0, g1, true, 2 * time.Second, "group 20001"},
		}},
		{"refuses a send that would wait past the bound, charging nothing", []step{
			{0, g1, true, 0, ""}, {0, g1, true, 0, ""}, {0, g1, true, time.Second, ""}, {0, g1, true, 2 * time.Second, ""},
			{0, g1, false, 3 * time.Second, "group 20001"},
			{0, g1, false, 3 * time.Second, "group 20001"},
		}},
		{"refills over time", []step{
			{0, g1, true, 0, ""}, {0, g1, true, 0, ""},
			{time.Second, g1, true, 0, ""},
			{0, g1, true, time.Second, "group 20001"},
		}},
		{"refills no further than the burst", []step{
			{time.Hour, g1, true, 0, ""}, {0, g1, true, 0, ""},
			{0, g1, true, time.Second, "group 20001"},
		}},
		{"keeps one target's budget from slowing another", []step{
			{0, g1, true, 0, ""}, {0, g1, true, 0, ""},
			{0, g2, true, 0, ""}, {0, u1, true, 0, ""},
		}},
		{"holds every target to the account's budget", []step{
			{0, g1, true, 0, ""}, {0, g2, true, 0, ""}, {0, u1, true, 0, ""}, {0, Target{Chat: "user", ID: "3"}, true, 0, ""},
			{0, Target{Chat: "user", ID: "4"}, true, 500 * time.Millisecond, Account},
		}},
		{"charges a call without a target to the account alone", []step{
			{0, Target{}, true, 0, Account}, {0, Target{}, true, 0, Account}, {0, Target{}, true, 0, Account}, {0, Target{}, true, 0, Account},
			{0, Target{}, true, 500 * time.Millisecond, Account},
			{0, g1, true, time.Second, Account},
		}},
		{"names the budget that waits longest", []step{
			{0, g1, true, 0, ""}, {0, g1, true, 0, ""}, {0, g2, true, 0, ""}, {0, g2, true, 0, ""},
			// account: empty, next in 500 ms; g1: next in 1 s
			{0, g1, true, time.Second, "group 20001"},
			{0, u1, true, time.Second, Account},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			clock := budgettest.New()
			m := New(limits, clock)
			for i, s := range tt.steps {
				clock.Advance(s.advance)
				g := m.Take(s.target)
				assert.Equal(t, s.ok, g.Ok, "step %d ok", i)
				assert.Equal(t, s.wait, g.Wait, "step %d wait", i)
				if s.budget != "" {
					assert.Equal(t, s.budget, g.Budget, "step %d budget", i)
				}
			}
		})
	}
}

func TestMeterIsOffWhenPacingIsOff(t *testing.T) {
	t.Parallel()
	assert.Nil(t, New(config.SendPace{Off: true}, Wall{}))
}

func TestCancelGivesBackOnlyTheLatestSend(t *testing.T) {
	t.Parallel()
	limits := config.SendPace{Target: Budget{Burst: 1, Every: time.Second}, Account: Budget{Burst: 10, Every: time.Millisecond}, Wait: 5 * time.Second}
	tests := []struct {
		name     string
		cancel   []int // indexes of the grants cancelled, in order
		nextWait time.Duration
	}{
		{"gives back the latest send", []int{2}, 2 * time.Second},
		{"gives back once however often it is cancelled", []int{2, 2}, 2 * time.Second},
		{"keeps a send that later sends were scheduled after", []int{1}, 3 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			clock := budgettest.New()
			m := New(limits, clock)
			grants := []Grant{m.Take(g1), m.Take(g1), m.Take(g1)}
			require.Equal(t, 2*time.Second, grants[2].Wait)
			for _, i := range tt.cancel {
				grants[i].Cancel()
			}
			assert.Equal(t, tt.nextWait, m.Take(g1).Wait)
		})
	}
}

// TestConcurrentSpendersNeverOverspend starts 100 spenders at one instant
// against one target: exactly the burst goes at once, each later grant is
// spaced one refill after the one before, as many as the wait bound allows,
// and every other spender is refused.
func TestConcurrentSpendersNeverOverspend(t *testing.T) {
	t.Parallel()
	limits := config.SendPace{Target: Budget{Burst: 3, Every: time.Second}, Account: Budget{Burst: 50, Every: time.Millisecond}, Wait: 5 * time.Second}
	m := New(limits, budgettest.New())
	grants := make([]Grant, 100)
	var wg sync.WaitGroup
	for i := range grants {
		wg.Go(func() { grants[i] = m.Take(g1) })
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
}

func TestSnapshot(t *testing.T) {
	t.Parallel()
	limits := config.SendPace{Target: Budget{Burst: 2, Every: time.Second}, Account: Budget{Burst: 4, Every: 500 * time.Millisecond}, Wait: 2 * time.Second}
	clock := budgettest.New()
	m := New(limits, clock)
	assert.Equal(t, Snapshot{Account: State{Budget: Account, Available: 4}, Targets: []State{}}, m.Snapshot(), "a fresh meter lists no targets")
	m.Take(g1)
	m.Take(g1)
	m.Take(g2)
	clock.Advance(250 * time.Millisecond)
	assert.Equal(t, Snapshot{
		Account: State{Budget: Account, Available: 1, NextFreeMS: 0},
		Targets: []State{{Budget: "group 20001", Available: 0, NextFreeMS: 750}, {Budget: "group 20002", Available: 1, NextFreeMS: 0}},
	}, m.Snapshot())
	clock.Advance(2 * time.Second)
	assert.Empty(t, m.Snapshot().Targets, "targets whose budgets refilled are forgotten")
}
