package budget_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/budget"
	"github.com/snowluma/snowluma-mcp/internal/budget/budgettest"
	"github.com/snowluma/snowluma-mcp/internal/config"
)

// lockedLog is a log that two stores in one process may write at once.
type lockedLog struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestPeersWithDifferentWaitsShareOneBudget: a server that may wait ten
// minutes charges its waiting sends up to ten minutes ahead; a peer on the
// same state directory that may wait none must read that state as honest
// (not as a clock set back, moved aside with every budget restarted full),
// so that together they let through exactly one budget's worth.
func TestPeersWithDifferentWaitsShareOneBudget(t *testing.T) {
	t.Parallel()
	dir := stateDir(t)
	c := budgettest.New()
	limits := config.SendPace{Target: config.Budget{Burst: 2, Every: time.Minute}, Account: config.Budget{Burst: 1000, Every: time.Millisecond}}
	patient, hasty := limits, limits
	patient.Wait = config.MaxSendWait
	hasty.Wait = 0
	var log lockedLog
	long := budget.NewShared(dir, account("10001"), patient, c, &log)
	short := budget.NewShared(dir, account("10001"), hasty, c, &log)

	var wg sync.WaitGroup
	var mu sync.Mutex
	var now, waiting int
	for i := range 32 {
		s, within := long, patient.Wait
		if i%2 == 1 {
			s, within = short, hasty.Wait
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			g := s.Take(budgettest.G1, within)
			require.NoError(t, g.Err)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case g.Ok && g.Wait == 0:
				now++
			case g.Ok:
				waiting++
			}
		}()
	}
	wg.Wait()
	assert.NotContains(t, log.String(), "could not be read", "the peer's honest state is not taken for damage")
	assert.NoFileExists(t, long.Path()+".bad")
	assert.Equal(t, 2, now, "one burst goes at once, between the two servers")
	assert.Equal(t, 10, waiting, "and one send a minute for the ten minutes the patient server may wait")
	g := short.Take(budgettest.G1, 0)
	assert.False(t, g.Ok, "the budget stays spent for the hasty server")
	assert.Equal(t, budgettest.G1.String(), g.Budget)
	assert.Equal(t, 11*time.Minute, g.Wait, "until the last waiting send's refill")
}
