package main

import (
	"os/exec"
	"syscall"
)

// ownGroup gives cmd a console process group of its own, so that a
// Ctrl-C meant for benchtable reaches it only through cancellation.
// Cancelling kills go itself; Windows has no signal for a whole group, so
// a benchmark binary it started can outlive it (cmd.WaitDelay still
// bounds the wait for its output).
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}
