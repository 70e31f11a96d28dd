//go:build !windows

// The panel's string table is checked by node's own test runner
// (test/strings.test.mjs), run from here so that make test runs it; like
// the fresh-build check it needs node, which the Windows suite under Wine
// does not have.

package uiasset

import (
	"os"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPanelStringsInBothLanguages runs the node tests of the string table:
// every key in both English and Chinese with the same placeholders, every
// key the source uses present, ids verbatim and numbers and times
// formatted for the locale.
func TestPanelStringsInBothLanguages(t *testing.T) {
	t.Parallel()
	node, err := exec.LookPath("node")
	require.NoError(t, err, "the panel's string tests need node (>= 20.19): .ci/run installs it; then run make build")
	cmd := exec.Command(node, "--test", "--test-reporter=spec", "test/strings.test.mjs")
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "node --test test/strings.test.mjs in uiasset failed:\n%s", out)
	require.Regexp(t, `pass [1-9]`, string(out), "the string tests ran:\n%s", out)
	require.Regexp(t, `fail 0`, string(out), "no string test failed:\n%s", out)
}
