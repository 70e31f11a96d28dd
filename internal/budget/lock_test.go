package budget_test

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gofrs/flock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/access/accesstest"
	"github.com/snowluma/snowluma-mcp/internal/budget"
	"github.com/snowluma/snowluma-mcp/internal/budget/budgettest"
	"github.com/snowluma/snowluma-mcp/internal/fault"
)

// TestALockHeldPastItsBoundRefusesTheSend: a lock another process holds
// (a server stuck mid-step, or a lock file planted and held) once made
// every send hang without a word. A step waits for it a bounded time,
// then the send is refused, unsent, with a failure naming the lock's
// folder and what to do; once the lock is free, sends go again.
func TestALockHeldPastItsBoundRefusesTheSend(t *testing.T) {
	t.Parallel()
	dir := stateDir(t)
	c := budgettest.New()
	var log strings.Builder
	s := budget.NewShared(dir, account("10001"), budgettest.Standard, c, &log)
	require.True(t, s.Take(budgettest.G1, 0).Ok, "the state and its lock exist")
	budget.SetLockWait(s, 50*time.Millisecond)
	lockFile := filepath.Join(dir, "budget-10001.json.lock")
	held := flock.New(lockFile)
	require.NoError(t, held.Lock())

	done := make(chan budget.Grant, 1)
	go func() { done <- s.Take(budgettest.G1, budgettest.Standard.Wait) }()
	var g budget.Grant
	select {
	case g = <-done:
	case <-time.After(time.Minute):
		t.Fatal("Take never returned while the lock was held")
	}
	assert.False(t, g.Ok)
	require.Error(t, g.Err)
	assert.Zero(t, g.Wait, "no wait of the agent's would help")
	assert.Equal(t, fault.CodeConfiguration, fault.CodeOf(g.Err))
	assert.True(t, fault.NothingSent(g.Err))
	for _, w := range []string{"budget-10001.json.lock", dir, "SNOWLUMA_MCP_STATE_DIR", "nothing was sent"} {
		assert.Contains(t, g.Err.Error(), w)
	}
	for _, w := range []string{"end that process", "SNOWLUMA_MCP_STATE_DIR", "restart the server"} {
		assert.Contains(t, fault.NextOf(g.Err), w)
	}
	assert.Contains(t, s.Snapshot().Problem, "held by another process", "the runtime report says it too")

	require.NoError(t, held.Unlock())
	assert.True(t, s.Take(budgettest.G1, 0).Ok, "the lock free, sends go again, on the budget as it was")
	assert.False(t, s.Take(budgettest.G1, 0).Ok, "the refused send charged nothing, and the burst of 2 is spent")
}

// TestALockThatIsNotAFileRefusesTheSendAtOnce (Q-1, PACE-5): a named
// pipe where a budget's lock belongs (a directory on Windows) once held
// every send past the lock bound, waiting for a writer in its open. Now
// the send is refused at once, unsent and uncharged, as a configuration
// failure naming the file as damaged; the reading of the settings (Locks)
// refuses the directory alike; with the file moved aside, sends go again.
func TestALockThatIsNotAFileRefusesTheSendAtOnce(t *testing.T) {
	t.Parallel()
	dir := stateDir(t)
	c := budgettest.New()
	s := budget.NewShared(dir, account("10001"), budgettest.Standard, c, io.Discard)
	require.True(t, s.Take(budgettest.G1, 0).Ok, "the state and its lock exist")
	lockFile := filepath.Join(dir, "budget-10001.json.lock")
	require.NoError(t, os.Remove(lockFile))
	accesstest.NotAFile(t, lockFile)

	var g budget.Grant
	accesstest.Returns(t, func() { g = s.Take(budgettest.G1, budgettest.Standard.Wait) })
	assert.False(t, g.Ok)
	require.Error(t, g.Err)
	assert.Zero(t, g.Wait, "no wait of the agent's would help")
	assert.Equal(t, fault.CodeConfiguration, fault.CodeOf(g.Err))
	assert.True(t, fault.NothingSent(g.Err))
	for _, w := range []string{lockFile, accesstest.NotAFileWords, "damaged", "SNOWLUMA_MCP_STATE_DIR", "nothing was sent"} {
		assert.Contains(t, g.Err.Error(), w)
	}
	err := budget.Locks(dir)
	require.Error(t, err, "the reading of the settings refuses it too")
	assert.Contains(t, err.Error(), lockFile)

	require.NoError(t, os.Rename(lockFile, lockFile+".aside"))
	assert.NoError(t, budget.Locks(dir))
	assert.True(t, s.Take(budgettest.G1, 0).Ok, "moved aside, sends go again, on the budget as it was")
	assert.False(t, s.Take(budgettest.G1, 0).Ok, "the refused send charged nothing, and the burst of 2 is spent")
}
