package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/backfill/internal/testkit"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The test binary plays three parts: the tests; the proxy itself (main, when
// SAMPLING_PROXY_TEST_MAIN=1), started by the tests as a real process; and the MCP server behind
// the proxy (when its first argument says so), started by the proxy.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case "test-server":
			serverHooks()
			s := testkit.NewAgentServer()
			addMRTRTools(s)
			mcp.AddTool(s, &mcp.Tool{Name: "exit", Description: "The server exits with status 4"},
				func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
					os.Exit(4)
					return nil, nil, nil
				})
			if err := s.Run(context.Background(), serverTransport()); err != nil {
				os.Exit(1)
			}
			os.Exit(0)
		case "test-server-stubborn":
			stubbornServer()
		case "test-server-exit-3":
			os.Exit(3)
		case "test-server-no-read":
			noReadServer()
		case "test-server-flood":
			floodServer()
		case "test-stdio-bridge":
			stdioBridge(os.Args[2])
			return
		case "conformance-host":
			conformanceHost(os.Args[len(os.Args)-1])
			os.Exit(0)
		case "conformance-auth-client", "conformance-auth-login-client":
			conformanceAuthClient(os.Args[2:], os.Args[1] == "conformance-auth-login-client")
		}
	}
	if os.Getenv("SAMPLING_PROXY_TEST_MAIN") == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

// syncBuffer collects a process's stderr.
type syncBuffer struct {
	mu      sync.Mutex
	b       bytes.Buffer
	waiters map[string]chan struct{}
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, err := s.b.Write(p)
	for text, ch := range s.waiters {
		if bytes.Contains(s.b.Bytes(), []byte(text)) {
			close(ch)
			delete(s.waiters, text)
		}
	}
	return n, err
}

// await returns a channel closed once the buffer holds text.
func (s *syncBuffer) await(text string) <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := make(chan struct{})
	if bytes.Contains(s.b.Bytes(), []byte(text)) {
		close(ch)
		return ch
	}
	if s.waiters == nil {
		s.waiters = map[string]chan struct{}{}
	}
	s.waiters[text] = ch
	return ch
}

// waitFor waits until the buffer holds text.
func (s *syncBuffer) waitFor(t *testing.T, text string) {
	t.Helper()
	select {
	case <-s.await(text):
	case <-time.After(20 * time.Second):
		t.Fatalf("stderr never said %q:\n%s", text, s.String())
	}
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// environ is the environment without the providers' variables, plus env.
func environ(env ...string) []string {
	var out []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "ANTHROPIC_") && !strings.HasPrefix(kv, "OPENAI_") && !strings.HasPrefix(kv, "SAMPLING_PROXY_TEST_MAIN=") {
			out = append(out, kv)
		}
	}
	return append(append(out, "SAMPLING_PROXY_TEST_MAIN=1"), env...)
}

type provider struct {
	name, path, model, keyVar, urlVar string
	replies                           []string
}

var providers = []provider{
	{"anthropic", "/v1/messages", "claude-sonnet-4-5", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL",
		[]string{"e2e/anthropic/1_tool_use.json", "e2e/anthropic/2_final.json"}},
	{"openai", "/chat/completions", "gpt-4.1", "OPENAI_API_KEY", "OPENAI_BASE_URL",
		[]string{"e2e/openai/1_tool_calls.json", "e2e/openai/2_final.json"}},
}

// proxyCommand is the proxy as a process, in front of the test server, on a fake provider.
func proxyCommand(t *testing.T, p provider, baseURL string, stderr io.Writer, flags ...string) *exec.Cmd {
	args := append([]string{"-provider", p.name, "-model", p.model, "-retry-backoff", "1ms", "-kill-after", "2s"}, flags...)
	args = append(args, "--", os.Args[0], "test-server")
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = environ(p.keyVar+"=test-key", p.urlVar+"="+baseURL)
	cmd.Stderr = stderr
	return cmd
}

func fakeProvider(t *testing.T, p provider, replies []testkit.Reply) (*testkit.Provider, string) {
	fake := &testkit.Provider{Path: p.path, Replies: replies}
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	return fake, srv.URL
}

func recorded(paths ...string) []testkit.Reply {
	var out []testkit.Reply
	for _, p := range paths {
		out = append(out, testkit.RecordedReply(p))
	}
	return out
}

const prompt = "What's the weather like in Paris and London?"
const finalAnswer = "Based on the current weather data:\n\n- **Paris**: 18°C and partly cloudy - quite pleasant!\n- **London**: 15°C and rainy - you'll want an umbrella.\n\nParis has slightly warmer and drier conditions today."

func callAgent(t *testing.T, cs *mcp.ClientSession) (string, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "agent", Arguments: map[string]any{"prompt": prompt}})
	if err != nil {
		t.Fatalf("calling the agent tool: %v", err)
	}
	return res.Content[0].(*mcp.TextContent).Text, res.IsError
}

func connect(t *testing.T, transport mcp.Transport) *mcp.ClientSession {
	return connectAt(t, transport, "2025-11-25", nil)
}

