//go:build scaleprofile

package main

import (
	"log"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"
)

// With the build tag scaleprofile (the scale test's -scale.profile builds it so; the command
// never is), SIGUSR1 starts a CPU profile of the process and SIGUSR2 writes it to the path in
// SAMPLING_AGENT_PROFILE: the profile of a measured window, not of the start or the warm-up.
func init() {
	path := os.Getenv("SAMPLING_AGENT_PROFILE")
	if path == "" {
		return
	}
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, syscall.SIGUSR1, syscall.SIGUSR2)
	go func() {
		var f *os.File
		for sig := range signals {
			switch {
			case sig == syscall.SIGUSR1 && f == nil:
				var err error
				if f, err = os.Create(path + ".tmp"); err != nil {
					log.Printf("profile: %v", err)
					continue
				}
				if err := pprof.StartCPUProfile(f); err != nil {
					log.Printf("profile: %v", err)
				}
			case sig == syscall.SIGUSR2 && f != nil:
				pprof.StopCPUProfile()
				f.Close()
				f = nil
				if err := os.Rename(path+".tmp", path); err != nil { // complete: the test waits for it
					log.Printf("profile: %v", err)
				}
			}
		}
	}()
}
