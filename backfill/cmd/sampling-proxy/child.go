package main

import (
	"log/slog"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/mcpgen/mcpgen/backfill/proxy"
)

// A child is a server started on stdio: its input and output as the proxy's Conn, its stderr
// logged line by line.
type child struct {
	cmd        *exec.Cmd
	conn       *proxy.StreamConn
	outR, errR *os.File
	exited     chan struct{} // closed once the process has exited
	stderrDone chan struct{} // closed once its stderr has ended
	log        *slog.Logger
	killAfter  time.Duration
	stopOnce   sync.Once
	stopped    chan struct{} // closed once stop has ended
}

// startChild starts the server command, without the providers' variables, in its own process
// group.
func startChild(command []string, maxBytes int, killAfter time.Duration, log, serverLog *slog.Logger) (*child, error) {
	// The server's stdin and stdout are plain pipes (not exec's), so that waiting for the server
	// does not race with reading its last output.
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(command[0], command[1:]...)
	cmd.Env = serverEnv(os.Environ())
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	setProcessGroup(cmd)
	err = cmd.Start()
	inR.Close()
	outW.Close()
	errW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		errR.Close()
		return nil, err
	}
	c := &child{
		cmd: cmd, conn: proxy.NewStreamConn(outR, inW, maxBytes), outR: outR, errR: errR, log: log, killAfter: killAfter,
		exited: make(chan struct{}), stderrDone: make(chan struct{}), stopped: make(chan struct{}),
	}
	go func() {
		defer close(c.stderrDone)
		logLines(errR, serverLog)
	}()
	go func() {
		cmd.Wait()
		close(c.exited)
	}()
	return c, nil
}

// startStop begins stopping the server, once: its input is closed at once; if it has not exited
// after killAfter, its process group gets SIGTERM, and SIGKILL after as long again.
func (c *child) startStop() {
	c.stopOnce.Do(func() {
		go func() {
			defer close(c.stopped)
			c.conn.Close()
			for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGKILL} {
				select {
				case <-c.exited:
					return
				case <-time.After(c.killAfter):
				}
				if sig == syscall.SIGTERM {
					c.log.Warn("the server has not exited; sending SIGTERM", "after", c.killAfter)
				} else {
					c.log.Warn("the server has not exited; killing it")
				}
				signalGroup(c.cmd, sig)
			}
			<-c.exited
		}()
	})
}

// stop stops the server and waits for it, and for the end of its stderr (at most 2 s more: a
// process it started may hold the pipe).
func (c *child) stop() {
	c.startStop()
	<-c.stopped
	select {
	case <-c.stderrDone:
	case <-time.After(2 * time.Second):
		c.errR.Close()
	}
}
