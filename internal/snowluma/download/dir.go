package download

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/snowluma/snowluma-mcp/internal/fault"
)

// DirVar is the setting that names the download directory.
const DirVar = "SNOWLUMA_MCP_DOWNLOAD_DIR"

// DirProblem says why dir cannot hold downloads, or "" when it is a
// directory or could be created as one. It creates nothing: the directory
// is made by the first download that needs it, so a directory that does
// not exist yet is no problem; one whose path passes through a file is.
func DirProblem(dir string) string {
	info, err := os.Stat(dir)
	switch {
	case err == nil && info.IsDir():
		return ""
	case err == nil:
		return "names a file, not a directory"
	}
	// Missing, or unreachable (a file on the way reads as "not a
	// directory" on Unix and as missing on Windows): the nearest part of
	// the path that exists decides.
	for parent := filepath.Dir(dir); ; parent = filepath.Dir(parent) {
		pinfo, perr := os.Stat(parent)
		switch {
		case perr == nil && !pinfo.IsDir():
			return "cannot be created: " + parent + " is a file, not a directory"
		case perr == nil && errors.Is(err, fs.ErrNotExist):
			return ""
		case perr == nil:
			return "cannot be inspected (" + fault.PathCause(err) + ")"
		}
		if filepath.Dir(parent) == parent {
			return "cannot be created: no part of its path exists"
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
