//go:build !windows

// The launcher's tests run it under node and signal it with POSIX signals;
// the Windows build's tests run under Wine, where there is neither.

package main

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// installed lays out the host release's npm packages as npm installs
// them: node_modules/snowluma-mcp, and with platform, its platform package
// beside it. It returns the launcher's path.
func installed(t *testing.T, platform bool) string {
	t.Helper()
	npm := filepath.Join(hostRelease(t), "npm")
	mods := filepath.Join(t.TempDir(), "node_modules")
	require.NoError(t, os.CopyFS(filepath.Join(mods, "snowluma-mcp"), os.DirFS(filepath.Join(npm, "snowluma-mcp"))))
	if platform {
		h := host(t)
		dir := h.npmOS() + "-" + h.npmCPU()
		require.NoError(t, os.CopyFS(filepath.Join(mods, "@snowluma-mcp", dir), os.DirFS(filepath.Join(npm, dir))))
	}
	return filepath.Join(mods, "snowluma-mcp", "bin", "snowluma-mcp.js")
}

// launch prepares node running the launcher with args (node's own
// arguments first, then "--", then the launcher's).
func launch(t *testing.T, launcher string, nodeArgs []string, args ...string) *exec.Cmd {
	t.Helper()
	node, err := exec.LookPath("node")
	require.NoError(t, err, "the launcher tests need node (>= 20.19): .ci/run installs it")
	cmd := exec.Command(node, append(append(nodeArgs, launcher), args...)...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
	return cmd
}

func exitOf(err error) (code int, signal syscall.Signal) {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		ws := ee.Sys().(syscall.WaitStatus)
		if ws.Signaled() {
			return -1, ws.Signal()
		}
		return ws.ExitStatus(), 0
	}
	return 0, 0
}

func TestLauncherRunsThePlatformBinaryAndPassesItsExitBack(t *testing.T) {
	t.Parallel()
	launcher := installed(t, true)
	tests := []struct {
		name       string
		args       []string
		wantCode   int
		wantStdout string
		wantStderr string
	}{
		{"arguments and stdout pass through", []string{"--version"}, 0, "snowluma-mcp " + testVersion + "\n", ""},
		{"the binary's exit code comes back", []string{"--no-such-flag"}, 2, "", "flag provided but not defined: -no-such-flag"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cmd := launch(t, launcher, nil, tt.args...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			code, _ := exitOf(cmd.Run())
			assert.Equal(t, tt.wantCode, code, "stderr: %s", stderr.String())
			assert.Equal(t, tt.wantStdout, stdout.String())
			assert.Contains(t, stderr.String(), tt.wantStderr)
		})
	}
}

// serving starts the launcher with pipes and waits for the binary's
// answer to an initialize: both are running, and stdio reaches the binary.
func serving(t *testing.T, launcher string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	return servingWith(t, launcher, nil)
}

// servingWith is serving with node's own arguments (a preload).
func servingWith(t *testing.T, launcher string, nodeArgs []string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := launch(t, launcher, nodeArgs)
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	stderr := &bytes.Buffer{}
	cmd.Stderr = stderr
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	_, err = stdin.Write([]byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n"))
	require.NoError(t, err)
	line, err := bufio.NewReader(stdout).ReadString('\n')
	require.NoError(t, err, "stderr: %s", stderr)
	assert.Contains(t, line, `"serverInfo":{"name":"snowluma-mcp","version":"`+testVersion+`"}`)
	return cmd, stderr
}

// children are the processes pid started (Linux).
func children(t *testing.T, pid int) []int {
	t.Helper()
	tasks, err := filepath.Glob(filepath.Join("/proc", strconv.Itoa(pid), "task", "*", "children"))
	require.NoError(t, err)
	var out []int
	for _, f := range tasks {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, s := range strings.Fields(string(b)) {
			n, err := strconv.Atoi(s)
			require.NoError(t, err)
			out = append(out, n)
		}
	}
	return out
}

// waitExit waits for cmd, bounded so that a launcher that does not exit
// fails the test instead of hanging it (never a statement about speed).
func waitExit(t *testing.T, cmd *exec.Cmd) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(30 * time.Second):
		require.FailNow(t, "the launcher did not exit")
		return nil
	}
}

func TestLauncherPassesSignalsOn(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/proc/self/task"); err != nil {
		require.FailNow(t, "this test reads /proc to find the binary the launcher started")
	}
	launcher := installed(t, true)
	t.Run("SIGTERM reaches the binary, which stops cleanly", func(t *testing.T) {
		t.Parallel()
		cmd, stderr := serving(t, launcher)
		require.Len(t, children(t, cmd.Process.Pid), 1, "the launcher runs the binary")
		require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
		code, sig := exitOf(waitExit(t, cmd))
		assert.Zero(t, sig, "the launcher did not die of the signal itself; stderr: %s", stderr)
		assert.Zero(t, code, "the binary's clean stop (exit 0) came back; stderr: %s", stderr)
	})
	t.Run("a binary killed by a signal kills the launcher with it", func(t *testing.T) {
		t.Parallel()
		cmd, _ := serving(t, launcher)
		kids := children(t, cmd.Process.Pid)
		require.Len(t, kids, 1)
		require.NoError(t, syscall.Kill(kids[0], syscall.SIGKILL))
		_, sig := exitOf(waitExit(t, cmd))
		assert.Equal(t, syscall.SIGKILL, sig)
	})
}

func TestLauncherSaysWhatToDoWhenNoBinaryFits(t *testing.T) {
	t.Parallel()
	other := filepath.Join(t.TempDir(), "other-platform.cjs")
	require.NoError(t, os.WriteFile(other, []byte("Object.defineProperty(process, 'platform', { value: 'aix' });\n"), 0o644))
	h := host(t)
	tests := []struct {
		name     string
		platform bool
		nodeArgs []string
		want     []string
	}{
		{"a platform no release is built for", true, []string{"--require", other}, []string{
			"snowluma-mcp: there is no build for this platform (aix-" + h.npmCPU() + ").",
			"Builds exist for: darwin-arm64, darwin-x64, linux-arm64, linux-x64, win32-arm64, win32-x64.",
			"https://github.com/snowluma/snowluma-mcp/releases, or with Go 1.26.8 or later:",
			"go install github.com/snowluma/snowluma-mcp/cmd/snowluma-mcp@latest",
		}},
		{"a platform package left out at install", false, nil, []string{
			"snowluma-mcp: the package " + h.npmPackage() + ", which holds the binary for this platform, is not installed.",
			"(--omit=optional, --no-optional)",
			"go install github.com/snowluma/snowluma-mcp/cmd/snowluma-mcp@latest",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cmd := launch(t, installed(t, tt.platform), tt.nodeArgs, "--version")
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			code, _ := exitOf(cmd.Run())
			assert.Equal(t, 1, code)
			assert.Empty(t, stdout.String(), "nothing on the protocol stream")
			for _, w := range tt.want {
				assert.Contains(t, stderr.String(), w)
			}
		})
	}
}
