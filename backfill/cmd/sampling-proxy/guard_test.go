package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/backfill/internal/testkit"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// stubbornServer is the agent server, which ignores SIGTERM and does not exit when its input
// ends: only SIGKILL stops it.
func stubbornServer() {
	signal.Ignore(syscall.SIGTERM, syscall.SIGINT)
	serverHooks()
	testkit.NewAgentServer().Run(context.Background(), &mcp.StdioTransport{})
	select {}
}

// listenProxy starts the proxy with -listen on a free loopback port, with env and args before
// "--", in front of server (a URL or a command); it returns the endpoint's URL.
func listenProxy(t *testing.T, p provider, providerURL string, env, args []string, stderr *syncBuffer, server ...string) string {
	t.Helper()
	port := freePort(t)
	args = append(append(append([]string{"-provider", p.name, "-model", p.model, "-listen", fmt.Sprintf("127.0.0.1:%d", port)}, args...), "--"), server...)
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = environ(append([]string{p.keyVar + "=test-key", p.urlVar + "=" + providerURL}, env...)...)
	cmd.Stderr = stderr
	started := stderr.await("serving MCP clients")
	startProcess(t, cmd)
	select {
	case <-started:
	case <-time.After(30 * time.Second):
		t.Fatalf("the proxy did not start:\n%s", stderr.String())
	}
	return fmt.Sprintf("http://127.0.0.1:%d/mcp", port)
}

// rawPost posts body to endpoint with the headers given ("Name: value"), and returns the status
// and the body of the answer.
func rawPost(t *testing.T, endpoint, body string, header ...string) (int, string, http.Header) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for _, h := range header {
		name, value, _ := strings.Cut(h, ": ")
		req.Header.Set(name, value)
	}
	resp, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
	if err != nil {
		t.Fatalf("POST: %v", err)
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp.StatusCode, string(data), resp.Header
}