// connectAt connects a go-sdk client at a protocol version ("" is go-sdk's default).
func connectAt(t *testing.T, transport mcp.Transport, version string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "proxy-test-client", Version: "1.0.0"}, opts)
	var copts *mcp.ClientSessionOptions
	if version != "" {
		copts = &mcp.ClientSessionOptions{ProtocolVersion: version}
	}
	cs, err := client.Connect(ctx, transport, copts)
	if err != nil {
		t.Fatalf("connecting: %v", err)
	}
	return cs
}

// TestProxy runs the proxy as a process between a go-sdk client and the test server, on a fake
// provider that replays recorded answers: the server's tool loop must reach its final answer
// through the provider, and the proxy must exit with status 0 when the client closes.
func TestProxy(t *testing.T) {
	for _, p := range providers {
		t.Run(p.name, func(t *testing.T) {
			fake, url := fakeProvider(t, p, recorded(p.replies...))
			var stderr syncBuffer
			cmd := proxyCommand(t, p, url, &stderr)
			cs := connect(t, &mcp.CommandTransport{Command: cmd})
			text, isError := callAgent(t, cs)
			if isError || text != finalAnswer {
				t.Fatalf("agent answered (isError %v) %q\nstderr:\n%s", isError, text, stderr.String())
			}
			reqs := fake.Requests()
			if len(reqs) != 2 {
				t.Fatalf("the provider got %d requests, want 2", len(reqs))
			}
			want, _ := os.ReadFile(filepath.Join(testkit.TestdataDir(), "requests", "tool_results", p.name+".json"))
			var got, wantV any
			json.Unmarshal(reqs[1].Body, &got)
			json.Unmarshal(want, &wantV)
			if !reflect.DeepEqual(got, wantV) {
				t.Errorf("second provider request:\n%s\nwant:\n%s", reqs[1].Body, want)
			}
			if err := cs.Close(); err != nil {
				t.Errorf("closing: %v", err)
			}
			if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 0 {
				t.Errorf("proxy exit: %v\nstderr:\n%s", cmd.ProcessState, stderr.String())
			}
			log := stderr.String()
			for _, want := range []string{"advertising sampling with tools", "answered sampling request", "client closed its stream", "server exited"} {
				if !strings.Contains(log, want) {
					t.Errorf("stderr lacks %q:\n%s", want, log)
				}
			}
		})
	}
}

// TestProxyProviderFailures: failures that pass are retried (the tool loop still ends); failures
// that last are answered with a JSON-RPC error, which the server's tool reports.
func TestProxyProviderFailures(t *testing.T) {
	overloaded := testkit.Reply{Status: 529, Body: `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`}
	rateLimited := testkit.Reply{Status: 429, Header: map[string]string{"Retry-After": "0"}, Body: `{"type":"error","error":{"type":"rate_limit_error","message":"rate limited"}}`}
	for _, p := range providers {
		t.Run(p.name+"/transient", func(t *testing.T) {
			replies := append([]testkit.Reply{rateLimited, overloaded}, recorded(p.replies...)...)
			fake, url := fakeProvider(t, p, replies)
			var stderr syncBuffer
			cs := connect(t, &mcp.CommandTransport{Command: proxyCommand(t, p, url, &stderr)})
			defer cs.Close()
			text, isError := callAgent(t, cs)
			if isError || text != finalAnswer {
				t.Fatalf("agent answered (isError %v) %q\nstderr:\n%s", isError, text, stderr.String())
			}
			if n := len(fake.Requests()); n != 4 {
				t.Errorf("the provider got %d requests, want 4", n)
			}
			if !strings.Contains(stderr.String(), "retrying") {
				t.Errorf("no retry logged:\n%s", stderr.String())
			}
		})
		t.Run(p.name+"/persistent", func(t *testing.T) {
			fake, url := fakeProvider(t, p, []testkit.Reply{overloaded})
			var stderr syncBuffer
			cs := connect(t, &mcp.CommandTransport{Command: proxyCommand(t, p, url, &stderr, "-max-attempts", "2")})
			defer cs.Close()
			text, isError := callAgent(t, cs)
			if !isError || !strings.Contains(text, "HTTP 529") || !strings.Contains(text, "after 2 attempts") {
				t.Fatalf("agent answered (isError %v) %q, want the provider's failure", isError, text)
			}
			if n := len(fake.Requests()); n != 2 {
				t.Errorf("the provider got %d requests, want 2", n)
			}
		})
	}
}

// TestProxyMissingKey: without the provider's key the proxy fails at once, before starting the
// server, and says what is missing.
func TestProxyMissingKey(t *testing.T) {
	for _, p := range providers {
		t.Run(p.name, func(t *testing.T) {
			marker := filepath.Join(t.TempDir(), "started")
			cmd := exec.Command(os.Args[0], "-provider", p.name, "-model", p.model, "--", "sh", "-c", "touch "+marker)
			cmd.Env = environ(p.urlVar + "=http://127.0.0.1:1")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err := cmd.Run()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 2 {
				t.Fatalf("got %v, want exit status 2", err)
			}
			if want := p.keyVar + " is not set"; !strings.Contains(stderr.String(), want) {
				t.Errorf("stderr %q lacks %q", stderr.String(), want)
			}
			if _, err := os.Stat(marker); err == nil {
				t.Error("the server was started")
			}
		})
	}
}

