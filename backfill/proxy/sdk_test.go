package proxy_test

//lint:file-ignore SA1019 sampling is deprecated from protocol version 2026-07-28; this tests the 2025-11-25 sampling flow, which it remains in.

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	anthropicoption "github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/mcpgen/mcpgen/backfill"
	"github.com/mcpgen/mcpgen/backfill/internal/testkit"
	"github.com/mcpgen/mcpgen/backfill/proxy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/openai/openai-go/v3"
	openaioption "github.com/openai/openai-go/v3/option"
)

// finalAnswer is the text of the recorded final answers in testdata/e2e.
const finalAnswer = "Based on the current weather data:\n\n- **Paris**: 18°C and partly cloudy - quite pleasant!\n- **London**: 15°C and rainy - you'll want an umbrella.\n\nParis has slightly warmer and drier conditions today."

type e2eProvider struct {
	name    string
	path    string
	replies []string
	sampler func(baseURL string) *backfill.Sampler
}

var e2eProviders = []e2eProvider{
	{"anthropic", "/v1/messages", []string{"e2e/anthropic/1_tool_use.json", "e2e/anthropic/2_final.json"},
		func(baseURL string) *backfill.Sampler {
			c := anthropic.NewClient(anthropicoption.WithAPIKey("k"), anthropicoption.WithBaseURL(baseURL))
			return backfill.NewAnthropicSampler(c, "claude-sonnet-4-5", nil)
		}},
	{"openai", "/chat/completions", []string{"e2e/openai/1_tool_calls.json", "e2e/openai/2_final.json"},
		func(baseURL string) *backfill.Sampler {
			c := openai.NewClient(openaioption.WithAPIKey("k"), openaioption.WithBaseURL(baseURL))
			return backfill.NewOpenAISampler(c, "gpt-4.1", nil)
		}},
}

// checkToolResultsRequest checks the provider's second request of TestGoSDKEndToEnd, which
// carries the tool loop's history: it must be the spec's follow-up request for provider, as
// the provider takes it (testdata/requests/tool_results/<provider>.json, compared as JSON).
func checkToolResultsRequest(t *testing.T, provider string, body []byte) {
	t.Helper()
	want, err := os.ReadFile(filepath.Join(testkit.TestdataDir(), "requests", "tool_results", provider+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var got, wantV any
	json.Unmarshal(body, &got)
	json.Unmarshal(want, &wantV)
	if !reflect.DeepEqual(got, wantV) {
		t.Errorf("second provider request:\n%s\nwant:\n%s", body, want)
	}
}

// TestGoSDKEndToEnd puts the proxy between a go-sdk client and a go-sdk server whose tool runs a
// tool loop with sampling with tools, with a provider replaying recorded answers over HTTP to the
// official provider SDK. The client has no sampling of its own (or, for openai, one that must not
// be called): the proxy must advertise sampling with tools to the server and answer the loop's
// two sampling requests through the provider.
func TestGoSDKEndToEnd(t *testing.T) {
	for _, ep := range e2eProviders {
		t.Run(ep.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			var replies []testkit.Reply
			for _, r := range ep.replies {
				replies = append(replies, testkit.RecordedReply(r))
			}
			fake := &testkit.Provider{Path: ep.path, Replies: replies}
			srv := httptest.NewServer(fake)
			defer srv.Close()

			c2p, clientOut := io.Pipe()
			clientIn, p2c := io.Pipe()
			s2p, serverOut := io.Pipe()
			serverIn, p2s := io.Pipe()

			ss, err := testkit.NewAgentServer().Connect(ctx, &mcp.IOTransport{Reader: serverIn, Writer: serverOut}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer ss.Close()
			served := make(chan error, 1)
			go func() {
				served <- (&proxy.Proxy{Sampler: ep.sampler(srv.URL)}).Serve(ctx, c2p, p2c, s2p, p2s)
			}()

			var asked atomic.Int32
			var opts *mcp.ClientOptions
			if ep.name == "openai" {
				opts = &mcp.ClientOptions{CreateMessageWithToolsHandler: func(context.Context, *mcp.CreateMessageWithToolsRequest) (*mcp.CreateMessageWithToolsResult, error) {
					asked.Add(1)
					return nil, errors.New("the proxy must not forward sampling to the client")
				}}
			}
			client := mcp.NewClient(&mcp.Implementation{Name: "e2e-client", Version: "1.0.0"}, opts)
			cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: clientIn, Writer: clientOut}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
			if err != nil {
				t.Fatal(err)
			}
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "agent", Arguments: map[string]any{"prompt": "What's the weather like in Paris and London?"}})
			if err != nil {
				t.Fatal(err)
			}
			text := res.Content[0].(*mcp.TextContent).Text
			if res.IsError || text != finalAnswer {
				t.Fatalf("tool result (isError %v): %q", res.IsError, text)
			}
			if n := asked.Load(); n != 0 {
				t.Errorf("the client was asked to sample %d times", n)
			}

			reqs := fake.Requests()
			if len(reqs) != 2 {
				t.Fatalf("the provider got %d requests, want 2", len(reqs))
			}
			checkToolResultsRequest(t, ep.name, reqs[1].Body)

			if err := cs.Close(); err != nil {
				t.Logf("closing the client session: %v", err)
			}
			ss.Close()
			select {
			case err := <-served:
				if err != nil {
					t.Errorf("Serve: %v", err)
				}
			case <-time.After(10 * time.Second):
				t.Error("Serve did not return after both sides closed")
			}
		})
	}
}
