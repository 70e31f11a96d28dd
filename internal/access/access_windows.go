package access

// On Windows the access list (DACL) decides. What this server creates
// gets a protected list that grants full control to the current user,
// SYSTEM and Administrators only (the three a user's own profile folder
// lists); a directory's entries are marked to be handed down, so what is
// made inside gets the same list, and every file is also created with it
// (a file system or tool that does not apply inheritance would otherwise
// leave it open). An existing directory or file whose list lets any other
// account in, whose owner is another account, or that has no list at all
// (which means everyone) is refused.

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"

	"github.com/snowluma/snowluma-mcp/internal/lang"
)

// currentUser is the SID of the account this process runs as.
var currentUser = sync.OnceValues(func() (*windows.SID, error) {
	u, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		return nil, fmt.Errorf("cannot tell which account this process runs as: %w", err)
	}
	return u.User.Sid.Copy()
})

// privateSDDL is the access list of what this server creates: P blocks
// what the parent would pass down, FA is full control, and a directory's
// entries carry OICI so that Windows hands them down to what is made in it.
func privateSDDL(user *windows.SID, dir bool) string {
	flags := ""
	if dir {
		flags = "OICI"
	}
	return "D:P(A;" + flags + ";FA;;;" + user.String() + ")(A;" + flags + ";FA;;;SY)(A;" + flags + ";FA;;;BA)"
}

// privateAttributes carries the owner-only list to a create call.
func privateAttributes(dir bool) (*windows.SecurityAttributes, error) {
	user, err := currentUser()
	if err != nil {
		return nil, err
	}
	sd, err := windows.SecurityDescriptorFromString(privateSDDL(user, dir))
	if err != nil {
		return nil, err
	}
	return &windows.SecurityAttributes{Length: uint32(unsafe.Sizeof(windows.SecurityAttributes{})), SecurityDescriptor: sd}, nil
}

// makeDir creates dir, when missing, with the owner-only list (missing
// parents get what their own parents hand down).
func makeDir(dir string) error {
	if _, err := os.Stat(dir); err == nil {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(dir), DirPerm); err != nil {
		return err
	}
	sa, err := privateAttributes(true)
	if err != nil {
		return err
	}
	name, err := windows.UTF16PtrFromString(dir)
	if err != nil {
		return err
	}
	if err := windows.CreateDirectory(name, sa); err != nil && !errors.Is(err, windows.ERROR_ALREADY_EXISTS) {
		return &os.PathError{Op: "mkdir", Path: dir, Err: err}
	}
	return nil
}

// CreateTemp creates a new file in dir, named prefix and a random suffix,
// with the owner-only list of its own.
func CreateTemp(dir, prefix string) (*os.File, error) {
	for range 100 {
		var raw [8]byte
		if _, err := rand.Read(raw[:]); err != nil {
			return nil, err
		}
		path := filepath.Join(dir, prefix+hex.EncodeToString(raw[:]))
		f, err := createPrivate(path, windows.CREATE_NEW)
		if errors.Is(err, windows.ERROR_FILE_EXISTS) {
			continue
		}
		return f, err
	}
	return nil, fmt.Errorf("no free temporary name in %s", dir)
}

// Prepare creates path, when missing, empty and with the owner-only list:
// for a lock file, before the lock opens it. What stands there that is
// not a regular file is refused as Held would, not met with the create's
// own "access denied".
func Prepare(path string) error {
	if info, err := os.Stat(path); err == nil {
		if err := Regular(path, info); err != nil {
			return err
		}
	}
	f, err := createPrivate(path, windows.OPEN_ALWAYS)
	if err != nil {
		return err
	}
	return f.Close()
}

// createPrivate opens path for reading and writing, creating it with the
// owner-only list as disposition allows.
func createPrivate(path string, disposition uint32) (*os.File, error) {
	sa, err := privateAttributes(false)
	if err != nil {
		return nil, err
	}
	name, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return nil, err
	}
	h, err := windows.CreateFile(name, windows.GENERIC_READ|windows.GENERIC_WRITE,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE, sa, disposition, windows.FILE_ATTRIBUTE_NORMAL, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(h), path), nil
}

// dirExposed says which accounts a directory lets in besides the trusted
// ones, and how to fix it; what is empty for a private one.
func dirExposed(dir string, _ fs.FileInfo, setting string) (what, fix lang.Text, err error) {
	others, err := outsiders(dir)
	if err != nil || len(others) == 0 {
		return lang.Text{}, lang.Text{}, err
	}
	return exposedDir(dir, others, setting)
}

