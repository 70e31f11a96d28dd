package upload

// Windows reads a path in more ways than it looks: a drive letter without
// a separator is relative to that drive's current directory, \\ starts a
// network share or (\\?\, \\.\) the raw object namespace, a colon after a
// name opens an alternate data stream of the file, a name of a device
// (CON, NUL, COM1, LPT1 …) means the device whatever its extension, and a
// trailing dot or space is dropped, so "..." or ".. " can stand for a
// parent. All of these are refused by name before anything is opened.
//
// Symlinks are resolved by filepath.EvalSymlinks, but junctions (mount
// points) are not (Go 1.23 stopped following them), and a short 8.3 name
// or another letter case also hides what a path is. So the file, once
// found, is opened and Windows is asked for its final path (which follows
// junctions and symlinks and spells every name in full), and so is the
// root. Names are then not compared at all: Go compares Windows names
// with strings.EqualFold (filepath.Rel too), which folds U+212A KELVIN
// SIGN to k and U+212B ANGSTROM SIGN to å, where NTFS's upcase table does
// not, so a sibling spelled with them would pass for the root. Instead
// the final path's directories are walked up, and the file is inside when
// one of them is the root's directory itself (the same volume and file
// index).

import (
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/windows"

	"github.com/snowluma/snowluma-mcp/internal/filename"
)

func unsafeName(input string) string {
	if len(input) >= 2 && isSep(input[0]) && isSep(input[1]) {
		return `it is a network or device path (\\server\share, \\?\, \\.\); give a path on a drive, such as C:\files\a.txt, or one relative to the upload root`
	}
	if strings.ContainsFunc(input, func(r rune) bool { return r != ':' && r != '\\' && r != '/' && filename.Forbidden(r) }) {
		return `it contains one of <>"|?* or a control character, which Windows does not allow in a name`
	}
	colon := strings.IndexByte(input, ':')
	switch {
	case colon < 0:
		return ""
	case colon == 1 && isLetter(input[0]) && (len(input) == 2 || !isSep(input[2])):
		return `it is relative to a drive's current directory (C:name); give a full path such as C:\files\a.txt`
	case colon == 1 && isLetter(input[0]) && !strings.Contains(input[2:], ":"):
		return ""
	default:
		return "it names an alternate data stream (name:stream), not a file"
	}
}

func unsafePart(part string) string {
	if filename.Trimmed(part) {
		return "a name in it ends in a dot or a space, which Windows drops, so it would mean another file"
	}
	if filename.Device(part) {
		return "it names a Windows device (" + part + "), not a file"
	}
	return ""
}

// where places the file against the root by directory identity: the root
// itself, inside it (one of the directories above the file's final path is
// the root's), or outside. A path that cannot be opened is outside.
func where(root, path string) place {
	r, err := finalPath(root)
	if err != nil {
		return outside
	}
	rootInfo, err := os.Stat(r)
	if err != nil {
		return outside
	}
	p, err := finalPath(path)
	if err != nil {
		return outside
	}
	if same(rootInfo, p) {
		return atRoot
	}
	for dir := filepath.Dir(p); ; {
		if same(rootInfo, dir) {
			return within
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return outside
		}
		dir = parent
	}
}

// same reports whether path is the directory or file of info.
func same(info os.FileInfo, path string) bool {
	other, err := os.Stat(path)
	return err == nil && os.SameFile(info, other)
}

// finalPath asks Windows where path really is: junctions and symlinks
// followed, names in full and in their stored case, as \\?\C:\… (or
// \\?\UNC\…), which is cut back to C:\… (or \\…) for comparison.
func finalPath(path string) (string, error) {
	name, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return "", err
	}
	h, err := windows.CreateFile(name, windows.FILE_READ_ATTRIBUTES,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE, nil,
		windows.OPEN_EXISTING, windows.FILE_FLAG_BACKUP_SEMANTICS, 0)
	if err != nil {
		return "", err
	}
	defer windows.CloseHandle(h)
	buf := make([]uint16, windows.MAX_LONG_PATH)
	n, err := windows.GetFinalPathNameByHandle(h, &buf[0], uint32(len(buf)), 0) // FILE_NAME_NORMALIZED | VOLUME_NAME_DOS, both 0
	if err != nil {
		return "", err
	}
	final := windows.UTF16ToString(buf[:n])
	if rest, ok := strings.CutPrefix(final, `\\?\UNC\`); ok {
		return `\\` + rest, nil
	}
	return strings.TrimPrefix(final, `\\?\`), nil
}

func isSep(c byte) bool { return c == '\\' || c == '/' }

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
