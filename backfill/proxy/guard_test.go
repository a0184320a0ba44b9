package proxy_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/backfill/proxy"
)

// upstreams are fake MCP servers behind an HTTPServer, one a session, on pipes: each answers
// every request with an empty result (initialize with its own; tools/call first asks the client
// for an elicitation, id "e1"), and records every line it reads. A stubborn one does not exit
// when its input ends: its stop takes stopDelay (a process that ignores EOF and SIGTERM).
type upstreams struct {
	stubborn  bool
	stopDelay time.Duration

	mu          sync.Mutex
	lines       []string
	alive, peak int
	dialed      atomic.Int32
}

func (u *upstreams) received() string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return strings.Join(u.lines, "\n")
}

func (u *upstreams) counts() (alive, peak int) {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.alive, u.peak
}

func (u *upstreams) dial(ctx context.Context) (proxy.Conn, func(), error) {
	s2p, serverOut := io.Pipe()
	serverIn, p2s := io.Pipe()
	u.dialed.Add(1)
	u.mu.Lock()
	u.alive++
	u.peak = max(u.peak, u.alive)
	u.mu.Unlock()
	go u.serve(serverIn, serverOut)
	var once sync.Once
	return proxy.NewStreamConn(s2p, p2s, 0), func() {
		once.Do(func() {
			time.Sleep(u.stopDelay)
			serverOut.Close()
			u.mu.Lock()
			u.alive--
			u.mu.Unlock()
		})
	}, nil
}

func (u *upstreams) serve(in io.Reader, out *io.PipeWriter) {
	sc := bufio.NewScanner(in)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		u.mu.Lock()
		u.lines = append(u.lines, sc.Text())
		u.mu.Unlock()
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(sc.Bytes(), &m) != nil || m.ID == nil || m.Method == "" {
			continue
		}
		switch m.Method {
		case "initialize":
			fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}`+"\n", m.ID)
		case "tools/call":
			io.WriteString(out, `{"jsonrpc":"2.0","id":"e1","method":"elicitation/create","params":{"mode":"form","message":"ok?","requestedSchema":{"type":"object","properties":{}}}}`+"\n")
			fallthrough
		default:
			fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":{"content":[]}}`+"\n", m.ID)
		}
	}
	if !u.stubborn {
		out.Close()
	}
}

// serveUpstreams serves h in front of u, and returns its endpoint.
func serveUpstreams(t *testing.T, h *proxy.HTTPServer, u *upstreams) string {
	t.Helper()
	h.Proxy = &proxy.Proxy{}
	h.Dial = u.dial
	srv := httptest.NewServer(h)
	t.Cleanup(func() {
		h.Close()
		srv.Close()
	})
	return srv.URL + "/mcp"
}

// from is an HTTP client whose connections come from the loopback address ip (a client of its
// own, to the proxy).
func from(ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	return &http.Client{Timeout: 20 * time.Second, Transport: &http.Transport{DialContext: d.DialContext}}
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`

// postFrom posts body with client in session (none when ""), and returns the status, the
// session of the answer and its body.
func postFrom(t *testing.T, client *http.Client, endpoint, session, body string) (int, string, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("POST %.60s: %v", body, err)
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("Mcp-Session-Id"), string(data)
}

// TestHTTPServerBodyIsOneMessage: a POST body of two messages, of one and more, or a batch is
// refused with HTTP 400, and nothing of it reaches the server.
func TestHTTPServerBodyIsOneMessage(t *testing.T) {
	u := &upstreams{}
	endpoint := serveUpstreams(t, &proxy.HTTPServer{}, u)
	c := from("127.0.0.1")
	ping := `{"jsonrpc":"2.0","id":7,"method":"ping"}`
	for _, body := range []string{initialize + "\n" + ping, initialize + " xx", initialize + ping} {
		if status, _, text := postFrom(t, c, endpoint, "", body); status != http.StatusBadRequest {
			t.Errorf("%q: HTTP %d %s, want 400", body, status, text)
		}
	}
	if got := u.received(); got != "" {
		t.Errorf("the server received:\n%s", got)
	}
	status, session, _ := postFrom(t, c, endpoint, "", initialize)
	if status != http.StatusOK {
		t.Fatalf("initialize: HTTP %d", status)
	}
	for _, body := range []string{`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" + ping, ping + " xx", "[" + ping + "]"} {
		if status, _, text := postFrom(t, c, endpoint, session, body); status != http.StatusBadRequest {
			t.Errorf("in the session, %q: HTTP %d %s, want 400", body, status, text)
		}
	}
	if got := u.received(); strings.Contains(got, `"id":7`) || strings.Contains(got, "notifications/initialized") {
		t.Errorf("the server received:\n%s", got)
	}
}