// fileExposed says which accounts a file lets in besides the trusted
// ones, and how to fix it; what is empty for a private one.
func fileExposed(path string, _ fs.FileInfo) (what, fix string, err error) {
	others, err := outsiders(path)
	if err != nil || len(others) == 0 {
		return "", "", err
	}
	return fmt.Sprintf("%s lets other accounts in (%s)", path, strings.Join(others, ", ")),
		fmt.Sprintf("run icacls \"%s\" /inheritance:r /grant:r \"%%USERNAME%%:F\" and icacls \"%s\" /remove for each account named", path, path), nil
}

// outsiders names the accounts, besides this user, SYSTEM and
// Administrators, that path's owner or access list lets in.
func outsiders(path string) ([]string, error) {
	sd, err := windows.GetNamedSecurityInfo(path, windows.SE_FILE_OBJECT, windows.OWNER_SECURITY_INFORMATION|windows.DACL_SECURITY_INFORMATION)
	if err != nil {
		return nil, fmt.Errorf("cannot read the access list of %s: %w", path, err)
	}
	return outsidersIn(path, sd)
}

// outsidersIn names the accounts, besides this user, SYSTEM and
// Administrators, that sd (path's owner and access list) lets in.
func outsidersIn(path string, sd *windows.SECURITY_DESCRIPTOR) ([]string, error) {
	user, err := currentUser()
	if err != nil {
		return nil, err
	}
	var others []string
	if owner, _, err := sd.Owner(); err == nil && owner != nil && !trusted(owner, user) {
		others = append(others, "owner "+account(owner))
	}
	dacl, _, err := sd.DACL()
	if errors.Is(err, windows.ERROR_OBJECT_NOT_FOUND) || (err == nil && dacl == nil) {
		return append(others, "everyone: it has no access list"), nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read the access list of %s: %w", path, err)
	}
	for i := range uint32(dacl.AceCount) {
		var ace *windows.ACCESS_ALLOWED_ACE
		if err := windows.GetAce(dacl, i, &ace); err != nil {
			return nil, fmt.Errorf("cannot read the access list of %s: %w", path, err)
		}
		switch ace.Header.AceType {
		case windows.ACCESS_DENIED_ACE_TYPE:
			continue // a denial only takes access away
		case windows.ACCESS_ALLOWED_ACE_TYPE:
			sid := (*windows.SID)(unsafe.Pointer(&ace.SidStart))
			if ace.Mask&^windows.SYNCHRONIZE == 0 || trusted(sid, user) {
				continue
			}
			others = append(others, account(sid))
		default:
			others = append(others, fmt.Sprintf("an access entry of type %d that this server does not check", ace.Header.AceType))
		}
	}
	return others, nil
}

// trusted is the current user and the accounts Windows lets into every
// user's profile anyway. CREATOR OWNER is a placeholder in inherited
// entries that becomes whoever creates the file, who needed write access
// here to do so (and any such account is named on its own).
func trusted(sid, user *windows.SID) bool {
	return sid.Equals(user) || sid.IsWellKnown(windows.WinLocalSystemSid) ||
		sid.IsWellKnown(windows.WinBuiltinAdministratorsSid) || sid.IsWellKnown(windows.WinCreatorOwnerSid)
}

// account names sid as DOMAIN\name when Windows knows it, else as S-1-….
func account(sid *windows.SID) string {
	name, domain, _, err := sid.LookupAccount("")
	switch {
	case err != nil || name == "":
		return sid.String()
	case domain == "":
		return name
	default:
		return domain + `\` + name
	}
}

// noBlock is nothing on Windows: a folder cannot hold a named pipe (they
// live apart, under \\.\pipe\), and no open of a file there waits for
// another process; what can stand in a file's place (a directory, which
// the open below admits, or a link) is refused by Open's look at the
// handle, as on Unix.
const noBlock = 0

// openStored opens a stored file for reading, sharing delete, so that another
// server may replace the file (a task's next state) while this one reads
// the old state. Backup semantics let it open a directory
// too, which the caller then refuses as not a regular file. While a move
// is putting the file in place, Windows refuses every open of it (a
// sharing violation): the open is tried again for up to a second.
func openStored(path string) (*os.File, error) {
	name, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return nil, err
	}
	for try := 0; ; try++ {
		h, err := windows.CreateFile(name, windows.GENERIC_READ,
			windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE, nil, windows.OPEN_EXISTING, windows.FILE_FLAG_BACKUP_SEMANTICS, 0)
		if err == nil {
			return os.NewFile(uintptr(h), path), nil
		}
		if !errors.Is(err, windows.ERROR_SHARING_VIOLATION) || try == 50 {
			return nil, &os.PathError{Op: "open", Path: path, Err: err}
		}
		time.Sleep(20 * time.Millisecond)
	}
}
