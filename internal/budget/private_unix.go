//go:build !windows

package budget

import (
	"fmt"
	"io"
	"os"
	"syscall"
)

// private refuses a state directory that other users can enter.
func private(dir string) error {
	st, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if perm := st.Mode().Perm(); perm&0o077 != 0 {
		return fmt.Errorf("%s has mode %04o, open to other users, who could change the send budgets: run chmod 700 on it", dir, perm)
	}
	return nil
}

// readOwn reads a state file that this user owns and nobody else can
// write or read; any other is an error (and the state is rebuilt).
func readOwn(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok && int(sys.Uid) != os.Getuid() {
		return nil, fmt.Errorf("it belongs to user %d, not to this one", sys.Uid)
	}
	if perm := st.Mode().Perm(); perm&0o077 != 0 || !st.Mode().IsRegular() {
		return nil, fmt.Errorf("it has mode %v, open to other users", st.Mode())
	}
	return io.ReadAll(io.LimitReader(f, maxState))
}
