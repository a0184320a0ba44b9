package backfill_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/mcpgen/mcpgen/backfill"
	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
	"github.com/mcpgen/mcpgen/sampling"
)

// A server moving off MCP sampling asks the client's model while the client declares sampling
// (with tools, for a request with tools), and Anthropic's API otherwise. In a real server, Client
// is the sampler on the MCP session (sampling/gosdk.NewSampler(session), which knows the
// capabilities the client declared, and reports no sampling at 2026-07-28, where it cannot send
// any) and the Anthropic client reads ANTHROPIC_API_KEY. Here the
// client's model is a function, the client declares sampling without tools, and a local server
// plays Anthropic, answering with the example response of the Messages API reference.
func ExampleFallback() {
	recorded, err := os.ReadFile("testdata/responses/anthropic/end_turn.json")
	if err != nil {
		panic(err)
	}
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(recorded)
	}))
	defer api.Close()

	fb := &backfill.Fallback{
		Client: sampling.SamplerFunc(func(ctx context.Context, p *mcp.CreateMessageRequestParams) (*mcp.CreateMessageResult, error) {
			return &mcp.CreateMessageResult{Role: mcp.RoleAssistant, Model: "the client's model",
				Content: mcp.NewSamplingMessageContent(&mcp.TextContent{Type: "text", Text: "Hello from the client."})}, nil
		}),
		Capabilities: func() *mcp.ClientCapabilities {
			return &mcp.ClientCapabilities{Sampling: &mcp.ClientCapabilitiesSampling{}} // no sampling.tools
		},
		Provider: backfill.NewAnthropicSampler(
			anthropic.NewClient(option.WithAPIKey("key"), option.WithBaseURL(api.URL)), "claude-sonnet-4-5", nil),
	}

	hello := &mcp.CreateMessageRequestParams{MaxTokens: 100, Messages: []mcp.SamplingMessage{
		{Role: mcp.RoleUser, Content: mcp.NewSamplingMessageContent(&mcp.TextContent{Type: "text", Text: "Hello"})},
	}}
	withTools := *hello
	withTools.Tools = []mcp.Tool{{Name: "get_weather", InputSchema: mcp.ToolInputSchema{Type: "object"}}}

	for _, p := range []*mcp.CreateMessageRequestParams{hello, &withTools} {
		route, _ := fb.Route(p)
		res, err := fb.CreateMessage(context.Background(), p)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%d tools: %s (%s): %s\n", len(p.Tools), route, res.Model, res.Content.List[0].(*mcp.TextContent).Text)
	}
	// The tool loop of package sampling checks its requests against what the Fallback can
	// answer: sampling with tools, thanks to the provider.
	caps, _ := json.Marshal(fb.ClientCapabilities())
	fmt.Println(string(caps))
	// Output:
	// 0 tools: client (the client's model): Hello from the client.
	// 1 tools: provider (claude-3-5-sonnet-20240620): Hi! My name is Claude.
	// {"sampling":{"tools":{}}}
}
