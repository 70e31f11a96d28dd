package download

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/lang"
)

// DirVar is the setting that names the download directory.
const DirVar = "SNOWLUMA_MCP_DOWNLOAD_DIR"

// DirProblem says why dir cannot hold downloads, or "" when it is a
// directory or could be created as one. It creates nothing: the directory
// is made by the first download that needs it, so a directory that does
// not exist yet is no problem; one whose path passes through a file is.
func DirProblem(dir string) string { return DirWhy(dir).EN }

// DirWhy is DirProblem in English and Chinese (`check` in a Chinese
// terminal); the operating system's own cause stays as it says it.
func DirWhy(dir string) lang.Text {
	info, err := os.Stat(dir)
	switch {
	case err == nil && info.IsDir():
		return lang.Text{}
	case err == nil:
		return lang.Text{EN: "names a file, not a directory", ZH: "指向的是文件，不是文件夹"}
	}
	// Missing, or unreachable (a file on the way reads as "not a
	// directory" on Unix and as missing on Windows): the nearest part of
	// the path that exists decides.
	for parent := filepath.Dir(dir); ; parent = filepath.Dir(parent) {
		pinfo, perr := os.Stat(parent)
		switch {
		case perr == nil && !pinfo.IsDir():
			return lang.Text{EN: "cannot be created: " + parent + " is a file, not a directory", ZH: "无法创建：" + parent + " 是文件，不是文件夹"}
		case perr == nil && errors.Is(err, fs.ErrNotExist):
			return lang.Text{}
		case perr == nil:
			return lang.Text{EN: "cannot be inspected (" + fault.PathCause(err) + ")", ZH: "无法检查（" + fault.PathCause(err) + "）"}
		}
		if filepath.Dir(parent) == parent {
			return lang.Text{EN: "cannot be created: no part of its path exists", ZH: "无法创建：它的路径中没有任何一级存在"}
		}
	}
}

// Ready makes the download directory before a download is asked of
// SnowLuma, so that a directory that cannot exist fails the call before
// anything is sent rather than after SnowLuma has begun to stream.
func Ready(dir string) error {
	if err := makeDir(dir); err != nil {
		return err.Unsent()
	}
	return nil
}

// makeDir makes dir (private to this user) unless it exists.
func makeDir(dir string) *fault.Error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fault.Errorf(fault.CodeConfiguration, "%s cannot be created (%s); the user can set it to a directory this server may create and write", DirVar, fault.PathCause(err))
	}
	return nil
}
