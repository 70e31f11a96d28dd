package e2e

// The send budgets are the account's on this machine (SESS-1): every
// server of one QQ account spends from the same buckets, kept in the
// state directory, across processes and restarts, exactly under
// concurrency. The fake is one account (get_login_info), whatever the
// endpoint is called.

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sharedPaceEnv is write mode with a chat budget of 2 that refills once an
// hour (far longer than any wait allowed), in the given state directory.
func sharedPaceEnv(stateDir string) map[string]string {
	return with(paceEnv("target=2+1/1h,account=50+1/10ms", "1000"), "SNOWLUMA_MCP_STATE_DIR", stateDir)
}

func TestTwoServersOfOneAccountSpendOneBudget(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		env := sharedPaceEnv(filepath.Join(t.TempDir(), "state"))
		a := start(t, version, env)
		// The same SnowLuma by another name is the same account.
		b := start(t, version, with(env, "SNOWLUMA_MCP_ENDPOINT", strings.Replace(snow.URL(), "127.0.0.1", "localhost", 1)))
		r, _ := a.sendNow(t, "send_group_msg", group(20001), nil)
		require.False(t, r.IsError, r.Text)
		r, _ = b.sendNow(t, "send_group_msg", group(20001), nil)
		require.False(t, r.IsError, r.Text)
		for _, s := range []*server{a, b} {
			r, tag := s.sendNow(t, "send_group_msg", group(20001), nil)
			require.True(t, r.IsError, "the two sends spent the budget for both servers")
			assert.Equal(t, "rate_limited", r.Diag.Kind)
			assert.Contains(t, r.Diag.Message, "group 20001's send budget is spent")
			assert.Empty(t, snow.ByTag(tag), "nothing was sent")
		}
	})
}

func TestARestartedServerFindsTheBudgetSpent(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		env := sharedPaceEnv(filepath.Join(t.TempDir(), "state"))
		first := start(t, version, env)
		for range 2 {
			r, _ := first.sendNow(t, "send_group_msg", group(20001), nil)
			require.False(t, r.IsError, r.Text)
		}
		first.closeCleanly(t)
		again := start(t, version, env)
		r, tag := again.sendNow(t, "send_group_msg", group(20001), nil)
		require.True(t, r.IsError, "a restart does not refill the budget")
		assert.Equal(t, "rate_limited", r.Diag.Kind)
		assert.Empty(t, snow.ByTag(tag))
	})
}

// TestSixServersRacingForOneChatSendExactlyItsBudget: six servers send to
// one group at once; its budget is 2 and refills long after the wait
// bound, so exactly 2 sends reach SnowLuma and 4 are refused.
func TestSixServersRacingForOneChatSendExactlyItsBudget(t *testing.T) {
	t.Parallel()
	env := sharedPaceEnv(filepath.Join(t.TempDir(), "state"))
	servers := make([]*server, 6)
	for i := range servers {
		servers[i] = start(t, modern, env)
	}
	results := make([]toolResult, len(servers))
	tags := make([]string, len(servers))
	var wg sync.WaitGroup
	for i, s := range servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], tags[i] = s.sendNow(t, "send_group_msg", group(20002), nil)
		}()
	}
	wg.Wait()
	went := 0
	for i, r := range results {
		if r.IsError {
			assert.Equal(t, "rate_limited", r.Diag.Kind)
			assert.Empty(t, snow.ByTag(tags[i]), "a refused send never reaches SnowLuma")
			continue
		}
		assert.Len(t, snow.ByTag(tags[i]), 1)
		went++
	}
	assert.Equal(t, 2, went, "exactly the chat's budget went")
}

// TestAServerWithPacingOffRecordsItsSends: its sends never wait, and they
// spend the shared budgets, so a paced server of the account counts them;
// get_runtime_info says both.
func TestAServerWithPacingOffRecordsItsSends(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "state")
	paced := start(t, modern, sharedPaceEnv(dir))
	r, _ := paced.sendNow(t, "send_group_msg", group(20004), nil) // the paced server's limits now count
	require.False(t, r.IsError, r.Text)
	unpaced := start(t, modern, with(paceEnv("off", "0"), "SNOWLUMA_MCP_STATE_DIR", dir))
	for range 3 {
		r, tag := unpaced.sendNow(t, "send_group_msg", group(20004), nil)
		require.False(t, r.IsError, "pacing off never refuses: %s", r.Text)
		assert.Zero(t, r.Diag.HeldMS)
		assert.Len(t, snow.ByTag(tag), 1)
	}
	r, tag := paced.sendNow(t, "send_group_msg", group(20004), nil)
	require.True(t, r.IsError, "the unpaced server's sends spent the chat's budget")
	assert.Equal(t, "rate_limited", r.Diag.Kind)
	assert.Empty(t, snow.ByTag(tag))

	var info struct {
		SendPace struct {
			Enabled bool `json:"enabled"`
			Shared  struct {
				Note      string `json:"note"`
				StateFile string `json:"state_file"`
			} `json:"shared"`
		} `json:"send_pace"`
	}
	paced.call(t, "get_runtime_info", nil, nil).decodeResult(t, &info)
	assert.True(t, info.SendPace.Enabled)
	assert.Contains(t, info.SendPace.Shared.Note, "shared")
	assert.Equal(t, filepath.Join(dir, fmt.Sprintf("budget-%d.json", self)), info.SendPace.Shared.StateFile)
	unpaced.call(t, "get_runtime_info", nil, nil).decodeResult(t, &info)
	assert.False(t, info.SendPace.Enabled)
	assert.Contains(t, info.SendPace.Shared.Note, "recorded")
}
