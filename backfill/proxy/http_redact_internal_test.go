package proxy

import (
	"context"
	"errors"
	"strings"
	"testing"
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
