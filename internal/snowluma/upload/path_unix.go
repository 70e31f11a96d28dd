//go:build !windows

package upload

import (
	"os"
	"path/filepath"
	"strings"
)

// On Unix every byte but "/" and NUL may name a file, and a path means what
// it says once symlinks are resolved: nothing more to refuse.

func unsafeName(string) string { return "" }

func unsafePart(string) string { return "" }

// where compares names: on Unix a name is its bytes, so the resolved path
// lies inside the root exactly when the root's path is a leading part of
// it.
func where(root, path string) place {
	if path == root {
		return atRoot
	}
	rel, err := filepath.Rel(root, path)
	if err != nil || rel == "." || filepath.IsAbs(rel) || rel == ".." || strings.HasPrefix(rel, ".."+string(os.PathSeparator)) {
		return outside
	}
	return within
}