const initRequest = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`

// TestListenTokenMade: with neither SAMPLING_PROXY_CLIENT_TOKEN nor a token file, -listen on
// loopback still requires a token: one made at start in a file of mode 0600 under the user's
// config directory (its path logged), kept for the next start. A client without it (another
// user of the machine) gets HTTP 401 and spends nothing; one with it is served.
func TestListenTokenMade(t *testing.T) {
	p := providers[0]
	fake, providerURL := fakeProvider(t, p, recorded(p.replies...))
	dir := t.TempDir()
	env := []string{"XDG_CONFIG_HOME=" + dir, "HOME=" + dir}
	var stderr syncBuffer
	endpoint := listenProxy(t, p, providerURL, env, nil, &stderr, os.Args[0], "test-server")
	file := filepath.Join(dir, "mcpgen", "sampling-proxy", "client-token")
	info, err := os.Stat(file)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("the token file: %v %v\n%s", info, err, stderr.String())
	}
	if !strings.Contains(stderr.String(), file) {
		t.Errorf("the log does not name the token file:\n%s", stderr.String())
	}
	call := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"agent","arguments":{"prompt":"hi"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	for _, body := range []string{initRequest, call} {
		if status, text, _ := rawPost(t, endpoint, body); status != http.StatusUnauthorized {
			t.Errorf("without the token: HTTP %d %s, want 401", status, text)
		}
		if status, text, _ := rawPost(t, endpoint, body, "Authorization: Bearer wrong-token-0123456789"); status != http.StatusUnauthorized {
			t.Errorf("with another token: HTTP %d %s, want 401", status, text)
		}
	}
	if n := len(fake.Requests()); n != 0 {
		t.Fatalf("clients without the token had the provider called %d times", n)
	}
	data, _ := os.ReadFile(file)
	token := strings.TrimSpace(string(data))
	client := &http.Client{Transport: headerRoundTripper{"Authorization", "Bearer " + token}}
	cs := connect(t, &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: client})
	if text, isError := callAgent(t, cs); isError || text != finalAnswer {
		t.Errorf("with the token: (isError %v) %q", isError, text)
	}
	cs.Close()
	if strings.Contains(stderr.String(), token) {
		t.Errorf("the log shows the token")
	}

	// The next start keeps the token; a file that others may read is refused.
	var again syncBuffer
	endpoint = listenProxy(t, p, providerURL, env, nil, &again, os.Args[0], "test-server")
	if status, text, _ := rawPost(t, endpoint, initRequest, "Authorization: Bearer "+token); status != http.StatusOK {
		t.Errorf("the token at the next start: HTTP %d %s", status, text)
	}
	os.Chmod(file, 0o644)
	cmd := exec.Command(os.Args[0], "-provider", p.name, "-model", p.model, "-listen", "127.0.0.1:0", "--", os.Args[0], "test-server")
	cmd.Env = environ(append([]string{p.keyVar + "=test-key"}, env...)...)
	out, err := cmd.CombinedOutput()
	if code := cmd.ProcessState.ExitCode(); code != 2 || !strings.Contains(string(out), "chmod 600") {
		t.Errorf("a token file of mode 0644: status %d %v, %s", code, err, out)
	}
}

// TestListenPublicNeedsToken: -listen-public without a token does not start, whatever the
// address (loopback too); with one, a request naming a foreign host (DNS rebinding) and no token
// is refused.
func TestListenPublicNeedsToken(t *testing.T) {
	p := providers[0]
	cmd := exec.Command(os.Args[0], "-provider", p.name, "-model", p.model, "-listen", "127.0.0.1:0", "-listen-public", "--", os.Args[0], "test-server")
	cmd.Env = environ(p.keyVar + "=test-key")
	done := make(chan struct{})
	var out []byte
	go func() { out, _ = cmd.CombinedOutput(); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		<-done
	}
	if code := cmd.ProcessState.ExitCode(); code != 2 || !strings.Contains(string(out), "-listen-public needs "+clientTokenVar) {
		t.Errorf("-listen 127.0.0.1 -listen-public without a token: status %d, %s", code, out)
	}
	_, providerURL := fakeProvider(t, p, recorded(p.replies...))
	var stderr syncBuffer
	endpoint := listenProxy(t, p, providerURL, []string{clientTokenVar + "=" + testClientToken}, []string{"-listen-public"}, &stderr, os.Args[0], "test-server")
	host := "Host: evil.example:" + endpoint[len("http://127.0.0.1:"):len(endpoint)-len("/mcp")]
	if status, text, _ := rawPost(t, endpoint, initRequest, host); status != http.StatusUnauthorized {
		t.Errorf("a foreign Host without the token: HTTP %d %s, want 401", status, text)
	}
}

// lifelines counts the test servers alive: each holds a connection to l while it lives.
func lifelines(l net.Listener) (alive, peak *atomic.Int32) {
	alive, peak = new(atomic.Int32), new(atomic.Int32)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			n := alive.Add(1)
			for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
			}
			go func() {
				io.Copy(io.Discard, c)
				alive.Add(-1)
			}()
		}
	}()
	return alive, peak
}

// TestListenServerProcessesBounded: servers that ignore the end of their input and SIGTERM, 3
// clients looping initialize and one looping requests outside a session: the server processes
// alive at once never outnumber -max-sessions.
func TestListenServerProcessesBounded(t *testing.T) {
	p := providers[0]
	_, providerURL := fakeProvider(t, p, recorded(p.replies...))
	path, l := lifelineListener(t)
	alive, peak := lifelines(l)
	var stderr syncBuffer
	endpoint := listenProxy(t, p, providerURL, []string{clientTokenVar + "=" + testClientToken, socketVar + "=" + path},
		[]string{"-max-sessions", "4", "-max-client-sessions", "4", "-kill-after", "300ms"}, &stderr, os.Args[0], "test-server-stubborn")
	auth := "Authorization: Bearer " + testClientToken
	list := `{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	var wg sync.WaitGroup
	var served, refused atomic.Int32
	stop := time.Now().Add(8 * time.Second)
	for i := range 4 {
		wg.Go(func() {
			body := initRequest
			if i == 3 {
				body = list
			}
			for time.Now().Before(stop) {
				switch status, _, _ := rawPost(t, endpoint, body, auth); status {
				case http.StatusOK:
					served.Add(1)
				case http.StatusServiceUnavailable:
					refused.Add(1)
				}
			}
		})
	}
	wg.Wait()
	t.Logf("%d sessions served, %d refused (503); at most %d server processes alive at once, %d now", served.Load(), refused.Load(), peak.Load(), alive.Load())
	if n := peak.Load(); n > 4 {
		t.Errorf("%d server processes were alive at once, want at most 4 (-max-sessions)", n)
	}
	if served.Load() <= 4 {
		t.Errorf("only %d sessions were served: the stopped ones did not make room\n%s", served.Load(), stderr.String())
	}
}

