package proxy_test

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/backfill/internal/testkit"
	"github.com/mcpgen/mcpgen/backfill/proxy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// listening serves h's clients over Streamable HTTP, each session in front of a go-sdk agent
// server of its own (on pipes, as on stdio), answering sampling with a provider replaying
// recorded answers. It returns the endpoint and the number of upstreams stopped.
func listening(t *testing.T, h *proxy.HTTPServer) (string, *atomic.Int32) {
	t.Helper()
	ep := e2eProviders[0]
	var replies []testkit.Reply
	for _, r := range ep.replies {
		replies = append(replies, testkit.RecordedReply(r))
	}
	fake := httptest.NewServer(&testkit.Provider{Path: ep.path, Replies: replies})
	t.Cleanup(fake.Close)
	var stopped atomic.Int32
	h.Proxy = &proxy.Proxy{Sampler: ep.sampler(fake.URL)}
	h.Dial = func(ctx context.Context) (proxy.Conn, func(), error) {
		s2p, serverOut := io.Pipe()
		serverIn, p2s := io.Pipe()
		ss, err := testkit.NewAgentServer().Connect(ctx, &mcp.IOTransport{Reader: serverIn, Writer: serverOut}, nil)
		if err != nil {
			return nil, nil, err
		}
		return proxy.NewStreamConn(s2p, p2s, 0), func() {
			ss.Wait()
			stopped.Add(1)
		}, nil
	}
	srv := httptest.NewServer(h)
	t.Cleanup(func() {
		h.Close()
		srv.Close()
	})
	return srv.URL + "/mcp", &stopped
}

// TestHTTPServerGoSDKClient: a go-sdk client without sampling reaches the agent server through
// the proxy's HTTP side, the proxy answering the tool loop's sampling with the provider; closing
// the client (DELETE) ends the session and stops its upstream.
func TestHTTPServerGoSDKClient(t *testing.T) {
	h := &proxy.HTTPServer{}
	endpoint, stopped := listening(t, h)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, noGET := range []bool{false, true} {
		client := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil)
		// Without the GET stream: the proxy's routing of what the server sends meanwhile is the
		// request's own stream.
		cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint, DisableStandaloneSSE: noGET}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
		if err != nil {
			t.Fatal(err)
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "agent", Arguments: map[string]any{"prompt": "What's the weather like in Paris and London?"}})
		if err != nil {
			t.Fatal(err)
		}
		if text := res.Content[0].(*mcp.TextContent).Text; res.IsError || text != finalAnswer {
			t.Fatalf("agent answered (isError %v) %q", res.IsError, text)
		}
		if err := cs.Close(); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for stopped.Load() != 2 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := stopped.Load(); n != 2 {
		t.Errorf("%d upstreams stopped after two sessions, want 2", n)
	}
}

