package access_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/access"
	"github.com/snowluma/snowluma-mcp/internal/access/accesstest"
)

// TestNothingButARegularFileIsOpenedOrWaitedOn: every way a
// store opens what it keeps (reading a file, taking a lock on one) meets
// a named pipe put in the file's place (a directory on Windows) with a
// prompt refusal that names the path and says it is damaged, and never
// waits for the pipe's writer. A regular file passes as before.
func TestNothingButARegularFileIsOpenedOrWaitedOn(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		use  func(path string) error
	}{
		{"read as a stored file", func(path string) error {
			_, err := access.Read(path, 1<<10, access.Owned)
			return err
		}},
		{"read as a private file", func(path string) error {
			_, err := access.Read(path, 1<<10, tasks.File)
			return err
		}},
		{"opened", func(path string) error {
			f, err := access.Open(path)
			if err == nil {
				_ = f.Close()
			}
			return err
		}},
		{"locked, created when missing", func(path string) error {
			l := access.Lock(path, true)
			_, _ = l.TryLock()
			err := access.Held(l)
			_ = l.Close()
			return err
		}},
		{"locked shared", func(path string) error {
			l := access.Lock(path, true)
			_, _ = l.TryRLock()
			err := access.Held(l)
			_ = l.Close()
			return err
		}},
		{"probed as a lock without creating it", func(path string) error {
			l := access.Lock(path, false)
			_, _ = l.TryLock()
			err := access.Held(l)
			_ = l.Close()
			return err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			bad := filepath.Join(dir, "budget-1.json")
			accesstest.NotAFile(t, bad)
			var err error
			accesstest.Returns(t, func() { err = tt.use(bad) })
			require.ErrorIs(t, err, access.ErrNotRegular)
			assert.Contains(t, err.Error(), bad)
			assert.Contains(t, err.Error(), accesstest.NotAFileWords)
			assert.Contains(t, err.Error(), "damaged")

			f, err := access.CreateTemp(dir, "good") // private on every platform
			require.NoError(t, err)
			_, err = f.Write([]byte("{}"))
			require.NoError(t, err)
			require.NoError(t, f.Close())
			assert.NoError(t, tt.use(f.Name()), "a regular file passes")
		})
	}
}