// TestListenTimeouts: with -read-timeout, a body cut short is refused and an idle keep-alive
// connection closed; with -idle-timeout, an idle session ends and its server process exits.
func TestListenTimeouts(t *testing.T) {
	p := providers[0]
	_, providerURL := fakeProvider(t, p, recorded(p.replies...))
	path, l := lifelineListener(t)
	var stderr syncBuffer
	endpoint := listenProxy(t, p, providerURL, []string{clientTokenVar + "=" + testClientToken, socketVar + "=" + path},
		[]string{"-read-timeout", "500ms", "-idle-timeout", "500ms"}, &stderr, os.Args[0], "test-server")
	addr := strings.TrimSuffix(strings.TrimPrefix(endpoint, "http://"), "/mcp")
	status, _, header := rawPost(t, endpoint, initRequest, "Authorization: Bearer "+testClientToken)
	if status != http.StatusOK {
		t.Fatalf("initialize: HTTP %d", status)
	}
	server := accept(t, l)
	awaitDeath(t, server, "after -idle-timeout")
	if status, _, _ := rawPost(t, endpoint, `{"jsonrpc":"2.0","id":2,"method":"ping"}`, "Authorization: Bearer "+testClientToken, "Mcp-Session-Id: "+header.Get("Mcp-Session-Id")); status != http.StatusNotFound {
		t.Errorf("the idle session: HTTP %d, want 404", status)
	}
	for _, tt := range []struct{ name, send string }{
		{"a body cut short", "POST /mcp HTTP/1.1\r\nHost: " + addr + "\r\nAuthorization: Bearer " + testClientToken + "\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\""},
		{"headers cut short", "POST /mcp HTTP/1.1\r\nHost: " + addr + "\r\n"},
		{"an idle connection", "GET /nothing HTTP/1.1\r\nHost: " + addr + "\r\n\r\n"},
	} {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(conn, tt.send)
		conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		br := bufio.NewReader(conn)
		if resp, err := http.ReadResponse(br, nil); err == nil {
			io.Copy(io.Discard, resp.Body)
			if tt.name == "a body cut short" && resp.StatusCode != http.StatusRequestTimeout {
				t.Errorf("%s: HTTP %d, want 408", tt.name, resp.StatusCode)
			}
		}
		if _, err := br.ReadByte(); err != io.EOF {
			t.Errorf("%s: the connection is still open after -read-timeout: %v", tt.name, err)
		}
		conn.Close()
	}
}

// slowProvider is a fake provider replaying the tool loop's answers, the first after 2 seconds:
// the server's first sampling request waits meanwhile.
func slowProvider(t *testing.T, p provider) (*testkit.Provider, string) {
	replies := recorded(p.replies...)
	replies[0].Delay = 2 * time.Second
	return fakeProvider(t, p, replies)
}

// awaitCalled waits (20 seconds at most) until the provider was called.
func awaitCalled(fake *testkit.Provider) {
	deadline := time.Now().Add(20 * time.Second)
	for len(fake.Requests()) == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
}

