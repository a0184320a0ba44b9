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

// protectProcess makes the proxy non-dumpable: a process of the same user (the server it starts,
// or anything the server runs) cannot read the proxy's environment or memory (/proc/PID/environ,
// /proc/PID/mem, ptrace), which hold the provider's key. The server, started with execve, is
// dumpable again.
func protectProcess() error {
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, syscall.PR_SET_DUMPABLE, 0, 0); errno != 0 {
		return errno
	}
	return nil
}
