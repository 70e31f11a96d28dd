package upload

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/fault"
)

// TestAnUnusableRootIsTheUsersSetting: a root that is missing or a file is
// reported as configuration naming the variable, never as a wrong
// input_file the agent could correct, and never as a file that does not
// exist.
func TestAnUnusableRootIsTheUsersSetting(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	file := filepath.Join(base, "file")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o600))
	tests := []struct {
		name string
		root string
		says string
	}{
		{"a missing root", filepath.Join(base, "missing"), "does not exist"},
		{"a root that is a file", file, "names a file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Contains(t, RootProblem(tt.root), tt.says)
			_, _, err := Resolve(tt.root, "hello.txt")
			require.Error(t, err)
			assert.Equal(t, fault.CodeConfiguration, fault.CodeOf(err))
			assert.True(t, fault.NothingSent(err))
			assert.Contains(t, err.Error(), "SNOWLUMA_MCP_UPLOAD_ROOT")
			assert.Contains(t, err.Error(), tt.says)
			assert.NotContains(t, err.Error(), "input_file")
		})
	}
	assert.Empty(t, RootProblem(base), "a directory is a usable root")
}