// TestHTTPServerForeignResponse: a client's response is forwarded only when it answers a request
// that was sent to it: one to an id it was never sent (the server's sampling request, which the
// proxy answers itself, say) is refused with HTTP 400 and does not reach the server.
func TestHTTPServerForeignResponse(t *testing.T) {
	u := &upstreams{}
	endpoint := serveUpstreams(t, &proxy.HTTPServer{}, u)
	c := from("127.0.0.1")
	_, session, _ := postFrom(t, c, endpoint, "", initialize)
	if status, _, text := postFrom(t, c, endpoint, session, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x"}}`); status != http.StatusOK || !strings.Contains(text, `"id":"e1"`) {
		t.Fatalf("tools/call: HTTP %d %s, want the elicitation request on its stream", status, text)
	}
	foreign := `{"jsonrpc":"2.0","id":"s1","result":{"role":"assistant","content":{"type":"text","text":"the client's"},"model":"m"}}`
	if status, _, text := postFrom(t, c, endpoint, session, foreign); status != http.StatusBadRequest {
		t.Errorf("a response to an id the client was never sent: HTTP %d %s, want 400", status, text)
	}
	answer := `{"jsonrpc":"2.0","id":"e1","result":{"action":"decline"}}`
	if status, _, text := postFrom(t, c, endpoint, session, answer); status != http.StatusAccepted {
		t.Errorf("the answer to the elicitation request: HTTP %d %s, want 202", status, text)
	}
	if status, _, _ := postFrom(t, c, endpoint, session, answer); status != http.StatusBadRequest {
		t.Errorf("a second answer to the elicitation request: HTTP %d, want 400", status)
	}
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(u.received(), `"decline"`) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	got := u.received()
	if strings.Contains(got, "the client's") || strings.Count(got, `"decline"`) != 1 {
		t.Errorf("the server received:\n%s", got)
	}
}

// TestHTTPServerUpstreamsBounded: with servers that take a while to stop (they ignore the end of
// their input), clients looping initialize, and requests outside a session, there are never
// more upstreams alive than MaxSessions.
func TestHTTPServerUpstreamsBounded(t *testing.T) {
	u := &upstreams{stubborn: true, stopDelay: 300 * time.Millisecond}
	endpoint := serveUpstreams(t, &proxy.HTTPServer{MaxSessions: 3, MaxClientSessions: 3, Grace: 100 * time.Millisecond}, u)
	c := from("127.0.0.1")
	var wg sync.WaitGroup
	var served atomic.Int32
	stop := time.Now().Add(2 * time.Second)
	for i := range 4 {
		wg.Go(func() {
			body := initialize
			if i == 3 {
				body = `{"jsonrpc":"2.0","id":5,"method":"ping"}`
			}
			for time.Now().Before(stop) {
				if status, _, _ := postFrom(t, c, endpoint, "", body); status == http.StatusOK {
					served.Add(1)
				}
			}
		})
	}
	wg.Wait()
	_, peak := u.counts()
	t.Logf("%d sessions served, %d upstreams started; at most %d alive at once", served.Load(), u.dialed.Load(), peak)
	if peak > 3 {
		t.Errorf("%d upstreams were alive at once, want at most 3 (MaxSessions)", peak)
	}
	if served.Load() <= 3 {
		t.Errorf("only %d sessions were served: the sessions that stopped did not make room", served.Load())
	}
}