func post(t *testing.T, endpoint string, header http.Header, body string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	for k, vs := range header {
		req.Header[k] = vs
	}
	if h := header.Get("Host"); h != "" {
		req.Host = h
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, string(data)
}

// TestHTTPServerChecks: DNS rebinding (a foreign Host or Origin), the bearer token, a client
// that accepts JSON only, an unknown session, the session bound.
func TestHTTPServerChecks(t *testing.T) {
	h := &proxy.HTTPServer{Token: "s3cret-t0ken-of-the-clients", MaxSessions: 1}
	endpoint, _ := listening(t, h)
	auth := http.Header{"Authorization": {"Bearer s3cret-t0ken-of-the-clients"}}
	with := func(k, v string) http.Header {
		hd := auth.Clone()
		hd.Set(k, v)
		return hd
	}
	for _, tt := range []struct {
		name   string
		header http.Header
		status int
	}{
		{"foreign host", with("Host", "evil.example.com"), http.StatusForbidden},
		{"foreign origin", with("Origin", "http://evil.example.com"), http.StatusForbidden},
		{"no token", http.Header{}, http.StatusUnauthorized},
		{"wrong token", http.Header{"Authorization": {"Bearer nope"}}, http.StatusUnauthorized},
		{"unknown session", with("Mcp-Session-Id", "nope"), http.StatusNotFound},
	} {
		resp, body := post(t, endpoint, tt.header, `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
		if resp.StatusCode != tt.status {
			t.Errorf("%s: HTTP %d %s, want %d", tt.name, resp.StatusCode, body, tt.status)
		}
	}
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`
	resp, body := post(t, endpoint, with("Origin", "http://localhost:3000"), init)
	session := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != http.StatusOK || session == "" || resp.Header.Get("Content-Type") != "application/json" || !strings.Contains(body, `"protocolVersion":"2025-11-25"`) {
		t.Fatalf("initialize, JSON only: HTTP %d %v %s", resp.StatusCode, resp.Header, body)
	}
	// The session is in progress (its GET stream open): a second one is refused.
	req, _ := http.NewRequest(http.MethodGet, endpoint, nil)
	req.Header = with("Mcp-Session-Id", session)
	req.Header.Set("Accept", "text/event-stream")
	get, err := http.DefaultClient.Do(req)
	if err != nil || get.StatusCode != http.StatusOK {
		t.Fatalf("GET: %v %v", get, err)
	}
	resp, body = post(t, endpoint, auth, init)
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("a second session: HTTP %d %s, want 503", resp.StatusCode, body)
	}
	get.Body.Close()
	// Idle now: the next session ends it.
	time.Sleep(100 * time.Millisecond)
	resp, body = post(t, endpoint, auth, init)
	if resp.StatusCode != http.StatusOK {
		t.Errorf("a session after the idle one: HTTP %d %s", resp.StatusCode, body)
	}
	resp, _ = post(t, endpoint, with("Mcp-Session-Id", session), `{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("the ended session: HTTP %d, want 404", resp.StatusCode)
	}
}

// callTool posts a tools/call of id and tool in session, taking an event stream for its answer,
// and returns the response, its body unread.
func callTool(t *testing.T, ctx context.Context, endpoint, session, id, tool string) *http.Response {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(`{"jsonrpc":"2.0","id":`+id+`,"method":"tools/call","params":{"name":"`+tool+`"}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", session)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// TestHTTPServerBackpressure: a server streaming 64 KiB notifications while it serves a request
// of a client that does not read the answer's stream is held back: it cannot write more than a
// few MiB into the proxy, and the proxy's memory is bounded.
func TestHTTPServerBackpressure(t *testing.T) {
	note := []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"` + strings.Repeat("n", 64<<10) + `"}}` + "\n")
	var written atomic.Int64
	stop := make(chan struct{})
	h := &proxy.HTTPServer{Proxy: &proxy.Proxy{}}
	h.Dial = func(ctx context.Context) (proxy.Conn, func(), error) {
		s2p, serverOut := io.Pipe()
		serverIn, p2s := io.Pipe()
		go func() {
			// The server: it answers initialize, and floods once it is asked anything else.
			buf := make([]byte, 64<<10)
			n, _ := serverIn.Read(buf)
			if !strings.Contains(string(buf[:n]), `"initialize"`) {
				return
			}
			io.WriteString(serverOut, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}`+"\n")
			go func() { io.Copy(io.Discard, serverIn); serverOut.Close() }() // it exits when its input ends
			for {
				select {
				case <-stop:
					return
				default:
				}
				n, err := serverOut.Write(note)
				written.Add(int64(n))
				if err != nil {
					return
				}
			}
		}()
		return proxy.NewStreamConn(s2p, p2s, 0), func() { serverOut.Close() }, nil
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	defer h.Close()
	defer close(stop) // first: the server stops flooding
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`
	resp, body := post(t, srv.URL+"/mcp", nil, init)
	session := resp.Header.Get("Mcp-Session-Id")
	if session == "" {
		t.Fatalf("initialize: %d %s", resp.StatusCode, body)
	}
	call := callTool(t, context.Background(), srv.URL+"/mcp", session, "2", "flood")
	defer call.Body.Close()
	io.ReadFull(call.Body, make([]byte, 64<<10)) // the flood has begun; nothing more is read
	time.Sleep(3 * time.Second)
	first := written.Load()
	time.Sleep(time.Second)
	if n := written.Load(); n > 64<<20 || n > first+(1<<20) {
		t.Errorf("the server wrote %d MiB (%d MiB a second ago) while the client read nothing", n>>20, first>>20)
	}
	// The client reads on: so does the server.
	if _, err := io.ReadFull(call.Body, make([]byte, 4<<20)); err != nil {
		t.Errorf("reading on: %v", err)
	}
}

// TestHTTPServerResponseOfAGoneRequest: the answer to a request whose client went away is
// dropped, not sent on the stream of another request in progress.
func TestHTTPServerResponseOfAGoneRequest(t *testing.T) {
	answer := make(chan string)
	cancelled := make(chan string, 1)
	h := &proxy.HTTPServer{Proxy: &proxy.Proxy{}}
	h.Dial = func(ctx context.Context) (proxy.Conn, func(), error) {
		s2p, serverOut := io.Pipe()
		serverIn, p2s := io.Pipe()
		go func() {
			// The server: it answers initialize, then sends what the test gives it.
			buf := make([]byte, 64<<10)
			serverIn.Read(buf)
			io.WriteString(serverOut, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}`+"\n")
			go func() {
				// It reports the cancellation of request 2.
				sc := bufio.NewScanner(serverIn)
				sc.Buffer(nil, 1<<20)
				for sc.Scan() {
					if strings.Contains(sc.Text(), "notifications/cancelled") {
						cancelled <- sc.Text()
					}
				}
				serverOut.Close()
			}()
			for msg := range answer {
				io.WriteString(serverOut, msg+"\n")
			}
		}()
		return proxy.NewStreamConn(s2p, p2s, 0), func() {}, nil
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	defer h.Close()
	resp, _ := post(t, srv.URL+"/mcp", nil, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`)
	session := resp.Header.Get("Mcp-Session-Id")
	call := func(ctx context.Context, id string) *http.Response {
		return callTool(t, ctx, srv.URL+"/mcp", session, id, "slow")
	}
	ctx2, cancel2 := context.WithCancel(context.Background())
	gone := call(ctx2, "2")
	third := call(context.Background(), "3")
	defer third.Body.Close()
	cancel2()
	gone.Body.Close()
	select {
	case c := <-cancelled:
		if !strings.Contains(c, `"requestId":2`) {
			t.Errorf("the server was sent %s", c)
		}
	case <-time.After(10 * time.Second):
		t.Error("the server was not told that request 2 was cancelled")
	}
	answer <- `{"jsonrpc":"2.0","id":2,"result":{"content":[],"x":"two"}}`
	answer <- `{"jsonrpc":"2.0","id":3,"result":{"content":[],"x":"three"}}`
	close(answer)
	body, _ := io.ReadAll(third.Body)
	if strings.Contains(string(body), `"two"`) || !strings.Contains(string(body), `"three"`) {
		t.Errorf("the stream of request 3: %s", body)
	}
}

// TestHTTPServerPrettyPrintedBody: a POSTed message may hold newlines between its tokens (it is
// JSON, not a line). The proxy's session reads one message a line, so it must still see one
// message, and check it: an ambiguous one (a member given twice) is refused, pretty-printed or not,
// and a valid one is answered.
func TestHTTPServerPrettyPrintedBody(t *testing.T) {
	h := &proxy.HTTPServer{}
	endpoint, _ := listening(t, h)
	client := &http.Client{Timeout: 10 * time.Second}
	do := func(body string) (int, string) {
		req, _ := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("POST %q: %v", body, err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp.StatusCode, string(data)
	}
	init := func(versions ...string) string {
		var pv string
		for _, v := range versions {
			pv += "    \"protocolVersion\": \"" + v + "\",\n"
		}
		return "{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 1,\n  \"method\": \"initialize\",\n  \"params\": {\n" + pv +
			"    \"capabilities\": {},\n    \"clientInfo\": {\"name\": \"c\", \"version\": \"1\"}\n  }\n}\n"
	}
	if status, body := do(init("2025-06-18", "2025-11-25")); status != http.StatusOK || !strings.Contains(body, "ambiguous") {
		t.Errorf("initialize, pretty-printed, with a member given twice: HTTP %d %s, want the proxy's refusal", status, body)
	}
	if status, body := do(init("2025-11-25")); status != http.StatusOK || !strings.Contains(body, `"protocolVersion":"2025-11-25"`) {
		t.Errorf("initialize, pretty-printed: HTTP %d %s", status, body)
	}
}

// TestHTTPServerRequestOfAGoneStream: a server's request routed to the stream of a call whose
// client goes away before the stream takes it is dropped, and the client's answer to it later is
// refused as one to a request it was never sent. The stream is held full: a message larger than
// the connection's buffers that the client does not read, then streamLength more.
func TestHTTPServerRequestOfAGoneStream(t *testing.T) {
	routed, resumed := make(chan struct{}), make(chan struct{})
	h := &proxy.HTTPServer{Proxy: &proxy.Proxy{}}
	h.Dial = func(ctx context.Context) (proxy.Conn, func(), error) {
		s2p, serverOut := io.Pipe()
		serverIn, p2s := io.Pipe()
		note := func(data string) string {
			return `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"` + data + `"}}` + "\n"
		}
		go func() {
			defer serverOut.Close()
			sc := bufio.NewScanner(serverIn)
			sc.Buffer(nil, 1<<20)
			for sc.Scan() {
				switch {
				case strings.Contains(sc.Text(), `"initialize"`):
					io.WriteString(serverOut, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}`+"\n")
				case strings.Contains(sc.Text(), `"tools/call"`):
					go func() {
						io.WriteString(serverOut, note(strings.Repeat("n", 15<<20)))
						for range 4 {
							io.WriteString(serverOut, note("n"))
						}
						io.WriteString(serverOut, `{"jsonrpc":"2.0","id":"e1","method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object","properties":{}}}}`+"\n")
						close(routed)
						// Read only once the proxy is done with the request.
						io.WriteString(serverOut, note("after"))
						close(resumed)
					}()
				}
			}
		}()
		return proxy.NewStreamConn(s2p, p2s, 0), func() { serverOut.Close() }, nil
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	defer h.Close()
	resp, _ := post(t, srv.URL+"/mcp", nil, initialize)
	session := resp.Header.Get("Mcp-Session-Id")
	ctx, cancel := context.WithCancel(context.Background())
	call := callTool(t, ctx, srv.URL+"/mcp", session, "2", "x")
	<-routed
	time.Sleep(200 * time.Millisecond) // the proxy routes the request it has read to the full stream
	cancel()
	call.Body.Close()
	select {
	case <-resumed:
	case <-time.After(10 * time.Second):
		t.Fatal("the proxy did not read on after the client went away")
	}
	answer := `{"jsonrpc":"2.0","id":"e1","result":{"action":"decline"}}`
	if resp, text := post(t, srv.URL+"/mcp", http.Header{"Mcp-Session-Id": {session}}, answer); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("the answer to a request the client was never sent: HTTP %d %s, want 400", resp.StatusCode, text)
	}
}
