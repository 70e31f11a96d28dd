package budget_test

// What a delivery pays for its budgets, measured never asserted:
//
//	go test -run '^$' -bench Spend -benchtime 2000x ./internal/budget

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/budget"
	"github.com/snowluma/snowluma-mcp/internal/config"
)

// roomy never makes a send wait, so what is measured is the bookkeeping.
var roomy = config.SendPace{Target: config.Budget{Burst: 1 << 30, Every: time.Nanosecond}, Account: config.Budget{Burst: 1 << 30, Every: time.Nanosecond}, Wait: time.Second}

// spend is one delivery's use of the store: a Take and the Go when it goes.
func spend(b *testing.B, s budget.Store, i int) {
	g := s.Take(budget.Target{Chat: "group", ID: string(rune('0' + i%10))}, roomy.Wait)
	require.True(b, g.Ok)
	require.True(b, s.Go(&g))
}

func BenchmarkSpendLocal(b *testing.B) {
	s := budget.NewLocal(roomy, budget.Wall{})
	i := 0
	for b.Loop() {
		spend(b, s, i)
		i++
	}
}

func BenchmarkSpendShared(b *testing.B) {
	s := budget.NewShared(b.TempDir()+"/state", account("10001"), roomy, budget.Wall{}, &strings.Builder{})
	i := 0
	for b.Loop() {
		spend(b, s, i)
		i++
	}
}

// BenchmarkSpendSharedSixRacing: six stores (six servers: each lock is an
// open file of its own) spending from one account's state at once; ns/op
// is the wall time per delivery of all six together.
func BenchmarkSpendSharedSixRacing(b *testing.B) {
	dir := b.TempDir() + "/state"
	var n atomic.Int64
	b.SetParallelism(6)
	b.RunParallel(func(pb *testing.PB) {
		s := budget.NewShared(dir, account("10001"), roomy, budget.Wall{}, &strings.Builder{})
		for pb.Next() {
			spend(b, s, int(n.Add(1)))
		}
	})
}
