//go:build !windows

// The committed panel is the same file on every platform, so the check that
// it is a fresh build of its source runs with the host suite, where node is;
// the Windows build under Wine has no node to run vite with.

package uiasset

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestEmbeddedPanelIsAFreshBuildOfItsSource keeps the committed build honest:
// vite, from the packages of the committed lockfile (make build installs
// them with npm ci), rebuilds the panel into a temporary directory, and the
// result must be the embedded file byte for byte. A source edit without
// `make panel`, or a build that is not reproducible, fails here.
func TestEmbeddedPanelIsAFreshBuildOfItsSource(t *testing.T) {
	t.Parallel()
	node, err := exec.LookPath("node")
	require.NoError(t, err, "rebuilding the panel needs node (>= 20.19): .ci/run installs it; then run make build")
	require.Empty(t, lockfileMismatch(), "uiasset's packages are not installed from its lockfile: run make build (npm ci in uiasset)")

	out := t.TempDir()
	build := exec.Command(node, filepath.Join("node_modules", "vite", "bin", "vite.js"), "build", "--outDir", out, "--emptyOutDir", "--logLevel", "warn")
	build.Env = append(os.Environ(), "NO_COLOR=1")
	log, err := build.CombinedOutput()
	require.NoError(t, err, "vite build failed:\n%s", log)
	fresh, err := os.ReadFile(filepath.Join(out, "index.html"))
	require.NoError(t, err)

	embedded, err := HTML()
	require.NoError(t, err)
	if !bytes.Equal(fresh, []byte(embedded)) {
		t.Fatalf("uiasset/dist/index.html (%d bytes) is not what its source builds to (%d bytes; first difference at byte %d): run make panel and commit the result",
			len(embedded), len(fresh), firstDifference(fresh, []byte(embedded)))
	}
}

// lockfileMismatch compares every package package-lock.json records with
// the one installed under node_modules; it returns the first difference,
// or "". Optional packages for other platforms are absent by design.
func lockfileMismatch() string {
	var lock struct {
		Packages map[string]struct {
			Version  string `json:"version"`
			Optional bool   `json:"optional"`
		} `json:"packages"`
	}
	b, err := os.ReadFile("package-lock.json")
	if err != nil {
		return err.Error()
	}
	if err := json.Unmarshal(b, &lock); err != nil {
		return "package-lock.json: " + err.Error()
	}
	for path, want := range lock.Packages {
		if !strings.HasPrefix(path, "node_modules/") {
			continue
		}
		var got struct {
			Version string `json:"version"`
		}
		b, err := os.ReadFile(filepath.Join(path, "package.json"))
		switch {
		case err != nil && want.Optional:
			continue
		case err != nil:
			return path + " is not installed"
		case json.Unmarshal(b, &got) != nil || got.Version != want.Version:
			return fmt.Sprintf("%s is %s, the lockfile has %s", path, got.Version, want.Version)
		}
	}
	return ""
}

// firstDifference is the offset of the first byte where a and b differ.
func firstDifference(a, b []byte) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}
