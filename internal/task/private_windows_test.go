package task

// Wine keeps the access lists a program sets and returns them when asked,
// so these tests prove what the server writes and what it refuses. Wine
// runs every program as one account and enforces none of it: that another
// account is really kept out is Windows' part and cannot be shown here.

import (
	"os"
	"path/filepath"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/windows"
)

// What the refusals of an exposed file or directory say on this platform.
var (
	exposedFileWords = []string{"lets other accounts in", "Everyone", "icacls"}
	exposedDirWords  = []string{"lets other accounts in", "Everyone", "icacls", "does not exist yet"}
)

// expose lets Everyone read path. (Wine keeps an access list as Unix mode
// bits, where Everyone is "other"; an entry for BUILTIN\Users would not
// survive the trip.)
func expose(t *testing.T, path string) {
	t.Helper()
	user, err := currentUser()
	require.NoError(t, err)
	sd, err := windows.SecurityDescriptorFromString("D:P(A;OICI;FA;;;" + user.String() + ")(A;OICI;FR;;;WD)")
	require.NoError(t, err)
	dacl, _, err := sd.DACL()
	require.NoError(t, err)
	require.NoError(t, windows.SetNamedSecurityInfo(path, windows.SE_FILE_OBJECT,
		windows.DACL_SECURITY_INFORMATION|windows.PROTECTED_DACL_SECURITY_INFORMATION, nil, nil, dacl, nil))
}

func exposeFile(t *testing.T, path string) { expose(t, path) }

func exposeDir(t *testing.T, dir string) { expose(t, dir) }

// entries lists the accounts path's access list lets in.
func entries(t *testing.T, path string) (aces []string) {
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

// assertPrivate: the current user is let in, and nobody but the accounts
// Windows trusts anyway. (Wine reports SYSTEM beside the user and drops
// Administrators, so the exact list is not compared.)
func assertPrivate(t *testing.T, path string) {
	t.Helper()
	user, err := currentUser()
	require.NoError(t, err)
	aces := entries(t, path)
	assert.Contains(t, aces, user.String(), path)
	others, err := outsiders(path)
	require.NoError(t, err)
	assert.Empty(t, others, path)
}

func assertPrivateDir(t *testing.T, dir string) { assertPrivate(t, dir) }

func assertPrivateFile(t *testing.T, path string) { assertPrivate(t, path) }

// TestPrivateDirRefusesAnInheritedOpenList: a directory made by hand
// under a folder that lets Users read (as C:\ does) is refused before
// anything is written into it, and the message says how to fix it.
func TestPrivateDirRefusesAnInheritedOpenList(t *testing.T) {
	t.Parallel()
	parent := t.TempDir()
	expose(t, parent)
	dir := filepath.Join(parent, "tasks")
	require.NoError(t, os.Mkdir(dir, 0o700))
	_, _, err := Open(dir, testScope, nil, nil)
	require.Error(t, err)
	for _, w := range exposedDirWords {
		assert.Contains(t, err.Error(), w)
	}
	left, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, left, "nothing is written into a refused directory")
}

// TestPrivateDirBlocksAnOpenParent: a task directory the server creates
// under that same open folder keeps its own list and is accepted.
func TestPrivateDirBlocksAnOpenParent(t *testing.T) {
	t.Parallel()
	parent := t.TempDir()
	expose(t, parent)
	dir := filepath.Join(parent, "tasks")
	s, _, err := Open(dir, testScope, nil, nil)
	require.NoError(t, err)
	defer s.Close()
	// Windows would also report the list protected (SE_DACL_PROTECTED);
	// Wine keeps no such flag, so only the effect is checked.
	assertPrivateDir(t, dir)
}
