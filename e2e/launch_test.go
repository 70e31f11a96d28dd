//go:build !wine

package e2e

import "os/exec"

// The binary under test is this platform's own build, started directly.
// (With -tags wine it is the Windows build under Wine: launch_wine_test.go.)
const exeSuffix = ""

// exitGrace is how long the client waits for an exit after closing stdin
// before it signals: zero keeps the SDK's default.
const exitGrace = 0

func checkLauncher() error { return nil }

func buildEnv() []string { return nil }

// command starts the binary with exactly the environment environ builds.
func command(vars map[string]string) *exec.Cmd {
	cmd := exec.Command(binary)
	cmd.Env = environ(vars)
	return cmd
}
