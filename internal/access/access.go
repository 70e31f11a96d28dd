// Package access keeps what this server stores for its user to that user
// alone: the task directory (results can hold private account data) and
// the shared send budgets (whoever can write them can unpace the account,
// or stop it sending). Both stores make their directories and files here
// and refuse, here, one that other accounts can reach, so the two can
// never disagree about what "private" means on a platform.
//
// On Unix the mode bits decide (access_unix.go). On Windows Go reports
// every directory as 0777 whoever may read it, so the access list decides
// (access_windows.go).
package access

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Modes of what is made on Unix; on Windows the owner-only access list
// takes their place.
const (
	DirPerm  = 0o700
	FilePerm = 0o600
)

// Purpose is what a store tells the user when it refuses a place that
// others can reach: why it matters (Why, e.g. "task results can hold
// private data") and the setting that chooses another place.
type Purpose struct {
	Why string
	// WhyZH is Why in Chinese, for `check` in a Chinese terminal.
	WhyZH   string
	Setting string
	// beforeFix, when set, runs in Secure between the look that found the
	// folder empty and the fix: where a test plants an entry, as another
	// account could (export_test.go).
	beforeFix func(dir string)
}

// Dir makes dir private when it is missing (its missing parents get what
// their own parents hand down) and refuses one that is not a directory, a
// link named in its place (as Look does), or one that other accounts can
// enter, saying why and how to fix it.
func (p Purpose) Dir(dir string) error {
	if err := notLink(dir); err != nil {
		return err
	}
	if err := makeDir(dir); err != nil {
		return err
	}
	st, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	what, fix, err := dirExposed(dir, st, p.Setting)
	if err != nil || what.EN == "" {
		return err
	}
	return fmt.Errorf("%s; %s: %s", what.EN, p.Why, fix.EN)
}

// File refuses a stored file that is not a regular file or that another
// account owns or can reach, saying why and how to fix it. info is the
// file's, from the handle it is read through.
func (p Purpose) File(path string, info fs.FileInfo) error {
	if err := Regular(path, info); err != nil {
		return err
	}
	what, fix, err := fileExposed(path, info)
	if err != nil || what == "" {
		return err
	}
	return fmt.Errorf("%s; %s: %s", what, p.Why, fix)
}

// Owned refuses a file that is not a regular file or that another account
// owns or can reach, stating only the fact: for a store that moves such a
// file aside rather than asking the user to fix it.
func Owned(path string, info fs.FileInfo) error {
	if err := Regular(path, info); err != nil {
		return err
	}
	what, _, err := fileExposed(path, info)
	if err != nil || what == "" {
		return err
	}
	return errors.New(what)
}

// Read reads a stored file of at most limit bytes (a longer one is cut
// there, for its reader's validation to refuse), after check has accepted
// the file as opened: Purpose.File, or Owned for a file moved aside rather
// than fixed. The file is read through the handle that was checked, so it
// cannot be swapped between the check and the read, and opened by Open,
// so that nothing but a regular file is ever read or waited on.
func Read(path string, limit int64, check func(string, fs.FileInfo) error) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := check(path, info); err != nil {
		return nil, err
	}
	return io.ReadAll(io.LimitReader(f, limit))
}

// notLink refuses a link named as a store's folder, in the words `check`
// and the server's findings use: the stores (Dir) and the reading of the
// settings (Look) must judge one folder alike, so a link is refused by
// both rather than reported as turning a service off that still runs.
func notLink(dir string) error {
	if st, err := os.Lstat(dir); err == nil && st.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("%s is a link, not a directory: name the directory itself", dir)
	}
	return nil
}
