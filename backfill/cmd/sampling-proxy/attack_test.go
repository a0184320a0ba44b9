package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http/httptest"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/backfill/internal/testkit"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The test server's hooks, set by the tests through its environment.
const (
	// socketVar names a unix socket the server connects to and holds while it lives.
	socketVar = "TEST_SERVER_SOCKET"
	// stderrVar is written to the server's stderr when it starts.
	stderrVar = "TEST_SERVER_STDERR"
	// receivedVar names a file where the server logs every message it reads and writes.
	receivedVar = "TEST_SERVER_RECEIVED"
)

var lifeline net.Conn

// serverHooks runs the hooks of the test server's environment.
func serverHooks() {
	if path := os.Getenv(socketVar); path != "" {
		c, err := net.Dial("unix", path)
		if err != nil {
			os.Exit(5)
		}
		lifeline = c
	}
	if text := os.Getenv(stderrVar); text != "" {
		fmt.Fprint(os.Stderr, text)
	}
}

// serverTransport is the test server's stdio, logged to the file receivedVar names, if any.
func serverTransport() mcp.Transport {
	path := os.Getenv(receivedVar)
	if path == "" {
		return &mcp.StdioTransport{}
	}
	f, err := os.Create(path)
	if err != nil {
		os.Exit(5)
	}
	return &mcp.LoggingTransport{Transport: &mcp.StdioTransport{}, Writer: f}
}

// noReadServer never reads its input and ignores SIGTERM: it sends one sampling request and
// waits to be killed.
func noReadServer() {
	signal.Ignore(syscall.SIGTERM, syscall.SIGINT)
	serverHooks()
	fmt.Println(`{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}],"maxTokens":10}}`)
	select {}
}

// lifelineListener listens on a unix socket for the test server's connection.
func lifelineListener(t *testing.T) (string, net.Listener) {
	dir, err := os.MkdirTemp("", "sp")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	path := filepath.Join(dir, "s")
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return path, l
}

// awaitDeath waits until the server's end of the lifeline closes (the server is dead).
func awaitDeath(t *testing.T, c net.Conn, what string) {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(20 * time.Second))
	if _, err := io.ReadAll(c); err != nil {
		t.Fatalf("%s: the server is still alive: %v", what, err)
	}
}

func accept(t *testing.T, l net.Listener) net.Conn {
	t.Helper()
	l.(*net.UnixListener).SetDeadline(time.Now().Add(20 * time.Second))
	c, err := l.Accept()
	if err != nil {
		t.Fatalf("the server did not start: %v", err)
	}
	return c
}

// TestServerEnvironment: the server does not inherit the providers' variables or the remote
// headers (any server, or a tool reached in it by prompt injection, could read the key).
func TestServerEnvironment(t *testing.T) {
	p := providers[0]
	_, url := fakeProvider(t, p, recorded(p.replies...))
	var stderr syncBuffer
	cmd := proxyCommand(t, p, url, &stderr)
	cmd.Env = append(cmd.Env, "OPENAI_API_KEY=other-key", "ANTHROPIC_AUTH_TOKEN=tok", "OPENAI_BASE_URL=http://x", "KEEP_ME=1")
	cs := connect(t, &mcp.CommandTransport{Command: cmd})
	defer cs.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	names := []string{"ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "ANTHROPIC_AUTH_TOKEN", "OPENAI_API_KEY", "OPENAI_BASE_URL", "KEEP_ME"}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "env", Arguments: map[string]any{"names": names}})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Content[0].(*mcp.TextContent).Text; got != "set: [KEEP_ME]" {
		t.Errorf("the server's environment has %s, want only KEEP_ME", got)
	}
}

// TestLogRedactsCredentials: provider failures are logged without the key or the password of the
// provider's base URL, even when the provider echoes them.
func TestLogRedactsCredentials(t *testing.T) {
	for _, p := range providers {
		t.Run(p.name, func(t *testing.T) {
			const key, password = "sk-secret-key-0123456789", "hunter2-pw"
			fake := &testkit.Provider{Path: p.path, Replies: []testkit.Reply{{Status: 500,
				Body: `{"type":"error","error":{"type":"api_error","message":"bad key sk-secret-key-0123456789 from Authorization: Bearer sk-secret-key-0123456789"}}`}}}
			srv := newLoopback(t, fake)
			base := strings.Replace(srv, "http://", "http://operator:"+password+"@", 1)
			var stderr syncBuffer
			cmd := exec.Command(os.Args[0], "-provider", p.name, "-model", p.model, "-retry-backoff", "1ms", "-max-attempts", "2", "--", os.Args[0], "test-server")
			cmd.Env = environ(p.keyVar+"="+key, p.urlVar+"="+base)
			cmd.Stderr = &stderr
			cs := connect(t, &mcp.CommandTransport{Command: cmd})
			text, isError := callAgent(t, cs)
			cs.Close()
			if !isError {
				t.Fatalf("agent answered %q, want a failure", text)
			}
			log := stderr.String()
			if !strings.Contains(log, "provider call failed") || !strings.Contains(log, "sampling failed") {
				t.Fatalf("the failure is not logged:\n%s", log)
			}
			for _, secret := range []string{key, password} {
				if strings.Contains(log, secret) {
					t.Errorf("the log shows %q:\n%s", secret, log)
				}
			}
		})
	}
}

