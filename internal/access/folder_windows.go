package access

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"unsafe"

	"golang.org/x/sys/windows"

	"github.com/snowluma/snowluma-mcp/internal/lang"
)

// openDir opens dir itself, never what a reparse point (a symlink or a
// junction) in its place leads to, with the rights to read its access
// list and to delete it (makePrivate), and refuses anything that is not a
// plain directory.
func openDir(dir string) (*os.File, error) {
	name, err := windows.UTF16PtrFromString(dir)
	if err != nil {
		return nil, err
	}
	h, err := windows.CreateFile(name, windows.FILE_LIST_DIRECTORY|windows.FILE_READ_ATTRIBUTES|windows.READ_CONTROL|windows.DELETE,
		// No delete sharing: while the handle is open, the folder cannot
		// be renamed, deleted or replaced by another.
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE, nil, windows.OPEN_EXISTING,
		windows.FILE_FLAG_BACKUP_SEMANTICS|windows.FILE_FLAG_OPEN_REPARSE_POINT, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: dir, Err: err}
	}
	var info windows.ByHandleFileInformation
	if err := windows.GetFileInformationByHandle(h, &info); err != nil {
		_ = windows.CloseHandle(h)
		return nil, &os.PathError{Op: "open", Path: dir, Err: err}
	}
	if info.FileAttributes&windows.FILE_ATTRIBUTE_REPARSE_POINT != 0 {
		_ = windows.CloseHandle(h)
		return nil, fmt.Errorf("%s is a link (a reparse point), not a directory: name the directory itself", dir)
	}
	return os.NewFile(uintptr(h), dir), nil
}

// security reads the owner and access list of the opened folder.
func security(f *os.File) (*windows.SECURITY_DESCRIPTOR, error) {
	sd, err := windows.GetSecurityInfo(windows.Handle(f.Fd()), windows.SE_FILE_OBJECT,
		windows.OWNER_SECURITY_INFORMATION|windows.DACL_SECURITY_INFORMATION)
	if err != nil {
		return nil, fmt.Errorf("cannot read the access list of %s: %w", f.Name(), err)
	}
	return sd, nil
}

// handleExposed is dirExposed for an opened folder, read on its handle.
func handleExposed(dir string, f *os.File, setting string) (what, fix lang.Text, err error) {
	others, err := handleOutsiders(f)
	if err != nil || len(others) == 0 {
		return lang.Text{}, lang.Text{}, err
	}
	return exposedDir(dir, others, setting)
}

// handleOutsiders is outsiders, read on the opened folder's handle.
func handleOutsiders(f *os.File) ([]string, error) {
	sd, err := security(f)
	if err != nil {
		return nil, err
	}
	return outsidersIn(f.Name(), sd)
}

// exposedDir words an exposed directory and its fix.
func exposedDir(dir string, others []string, setting string) (what, fix lang.Text, err error) {
	return lang.Text{EN: fmt.Sprintf("%s lets other accounts in (%s)", dir, strings.Join(others, ", ")),
			ZH: fmt.Sprintf("%s 允许其他用户访问（%s）", dir, strings.Join(others, ", "))},
		lang.Text{EN: fmt.Sprintf("choose another %s that does not exist yet (snowluma-mcp creates it for your account alone), or restrict this one with icacls \"%s\" /inheritance:r /grant:r \"%%USERNAME%%:(OI)(CI)F\" and icacls \"%s\" /remove for each account named", setting, dir, dir),
			ZH: fmt.Sprintf("另选一个尚不存在的 %s（snowluma-mcp 会创建一个只有你（所有者）能访问的文件夹），或用 icacls \"%s\" /inheritance:r /grant:r \"%%USERNAME%%:(OI)(CI)F\" 收紧这个文件夹，再对上面列出的每个用户运行 icacls \"%s\" /remove", setting, dir, dir)}, nil
}

// ownedByMe reports whether this user owns the opened folder.
func ownedByMe(f *os.File) (bool, error) {
	sd, err := security(f)
	if err != nil {
		return false, err
	}
	owner, _, err := sd.Owner()
	if err != nil || owner == nil {
		return false, err
	}
	user, err := currentUser()
	if err != nil {
		return false, err
	}
	return owner.Equals(user), nil
}

// makePrivate replaces the opened folder, which Secure found empty and
// this user's, by a new one with the owner-only list that makeDir gives:
// the folder is deleted through its handle (the object that was judged,
// never a name), and the name is then created anew, which fails if
// anything else took it meanwhile. Changing the list in place would be
// the direct way, but Wine, which the Windows tests run under, keeps a
// directory's old list through SetSecurityInfo; a new empty folder is the
// same folder to its user, and creation is what both Windows and Wine
// apply the list at.
func makePrivate(f *os.File) error {
	info := struct{ DeleteFile uint8 }{DeleteFile: 1}
	// Windows deletes only an empty folder, and nothing can be made in one
	// marked for deletion: an entry another account made since the folder
	// was found empty fails the mark, and the folder is refused as a
	// non-empty open one is (errNotEmpty), left as it was.
	if err := windows.SetFileInformationByHandle(windows.Handle(f.Fd()), windows.FileDispositionInfo,
		(*byte)(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		if errors.Is(err, windows.ERROR_DIR_NOT_EMPTY) {
			return errNotEmpty
		}
		return fmt.Errorf("cannot replace it: %w", err)
	}
	if err := f.Close(); err != nil {
		return err
	}
	sa, err := privateAttributes(true)
	if err != nil {
		return err
	}
	name, err := windows.UTF16PtrFromString(f.Name())
	if err != nil {
		return err
	}
	if err := windows.CreateDirectory(name, sa); err != nil {
		return fmt.Errorf("it was removed to be made again private, and could not be made again: %w", err)
	}
	return nil
}
