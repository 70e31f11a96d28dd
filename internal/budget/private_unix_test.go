//go:build !windows

package budget_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/budget"
	"github.com/snowluma/snowluma-mcp/internal/budget/budgettest"
)

// TestAStateDirectoryOthersCanEnterIsRefused: others could change the
// budgets there, so the store fails closed and says why.
func TestAStateDirectoryOthersCanEnterIsRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	require.NoError(t, os.Chmod(dir, 0o755))
	var log strings.Builder
	s := budget.NewShared(dir, account("10001"), budgettest.Standard, budgettest.New(), &log)
	assert.False(t, s.Take(budgettest.G1, time.Hour).Ok)
	assert.Contains(t, log.String(), "chmod 700")
}

// TestAStateOthersCanReadIsRebuiltAsSpent: a state file another user could
// have written is not trusted; it is moved aside and started again as
// spent, with a warning.
func TestAStateOthersCanReadIsRebuiltAsSpent(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "state")
	c := budgettest.New()
	var log strings.Builder
	s := budget.NewShared(dir, func() (string, error) { return "10001", nil }, budgettest.Standard, c, &log)
	require.True(t, s.Take(budgettest.G1, 0).Ok)
	require.NoError(t, os.Chmod(filepath.Join(dir, "budget-10001.json"), 0o666))
	g := s.Take(budgettest.G2, 0)
	assert.False(t, g.Ok)
	assert.Equal(t, budget.Account, g.Budget)
	assert.Contains(t, log.String(), "open to other users")
	assert.FileExists(t, filepath.Join(dir, "budget-10001.json.bad"))
}
