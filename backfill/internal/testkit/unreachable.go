package testkit

import (
	"io"
	"net"
	"testing"
	"time"
)

// ClosedPort returns a loopback address where nothing listens: a connection is refused.
func ClosedPort(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// HangUp returns the address of a server that reads each request and closes the connection
// without an answer, as a provider that crashed while working on it would.
func HangUp(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
			io.Copy(io.Discard, c) // the whole request, until the deadline
			c.Close()
		}
	}()
	return l.Addr().String()
}