// TestServerStderrIsNotTheProxysLog: a server cannot forge the proxy's log lines; its stderr is
// logged as records of its own.
func TestServerStderrIsNotTheProxysLog(t *testing.T) {
	p := providers[0]
	_, url := fakeProvider(t, p, recorded(p.replies...))
	var stderr syncBuffer
	cmd := proxyCommand(t, p, url, &stderr)
	forged := "time=2020-01-01T00:00:00.000Z level=INFO msg=\"answered sampling request\" src=sampling-proxy id=99\n"
	cmd.Env = append(cmd.Env, stderrVar+"=server says hi\n"+forged)
	cs := connect(t, &mcp.CommandTransport{Command: cmd})
	cs.Close()
	log := stderr.String()
	for line := range strings.SplitSeq(log, "\n") {
		if strings.HasPrefix(line, "time=2020") {
			t.Errorf("a forged line reached the log as it was: %s", line)
		}
	}
	if !strings.Contains(log, `msg="server stderr" src=server line="server says hi"`) {
		t.Errorf("the server's stderr is not logged as its own:\n%s", log)
	}
}

// TestSignalWhileServerDoesNotRead: a SIGTERM stops the proxy even while its writes to a server
// that does not read its input are blocked, and the server (which ignores SIGTERM) is killed
// after -kill-after twice.
func TestSignalWhileServerDoesNotRead(t *testing.T) {
	p := providers[0]
	_, url := fakeProvider(t, p, recorded(p.replies...))
	path, l := lifelineListener(t)
	var stderr syncBuffer
	cmd := exec.Command(os.Args[0], "-provider", p.name, "-model", p.model, "-kill-after", "200ms", "--", os.Args[0], "test-server-no-read")
	cmd.Env = environ(p.keyVar+"=k", p.urlVar+"="+url, socketVar+"="+path)
	cmd.Stderr = &stderr
	stdin, _ := cmd.StdinPipe()
	defer stdin.Close()
	cmd.Stdout = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	server := accept(t, l)
	// The client floods the proxy; the server reads nothing, so the proxy's writes block.
	go func() {
		line := `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"` + strings.Repeat("z", 32<<10) + `"}}` + "\n"
		for range 64 {
			if _, err := io.WriteString(stdin, line); err != nil {
				return
			}
		}
	}()
	// The sampling answer is ready (and blocked behind the flood) once the provider was asked.
	stderr.waitFor(t, "model answered")
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("the proxy did not exit on SIGTERM\nstderr:\n%s", stderr.String())
	}
	awaitDeath(t, server, "after SIGTERM")
	for _, want := range []string{"stopping on a signal", "sending SIGTERM", "killing it"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
}

// TestServerDiesWithProxy: a SIGKILLed proxy leaves no server behind (Linux: the parent-death
// signal), even one that does not read its input.
func TestServerDiesWithProxy(t *testing.T) {
	p := providers[0]
	_, url := fakeProvider(t, p, recorded(p.replies...))
	path, l := lifelineListener(t)
	cmd := exec.Command(os.Args[0], "-provider", p.name, "-model", p.model, "--", os.Args[0], "test-server-no-read")
	cmd.Env = environ(p.keyVar+"=k", p.urlVar+"="+url, socketVar+"="+path)
	stdin, _ := cmd.StdinPipe()
	defer stdin.Close()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	server := accept(t, l)
	cmd.Process.Kill()
	cmd.Wait()
	awaitDeath(t, server, "after the proxy was killed")
}

// TestMaxMessageBytes: with -max-message-bytes, a larger message is not read whole: a request is
// answered with an error, and the session goes on.
func TestMaxMessageBytes(t *testing.T) {
	p := providers[0]
	fake, url := fakeProvider(t, p, recorded(p.replies...))
	var stderr syncBuffer
	cs := connect(t, &mcp.CommandTransport{Command: proxyCommand(t, p, url, &stderr, "-max-message-bytes", "1048576")})
	defer cs.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "agent", Arguments: map[string]any{"prompt": strings.Repeat("p", 3<<20)}})
	if err == nil || !strings.Contains(err.Error(), "larger than the proxy's limit") {
		t.Errorf("a 3 MB request: %v", err)
	}
	if n := len(fake.Requests()); n != 0 {
		t.Errorf("the provider got %d requests", n)
	}
	if text, isError := callAgent(t, cs); isError || text != finalAnswer {
		t.Errorf("after the large request: (isError %v) %q", isError, text)
	}
}

// newLoopback serves h on loopback and returns its URL.
func newLoopback(t *testing.T, h *testkit.Provider) string {
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}
