//go:build !windows

package access

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"

	"github.com/snowluma/snowluma-mcp/internal/lang"
)

// makeDir creates dir (and missing parents) with mode 0700.
func makeDir(dir string) error { return os.MkdirAll(dir, DirPerm) }

// CreateTemp creates a new file in dir, named prefix and a random suffix,
// with mode 0600.
func CreateTemp(dir, prefix string) (*os.File, error) { return os.CreateTemp(dir, prefix+"*") }

// Prepare has nothing to do on Unix: a lock opened with FilePerm creates
// its file with mode 0600.
func Prepare(string) error { return nil }

// dirExposed says what lets others into a directory (any group or other
// bit) and how to fix it; what is empty for a private one.
func dirExposed(dir string, st fs.FileInfo, setting string) (what, fix lang.Text, err error) {
	if perm := st.Mode().Perm(); perm&0o077 != 0 {
		return lang.Text{EN: fmt.Sprintf("%s has mode %04o, open to other users", dir, perm),
				ZH: fmt.Sprintf("%s 的权限是 %04o，其他用户也能访问", dir, perm)},
			lang.Text{EN: "run chmod 700 on it, or choose another " + setting + " that does not exist yet (snowluma-mcp creates it for your account alone)",
				ZH: "对它运行 chmod 700，或另选一个尚不存在的 " + setting + "（snowluma-mcp 会创建一个只有你的系统用户能访问的文件夹）"}, nil
	}
	return lang.Text{}, lang.Text{}, nil
}

// fileExposed says what lets others at a file (another owner, or any
// group or other bit) and how to fix it; what is empty for a private one.
func fileExposed(path string, info fs.FileInfo) (what, fix string, err error) {
	if sys, ok := info.Sys().(*syscall.Stat_t); ok && int(sys.Uid) != os.Getuid() {
		return fmt.Sprintf("%s belongs to user %d, not to this one", path, sys.Uid), "this account did not write it: move it out of the directory", nil
	}
	if perm := info.Mode().Perm(); perm&0o077 != 0 {
		return fmt.Sprintf("%s has mode %04o, open to other users", path, perm), "run chmod 600 on it", nil
	}
	return "", "", nil
}

// openStored opens a stored file for reading without blocking: a named
// pipe opened for reading waits for a writer unless O_NONBLOCK is set (on
// a regular file the flag changes nothing). Unix lets a file be renamed
// over while it is open, so nothing more is needed.
func openStored(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|noBlock, 0)
}

// noBlock is the flag that opens a named pipe at once (see Open, Lock).
const noBlock = syscall.O_NONBLOCK
