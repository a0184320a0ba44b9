package proxy_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/backfill/proxy"
)

// endless is n bytes of filler, made as they are read.
type endless struct{ n int64 }

func (e *endless) Read(p []byte) (int, error) {
	if e.n <= 0 {
		return 0, io.EOF
	}
	n := min(int64(len(p)), e.n)
	for i := range p[:n] {
		p[i] = 'x'
	}
	e.n -= n
	return int(n), nil
}

// rpcServer answers initialize and ping itself and every other request with answer; it counts
// the bytes it wrote for answer.
func rpcServer(t *testing.T, answer func(w http.ResponseWriter, id json.RawMessage)) (string, *atomic.Int64) {
	var written atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			http.Error(w, "no", http.StatusMethodNotAllowed)
			return
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		json.NewDecoder(r.Body).Decode(&m)
		switch {
		case m.ID == nil:
			w.WriteHeader(http.StatusAccepted)
		case m.Method == "initialize":
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Mcp-Session-Id", "s1")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}`, m.ID)
		case m.Method == "ping":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{}}`, m.ID)
		default:
			answer(&countingWriter{ResponseWriter: w, n: &written}, m.ID)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp", &written
}

type countingWriter struct {
	http.ResponseWriter
	n *atomic.Int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.ResponseWriter.Write(p)
	c.n.Add(int64(n))
	return n, err
}

func (c *countingWriter) Flush() { c.ResponseWriter.(http.Flusher).Flush() }

// readUntil reads the connection's messages until one holds want.
func readUntil(t *testing.T, c *proxy.HTTPConn, want string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for {
		msg, err := c.Read(ctx)
		if err != nil {
			t.Fatalf("reading for %s: %v", want, err)
		}
		if strings.Contains(string(msg), want) {
			return string(msg)
		}
	}
}

const initRequest = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`

// TestHTTPConnBoundsEveryBody: a 400 MiB answer to a request, of any status and content type, is
// read no further than the bound (1 MiB here): the request gets a JSON-RPC error, and the session
// goes on (a ping after it is answered). The proxy allocates a small part of the body's size.
func TestHTTPConnBoundsEveryBody(t *testing.T) {
	const huge = 400 << 20
	for _, tt := range []struct {
		status      int
		contentType string
	}{
		{200, "application/json"}, {201, "application/json"}, {400, "application/json"}, {500, "text/plain"},
		{403, "text/html"}, {200, "text/event-stream"}, {202, "application/octet-stream"},
	} {
		t.Run(fmt.Sprintf("%d %s", tt.status, tt.contentType), func(t *testing.T) {
			endpoint, written := rpcServer(t, func(w http.ResponseWriter, id json.RawMessage) {
				w.Header().Set("Content-Type", tt.contentType)
				w.WriteHeader(tt.status)
				if tt.contentType == "text/event-stream" {
					fmt.Fprintf(w, "event: message\ndata: ")
				} else {
					fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"x":"`, id)
				}
				io.Copy(w, &endless{huge})
			})
			c, err := proxy.NewHTTPConn(context.Background(), endpoint, &proxy.HTTPOptions{MaxMessageBytes: 1 << 20})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Abort()
			ctx := context.Background()
			if err := c.Write(ctx, []byte(initRequest)); err != nil {
				t.Fatal(err)
			}
			readUntil(t, c, `"id":1`)
			var before runtime.MemStats
			runtime.ReadMemStats(&before)
			c.Write(ctx, []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"big"}}`))
			answer := readUntil(t, c, `"id":2`)
			if !strings.Contains(answer, `"error"`) {
				t.Errorf("the large answer: %.300s", answer)
			}
			c.Write(ctx, []byte(`{"jsonrpc":"2.0","id":3,"method":"ping"}`))
			if got := readUntil(t, c, `"id":3`); !strings.Contains(got, `"result"`) {
				t.Errorf("the ping after it: %s", got)
			}
			var after runtime.MemStats
			runtime.ReadMemStats(&after)
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
				t.Errorf("allocated %d MiB for a %d MiB body", alloc>>20, huge>>20)
			}
			if n := written.Load(); n > 200<<20 {
				t.Errorf("the server wrote %d MiB of it: it was read on", n>>20)
			}
		})
	}
}

// TestHTTPConnBackpressure: a server streaming 64 KiB notifications on the answer to a request
// to a proxy whose client reads nothing is held back once the connection's queue is full: it
// cannot write more than a few MiB.
func TestHTTPConnBackpressure(t *testing.T) {
	note := `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"` + strings.Repeat("n", 64<<10) + `"}}`
	stop := make(chan struct{})
	defer close(stop)
	endpoint, written := rpcServer(t, func(w http.ResponseWriter, id json.RawMessage) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		for {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := fmt.Fprintf(w, "event: message\ndata: %s\n\n", note); err != nil {
				return
			}
			w.(http.Flusher).Flush()
		}
	})
	c, err := proxy.NewHTTPConn(context.Background(), endpoint, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Abort()
	ctx := context.Background()
	c.Write(ctx, []byte(initRequest))
	readUntil(t, c, `"id":1`)
	c.Write(ctx, []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"flood"}}`))
	readUntil(t, c, "notifications/message") // the flood has begun
	time.Sleep(3 * time.Second)
	first := written.Load()
	time.Sleep(time.Second)
	if n := written.Load(); n > 64<<20 || n > first+(1<<20) {
		t.Errorf("the server wrote %d MiB (%d MiB a second ago) to a proxy whose client reads nothing", n>>20, first>>20)
	}
	// Read on: the flood goes on.
	for range 100 {
		readUntil(t, c, "notifications/message")
	}
}
