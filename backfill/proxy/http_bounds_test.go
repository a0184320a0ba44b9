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
// A GET is answered by get, or 405 when it is nil.
func rpcServer(t *testing.T, answer func(w http.ResponseWriter, id json.RawMessage), get func(w http.ResponseWriter)) (string, *atomic.Int64) {
	var written atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && get != nil {
			get(&countingWriter{ResponseWriter: w, n: &written})
			return
		}
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
			}, nil)
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

// TestHTTPConnBackpressure: a server streaming 64 KiB notifications to a proxy whose client
// reads nothing is held back once the connection's queue is full: it cannot write more than a
// few MiB, whether it streams them on the answer to a request or on the standalone GET stream.
func TestHTTPConnBackpressure(t *testing.T) {
	note := `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"` + strings.Repeat("n", 64<<10) + `"}}`
	for _, onGET := range []bool{false, true} {
		t.Run(map[bool]string{false: "POST", true: "GET"}[onGET], func(t *testing.T) {
			stop := make(chan struct{})
			defer close(stop)
			flood := func(w http.ResponseWriter) {
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
			}
			answer := func(w http.ResponseWriter, id json.RawMessage) { flood(w) }
			var get func(http.ResponseWriter)
			if onGET {
				answer, get = func(w http.ResponseWriter, id json.RawMessage) { w.WriteHeader(http.StatusAccepted) }, flood
			}
			endpoint, written := rpcServer(t, answer, get)
			c, err := proxy.NewHTTPConn(context.Background(), endpoint, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Abort()
			ctx := context.Background()
			c.Write(ctx, []byte(initRequest))
			readUntil(t, c, `"id":1`)
			if !onGET {
				c.Write(ctx, []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"flood"}}`))
			}
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
		})
	}
}

// TestHTTPConnStandaloneStream: the GET stream is opened after initialize; the server's requests
// and notifications on it are read; when it ends, it is reopened after the server's retry delay,
// with the last event's id as Last-Event-ID.
func TestHTTPConnStandaloneStream(t *testing.T) {
	type get struct {
		lastEventID string
		at          time.Time
	}
	gets := make(chan get, 10)
	var closedAt, served atomic.Int64
	endpoint, _ := rpcServer(t, func(w http.ResponseWriter, id json.RawMessage) {}, func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		switch served.Add(1) {
		case 1:
			fmt.Fprint(w, "id: e1\nretry: 300\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"method\":\"sampling/createMessage\",\"params\":{}}\n\n")
			w.(http.Flusher).Flush()
			closedAt.Store(time.Now().UnixNano())
		default:
			fmt.Fprint(w, "id: e2\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/updated\",\"params\":{\"uri\":\"test://x\"}}\n\n")
			w.(http.Flusher).Flush()
			time.Sleep(500 * time.Millisecond) // held open a while
		}
	})
	var seen []get
	c, err := proxy.NewHTTPConn(context.Background(), endpoint, &proxy.HTTPOptions{Client: &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		if r.Method == http.MethodGet {
			gets <- get{r.Header.Get("Last-Event-ID"), time.Now()}
		}
		return http.DefaultTransport.RoundTrip(r)
	})}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Abort()
	c.Write(context.Background(), []byte(initRequest))
	readUntil(t, c, `"id":1`)
	readUntil(t, c, "sampling/createMessage")
	readUntil(t, c, "notifications/resources/updated")
	for len(gets) > 0 {
		seen = append(seen, <-gets)
	}
	if len(seen) < 2 || seen[0].lastEventID != "" || seen[1].lastEventID != "e1" {
		t.Fatalf("GETs: %+v; want one without Last-Event-ID, then one with e1", seen)
	}
	if wait := seen[1].at.Sub(time.Unix(0, closedAt.Load())); wait < 300*time.Millisecond {
		t.Errorf("reopened %v after the stream ended; the server's retry is 300ms", wait)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestHTTPConnRequestsAwaitTheStream: a request after initialize is sent once the GET stream is
// open (a server drops what it sends unrelated to a request while there is none), even when the
// GET is slow to be answered.
func TestHTTPConnRequestsAwaitTheStream(t *testing.T) {
	var open, early atomic.Bool
	endpoint, _ := rpcServer(t, func(w http.ResponseWriter, id json.RawMessage) {
		if !open.Load() {
			early.Store(true)
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{}}`, id)
	}, func(w http.ResponseWriter) {
		time.Sleep(300 * time.Millisecond)
		open.Store(true)
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		time.Sleep(time.Second)
	})
	c, err := proxy.NewHTTPConn(context.Background(), endpoint, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Abort()
	c.Write(context.Background(), []byte(initRequest))
	readUntil(t, c, `"id":1`)
	c.Write(context.Background(), []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"elicit"}}`))
	readUntil(t, c, `"id":2`)
	if early.Load() {
		t.Error("the request came before the GET stream was open")
	}
}

// TestHTTPConnFailureAnswersPending: when the server ends the session under a request in progress
// (HTTP 404 to the session's next message), the connection ends, and the request in progress is
// answered with an error rather than left waiting.
func TestHTTPConnFailureAnswersPending(t *testing.T) {
	release := make(chan struct{})
	endpoint, _ := rpcServer(t, func(w http.ResponseWriter, id json.RawMessage) {
		if string(id) == "3" {
			http.Error(w, "no such session", http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		<-release // request 2 is never answered
	}, nil)
	defer close(release)
	c, err := proxy.NewHTTPConn(context.Background(), endpoint, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Abort()
	ctx := context.Background()
	c.Write(ctx, []byte(initRequest))
	readUntil(t, c, `"id":1`)
	c.Write(ctx, []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow"}}`))
	time.Sleep(100 * time.Millisecond)
	c.Write(ctx, []byte(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"x"}}`))
	got := map[string]int{}
	rctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	for {
		msg, err := c.Read(rctx)
		if err != nil {
			break
		}
		for _, id := range []string{"2", "3"} {
			if strings.Contains(string(msg), `"id":`+id+`,`) && strings.Contains(string(msg), `"error"`) {
				got[id]++
			}
		}
	}
	if got["2"] != 1 || got["3"] != 1 {
		t.Errorf("errors for the requests: %v; want one for 2 and one for 3", got)
	}
}
