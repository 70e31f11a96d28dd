//go:build wine

package e2e

// With -tags wine (make test-windows) the binary under test is the Windows
// build, run by Wine in the prefix that make test-windows prepared
// (WINEPREFIX, with its ProcessPrng shim). Only the TestWindows… tests
// (windows_test.go) are meant to run this way: they give the server
// Windows paths; the rest of the suite assumes a Linux binary.

import (
	"errors"
	"os"
	"os/exec"
)

const exeSuffix = ".exe"

// exitGrace: Wine can take seconds to tear a process down on a busy
// machine, past the SDK's 5 s before it sends SIGTERM. The server exits on
// stdin EOF by itself; a signal racing that exit would only make noise.
const exitGrace = safety

func checkLauncher() error {
	if os.Getenv("WINEPREFIX") == "" {
		return errors.New("-tags wine needs WINEPREFIX, the Wine prefix make test-windows prepares; run make test-windows")
	}
	if _, err := exec.LookPath("wine"); err != nil {
		return errors.New("-tags wine needs wine on PATH; run make test-windows, which installs it")
	}
	return nil
}

func buildEnv() []string { return []string{"GOOS=windows", "GOARCH=amd64"} }

// command starts the binary under Wine. Wine passes the environment on to
// the Windows process; it needs its prefix, WINEDEBUG=-all keeps its own
// diagnostics off the server's stderr, and a UTF-8 locale lets it read the
// non-ASCII file names a test writes (Wine decodes Unix names in the
// locale's encoding).
func command(vars map[string]string) *exec.Cmd {
	cmd := exec.Command("wine", binary)
	cmd.Env = append(environ(vars), "WINEPREFIX="+os.Getenv("WINEPREFIX"), "WINEDEBUG=-all", "PATH="+os.Getenv("PATH"), "LANG=C.UTF-8")
	return cmd
}