// openGET opens a session's GET stream and returns its body.
func openGET(t *testing.T, c *http.Client, endpoint, session string) io.ReadCloser {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, endpoint, nil)
	req.Header.Set("Mcp-Session-Id", session)
	req.Header.Set("Accept", "text/event-stream")
	resp, err := c.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET: %v %v", resp, err)
	}
	return resp.Body
}

// TestHTTPServerClientShare: a client that opens session after session ends its own idle ones,
// not another client's that was idle a moment; one that holds its share of the sessions (GET
// streams open) is refused more, and another client is still served.
func TestHTTPServerClientShare(t *testing.T) {
	endpoint := serveUpstreams(t, &proxy.HTTPServer{MaxSessions: 4}, &upstreams{})
	victim, other := from("127.0.0.2"), from("127.0.0.1")
	_, mine, _ := postFrom(t, victim, endpoint, "", initialize)
	var sessions []string
	for range 8 {
		status, s, text := postFrom(t, other, endpoint, "", initialize)
		if status != http.StatusOK {
			t.Fatalf("the other client's initialize: HTTP %d %s", status, text)
		}
		sessions = append(sessions, s)
	}
	if status, _, text := postFrom(t, victim, endpoint, mine, `{"jsonrpc":"2.0","id":2,"method":"ping"}`); status != http.StatusOK {
		t.Errorf("the victim's session after 8 sessions of another client: HTTP %d %s", status, text)
	}
	for _, s := range sessions[5:] { // the other client's last 3, its share of 4
		defer openGET(t, other, endpoint, s).Close()
	}
	if status, _, _ := postFrom(t, other, endpoint, "", initialize); status != http.StatusServiceUnavailable {
		t.Errorf("a session beyond the client's share: HTTP %d, want 503", status)
	}
	if status, _, text := postFrom(t, victim, endpoint, "", initialize); status != http.StatusOK {
		t.Errorf("the victim's new session while the other client holds its share: HTTP %d %s", status, text)
	}
}

// TestHTTPServerTimeouts: an idle session ends after IdleTimeout (its upstream stopped), a GET
// stream after StreamTimeout, and a body that does not come is refused after BodyTimeout.
func TestHTTPServerTimeouts(t *testing.T) {
	u := &upstreams{}
	h := &proxy.HTTPServer{IdleTimeout: 300 * time.Millisecond, StreamTimeout: 300 * time.Millisecond, BodyTimeout: 300 * time.Millisecond}
	endpoint := serveUpstreams(t, h, u)
	c := from("127.0.0.1")
	_, session, _ := postFrom(t, c, endpoint, "", initialize)
	ended := make(chan error, 1)
	go func() {
		_, err := io.Copy(io.Discard, openGET(t, c, endpoint, session))
		ended <- err
	}()
	select {
	case err := <-ended:
		if err != nil {
			t.Errorf("the GET stream ended with %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Error("the GET stream did not end after StreamTimeout")
	}
	deadline := time.Now().Add(10 * time.Second)
	for alive, _ := u.counts(); alive > 0 && time.Now().Before(deadline); alive, _ = u.counts() {
		time.Sleep(10 * time.Millisecond)
	}
	if alive, _ := u.counts(); alive != 0 {
		t.Errorf("%d upstreams alive after IdleTimeout", alive)
	}
	if status, _, _ := postFrom(t, c, endpoint, session, `{"jsonrpc":"2.0","id":2,"method":"ping"}`); status != http.StatusNotFound {
		t.Errorf("the idle session: HTTP %d, want 404", status)
	}
	conn, err := net.Dial("tcp", strings.TrimPrefix(strings.TrimSuffix(endpoint, "/mcp"), "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\"")
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil || resp.StatusCode != http.StatusRequestTimeout {
		t.Errorf("a body cut short: %v %v, want HTTP 408", resp, err)
	}
}
