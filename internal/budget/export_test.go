package budget

import "time"

// SetLockWait shortens how long s waits for the state's lock, so that a
// test of a lock held past the bound need not wait LockWait.
func SetLockWait(s *Shared, d time.Duration) { s.lockWait = d }
