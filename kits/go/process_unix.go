//go:build !windows

package smsemu

import (
	"os/exec"
	"syscall"
	"time"
)

// ownGroup starts the command in a process group of its own, so stopping it ends a shell or npx and their node too.
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// stopProcess ends the command's process group: SIGTERM, then SIGKILL after 5 s.
func stopProcess(cmd *exec.Cmd, exited <-chan struct{}) {
	pid := cmd.Process.Pid
	_ = syscall.Kill(-pid, syscall.SIGTERM)
	select {
	case <-exited:
	case <-time.After(5 * time.Second):
		_ = syscall.Kill(-pid, syscall.SIGKILL)
		<-exited
	}
}
