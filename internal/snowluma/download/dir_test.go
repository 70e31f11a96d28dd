package download

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDirProblemCreatesNothing: a directory that does not exist yet is
// fine (the first download creates it); a file on its path is not; and
// asking creates nothing.
func TestDirProblemCreatesNothing(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	file := filepath.Join(base, "file")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o600))
	tests := []struct {
		name string
		dir  string
		says string
	}{
		{"an existing directory", base, ""},
		{"a directory still to be created", filepath.Join(base, "a", "b"), ""},
		{"a file", file, "names a file"},
		{"a path through a file", filepath.Join(file, "downloads"), "cannot be created"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := DirProblem(tt.dir)
			if tt.says == "" {
				assert.Empty(t, got)
			} else {
				assert.Contains(t, got, tt.says)
			}
		})
	}
	_, err := os.Stat(filepath.Join(base, "a"))
	assert.True(t, os.IsNotExist(err), "nothing was created")
}
