package access_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gofrs/flock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/access"
	"github.com/snowluma/snowluma-mcp/internal/access/accesstest"
)

var tasks = access.Purpose{Why: "task results can hold private data", Setting: "SNOWLUMA_MCP_TASK_DIR"}

func TestDirMakesAMissingDirectoryPrivate(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "a", "b")
	require.NoError(t, tasks.Dir(dir))
	accesstest.AssertPrivateDir(t, dir)
	require.NoError(t, tasks.Dir(dir), "a private directory that exists is accepted as it is")
}

func TestDirRefusesWhatOthersCanReachAndSaysWhyAndHow(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		make  func(t *testing.T, path string)
		words []string
	}{
		{"a directory others can enter", func(t *testing.T, path string) {
			require.NoError(t, os.Mkdir(path, 0o700))
			accesstest.ExposeDir(t, path)
		}, append([]string{"task results can hold private data", "SNOWLUMA_MCP_TASK_DIR"}, accesstest.DirWords...)},
		{"a file where the directory should be", func(t *testing.T, path string) {
			require.NoError(t, os.WriteFile(path, nil, 0o600))
		}, []string{"not a directory"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "tasks")
			tt.make(t, path)
			err := tasks.Dir(path)
			require.Error(t, err)
			for _, w := range tt.words {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
}

func TestFileRefusesWhatOthersCanReach(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tests := []struct {
		name  string
		make  func(t *testing.T) string
		words []string // nil: accepted
	}{
		{"a private file", func(t *testing.T) string {
			f, err := access.CreateTemp(dir, "private-")
			require.NoError(t, err)
			require.NoError(t, f.Close())
			return f.Name()
		}, nil},
		{"a file others can read", func(t *testing.T) string {
			f, err := access.CreateTemp(dir, "exposed-")
			require.NoError(t, err)
			require.NoError(t, f.Close())
			accesstest.ExposeFile(t, f.Name())
			return f.Name()
		}, append([]string{tasks.Why}, accesstest.FileWords...)},
		{"a directory", func(t *testing.T) string {
			sub := filepath.Join(dir, "sub")
			require.NoError(t, tasks.Dir(sub))
			return sub
		}, []string{"a directory, not a regular file"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := tt.make(t)
			st, err := os.Stat(path)
			require.NoError(t, err)
			full, bare := tasks.File(path, st), access.Owned(path, st)
			if tt.words == nil {
				assert.NoError(t, full)
				assert.NoError(t, bare)
				return
			}
			require.Error(t, full)
			require.Error(t, bare)
			for _, w := range tt.words {
				if w == tasks.Why || w == "chmod 600" || w == "icacls" {
					assert.NotContains(t, bare.Error(), w, "Owned states the fact only")
				}
				assert.Contains(t, full.Error(), w)
			}
		})
	}
}

func TestWhatIsMadeHereIsPrivate(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "state")
	require.NoError(t, tasks.Dir(dir))
	f, err := access.CreateTemp(dir, ".tmp-")
	require.NoError(t, err)
	require.NoError(t, f.Close())
	assert.Contains(t, filepath.Base(f.Name()), ".tmp-")
	accesstest.AssertPrivateFile(t, f.Name())

	// A lock file as the stores take one: prepared, then locked.
	lock := filepath.Join(dir, "x.lock")
	for range 2 { // the second time, the file exists
		require.NoError(t, access.Prepare(lock))
		l := flock.New(lock, flock.SetPermissions(access.FilePerm))
		ok, err := l.TryLock()
		require.NoError(t, err)
		require.True(t, ok)
		require.NoError(t, l.Close())
		accesstest.AssertPrivateFile(t, lock)
	}
}
