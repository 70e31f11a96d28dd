//go:build !windows

// The launcher's win32 branch, run on this machine with node told it is on
// Windows: process.platform reads "win32", and ChildProcess.kill does what
// Node does there (SIGINT and SIGTERM become TerminateProcess, here a
// SIGKILL; SIGHUP and SIGBREAK throw ENOSYS), so a launcher that killed its
// binary on a signal would crash or lose the binary's clean stop.

package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// asWindows is node's preload that makes this machine look like Windows to
// the launcher.
const asWindows = `
Object.defineProperty(process, 'platform', { value: 'win32' });
const { ChildProcess } = require('node:child_process');
const kill = ChildProcess.prototype.kill;
ChildProcess.prototype.kill = function (signal) {
  if (signal === 'SIGHUP' || signal === 'SIGBREAK') {
    const err = new Error('kill ENOSYS');
    err.code = 'ENOSYS';
    throw err;
  }
  return kill.call(this, 'SIGKILL');
};
`

// installedAsWindows lays the packages out as npm installs them on Windows
// for this machine's architecture, with the host's binary as the .exe, and
// returns the launcher and node's arguments to run it as on Windows.
func installedAsWindows(t *testing.T) (string, []string) {
	t.Helper()
	launcher := installed(t, true)
	mods := filepath.Dir(filepath.Dir(filepath.Dir(launcher)))
	h := host(t)
	native := filepath.Join(mods, "@snowluma-mcp", h.npmOS()+"-"+h.npmCPU())
	win := filepath.Join(mods, "@snowluma-mcp", "win32-"+h.npmCPU())
	require.NoError(t, os.CopyFS(win, os.DirFS(native)))
	require.NoError(t, os.Rename(filepath.Join(win, "bin", "snowluma-mcp"), filepath.Join(win, "bin", "snowluma-mcp.exe")))
	require.NoError(t, os.Chmod(filepath.Join(win, "bin", "snowluma-mcp.exe"), 0o755))
	require.NoError(t, os.RemoveAll(native), "only the win32 package can be the one the launcher runs")
	preload := filepath.Join(t.TempDir(), "as-windows.cjs")
	require.NoError(t, os.WriteFile(preload, []byte(asWindows), 0o644))
	return launcher, []string{"--require", preload}
}

// exited reports whether pid has ended (gone, or a zombie nobody reaped).
func exited(pid int) bool {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return true
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	return len(f) == 0 || f[0] == "Z" || f[0] == "X"
}

func TestTheWindowsLauncherStopsTheBinaryByEndingItsInput(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/proc/self/task"); err != nil {
		require.FailNow(t, "this test reads /proc to find the binary the launcher started")
	}
	launcher, nodeArgs := installedAsWindows(t)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP} {
		t.Run(sig.String()+" ends the input, and the binary stops cleanly", func(t *testing.T) {
			t.Parallel()
			cmd, stderr := servingWith(t, launcher, nodeArgs)
			require.Len(t, children(t, cmd.Process.Pid), 1, "the launcher runs the binary")
			require.NoError(t, cmd.Process.Signal(sig))
			code, got := exitOf(waitExit(t, cmd))
			assert.Zero(t, got, "the launcher did not die; stderr: %s", stderr)
			assert.Zero(t, code, "the binary stopped at the end of its input and its exit 0 came back; stderr: %s", stderr)
			assert.NotContains(t, stderr.String(), "ENOSYS", "nothing was thrown")
		})
	}
	t.Run("a killed launcher still ends the binary's input", func(t *testing.T) {
		t.Parallel()
		cmd, _ := servingWith(t, launcher, nodeArgs)
		kids := children(t, cmd.Process.Pid)
		require.Len(t, kids, 1)
		require.NoError(t, cmd.Process.Kill())
		_ = waitExit(t, cmd)
		deadline := time.Now().Add(30 * time.Second) // a bound against hanging, not a speed claim
		for !exited(kids[0]) {
			require.True(t, time.Now().Before(deadline), "the binary kept running after the launcher was killed")
			time.Sleep(20 * time.Millisecond)
		}
	})
}
