package e2e

// How users get the binary: --version and serverInfo.version agree for a
// plain build and a release build stamped by the linker, and `go install`
// from a clean clone, with no npm on the PATH, gives a binary that serves
// everything, the preview panel included (issue 19).

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/version"
	"github.com/snowluma/snowluma-mcp/uiasset"
)

// versionOf runs bin --version, requires exit 0 and returns the version.
func versionOf(t *testing.T, bin string) string {
	t.Helper()
	out, err := exec.Command(bin, "--version").Output()
	require.NoError(t, err, "--version exits 0")
	v, ok := strings.CutPrefix(strings.TrimSuffix(string(out), "\n"), "snowluma-mcp ")
	require.True(t, ok, "--version prints the name and the version: %q", out)
	require.NotEmpty(t, v)
	if v != version.Unknown {
		// Only a build that recorded no commit says so in words.
		require.NotContains(t, v, " ")
	}
	return v
}

// sessionOn connects to bin in docs mode as an MCP Apps host at version.
func sessionOn(t *testing.T, bin, version string) *mcp.ClientSession {
	t.Helper()
	cmd := exec.Command(bin)
	cmd.Env = environ(docsEnv())
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	ctx, cancel := context.WithTimeout(context.Background(), safety)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "snowluma-e2e", Version: "1.0.0"}, &mcp.ClientOptions{Capabilities: appsCaps()}).
		Connect(ctx, &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	require.NoError(t, err, "connect; stderr:\n%s", stderr)
	require.Equal(t, version, cs.InitializeResult().ProtocolVersion)
	t.Cleanup(func() { assert.NoError(t, cs.Close(), "a clean exit; stderr:\n%s", stderr) })
	return cs
}

// assertServerInfo checks serverInfo on both protocol generations.
func assertServerInfo(t *testing.T, bin, want string) {
	t.Helper()
	forEachVersion(t, func(t *testing.T, version string) {
		info := sessionOn(t, bin, version).InitializeResult().ServerInfo
		require.NotNil(t, info)
		assert.Equal(t, "snowluma-mcp", info.Name)
		assert.Equal(t, want, info.Version, "serverInfo.version is what --version prints")
	})
}

func TestVersionFlagAndServerInfoAgree(t *testing.T) {
	t.Parallel()
	t.Run("the suite's own build", func(t *testing.T) {
		t.Parallel()
		assertServerInfo(t, binary, versionOf(t, binary))
	})
	t.Run("a release build stamped by the linker", func(t *testing.T) {
		t.Parallel()
		root, err := moduleRoot()
		require.NoError(t, err)
		stamped := filepath.Join(t.TempDir(), "snowluma-mcp")
		build := exec.Command("go", "build", "-trimpath",
			"-ldflags", "-X github.com/snowluma/snowluma-mcp/internal/version.stamp=9.8.7-e2e.1", "-o", stamped, "./cmd/snowluma-mcp")
		build.Dir = root
		build.Env = append(os.Environ(), "GOPROXY=off", "GOTOOLCHAIN=local", "CGO_ENABLED=0")
		out, err := build.CombinedOutput()
		require.NoError(t, err, "%s", out)
		require.Equal(t, "9.8.7-e2e.1", versionOf(t, stamped))
		assertServerInfo(t, stamped, "9.8.7-e2e.1")
	})
}

// TestGoInstallFromACleanCloneServesEverything is what `go install
// github.com/snowluma/snowluma-mcp/cmd/snowluma-mcp@…` does, from the
// committed tree: a clone, and go install with only go and git on the PATH
// (no node, no npm) and the go command's default VCS stamping. The binary
// names the commit it was built from and serves the committed panel. It
// tests what is committed: uncommitted edits are not in the clone.
func TestGoInstallFromACleanCloneServesEverything(t *testing.T) {
	t.Parallel()
	root, err := moduleRoot()
	require.NoError(t, err)
	gitPath, err := exec.LookPath("git")
	require.NoError(t, err, "this test clones the repository with git")
	goPath, err := exec.LookPath("go")
	require.NoError(t, err)

	dir := t.TempDir()
	clone := filepath.Join(dir, "clone")
	out, err := exec.Command(gitPath, "clone", "--quiet", "--no-hardlinks", root, clone).CombinedOutput()
	require.NoError(t, err, "git clone: %s", out)
	tools := filepath.Join(dir, "tools")
	require.NoError(t, os.Mkdir(tools, 0o755))
	require.NoError(t, os.Symlink(gitPath, filepath.Join(tools, "git")))
	require.NoError(t, os.Symlink(goPath, filepath.Join(tools, "go")))
	gobin := filepath.Join(dir, "bin")

	install := exec.Command(filepath.Join(tools, "go"), "install", "./cmd/snowluma-mcp")
	install.Dir = clone
	install.Env = append(os.Environ(), "PATH="+tools, "GOBIN="+gobin, "GOPROXY=off", "GOTOOLCHAIN=local",
		// The go command's default VCS stamping, whatever this machine's
		// go env says; -trimpath only lets the packages compiled for the
		// other tests be reused (the clone's path is new every run).
		"GOFLAGS=-buildvcs=auto -trimpath")
	out, err = install.CombinedOutput()
	require.NoError(t, err, "go install from a clean clone, without npm: %s", out)
	bin := filepath.Join(gobin, "snowluma-mcp")

	head := func(args ...string) string {
		out, err := exec.Command(gitPath, append([]string{"-C", clone}, args...)...).Output()
		require.NoError(t, err)
		return strings.TrimSpace(string(out))
	}
	v := versionOf(t, bin)
	if tag := head("tag", "--points-at", "HEAD", "--list", "v[0-9]*"); tag != "" {
		assert.Contains(t, strings.Fields(tag), "v"+v, "a tagged commit is its tag")
	} else {
		assert.Contains(t, v, head("rev-parse", "--short=12", "HEAD"), "an untagged build names its commit")
		assert.Regexp(t, `^0\.0\.0-[0-9]{14}-[0-9a-f]{12}$`, v, "the form the README and the troubleshooting page show, 0.0.0-<date>-<commit>")
	}

	panel, err := uiasset.HTML()
	require.NoError(t, err)
	forEachVersion(t, func(t *testing.T, version string) {
		cs := sessionOn(t, bin, version)
		assert.Equal(t, v, cs.InitializeResult().ServerInfo.Version, "serverInfo.version is what --version prints")
		tools, err := cs.ListTools(testCtx(t), nil)
		require.NoError(t, err)
		var names []string
		for _, tool := range tools.Tools {
			names = append(names, tool.Name)
		}
		assert.Subset(t, names, []string{"list_actions", "search_actions", "get_action", "list_categories", "get_runtime_info", "preview_message"})
		read, err := cs.ReadResource(testCtx(t), &mcp.ReadResourceParams{URI: panelURI})
		require.NoError(t, err)
		require.Len(t, read.Contents, 1)
		assert.True(t, read.Contents[0].Text == panel, "the installed binary serves the committed panel (%d bytes, want %d)", len(read.Contents[0].Text), len(panel))
	})
}
