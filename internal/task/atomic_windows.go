package task

import (
	"os"

	"golang.org/x/sys/windows"
)

// replace moves tmp over dst with MoveFileEx: MOVEFILE_REPLACE_EXISTING
// swaps the old file for the new one in one step, and
// MOVEFILE_WRITE_THROUGH returns only once the move is on disk. That flag
// is what stands in for the directory fsync of other platforms: Windows
// cannot open a directory for writing to flush it (FlushFileBuffers on a
// directory handle is refused), and NTFS journals the rename itself, so
// the data (flushed by the caller's Sync) and the new name are both
// durable when this returns.
func replace(tmp, dst string) error {
	from, err := windows.UTF16PtrFromString(tmp)
	if err != nil {
		return err
	}
	to, err := windows.UTF16PtrFromString(dst)
	if err != nil {
		return err
	}
	if err := windows.MoveFileEx(from, to, windows.MOVEFILE_REPLACE_EXISTING|windows.MOVEFILE_WRITE_THROUGH); err != nil {
		return &os.LinkError{Op: "rename", Old: tmp, New: dst, Err: err}
	}
	return nil
}
