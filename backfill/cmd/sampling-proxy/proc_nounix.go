//go:build !unix

package main

import (
	"os/exec"
	"syscall"
)

// setProcessGroup does nothing where there are no process groups: the server is stopped alone,
// and does not die with a proxy that is killed outright.
func setProcessGroup(cmd *exec.Cmd) {}

// signalGroup signals the server (SIGKILL kills it; other signals may not be deliverable).
func signalGroup(cmd *exec.Cmd, sig syscall.Signal) {
	if sig == syscall.SIGKILL {
		cmd.Process.Kill()
		return
	}
	if err := cmd.Process.Signal(sig); err != nil {
		cmd.Process.Kill()
	}
}

// protectProcess does nothing here: a process of the same user may be able to read the proxy's
// environment.
func protectProcess() error { return nil }
