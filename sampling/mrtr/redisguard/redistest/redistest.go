// Package redistest runs a real redis-server for tests: on a free loopback port, without
// persistence, stopped at the end of the test. It can stop the server and start it again on the
// same port (Redis going away and coming back), and run it as a one-node Redis Cluster.
//
// redis-server must be on PATH (Debian's package redis-server). Without it, Start fails the test
// when the environment variable CI is "true", and skips it otherwise.
package redistest

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// A Server is a redis-server process of a test.
type Server struct {
	tb      testing.TB
	bin     string
	dir     string
	port    int
	cluster bool
	extra   []string

	mu     sync.Mutex
	cmd    *exec.Cmd
	exited chan struct{} // closed when cmd has exited
}

// Start starts a redis-server on a free loopback port; it is stopped when the test ends. args are
// more of its options, after the defaults (so they override them): "--appendonly", "yes" keeps
// the data across Restart.
func Start(tb testing.TB, args ...string) *Server { return start(tb, false, args) }

// StartCluster starts a redis-server as a Redis Cluster of one node holding every slot.
func StartCluster(tb testing.TB, args ...string) *Server { return start(tb, true, args) }

func start(tb testing.TB, cluster bool, extra []string) *Server {
	tb.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		if os.Getenv("CI") == "true" {
			tb.Fatalf("redis-server is not installed (apt-get install redis-server): %v", err)
		}
		tb.Skipf("redis-server is not installed (apt-get install redis-server): %v", err)
	}
	s := &Server{tb: tb, bin: bin, dir: tb.TempDir(), cluster: cluster, extra: extra}
	tb.Cleanup(s.Stop)
	for attempt := 0; ; attempt++ {
		s.port = freePort(tb)
		err := s.startProcess()
		if err == nil {
			return s
		}
		if attempt == 4 {
			tb.Fatalf("redis-server: %v", err)
		}
	}
}

// Addr is the server's address, host:port.
func (s *Server) Addr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(s.port)) }

// URL is the server's address as a redis:// URL.
func (s *Server) URL() string { return "redis://" + s.Addr() }

// Stop stops the server (SIGKILL: it goes away at once, as a crash does) and waits for it. It
// does nothing if the server is not running.
func (s *Server) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		return
	}
	s.cmd.Process.Kill()
	<-s.exited
	s.cmd = nil
}

// Restart starts the server again on the same port after Stop: empty, unless its options keep
// the data (appendonly).
func (s *Server) Restart() {
	s.tb.Helper()
	var err error
	for attempt := 0; attempt < 50; attempt++ {
		if err = s.startProcess(); err == nil {
			return
		}
		time.Sleep(100 * time.Millisecond) // the port may linger a moment
	}
	s.tb.Fatalf("redis-server restart: %v", err)
}

func (s *Server) startProcess() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd != nil {
		return nil
	}
	args := []string{"--port", strconv.Itoa(s.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
		"--dir", s.dir, "--daemonize", "no", "--protected-mode", "yes"}
	if s.cluster {
		os.Remove(s.dir + "/nodes.conf")
		args = append(args, "--cluster-enabled", "yes", "--cluster-config-file", s.dir+"/nodes.conf")
	}
	args = append(args, s.extra...)
	cmd := exec.Command(s.bin, args...)
	log := &bytes.Buffer{}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		return err
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if reply, err := command(s.Addr(), "PING"); err == nil && reply == "+PONG" {
			break
		}
		select {
		case <-exited:
			return fmt.Errorf("redis-server exited: %s", strings.TrimSpace(log.String()))
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			<-exited
			return fmt.Errorf("redis-server did not answer PING in 10s")
		}
	}
	if s.cluster {
		if _, err := command(s.Addr(), "CLUSTER", "ADDSLOTSRANGE", "0", "16383"); err != nil {
			cmd.Process.Kill()
			<-exited
			return err
		}
		for {
			info, err := command(s.Addr(), "CLUSTER", "INFO")
			if err == nil && strings.Contains(info, "cluster_state:ok") {
				break
			}
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				<-exited
				return fmt.Errorf("the cluster is not ok after 10s: %s %v", info, err)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	s.cmd, s.exited = cmd, exited
	return nil
}

// command sends one command in RESP and returns the first line of the reply (a bulk string's
// content for a bulk reply); an error reply is an error.
func command(addr string, args ...string) (string, error) {
	conn, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(2 * time.Second))
	var b strings.Builder
	fmt.Fprintf(&b, "*%d\r\n", len(args))
	for _, a := range args {
		fmt.Fprintf(&b, "$%d\r\n%s\r\n", len(a), a)
	}
	if _, err := conn.Write([]byte(b.String())); err != nil {
		return "", err
	}
	r := bufio.NewReader(conn)
	line, err := r.ReadString('\n')
	if err != nil {
		return "", err
	}
	line = strings.TrimRight(line, "\r\n")
	switch {
	case strings.HasPrefix(line, "-"):
		return "", fmt.Errorf("redis: %s", line[1:])
	case strings.HasPrefix(line, "$"):
		n, err := strconv.Atoi(line[1:])
		if err != nil || n < 0 {
			return "", fmt.Errorf("redis: reply %q", line)
		}
		buf := make([]byte, n+2)
		if _, err := io.ReadFull(r, buf); err != nil {
			return "", err
		}
		return string(buf[:n]), nil
	}
	return line, nil
}

func freePort(tb testing.TB) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
