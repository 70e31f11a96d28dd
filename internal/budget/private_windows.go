package budget

import (
	"io"
	"os"
)

// private accepts the directory as it is: the default one, under
// %LOCALAPPDATA%, inherits the owner-only access list of the user's
// profile.
func private(string) error { return nil }

// readOwn reads a state file.
func readOwn(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, maxState))
}
