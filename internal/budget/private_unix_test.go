//go:build !windows

package budget_test

import (
	"os"
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
