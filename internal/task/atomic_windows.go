package task

import (
	"errors"
	"os"
	"time"

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
//
// Windows refuses to replace a file that another process holds open
// without FILE_SHARE_DELETE. This store's readers share delete
// (access.Read), but a virus scanner or an indexer may not, and they hold a
// file only briefly: the move is tried again for up to a second.
func replace(tmp, dst string) error {
	return moveRetrying(tmp, dst, windows.MOVEFILE_REPLACE_EXISTING|windows.MOVEFILE_WRITE_THROUGH)
}

// publish gives tmp the name dst unless dst exists (MoveFileEx without
// REPLACE_EXISTING fails then), so of two servers writing it at once one
// wins whole; placed is false when dst was already there. tmp is gone
// either way.
func publish(tmp, dst string) (placed bool, err error) {
	err = moveRetrying(tmp, dst, windows.MOVEFILE_WRITE_THROUGH)
	var le *os.LinkError
	if errors.As(err, &le) && (errors.Is(le.Err, windows.ERROR_ALREADY_EXISTS) || errors.Is(le.Err, windows.ERROR_FILE_EXISTS)) {
		_ = os.Remove(tmp)
		return false, nil
	}
	if err != nil {
		_ = os.Remove(tmp)
		return false, err
	}
	return true, nil
}

// moveRetrying is MoveFileEx, tried again while another process holds a
// file in the way.
func moveRetrying(tmp, dst string, flags uint32) error {
	from, err := windows.UTF16PtrFromString(tmp)
	if err != nil {
		return err
	}
	to, err := windows.UTF16PtrFromString(dst)
	if err != nil {
		return err
	}
	for try := 0; ; try++ {
		err = windows.MoveFileEx(from, to, flags)
		held := errors.Is(err, windows.ERROR_SHARING_VIOLATION) || errors.Is(err, windows.ERROR_ACCESS_DENIED)
		if err == nil || !held || try == 50 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		return &os.LinkError{Op: "rename", Old: tmp, New: dst, Err: err}
	}
	return nil
}
