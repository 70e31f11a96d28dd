package download

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/snowluma/snowluma-mcp/internal/fault"
)

// createPartial creates a new partial file in lim.Dir under a random name,
// telling lim.Track its path first: a task records it durably, so a start
// after a crash knows which hidden file the dead process was writing.
func createPartial(lim Limits) (*os.File, error) {
	var raw [12]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return nil, fault.Wrap(fault.CodeInternal, err, "cannot name a partial file")
	}
	path := filepath.Join(lim.Dir, partialPrefix+hex.EncodeToString(raw[:]))
	if lim.Track != nil {
		if err := lim.Track.Partial(path); err != nil {
			return nil, fault.Wrap(fault.CodeInternal, err, "the task could not record its partial file in SNOWLUMA_MCP_TASK_DIR, so nothing was written to the download directory")
		}
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fault.Wrap(fault.CodeInternal, err, "cannot create a partial file")
	}
	return f, nil
}

// RemovePartial deletes a partial file that a download of an earlier
// process left in dir. It touches nothing but a partial file directly in
// dir, whatever path it is given (the path comes from a task record on
// disk); a file already gone is an error matching os.ErrNotExist.
func RemovePartial(dir, path string) error {
	if !filepath.IsAbs(path) || filepath.Dir(path) != filepath.Clean(dir) || !strings.HasPrefix(filepath.Base(path), partialPrefix) {
		return fmt.Errorf("%s is not a partial file of the download directory %s, so it was left alone", path, dir)
	}
	info, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if !info.Mode().IsRegular() {
		return errors.New(path + " is not a regular file, so it was left alone")
	}
	return os.Remove(path)
}
