package accesstest

// Wine keeps the access lists a program sets and returns them when asked,
// so tests built on these helpers prove what a store writes and what it
// refuses. Wine runs every program as one account and enforces none of
// it: that another account is really kept out is Windows' part and cannot
// be shown here.

import (
	"os"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/windows"

	"github.com/snowluma/snowluma-mcp/internal/access"
)

// What the refusal of an exposed file or directory says on this platform.
var (
	FileWords = []string{"lets other accounts in", "Everyone", "icacls"}
	DirWords  = []string{"lets other accounts in", "Everyone", "icacls", "does not exist yet"}
)

func user(t testing.TB) *windows.SID {
	t.Helper()
	u, err := windows.GetCurrentProcessToken().GetTokenUser()
	require.NoError(t, err)
	return u.User.Sid
}

// expose lets Everyone read path. (Wine keeps an access list as Unix mode
// bits, where Everyone is "other"; an entry for BUILTIN\Users would not
// survive the trip.)
func expose(t testing.TB, path string) {
	t.Helper()
	sd, err := windows.SecurityDescriptorFromString("D:P(A;OICI;FA;;;" + user(t).String() + ")(A;OICI;FR;;;WD)")
	require.NoError(t, err)
	dacl, _, err := sd.DACL()
	require.NoError(t, err)
	require.NoError(t, windows.SetNamedSecurityInfo(path, windows.SE_FILE_OBJECT,
		windows.DACL_SECURITY_INFORMATION|windows.PROTECTED_DACL_SECURITY_INFORMATION, nil, nil, dacl, nil))
}

// ExposeFile lets Everyone read path.
func ExposeFile(t testing.TB, path string) { t.Helper(); expose(t, path) }

// ExposeDir lets Everyone read dir and what is made in it.
func ExposeDir(t testing.TB, dir string) { t.Helper(); expose(t, dir) }

// entries lists the accounts path's access list lets in.
func entries(t testing.TB, path string) (aces []string) {
	t.Helper()
	sd, err := windows.GetNamedSecurityInfo(path, windows.SE_FILE_OBJECT, windows.DACL_SECURITY_INFORMATION)
	require.NoError(t, err)
	dacl, _, err := sd.DACL()
	require.NoError(t, err)
	require.NotNil(t, dacl, "%s must have an access list", path)
	for i := range uint32(dacl.AceCount) {
		var ace *windows.ACCESS_ALLOWED_ACE
		require.NoError(t, windows.GetAce(dacl, i, &ace))
		require.Equal(t, uint8(windows.ACCESS_ALLOWED_ACE_TYPE), ace.Header.AceType)
		aces = append(aces, (*windows.SID)(unsafe.Pointer(&ace.SidStart)).String())
	}
	return aces
}

// AssertPrivateDir: the current user is let in, and the store's own check
// finds nobody but the accounts Windows trusts anyway. (Wine reports
// SYSTEM beside the user and drops Administrators, so the exact list is
// not compared.)
func AssertPrivateDir(t testing.TB, dir string) {
	t.Helper()
	assert.Contains(t, entries(t, dir), user(t).String(), dir)
	assert.NoError(t, access.Purpose{}.Dir(dir))
}

// AssertPrivateFile is AssertPrivateDir for a file.
func AssertPrivateFile(t testing.TB, path string) {
	t.Helper()
	assert.Contains(t, entries(t, path), user(t).String(), path)
	st, err := os.Stat(path)
	require.NoError(t, err)
	assert.NoError(t, access.Owned(path, st))
}

// AssertExposedDir: dir still lets Everyone in (a refusal changed
// nothing).
func AssertExposedDir(t testing.TB, dir string) {
	t.Helper()
	assert.Contains(t, entries(t, dir), "S-1-1-0", dir)
}
