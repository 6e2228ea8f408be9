//go:build windows

package smsemu

import "os/exec"

// ownGroup has nothing to do on Windows: the emulator runs as node itself, or is ended with its command.
func ownGroup(*exec.Cmd) {}

// stopProcess ends the command (Windows has no SIGTERM to send).
func stopProcess(cmd *exec.Cmd, exited <-chan struct{}) {
	_ = cmd.Process.Kill()
	<-exited
}
