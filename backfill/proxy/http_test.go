package proxy_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/backfill/proxy"
)

// TestHTTPConnHeadersStayWithTheOrigin: the operator's headers go to the endpoint, not to another
// origin it redirects to; the redirected request is answered (here refused) all the same.
func TestHTTPConnHeadersStayWithTheOrigin(t *testing.T) {
	var leaked, asked atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		if r.Header.Get("Authorization") != "" {
			leaked.Add(1)
		}
		http.Error(w, "no", http.StatusForbidden)
	}))
	defer other.Close()
	var authorized atomic.Int32
	endpoint := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "Bearer tok" {
			authorized.Add(1)
		}
		http.Redirect(w, r, other.URL+"/mcp", http.StatusTemporaryRedirect)
	}))
	defer endpoint.Close()
	c, err := proxy.NewHTTPConn(context.Background(), endpoint.URL+"/mcp", &proxy.HTTPOptions{Header: http.Header{"Authorization": {"Bearer tok"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Abort()
	if err := c.Write(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`)); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	msg, err := c.Read(ctx)
	if err != nil || !strings.Contains(string(msg), `"id":1`) || !strings.Contains(string(msg), "error") {
		t.Errorf("read %s, %v; want an error response to request 1", msg, err)
	}
	if authorized.Load() != 1 || asked.Load() != 1 {
		t.Errorf("endpoint authorized %d, other asked %d; want 1 and 1", authorized.Load(), asked.Load())
	}
	if leaked.Load() != 0 {
		t.Error("the Authorization header went to the other origin")
	}
}

func TestNewHTTPConnRefusesOtherURLs(t *testing.T) {
	for _, u := range []string{"ftp://h/mcp", "http://", "://x", "https://user:pw@/"} {
		_, err := proxy.NewHTTPConn(context.Background(), u, nil)
		if err == nil || strings.Contains(err.Error(), "pw") {
			t.Errorf("NewHTTPConn(%q): %v", u, err)
		}
	}
}