// forged is a client's sampling result for id, a request it was never sent.
func forged(id string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"result":{"role":"assistant","content":{"type":"text","text":"the client's answer"},"model":"m","stopReason":"endTurn"}}`
}

// TestListenForeignResponse: while the proxy answers the server's sampling request (2025-11-25)
// through the provider, a client posting responses to the server's request ids is refused (HTTP
// 400): the server's tool gets the provider's answer, not the client's, and the provider is
// called as often as the tool loop needs, no more.
func TestListenForeignResponse(t *testing.T) {
	p := providers[0]
	fake, providerURL := slowProvider(t, p)
	var stderr syncBuffer
	endpoint := listenProxy(t, p, providerURL, []string{clientTokenVar + "=" + testClientToken}, nil, &stderr, os.Args[0], "test-server")
	cs := connect(t, &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: tokenClient})
	defer cs.Close()
	type answer struct {
		text    string
		isError bool
	}
	done := make(chan answer, 1)
	go func() {
		text, isError := callAgent(t, cs)
		done <- answer{text, isError}
	}()
	awaitCalled(fake)
	for _, id := range []string{"0", "1", "2", "3", `"s1"`, `"1"`} {
		if status, text, _ := rawPost(t, endpoint, forged(id), "Authorization: Bearer "+testClientToken, "Mcp-Session-Id: "+cs.ID()); status != http.StatusBadRequest {
			t.Errorf("a response to id %s, which the client was never sent: HTTP %d %s, want 400", id, status, text)
		}
	}
	got := <-done
	if got.isError || got.text != finalAnswer {
		t.Errorf("the tool answered (isError %v) %q, want the provider's answer", got.isError, got.text)
	}
	if n := len(fake.Requests()); n != 2 {
		t.Errorf("the provider was called %d times, want 2 (the tool loop's two rounds)", n)
	}
}

// TestStdioForeignResponse: on stdio too, while the proxy answers the server's sampling request
// (2025-11-25) through the provider, the client's responses to ids it was never sent (the
// server's sampling request's among them) are dropped: the server never reads them, its tool
// gets the provider's answer, and the provider is called as often as the tool loop needs.
func TestStdioForeignResponse(t *testing.T) {
	p := providers[0]
	fake, providerURL := slowProvider(t, p)
	var stderr syncBuffer
	cmd := proxyCommand(t, p, providerURL, &stderr)
	received := filepath.Join(t.TempDir(), "received")
	cmd.Env = append(cmd.Env, receivedVar+"="+received)
	toProxy, _ := cmd.StdinPipe()
	fromProxy, _ := cmd.StdoutPipe()
	startProcess(t, cmd)
	lines := make(chan string, 64)
	go func() {
		sc := bufio.NewScanner(fromProxy)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	// awaitID returns the proxy's next line that holds id.
	awaitID := func(id string) string {
		t.Helper()
		for {
			select {
			case line, ok := <-lines:
				if !ok {
					t.Fatalf("the proxy's output ended before the response %s:\n%s", id, stderr.String())
				}
				if strings.Contains(line, `"id":`+id) {
					return line
				}
			case <-time.After(30 * time.Second):
				t.Fatalf("no response %s:\n%s", id, stderr.String())
			}
		}
	}
	io.WriteString(toProxy, initRequest+"\n")
	awaitID("1")
	io.WriteString(toProxy, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	io.WriteString(toProxy, `{"jsonrpc":"2.0","id":"call","method":"tools/call","params":{"name":"agent","arguments":{"prompt":"`+prompt+`"}}}`+"\n")
	awaitCalled(fake)
	for _, id := range []string{"0", "1", "2", "3", `"s1"`, `"1"`, `"call"`} {
		io.WriteString(toProxy, forged(id)+"\n")
	}
	var res struct {
		Result mcp.CallToolResult `json:"result"`
	}
	if err := json.Unmarshal([]byte(awaitID(`"call"`)), &res); err != nil || len(res.Result.Content) == 0 {
		t.Fatalf("the tool's answer does not decode: %v", err)
	}
	if text, ok := res.Result.Content[0].(*mcp.TextContent); !ok || res.Result.IsError || text.Text != finalAnswer {
		t.Errorf("the tool answered (isError %v) %#v, want the provider's answer", res.Result.IsError, res.Result.Content[0])
	}
	if n := len(fake.Requests()); n != 2 {
		t.Errorf("the provider was called %d times, want 2 (the tool loop's two rounds)", n)
	}
	toProxy.Close()
	cmd.Wait()
	log, _ := os.ReadFile(received)
	if !strings.Contains(string(log), "tools/call") || strings.Contains(string(log), "the client's answer") {
		t.Errorf("the server read:\n%s", log)
	}
	if n := strings.Count(stderr.String(), "dropped a response from the client that answers no request sent to it"); n != 7 {
		t.Errorf("the proxy logged %d dropped responses, want 7:\n%s", n, stderr.String())
	}
}
