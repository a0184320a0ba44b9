//go:build unix && !linux

package main

import (
	"os/exec"
	"syscall"
)

// setProcessGroup starts the server in its own process group. Outside Linux nothing makes it die
// with a proxy that is killed outright.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// signalGroup signals the server's process group (the server and what it started).
func signalGroup(cmd *exec.Cmd, sig syscall.Signal) {
	if err := syscall.Kill(-cmd.Process.Pid, sig); err != nil {
		cmd.Process.Signal(sig)
	}
}

// protectProcess does nothing outside Linux: a process of the same user may be able to read the
// proxy's environment.
func protectProcess() error { return nil }
