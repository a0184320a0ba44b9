package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/backfill/internal/testkit"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const remoteToken = "Bearer remote-t0ken-secret"

// remoteServer serves the test server's tools over Streamable HTTP on loopback, behind a check of
// the Authorization header; it counts the requests refused. go-sdk serves 2026-07-28 only
// stateless, and server-sent requests (the 2025-11-25 flow) only with sessions.
func remoteServer(t *testing.T, stateless bool) (string, *atomic.Int32) {
	return remoteServerWith(t, &mcp.StreamableHTTPOptions{Stateless: stateless})
}

func remoteServerWith(t *testing.T, opts *mcp.StreamableHTTPOptions) (string, *atomic.Int32) {
	s := testkit.NewAgentServer()
	addMRTRTools(s)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, opts)
	var refused atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != remoteToken {
			refused.Add(1)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		if r.Method == http.MethodPost {
			// After initialize (or with server/discover's per-request version), every POST
			// names the protocol version.
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			if !bytes.Contains(body, []byte(`"method":"initialize"`)) && r.Header.Get("Mcp-Protocol-Version") == "" {
				t.Errorf("a POST without Mcp-Protocol-Version: %.200s", body)
			}
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp", &refused
}

// remoteProxy is the proxy as a process in front of a remote server.
func remoteProxy(p provider, baseURL, endpoint string, stderr *syncBuffer, env ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-provider", p.name, "-model", p.model, "-retry-backoff", "1ms", "-kill-after", "2s", "--", endpoint)
	cmd.Env = environ(append([]string{p.keyVar + "=test-key", p.urlVar + "=" + baseURL}, env...)...)
	cmd.Stderr = stderr
	return cmd
}

// TestProxyRemote: the proxy speaks Streamable HTTP to a remote go-sdk server, with the auth
// header from the environment (never logged); both flows work over it: the client at its default
// version (2026-07-28, input_required rounds) and at 2025-11-25 (server-sent sampling requests).
func TestProxyRemote(t *testing.T) {
	for _, p := range providers {
		for _, tt := range []struct{ version, tool string }{{"", "agent-mrtr"}, {"", "confirm-agent"}, {"2025-11-25", "agent"}} {
			t.Run(p.name+"/"+tt.tool, func(t *testing.T) {
				endpoint, refused := remoteServer(t, tt.version == "")
				fake, url := fakeProvider(t, p, recorded(p.replies...))
				var stderr syncBuffer
				cmd := remoteProxy(p, url, endpoint, &stderr, headersVar+"=Authorization: "+remoteToken)
				opts := &mcp.ClientOptions{ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					return &mcp.ElicitResult{Action: "decline"}, nil
				}}
				cs := connectAt(t, &mcp.CommandTransport{Command: cmd}, tt.version, opts)
				want := tt.version
				if want == "" {
					want = "2026-07-28"
				}
				if v := cs.InitializeResult().ProtocolVersion; v != want {
					t.Fatalf("negotiated %s, want %s\nstderr:\n%s", v, want, stderr.String())
				}
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				defer cancel()
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tt.tool, Arguments: map[string]any{"prompt": prompt}})
				if err != nil {
					t.Fatalf("calling %s: %v\nstderr:\n%s", tt.tool, err, stderr.String())
				}
				want = finalAnswer
				if tt.tool == "confirm-agent" {
					want = "confirmed=decline " + finalAnswer
				}
				if text := res.Content[0].(*mcp.TextContent).Text; res.IsError || text != want {
					t.Fatalf("%s answered (isError %v) %q\nstderr:\n%s", tt.tool, res.IsError, text, stderr.String())
				}
				checkSecondRequest(t, p, fake)
				if err := cs.Close(); err != nil {
					t.Errorf("closing: %v", err)
				}
				if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 0 {
					t.Errorf("proxy exit: %v\nstderr:\n%s", cmd.ProcessState, stderr.String())
				}
				if n := refused.Load(); n != 0 {
					t.Errorf("%d requests came without the header", n)
				}
				log := stderr.String()
				if strings.Contains(log, "remote-t0ken") {
					t.Errorf("the log shows the header's value:\n%s", log)
				}
				if !strings.Contains(log, "serving a remote server") || !strings.Contains(log, "Authorization") {
					t.Errorf("the log does not say which headers it sends:\n%s", log)
				}
			})
		}
	}
}

// TestProxyRemoteRefused: without the header the remote server refuses (HTTP 401): the client's
// requests are answered with errors that say so, rather than hang.
func TestProxyRemoteRefused(t *testing.T) {
	p := providers[0]
	endpoint, refused := remoteServer(t, false)
	_, url := fakeProvider(t, p, recorded(p.replies...))
	var stderr syncBuffer
	cmd := remoteProxy(p, url, endpoint, &stderr)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "proxy-test-client", Version: "1.0.0"}, nil)
	_, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err == nil || refused.Load() == 0 {
		t.Fatalf("connected without the header (err %v, refused %d)\nstderr:\n%s", err, refused.Load(), stderr.String())
	}
	if !strings.Contains(err.Error(), "the remote server answered HTTP 401 Unauthorized") {
		t.Errorf("the client's error does not say why: %v", err)
	}
	if !strings.Contains(stderr.String(), "Unauthorized") {
		t.Errorf("the log does not say the server refused:\n%s", stderr.String())
	}
}

// TestProxyRemoteLargeResponse: a JSON response over -max-message-bytes is not read whole; the
// client gets an error for its request, and the session goes on.
func TestProxyRemoteLargeResponse(t *testing.T) {
	p := providers[0]
	endpoint, _ := remoteServerWith(t, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	fake, url := fakeProvider(t, p, recorded(p.replies...))
	var stderr syncBuffer
	cmd := remoteProxy(p, url, endpoint, &stderr, headersVar+"=Authorization: "+remoteToken)
	cmd.Args = append(cmd.Args[:1], append([]string{"-max-message-bytes", "1048576"}, cmd.Args[1:]...)...)
	cs := connectAt(t, &mcp.CommandTransport{Command: cmd}, "", nil)
	defer cs.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "big", Arguments: map[string]any{"bytes": 3 << 20}})
	if err == nil || !strings.Contains(err.Error(), "larger than the proxy's limit") {
		t.Fatalf("a 3 MB response: %v\nstderr:\n%s", err, stderr.String())
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "agent-mrtr", Arguments: map[string]any{"prompt": prompt}})
	if err != nil || res.IsError || res.Content[0].(*mcp.TextContent).Text != finalAnswer {
		t.Fatalf("after the large response: %v %v\nstderr:\n%s", err, res, stderr.String())
	}
	checkSecondRequest(t, p, fake)
}
