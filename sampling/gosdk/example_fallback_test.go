//lint:file-ignore SA1019 sampling is deprecated as of 2026-07-28 (SEP-2577); this shows the way off it

package gosdk_test

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"log"

	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
	"github.com/mcpgen/mcpgen/sampling"
	"github.com/mcpgen/mcpgen/sampling/gosdk"
	"github.com/mcpgen/mcpgen/sampling/mrtr"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The migration path of SEP-2577: a Handler with a Fallback asks the client's model when the
// client declares sampling with tools, and a provider's model otherwise. In a real server the
// Fallback is a sampler on a provider's API (backfill.NewAnthropicSampler, say); here a function
// plays it, and two go-sdk clients at their default version (2026-07-28) call the tool: one whose
// model samples with tools, one without sampling.
func ExampleHandler_fallback() {
	weather, err := sampling.NewTypedTool("get_weather", "Current weather of a city", nil,
		func(_ context.Context, in struct {
			City string `json:"city"`
		}) (string, error) {
			return "18°C in " + in.City, nil
		})
	if err != nil {
		log.Fatal(err)
	}
	provider := sampling.SamplerFunc(func(_ context.Context, p *mcp.CreateMessageRequestParams) (*mcp.CreateMessageResult, error) {
		return weatherModel("the provider's model", &p.Messages[len(p.Messages)-1]), nil
	})

	key := make([]byte, 32) // shared by the server's instances, and secret
	rand.Read(key)
	h := &gosdk.Handler{
		Runner:   &mrtr.Runner{Loop: &sampling.Loop{Tools: []*sampling.Tool{weather}}, Key: key, Guard: &mrtr.MemoryGuard{}},
		Fallback: provider,
	}
	server := fallbackAgentServer(h)

	clients := []struct {
		name string
		opts *sdk.ClientOptions
	}{
		{"a client with sampling.tools", &sdk.ClientOptions{
			CreateMessageWithToolsHandler: func(_ context.Context, req *sdk.CreateMessageWithToolsRequest) (*sdk.CreateMessageWithToolsResult, error) {
				p, err := gosdk.FromSDKParams(req.Params)
				if err != nil {
					return nil, err
				}
				return gosdk.ToSDKResult(weatherModel("the client's model", &p.Messages[len(p.Messages)-1]))
			}}},
		{"a client without sampling", nil},
	}
	ctx := context.Background()
	for _, c := range clients {
		ct, st := sdk.NewInMemoryTransports()
		if _, err := server.Connect(ctx, st, nil); err != nil {
			log.Fatal(err)
		}
		cs, err := sdk.NewClient(&sdk.Implementation{Name: "client", Version: "1"}, c.opts).Connect(ctx, ct, nil)
		if err != nil {
			log.Fatal(err)
		}
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "agent", Arguments: map[string]any{"prompt": "Weather in Paris?"}})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s, %s: %s\n", cs.InitializeResult().ProtocolVersion, c.name, res.Content[0].(*sdk.TextContent).Text)
		cs.Close()
	}
	// Output:
	// 2026-07-28, a client with sampling.tools: It is 18°C in Paris. (the client's model)
	// 2026-07-28, a client without sampling: It is 18°C in Paris. (the provider's model)
}

// weatherModel is a model (the client's or the provider's) that asks for the weather, then
// answers with it; model names it in the result.
func weatherModel(model string, last *mcp.SamplingMessage) *mcp.CreateMessageResult {
	if r, ok := last.Content.List[0].(*mcp.ToolResultContent); ok {
		return &mcp.CreateMessageResult{Role: mcp.RoleAssistant, Model: model, StopReason: ptr(mcp.CreateMessageResultStopReasonEndTurn),
			Content: mcp.NewSamplingMessageContent(&mcp.TextContent{Text: "It is " + r.Content[0].(*mcp.TextContent).Text + "."})}
	}
	return &mcp.CreateMessageResult{Role: mcp.RoleAssistant, Model: model, StopReason: ptr(mcp.CreateMessageResultStopReasonToolUse),
		Content: mcp.NewSamplingMessageContent(&mcp.ToolUseContent{ID: "call-1", Name: "get_weather", Input: map[string]json.RawMessage{"city": json.RawMessage(`"Paris"`)}})}
}

// fallbackAgentServer is a go-sdk server whose tool "agent" runs a step of h: the
// InputRequests of the client's model at 2026-07-28, or the answer of the Fallback's.
func fallbackAgentServer(h *gosdk.Handler) *sdk.Server {
	server := sdk.NewServer(&sdk.Implementation{Name: "agent-server", Version: "1"}, nil)
	sdk.AddTool(server, &sdk.Tool{Name: "agent"}, func(ctx context.Context, req *sdk.CallToolRequest, in struct {
		Prompt string `json:"prompt"`
	}) (*sdk.CallToolResult, any, error) {
		res, out, err := h.Step(ctx, req, func() (*mcp.CreateMessageRequestParams, error) {
			return &mcp.CreateMessageRequestParams{
				Messages:  []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewSamplingMessageContent(&mcp.TextContent{Text: in.Prompt})}},
				MaxTokens: 1024,
			}, nil
		})
		if err != nil {
			return nil, nil, gosdk.JSONRPCError(err) // a failure of the provider: a tool result with isError
		}
		if res != nil {
			return res, nil, nil // the client's model, at 2026-07-28: InputRequests
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: out.Text() + " (" + out.Last.Model + ")"}}}, nil, nil
	})
	return server
}
