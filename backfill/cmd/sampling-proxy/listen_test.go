package main

import (
	"context"
	"os"
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
				cs := connectAt(t, &mcp.StreamableClientTransport{Endpoint: endpoint}, tt.version, opts)
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
