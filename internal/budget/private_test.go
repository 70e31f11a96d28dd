package budget_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/access/accesstest"
	"github.com/snowluma/snowluma-mcp/internal/budget"
	"github.com/snowluma/snowluma-mcp/internal/budget/budgettest"
	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/fault"
)

// TestAStateDirectoryOthersCanEnterIsRefused: others could change the
// budgets there, so the store fails closed and says why and how to fix it.
func TestAStateDirectoryOthersCanEnterIsRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	accesstest.ExposeDir(t, dir)
	var log strings.Builder
	s := budget.NewShared(dir, account("10001"), budgettest.Standard, budgettest.New(), &log)
	g := s.Take(budgettest.G1, time.Hour)
	assert.False(t, g.Ok)
	require.Error(t, g.Err, "refused as a configuration failure, not made to wait")
	assert.Equal(t, fault.CodeConfiguration, fault.CodeOf(g.Err))
	assert.Zero(t, g.Wait, "no wait would help")
	for _, w := range append([]string{"SNOWLUMA_MCP_STATE_DIR", "unpace"}, accesstest.DirWords...) {
		assert.Contains(t, log.String(), w)
		assert.Contains(t, g.Err.Error(), w)
	}
	snap := s.Snapshot()
	assert.Contains(t, snap.Problem, "SNOWLUMA_MCP_STATE_DIR", "the runtime report shows the problem")
	assert.Zero(t, snap.Account.Available, "never a full budget nobody keeps")
	left, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, left, "nothing is written into a refused directory")
}

// TestADirectoryOpenedLaterRefusesTheSendsFromThen: the directory is
// checked at every step, not only when the account is first named.
func TestADirectoryOpenedLaterRefusesTheSendsFromThen(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "state")
	var log strings.Builder
	s := budget.NewShared(dir, account("10001"), budgettest.Standard, budgettest.New(), &log)
	require.True(t, s.Take(budgettest.G1, 0).Ok)
	require.Empty(t, log.String())
	accesstest.ExposeDir(t, dir)
	assert.False(t, s.Take(budgettest.G2, time.Hour).Ok, "refused once the directory is open")
	for _, w := range accesstest.DirWords {
		assert.Contains(t, log.String(), w)
	}
}

// TestARecordingMeterSaysWhenItCannotRecord: with pacing off the send
// goes whatever the shared state is, but a send the account's other
// servers will not see is named on stderr.
func TestARecordingMeterSaysWhenItCannotRecord(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	accesstest.ExposeDir(t, dir)
	var log strings.Builder
	off := config.SendPace{Off: true}
	m := budget.New(off, budgettest.New(), budget.NewShared(dir, account("10001"), off, budgettest.New(), &log))
	require.NotNil(t, m)
	g := m.Take(budgettest.G1, 0)
	assert.True(t, g.Ok, "pacing off: the send goes")
	assert.Contains(t, log.String(), "the account's other servers do not see it")
	for _, w := range accesstest.DirWords {
		assert.Contains(t, log.String(), w)
	}
}

// TestWhatTheSharedBudgetsWriteIsPrivate: the directory, the state and
// its lock are made for this user alone.
func TestWhatTheSharedBudgetsWriteIsPrivate(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "state")
	s := budget.NewShared(dir, account("10001"), budgettest.Standard, budgettest.New(), &strings.Builder{})
	require.True(t, s.Take(budgettest.G1, 0).Ok)
	accesstest.AssertPrivateDir(t, dir)
	accesstest.AssertPrivateFile(t, filepath.Join(dir, "budget-10001.json"))
	accesstest.AssertPrivateFile(t, filepath.Join(dir, "budget-10001.json.lock"))
}

// TestAStateOthersCanReadIsRebuiltAsSpent: a state file another account
// could have written is not trusted; it is moved aside and started again
// as spent, with a warning.
func TestAStateOthersCanReadIsRebuiltAsSpent(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "state")
	c := budgettest.New()
	var log strings.Builder
	s := budget.NewShared(dir, account("10001"), budgettest.Standard, c, &log)
	require.True(t, s.Take(budgettest.G1, 0).Ok)
	accesstest.ExposeFile(t, filepath.Join(dir, "budget-10001.json"))
	g := s.Take(budgettest.G2, 0)
	assert.False(t, g.Ok)
	assert.Equal(t, budget.Account, g.Budget)
	for _, w := range accesstest.FileWords {
		if w != "chmod 600" && w != "icacls" { // moved aside: nothing to fix
			assert.Contains(t, log.String(), w)
		}
	}
	assert.FileExists(t, filepath.Join(dir, "budget-10001.json.bad"))
}
