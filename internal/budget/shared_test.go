package budget_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/access/accesstest"
	"github.com/snowluma/snowluma-mcp/internal/budget"
	"github.com/snowluma/snowluma-mcp/internal/budget/budgettest"
	"github.com/snowluma/snowluma-mcp/internal/config"
)

func account(uin string) func() (string, error) { return func() (string, error) { return uin, nil } }

// stateDir is a state directory the store makes itself (0700).
func stateDir(t *testing.T) string { return filepath.Join(t.TempDir(), "state") }

// TestSharedStoreConforms runs the behaviour table against the shared
// store, each behaviour on a state file of its own.
func TestSharedStoreConforms(t *testing.T) {
	t.Parallel()
	budgettest.Conformance(t, func(sp config.SendPace, c budget.Clock) budget.Store {
		return budget.NewShared(stateDir(t), account("10001"), sp, c, &strings.Builder{})
	})
}

// TestSharedStoresOfOneAccountSpendTogether: stores opened apart (as two
// server processes open them: each lock is its own open file) on one
// directory and account are one budget; another account is another.
func TestSharedStoresOfOneAccountSpendTogether(t *testing.T) {
	t.Parallel()
	dir := stateDir(t)
	c := budgettest.New()
	sp := budgettest.Standard
	a := budget.NewShared(dir, account("10001"), sp, c, &strings.Builder{})
	b := budget.NewShared(dir, account("10001"), sp, c, &strings.Builder{})
	other := budget.NewShared(dir, account("10002"), sp, c, &strings.Builder{})
	assert.True(t, a.Take(budgettest.G1, 0).Ok)
	assert.True(t, b.Take(budgettest.G1, 0).Ok)
	g := a.Take(budgettest.G1, 0)
	assert.False(t, g.Ok, "the target's 2 sends were spent between the two")
	assert.Equal(t, budgettest.G1.String(), g.Budget)
	assert.True(t, other.Take(budgettest.G1, 0).Ok, "another account has budgets of its own")
	restarted := budget.NewShared(dir, account("10001"), sp, c, &strings.Builder{})
	assert.False(t, restarted.Take(budgettest.G1, 0).Ok, "a restart does not refill")
}

// TestSharedStoresRacingSpendExactly: many stores racing for one target's
// budget of 2 (refill longer than any wait allowed) grant exactly 2.
func TestSharedStoresRacingSpendExactly(t *testing.T) {
	t.Parallel()
	dir := stateDir(t)
	sp := config.SendPace{Target: config.Budget{Burst: 2, Every: time.Hour}, Account: config.Budget{Burst: 100, Every: time.Second}, Wait: time.Second}
	var wg sync.WaitGroup
	var mu sync.Mutex
	granted := 0
	for range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := budget.NewShared(dir, account("10001"), sp, budget.Wall{}, &strings.Builder{})
			g := s.Take(budgettest.G1, sp.Wait)
			if g.Ok {
				require.True(t, s.Go(&g))
				mu.Lock()
				granted++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	assert.Equal(t, 2, granted)
}

// TestAnUnreadableStateFailsClosed: a damaged or foreign state is moved
// aside and rebuilt as spent, with a warning; sends wait, never go unpaced.
func TestAnUnreadableStateFailsClosed(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		spoil func(t *testing.T, path string)
	}{
		{"damaged", func(t *testing.T, path string) {
			require.NoError(t, os.WriteFile(path, []byte(`{"v":1,"seq":`), 0o600))
		}},
		{"written by a clock an hour ahead (the clock was set back since)", func(t *testing.T, path string) {
			require.NoError(t, os.WriteFile(path, []byte(`{"v":1,"seq":9,"account":{"tat":"2026-07-28T13:00:00Z"}}`), 0o600))
		}},
		{"written in the year 9999", func(t *testing.T, path string) {
			require.NoError(t, os.WriteFile(path, []byte(`{"v":1,"seq":9,"targets":{"group:20001":{"tat":"9999-12-31T23:59:59Z","record":[{"id":9,"at":"9999-12-31T23:59:59Z"}]}}}`), 0o600))
		}},
		{"a named pipe in its place (a directory on Windows), which an open would wait on", func(t *testing.T, path string) {
			require.NoError(t, os.Remove(path))
			accesstest.NotAFile(t, path)
		}},
		{"a rule seen in the future", func(t *testing.T, path string) {
			require.NoError(t, os.WriteFile(path, []byte(`{"v":1,"seq":9,"rules":[{"target":{"Burst":1,"Every":1},"account":{"Burst":1,"Every":1},"seen":"2027-01-01T00:00:00Z"}]}`), 0o600))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := stateDir(t)
			c := budgettest.New()
			sp := budgettest.Standard
			var log strings.Builder
			s := budget.NewShared(dir, account("10001"), sp, c, &log)
			require.True(t, s.Take(budgettest.G1, 0).Ok)
			path := filepath.Join(dir, "budget-10001.json")
			require.Equal(t, path, s.Path())
			tt.spoil(t, path)
			untrusted := budget.Untrusted(dir, sp, c.Now())
			require.Len(t, untrusted, 1, "the reading of the settings says so first")
			assert.Contains(t, untrusted[0], path)
			var g budget.Grant
			accesstest.Returns(t, func() { g = s.Take(budgettest.G2, 0) })
			assert.False(t, g.Ok, "the rebuilt state is spent")
			assert.Equal(t, budget.Account, g.Budget)
			assert.Equal(t, sp.Account.Every, g.Wait, "one refill interval")
			assert.Contains(t, log.String(), "could not be read")
			_, err := os.Lstat(path + ".bad")
			assert.NoError(t, err, "moved aside")
			c.Advance(sp.Account.Every)
			assert.True(t, s.Take(budgettest.G2, 0).Ok, "then sends go again, paced")
		})
	}
}

