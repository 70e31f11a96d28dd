//go:build !windows

package upload

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// links makes symlinks in root: two that lead outside (returned as
// escapes) and one to hello.txt that stays inside (its name is returned).
func links(t *testing.T, root, outside string) (escapes []escapeCase, inside string) {
	t.Helper()
	mk := func(target, name string) { require.NoError(t, os.Symlink(target, name)) }
	mk(filepath.Join(outside, "secret"), filepath.Join(root, "escape"))
	mk(outside, filepath.Join(root, "sub", "dirlink"))
	mk(filepath.Join(root, "hello.txt"), filepath.Join(root, "alias"))
	return []escapeCase{
		{"refuses a symlink that escapes", "escape"},
		{"refuses a directory symlink that escapes", "sub/dirlink/secret"},
	}, "alias"
}
