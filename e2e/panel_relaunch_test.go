package e2e

// The browser test's one retry (issue 23 item 4): Chromium that dies
// before it loaded any page is relaunched once, and said so; a browser
// that dies again fails the run; a browser that dies once a scenario ran
// is never retried. Each case puts a small launcher script in front of
// Debian's chromium that records every launch and dies when told to.

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// launcher writes a browser script that appends its process ID to a file
// on every launch, runs body, and then becomes the real chromium (exec
// keeps the process ID). It returns the script and the file of launches.
func launcher(t *testing.T, body string) (script, launches string) {
	t.Helper()
	real, err := exec.LookPath("chromium")
	require.NoError(t, err, "the browser test needs Debian's chromium: apt-get install -y chromium (.ci/run does)")
	dir := t.TempDir()
	launches = filepath.Join(dir, "launches")
	script = filepath.Join(dir, "browser")
	text := fmt.Sprintf("#!/bin/sh\necho $$ >> '%s'\n%s\nexec '%s' \"$@\"\n", launches, body, real)
	require.NoError(t, os.WriteFile(script, []byte(text), 0o755))
	return script, launches
}

// launchPIDs reads the process IDs the launcher recorded, one per launch.
func launchPIDs(t *testing.T, launches string) []int {
	t.Helper()
	b, err := os.ReadFile(launches)
	if os.IsNotExist(err) {
		return nil
	}
	require.NoError(t, err)
	var pids []int
	for _, f := range strings.Fields(string(b)) {
		pid, err := strconv.Atoi(f)
		require.NoError(t, err)
		pids = append(pids, pid)
	}
	return pids
}

// A browser whose first launch dies with SIGSEGV (as Debian's Chromium
// did, issue 23) before any page loaded: the harness starts it once more,
// says so, and the scenario runs normally.
func TestPanelRelaunchesABrowserThatDiesBeforeAnyPageLoaded(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		dir := t.TempDir()
		first := filepath.Join(dir, "died")
		browser, launches := launcher(t, fmt.Sprintf("if [ ! -e '%s' ]; then : > '%s'; kill -SEGV $$; fi", first, first))
		sc := scenario(t, "look", "light", "none", true, groupDraft("after a relaunch", nil))
		h := startPanel(t, version, docsEnv(), []panelScenario{sc}, browser)
		require.NoError(t, h.err, "a browser that died before any page loaded is relaunched; stderr:\n%s", h.stderr)
		assert.Len(t, launchPIDs(t, launches), 2, "one launch that died, one relaunch")
		assert.Contains(t, h.stderr, "chromium died before any page loaded (exitCode=null, signal=SIGSEGV)", "the relaunch is logged with how the browser died")
		assert.Contains(t, h.stderr, "relaunching it once")
		run := decodePanel(t, h)
		assert.Equal(t, 1, run.Relaunches, "the report says the browser was relaunched")
		assert.Equal(t, "after a relaunch", run.render(t, "look").Text, "the scenario ran in the relaunched browser")
	})
}

// A browser that dies at every launch is launched twice, never more, and
// the run fails saying so.
func TestPanelGivesUpWhenTheRelaunchedBrowserDiesToo(t *testing.T) {
	t.Parallel()
	browser, launches := launcher(t, "kill -SEGV $$")
	sc := scenario(t, "look", "light", "none", true, groupDraft("never shown", nil))
	h := startPanel(t, modern, docsEnv(), []panelScenario{sc}, browser)
	require.Error(t, h.err, "a browser that always dies fails the run")
	assert.Len(t, launchPIDs(t, launches), 2, "one relaunch, no more")
	assert.Contains(t, h.stderr, "relaunching it once")
	assert.Contains(t, h.stderr, "chromium died again after the relaunch; giving up")
}

// A browser that dies while a scenario's send is at SnowLuma fails the
// run: the scenario is never run again, so nothing is sent twice.
func TestPanelNeverRetriesAScenarioThatRan(t *testing.T) {
	t.Parallel()
	browser, launches := launcher(t, ":")
	var mu sync.Mutex
	got := 0
	endpoint := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Only the send counts: the server also asks get_login_info which
		// account's shared send budgets to use.
		var req struct {
			Action string `json:"action"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		if req.Action != "send_group_msg" {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"status":"ok","retcode":0,"data":{"user_id":10001,"nickname":"SnowBot"}}`)
			return
		}
		mu.Lock()
		got++
		mu.Unlock()
		// The browser dies while the send is here, after it loaded the
		// host and ran the scenario up to its click.
		for _, pid := range launchPIDs(t, launches) {
			_ = syscall.Kill(pid, syscall.SIGSEGV)
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"status":"ok","retcode":0,"data":{"message_id":7}}`)
	}))
	t.Cleanup(endpoint.Close)
	sc := scenario(t, "click", "light", "click", true, groupDraft("sent once", nil))
	h := startPanel(t, modern, with(writeEnv(), "SNOWLUMA_MCP_ENDPOINT", endpoint.URL), []panelScenario{sc}, browser)
	require.Error(t, h.err, "a browser that dies during a scenario fails the run")
	assert.Len(t, launchPIDs(t, launches), 1, "no relaunch once a scenario ran")
	assert.NotContains(t, h.stderr, "relaunching")
	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, 1, got, "SnowLuma got the send exactly once")
}