// TestAnAccountThatCannotBeNamedIsPacedAlone: while SnowLuma does not
// name the account, sends are paced within the process (never unpaced),
// so that they go on to meet SnowLuma's own failure; once it is named,
// the shared state is used.
func TestAnAccountThatCannotBeNamedIsPacedAlone(t *testing.T) {
	t.Parallel()
	var log strings.Builder
	fail := true
	name := func() (string, error) {
		if fail {
			return "", fmt.Errorf("get_login_info failed: connection refused")
		}
		return "10001", nil
	}
	dir := stateDir(t)
	c := budgettest.New()
	s := budget.NewShared(dir, name, budgettest.Standard, c, &log)
	assert.True(t, s.Take(budgettest.G1, 0).Ok)
	assert.True(t, s.Take(budgettest.G1, 0).Ok)
	assert.False(t, s.Take(budgettest.G1, 0).Ok, "paced, within this process")
	assert.Contains(t, log.String(), "connection refused")
	assert.Empty(t, s.Path())
	fail = false
	assert.True(t, s.Take(budgettest.G1, 0).Ok, "the shared state, fresh, once the account is named")
	assert.Equal(t, filepath.Join(dir, "budget-10001.json"), s.Path())
}

// TestTheStrictestSettingWinsPerBucket: servers of one account configured
// differently spend under the smallest burst and the longest refill that
// any of them was given, each budget on its own.
func TestTheStrictestSettingWinsPerBucket(t *testing.T) {
	t.Parallel()
	dir := stateDir(t)
	c := budgettest.New()
	lax := config.SendPace{Target: config.Budget{Burst: 5, Every: time.Second}, Account: config.Budget{Burst: 2, Every: time.Minute}}
	strict := config.SendPace{Target: config.Budget{Burst: 1, Every: time.Minute}, Account: config.Budget{Burst: 50, Every: time.Millisecond}}
	a := budget.NewShared(dir, account("10001"), lax, c, &strings.Builder{})
	b := budget.NewShared(dir, account("10001"), strict, c, &strings.Builder{})
	b.Snapshot() // b has used the state: its limits count
	assert.True(t, a.Take(budgettest.G1, 0).Ok)
	g := a.Take(budgettest.G1, 0)
	assert.False(t, g.Ok, "the strict server's target burst of 1 holds the lax one too")
	assert.Equal(t, budgettest.G1.String(), g.Budget)
	assert.Equal(t, time.Minute, g.Wait, "and its refill of a minute")
	assert.True(t, b.Take(budgettest.G2, 0).Ok)
	g = b.Take(budgettest.U1, 0)
	assert.False(t, g.Ok, "the lax server's account burst of 2 holds the strict one")
	assert.Equal(t, budget.Account, g.Budget)
}

// TestAMeterWithPacingOffRecordsWithoutWaiting: with pacing off on the
// shared store, a send never waits and is never refused, and its charge
// counts for the paced servers (under their limits); a send that never
// went out gives it back.
func TestAMeterWithPacingOffRecordsWithoutWaiting(t *testing.T) {
	t.Parallel()
	dir := stateDir(t)
	c := budgettest.New()
	paced := budget.NewShared(dir, account("10001"), budgettest.Standard, c, &strings.Builder{})
	paced.Snapshot() // its limits count from now on
	off := config.SendPace{Off: true}
	m := budget.New(off, c, budget.NewShared(dir, account("10001"), off, c, &strings.Builder{}))
	require.NotNil(t, m)
	assert.True(t, m.Recording())
	grants := make([]budget.Grant, 3)
	for i := range grants {
		grants[i] = m.Take(budgettest.G1, 0)
		require.True(t, grants[i].Ok)
		assert.Zero(t, grants[i].Wait)
		require.True(t, m.Go(&grants[i]))
	}
	assert.False(t, paced.Take(budgettest.G1, 0).Ok, "three recorded sends spent a target budget of 2")
	m.Refund(&grants[2])
	m.Refund(&grants[2])
	assert.False(t, paced.Take(budgettest.G1, 0).Ok, "a grant is refunded at most once: two sends stay charged")
	m.Refund(&grants[1])
	assert.True(t, paced.Take(budgettest.G1, 0).Ok, "two refunds leave one send charged")
	assert.Nil(t, budget.New(off, c, nil), "off without a shared store is no meter at all")
}
