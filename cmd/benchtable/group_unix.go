//go:build !windows

package main

import (
	"os/exec"
	"syscall"
)

// ownGroup gives cmd a process group of its own and has cancelling it
// kill the whole group, the benchmark binaries go test started included.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
