package e2e

// A normal stop is quiet (issue 8 item 9): SIGTERM or SIGINT to an idle
// session ends the process with exit code 0 and nothing on stderr that
// reads like a failure.

import (
	"os"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestASignalStopsTheServerQuietly(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		signal os.Signal
	}{
		{"on SIGTERM", syscall.SIGTERM},
		{"on SIGINT", syscall.SIGINT},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				r := rawSession(t, version, docsEnv())
				// One answered call shows the session is fully up before
				// the signal arrives.
				m := r.callTool("list_categories", map[string]any{}, nil)
				require.Nil(t, m.Error, "%s", m)

				require.NoError(t, r.cmd.Process.Signal(tt.signal))
				assert.Equal(t, 0, r.waitExit(), "a clean exit; stderr:\n%s", r.stderr)
				assert.NotContains(t, r.stderr.String(), "level=ERROR", "a normal stop logs no error")
			})
		})
	}
}
