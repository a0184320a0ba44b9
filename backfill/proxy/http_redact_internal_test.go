package proxy

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestFailPendingRedactsTheURL: when the connection to the remote server fails, the requests
// waiting are answered with the failure, which quotes the URL go-sdk's client failed on; its
// query (a token in ?api_key=...) must not reach the client, which over -listen may be anyone
// holding the client token.
func TestFailPendingRedactsTheURL(t *testing.T) {
	c := &HTTPConn{ctx: context.Background(), queue: make(chan []byte, 1), pending: map[string]bool{"1": true}}
	c.failPending(errors.New(`sending "tools/call": failed to reconnect: Get "https://mcp.example.com/mcp?api_key=s3cret-of-the-operator": dial tcp: connection refused`))
	answer := string(<-c.queue)
	if strings.Contains(answer, "s3cret-of-the-operator") || !strings.Contains(answer, "mcp.example.com") {
		t.Errorf("the client got %s", answer)
	}
}

// TestHTTPConnLogRedactsTheURL: a notification that cannot be sent is logged with the error
// go-sdk's client gives, which quotes the URL, query included; the log has the query redacted,
// as every other line that names the endpoint.
func TestHTTPConnLogRedactsTheURL(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	endpoint := "http://" + l.Addr().String() + "/mcp?api_key=s3cret-of-the-operator"
	l.Close() // nothing listens there: the request fails with the URL in its error
	var logged bytes.Buffer
	var mu sync.Mutex
	log := slog.New(slog.NewTextHandler(&lockedWriter{w: &logged, mu: &mu}, nil))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := NewHTTPConn(ctx, endpoint, &HTTPOptions{Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Abort()
	if err := c.Write(ctx, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	out := logged.String()
	mu.Unlock()
	if !strings.Contains(out, "sending a message to the remote server") || strings.Contains(out, "s3cret-of-the-operator") {
		t.Errorf("the log:\n%s", out)
	}
}

type lockedWriter struct {
	w  io.Writer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
