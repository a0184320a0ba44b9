package main

import (
	"os/exec"
	"syscall"
)

// setProcessGroup starts the server in its own process group (a terminal's signals reach the
// proxy, which stops the server in order), and has the kernel kill it when the proxy dies, even
// by SIGKILL.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// signalGroup signals the server's process group (the server and what it started).
func signalGroup(cmd *exec.Cmd, sig syscall.Signal) {
	if err := syscall.Kill(-cmd.Process.Pid, sig); err != nil {
		cmd.Process.Signal(sig)
	}
}
