package upload

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/windows"

	"github.com/snowluma/snowluma-mcp/internal/fault"
)

// TestResolveRefusesWhatWindowsReadsOtherwise: every way a Windows path
// can mean something other than a file under the root is refused by name,
// with a reason an agent can act on.
func TestResolveRefusesWhatWindowsReadsOtherwise(t *testing.T) {
	t.Parallel()
	root, outside := setup(t)
	hello := filepath.Join(root, "hello.txt")
	tests := []struct {
		name, input, why string
	}{
		{"a UNC share", `\\127.0.0.1\c$\secret`, "network or device path"},
		{"a UNC share with forward slashes", `//127.0.0.1/c$/secret`, "network or device path"},
		{`a \\?\ prefix, even to a file inside`, `\\?\` + hello, "network or device path"},
		{`a \\.\ device path`, `\\.\` + hello, "network or device path"},
		{"a drive-relative path", hello[:2] + "hello.txt", "relative to a drive's current directory"},
		{"a bare drive", hello[:2], "relative to a drive's current directory"},
		{"the default data stream", "hello.txt::$DATA", "alternate data stream"},
		{"a named stream", "hello.txt:s", "alternate data stream"},
		{"a stream of an absolute path", hello + ":s", "alternate data stream"},
		{"NUL", "NUL", "Windows device (NUL)"},
		{"con with an extension", "con.txt", "Windows device (con.txt)"},
		{"COM1 in a subdirectory", `sub\COM1`, "Windows device (COM1)"},
		{"a device with a space before its extension", "aux .log", "Windows device"},
		{"a trailing dot", "hello.txt.", "ends in a dot or a space"},
		{"a trailing space", "hello.txt ", "ends in a dot or a space"},
		{"dots Windows reads as a parent", `... \secret`, "ends in a dot or a space"},
		{"dot-dot with backslashes", `sub\..\..\outside\secret`, `".." component`},
		{"dot-dot with slashes", "sub/../../outside/secret", `".." component`},
		{"dot-dot mixed", `sub/..\hello.txt`, `".." component`},
		{"a wildcard", "hel*.txt", "does not allow in a name"},
		{"a question mark", "hello?.txt", "does not allow in a name"},
		{"outside in another letter case", strings.ToUpper(filepath.Join(outside, "secret")), "outside the upload root"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, _, err := Resolve(root, tt.input)
			require.Error(t, err)
			assert.Equal(t, fault.CodeInvalidArgument, fault.CodeOf(err))
			assert.Contains(t, err.Error(), tt.why)
		})
	}
}

// TestResolveAcceptsWhatWindowsSpellsDifferently: the same file named in
// another letter case, with forward slashes or by its 8.3 short name is
// still inside, and comes back spelled as it is stored.
func TestResolveAcceptsWhatWindowsSpellsDifferently(t *testing.T) {
	t.Parallel()
	root, _ := setup(t)
	long := filepath.Join(root, "A Rather Long File Name.txt")
	require.NoError(t, os.WriteFile(long, []byte("long"), 0o600))
	want, err := filepath.EvalSymlinks(long)
	require.NoError(t, err)
	tests := []struct{ name, input string }{
		{"another letter case", strings.ToUpper(long)},
		{"forward slashes", filepath.ToSlash(long)},
		{"a lower-case drive letter", strings.ToLower(long[:1]) + long[1:]},
		{"the short name", shortName(t, long)},
		{"relative, in another case", "a rather long file name.TXT"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, info, err := Resolve(root, tt.input)
			require.NoError(t, err, tt.input)
			assert.True(t, strings.EqualFold(want, got), "%s resolved to %s", tt.input, got)
			assert.Equal(t, int64(4), info.Size())
		})
	}
}

// TestResolveRefusesAShortNameOutside: a short name does not hide a file
// outside the root, nor does a root given by its own short name let one in.
func TestResolveRefusesAShortNameOutside(t *testing.T) {
	t.Parallel()
	root, outside := setup(t)
	secret := filepath.Join(outside, "Secret Long Name.txt")
	require.NoError(t, os.WriteFile(secret, []byte("secret"), 0o600))
	short := shortName(t, secret)
	require.NotEqual(t, secret, short, "the file system must give a short name")
	_, _, err := Resolve(root, short)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "outside the upload root")
	_, _, err = Resolve(shortName(t, root), short)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "outside the upload root")
}

func shortName(t *testing.T, path string) string {
	t.Helper()
	p, err := windows.UTF16PtrFromString(path)
	require.NoError(t, err)
	buf := make([]uint16, windows.MAX_LONG_PATH)
	n, err := windows.GetShortPathName(p, &buf[0], uint32(len(buf)))
	require.NoError(t, err)
	return windows.UTF16ToString(buf[:n])
}

// TestResolveComparesNamesAsTheFileSystemDoes: Go's strings.EqualFold,
// which filepath.Rel uses on Windows, folds U+212A KELVIN SIGN to k and
// U+212B ANGSTROM SIGN to å; NTFS's upcase table does not, so a directory
// spelled with one is a sibling of the root, not the root. Under Wine this
// test shows the server's logic (directory identity, not names), not
// NTFS's own case rules: Wine keeps both directories apart because the
// Unix file system under it does.
func TestResolveComparesNamesAsTheFileSystemDoes(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, root, sibling string }{
		{"a Kelvin sign beside k", "kit", "\u212Ait"},
		{"k beside a root spelled with a Kelvin sign", "\u212Ait", "kit"},
		{"an Angstrom sign beside å", "\u00e5rhus", "\u212Brhus"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			base := t.TempDir()
			root, sibling := filepath.Join(base, tt.root), filepath.Join(base, tt.sibling)
			require.NoError(t, os.MkdirAll(root, 0o755))
			require.NoError(t, os.MkdirAll(sibling, 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(root, "ok.txt"), []byte("ok"), 0o600))
			require.NoError(t, os.WriteFile(filepath.Join(sibling, "secret"), []byte("secret"), 0o600))
			a, err := os.Stat(root)
			require.NoError(t, err)
			b, err := os.Stat(sibling)
			require.NoError(t, err)
			require.False(t, os.SameFile(a, b), "the two names must be two directories")
			require.True(t, strings.EqualFold(root, sibling), "the names Go folds together")

			_, _, err = Resolve(root, filepath.Join(sibling, "secret"))
			require.Error(t, err, "the sibling's file is outside")
			assert.Contains(t, err.Error(), "outside the upload root")
			_, _, err = Resolve(root, sibling)
			require.Error(t, err, "the sibling is not the root either")
			assert.Contains(t, err.Error(), "outside the upload root")
			got, _, err := Resolve(root, "ok.txt")
			require.NoError(t, err, "the root's own file is inside")
			assert.Equal(t, "ok.txt", filepath.Base(got))
		})
	}
}
