package e2e

// A send budget state that no clock now could have written (issue 37 §4):
// a state dated in the year 9999 once made every send refused with
// retry_after_ms -9223372036853. It is handled like a damaged one: moved
// aside, started again as spent, with a warning, so the send waits one
// refill interval of the account's budget and goes.

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestABudgetStateFromTheFutureIsNotTrusted(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		state := freshStateDir()
		future := `{"v":1,"seq":9,"account":{"tat":"9999-12-31T23:59:59Z","record":[{"id":9,"at":"9999-12-31T23:59:59Z"}]}}`
		require.NoError(t, os.WriteFile(filepath.Join(state, "budget-10001.json"), []byte(future), 0o600))
		s := start(t, version, with(writeEnv(), "SNOWLUMA_MCP_STATE_DIR", state))
		r := sendProbe(t, s)
		assert.False(t, r.IsError, "the send waits one refill interval and goes: %s", r.Text)
		assert.FileExists(t, filepath.Join(state, "budget-10001.json.bad"), "the state was moved aside")
		stderr := s.closeCleanly(t)
		assert.Contains(t, stderr, "further ahead than any budget reaches")
		assert.Contains(t, stderr, "started again as spent")
	})
}
