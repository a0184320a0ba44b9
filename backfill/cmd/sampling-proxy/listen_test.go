package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestListenFlows: go-sdk clients by URL through -listen, at their default version (2026-07-28:
// input_required rounds, elicitation forwarded) and at 2025-11-25 (server-sent sampling
// requests), in front of a server started on stdio for each session and of a remote one; the
// version negotiated is the one the client and the server would agree on directly.
func TestListenFlows(t *testing.T) {
	p := providers[0]
	for _, upstream := range []string{"stdio", "remote"} {
		for _, tt := range []struct{ version, tool string }{{"", "agent-mrtr"}, {"", "confirm-agent"}, {"2025-11-25", "agent"}} {
			t.Run(upstream+"/"+tt.tool, func(t *testing.T) {
				fake, providerURL := fakeProvider(t, p, recorded(p.replies...))
				var stderr syncBuffer
				var endpoint string
				if upstream == "stdio" {
					endpoint = listeningProxy(t, p, providerURL, &stderr, os.Args[0], "test-server")
				} else {
					remote, _ := remoteServer(t, tt.version == "")
					endpoint = listeningProxyEnv(t, p, providerURL, []string{headersVar + "=Authorization: " + remoteToken}, &stderr, remote)
				}
				opts := &mcp.ClientOptions{ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					return &mcp.ElicitResult{Action: "decline"}, nil
				}}
				cs := connectAt(t, &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: tokenClient}, tt.version, opts)
				defer cs.Close()
				want := tt.version
				if want == "" {
					want = "2026-07-28"
				}
				if v := cs.InitializeResult().ProtocolVersion; v != want {
					t.Fatalf("negotiated %s, want %s\nproxy log:\n%s", v, want, stderr.String())
				}
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				defer cancel()
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tt.tool, Arguments: map[string]any{"prompt": prompt}})
				if err != nil {
					t.Fatalf("calling %s: %v\nproxy log:\n%s", tt.tool, err, stderr.String())
				}
				want = finalAnswer
				if tt.tool == "confirm-agent" {
					want = "confirmed=decline " + finalAnswer
				}
				if text := res.Content[0].(*mcp.TextContent).Text; res.IsError || text != want {
					t.Fatalf("%s answered (isError %v) %q\nproxy log:\n%s", tt.tool, res.IsError, text, stderr.String())
				}
				checkSecondRequest(t, p, fake)
			})
		}
	}
}

func TestListenUsageErrors(t *testing.T) {
	for _, tt := range []struct {
		args  []string
		token string
		want  string
	}{
		{[]string{"-listen", "nonsense"}, "", `-listen "nonsense": want HOST:PORT`},
		{[]string{"-listen", "0.0.0.0:8931"}, "", "is not a loopback address: add -listen-public, and set SAMPLING_PROXY_CLIENT_TOKEN"},
		{[]string{"-listen", "192.0.2.1:8931", "-listen-public"}, "", "-listen-public needs SAMPLING_PROXY_CLIENT_TOKEN"},
		{[]string{"-listen", "0.0.0.0:8931", "-listen-public"}, "short", "16 characters or more"},
		{[]string{"-listen", "127.0.0.1:8931", "-listen-public"}, "", "-listen-public needs SAMPLING_PROXY_CLIENT_TOKEN or -client-token-file"},
		{[]string{"-listen", "127.0.0.1:8931"}, "short", "16 characters or more"},
		{[]string{"-listen", "127.0.0.1:8931", "-read-timeout", "0"}, "", "-read-timeout 0s: want a duration above 0"},
		{[]string{"-listen", "127.0.0.1:8931", "-idle-timeout", "-1s"}, "", "-idle-timeout -1s: want a duration above 0"},
	} {
		env := func(name string) string {
			switch {
			case strings.HasSuffix(name, "_API_KEY"):
				return "key"
			case name == clientTokenVar:
				return tt.token
			}
			return ""
		}
		var stderr bytes.Buffer
		args := append(append([]string{"-provider", "openai", "-model", "m"}, tt.args...), "--", "srv")
		if code := run(args, strings.NewReader(""), io.Discard, &stderr, env); code != 2 || !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("%v: status %d, stderr %q; want 2 and %q", tt.args, code, stderr.String(), tt.want)
		}
	}
}

// TestListenToken: with SAMPLING_PROXY_CLIENT_TOKEN set, a client without the token is refused
// (HTTP 401) and one with it is served; the token is neither logged nor given to the server.
func TestListenToken(t *testing.T) {
	const token = "client-t0ken-0123456789"
	p := providers[0]
	_, providerURL := fakeProvider(t, p, recorded(p.replies...))
	var stderr syncBuffer
	endpoint := listeningProxyEnv(t, p, providerURL, []string{clientTokenVar + "=" + token}, &stderr, os.Args[0], "test-server")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil)
	if _, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint}, nil); err == nil || !strings.Contains(err.Error(), "Unauthorized") {
		t.Fatalf("without the token: %v", err)
	}
	withToken := &http.Client{Transport: headerRoundTripper{"Authorization", "Bearer " + token}}
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: withToken}, nil)
	if err != nil {
		t.Fatalf("with the token: %v", err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "env", Arguments: map[string]any{"names": []string{clientTokenVar}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Content[0].(*mcp.TextContent).Text; got != "set: []" {
		t.Errorf("the server's environment has %s", got)
	}
	if strings.Contains(stderr.String(), token) {
		t.Errorf("the log shows the token:\n%s", stderr.String())
	}
}

// testClientToken is the clients' token of the proxies that the tests start with -listen.
const testClientToken = "test-client-t0ken-0123456789"

// tokenClient sends testClientToken.
var tokenClient = &http.Client{Transport: headerRoundTripper{"Authorization", "Bearer " + testClientToken}}

type headerRoundTripper struct{ name, value string }

func (h headerRoundTripper) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(h.name, h.value)
	return http.DefaultTransport.RoundTrip(r)
}
