package access_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/access"
	"github.com/snowluma/snowluma-mcp/internal/access/accesstest"
)

// TestSecureMakesOnlyAnEmptyFolderOfThisUserPrivate: a folder made the
// usual way (mkdir, Finder, Explorer) is open to others; while it is
// empty and this user's, the server makes it private itself. One that
// holds anything is refused (a link in its place: folder_unix_test.go).
func TestSecureMakesOnlyAnEmptyFolderOfThisUserPrivate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		make    func(t *testing.T, path string)
		look    access.Folder
		fixed   bool
		refused []string
	}{
		{"a missing folder is left for the store to create", func(*testing.T, string) {}, access.Folder{Missing: true}, false, nil},
		{"a private folder is left as it is", func(t *testing.T, path string) { require.NoError(t, tasks.Dir(path)) },
			access.Folder{}, false, nil},
		{"an empty exposed folder is made private", func(t *testing.T, path string) {
			require.NoError(t, os.Mkdir(path, 0o700))
			accesstest.ExposeDir(t, path)
		}, access.Folder{Fixable: true}, true, nil},
		{"an exposed folder holding a file is refused", func(t *testing.T, path string) {
			require.NoError(t, os.Mkdir(path, 0o700))
			require.NoError(t, os.WriteFile(filepath.Join(path, "planted"), nil, 0o600))
			accesstest.ExposeDir(t, path)
		}, access.Folder{}, false, append([]string{"task results can hold private data"}, accesstest.DirWords...)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "tasks")
			tt.make(t, path)
			got, lookErr := tasks.Look(path)
			fixed, err := tasks.Secure(path)
			if tt.refused != nil {
				require.Error(t, err)
				for _, w := range tt.refused {
					assert.Contains(t, err.Error(), w)
				}
				assert.False(t, fixed)
				accesstest.AssertExposedDir(t, path)
				require.NoError(t, lookErr)
				assert.False(t, got.Fixable)
				assert.NotEmpty(t, got.Exposed)
				return
			}
			require.NoError(t, lookErr)
			require.NoError(t, err)
			assert.Equal(t, tt.look.Missing, got.Missing)
			assert.Equal(t, tt.look.Fixable, got.Fixable)
			assert.Equal(t, tt.fixed, fixed)
			if !got.Missing {
				accesstest.AssertPrivateDir(t, path)
				again, err := tasks.Look(path)
				require.NoError(t, err)
				assert.Empty(t, again.Exposed, "private now")
			}
		})
	}
}

// TestSecureRefusesAFolderEnteredWhileItIsMadePrivate: another account
// that can write the open folder may plant an entry between the look that
// found it empty and the fix. The folder is read again once closed to
// others and refused as a non-empty open folder is, left as it was found.
func TestSecureRefusesAFolderEnteredWhileItIsMadePrivate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		plant func(t *testing.T, dir string)
	}{
		{"a file", func(t *testing.T, dir string) {
			require.NoError(t, os.WriteFile(filepath.Join(dir, "budget-10001.json.lock"), nil, 0o600))
		}},
		{"a folder", func(t *testing.T, dir string) { require.NoError(t, os.Mkdir(filepath.Join(dir, "tasks"), 0o700)) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "tasks")
			require.NoError(t, os.Mkdir(path, 0o700))
			accesstest.ExposeDir(t, path)
			planted := 0
			racing := access.WithBeforeFix(tasks, func(dir string) {
				planted++
				tt.plant(t, dir)
			})
			fixed, err := racing.Secure(path)
			require.Equal(t, 1, planted, "the hook ran between the look and the fix")
			require.Error(t, err)
			assert.False(t, fixed)
			for _, w := range append([]string{"task results can hold private data"}, accesstest.DirWords...) {
				assert.Contains(t, err.Error(), w)
			}
			accesstest.AssertExposedDir(t, path)
			got, err := tasks.Look(path)
			require.NoError(t, err)
			assert.False(t, got.Fixable, "every later look refuses it too")
		})
	}
}