func TestUsageErrors(t *testing.T) {
	env := func(name string) string {
		if strings.HasSuffix(name, "_API_KEY") {
			return "key"
		}
		return ""
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-model", "m", "--", "srv"}, "-provider is required"},
		{[]string{"-provider", "gemini", "-model", "m", "--", "srv"}, `unknown provider "gemini"`},
		{[]string{"-provider", "openai", "--", "srv"}, "-model is required"},
		{[]string{"-provider", "openai", "-model", "m"}, "no server command"},
		{[]string{"-no-such-flag"}, "flag provided but not defined"},
		{[]string{"-provider", "openai", "-model", "m", "-model-map", "sonnet", "--", "srv"}, `model map entry "sonnet": want name=model`},
		{[]string{"-provider", "openai", "-model", "m", "-header", "Authorization: x", "--", "srv"}, "are for a remote server"},
		{[]string{"-provider", "openai", "-model", "m", "-header", "Bearer s3cret", "--", "https://h/mcp"}, `header 1 (SAMPLING_PROXY_HEADERS first, then -header): want "Name: value"`},
		{[]string{"-provider", "openai", "-model", "m", "-oauth-client-id", "c", "--", "srv"}, "the -oauth flags are for a remote server"},
		{[]string{"-provider", "openai", "-model", "m", "-oauth-client-secret", "s3cret", "--", "https://h/mcp"}, "needs -oauth-client-id"},
		{[]string{"-oauth-login", "--", "srv"}, "-oauth-login needs the remote server's URL"},
		{[]string{"-oauth-login", "-oauth=false", "--", "https://h/mcp"}, "contradict"},
		{[]string{"-oauth-login", "-oauth-client-id", "c", "-oauth-redirect-url", "http://example.com/cb", "--", "https://h/mcp"}, "not a loopback http URL"},
	} {
		var stderr bytes.Buffer
		code := run(tt.args, strings.NewReader(""), io.Discard, &stderr, env)
		if strings.Contains(stderr.String(), "s3cret") {
			t.Errorf("%v: the error shows a header's value: %s", tt.args, stderr.String())
		}
		if code != 2 || !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("%v: status %d, stderr %q; want 2 and %q", tt.args, code, stderr.String(), tt.want)
		}
	}
	var stderr bytes.Buffer
	if code := run([]string{"-provider", "openai", "-model", "m", "--", "/no/such/server"}, strings.NewReader(""), io.Discard, &stderr, env); code != 1 || !strings.Contains(stderr.String(), "starting the server") {
		t.Errorf("a server that cannot start: status %d, stderr %q", code, stderr.String())
	}
}

// TestProxyServerExits: when the server exits, the proxy exits too, with the server's status, and
// the client sees the end of the stream.
func TestProxyServerExits(t *testing.T) {
	p := providers[0]
	_, url := fakeProvider(t, p, recorded(p.replies...))

	t.Run("at once", func(t *testing.T) {
		cmd := exec.Command(os.Args[0], "-provider", p.name, "-model", p.model, "--", os.Args[0], "test-server-exit-3")
		cmd.Env = environ(p.keyVar+"=k", p.urlVar+"="+url)
		stdin, _ := cmd.StdinPipe() // the client stays connected
		defer stdin.Close()
		var stderr syncBuffer
		cmd.Stderr = &stderr
		done := make(chan error, 1)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 3 {
				t.Errorf("got %v, want exit status 3\nstderr:\n%s", err, stderr.String())
			}
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("the proxy did not exit\nstderr:\n%s", stderr.String())
		}
	})

	t.Run("during a session", func(t *testing.T) {
		var stderr syncBuffer
		cmd := proxyCommand(t, p, url, &stderr)
		stdin, _ := cmd.StdinPipe()
		stdout, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cs := connect(t, &mcp.IOTransport{Reader: stdout, Writer: stdin})
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "exit", Arguments: map[string]any{}}); err == nil {
			t.Error("the call succeeded, though the server exited")
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 4 {
				t.Errorf("got %v, want exit status 4\nstderr:\n%s", err, stderr.String())
			}
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("the proxy did not exit\nstderr:\n%s", stderr.String())
		}
		cs.Close()
	})
}

// TestProxySignal: on SIGTERM the proxy stops the server and exits.
func TestProxySignal(t *testing.T) {
	p := providers[1]
	_, url := fakeProvider(t, p, recorded(p.replies...))
	var stderr syncBuffer
	cmd := proxyCommand(t, p, url, &stderr)
	stdin, _ := cmd.StdinPipe()
	defer stdin.Close()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stderr.waitFor(t, "started the server")
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("exit: %v\nstderr:\n%s", err, stderr.String())
		}
		if !strings.Contains(stderr.String(), "stopped by a signal") {
			t.Errorf("stderr:\n%s", stderr.String())
		}
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("the proxy did not exit on SIGTERM\nstderr:\n%s", stderr.String())
	}
}
