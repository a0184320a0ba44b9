//lint:file-ignore SA1019 sampling is deprecated from protocol version 2026-07-28 (SEP-2577); this tests the 2025-11-25 flow, in which it remains, and the way off it.

package backfill_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mcpgen/mcpgen/backfill"
	"github.com/mcpgen/mcpgen/backfill/internal/testkit"
	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
	"github.com/mcpgen/mcpgen/sampling"
	"github.com/mcpgen/mcpgen/sampling/gosdk"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// fallbackClientCase is a client of TestFallbackWithGoSDKClient: its options on the client's
// model, the route the Fallback must take for it, and the tool's answer.
type fallbackClientCase struct {
	name       string
	clientOpts func(model func() (*sdk.CreateMessageWithToolsResult, error)) *sdk.ClientOptions
	wantRoute  backfill.Route
	wantText   string
}

// fallbackClientCases are the clients TestFallbackWithGoSDKClient runs the tool loop for.
var fallbackClientCases = []fallbackClientCase{
	{"client with sampling.tools", func(model func() (*sdk.CreateMessageWithToolsResult, error)) *sdk.ClientOptions {
		return &sdk.ClientOptions{CreateMessageWithToolsHandler: func(context.Context, *sdk.CreateMessageWithToolsRequest) (*sdk.CreateMessageWithToolsResult, error) {
			return model()
		}}
	}, backfill.RouteClient, "Paris: 18°C (the client's model)"},
	{"client with sampling, no tools", func(model func() (*sdk.CreateMessageWithToolsResult, error)) *sdk.ClientOptions {
		return &sdk.ClientOptions{CreateMessageHandler: func(context.Context, *sdk.CreateMessageRequest) (*sdk.CreateMessageResult, error) {
			_, err := model()
			return nil, err
		}}
	}, backfill.RouteProvider, "Hi! My name is Claude."},
	{"client without sampling", func(func() (*sdk.CreateMessageWithToolsResult, error)) *sdk.ClientOptions {
		return &sdk.ClientOptions{}
	}, backfill.RouteProvider, "Hi! My name is Claude."},
}

// fallbackRoutingServer is a go-sdk server at 2025-11-25 whose tool "agent" runs the tool loop
// (get_weather) on a Fallback of the session's client and provider; each sampling request's
// route is appended to routes.
func fallbackRoutingServer(t *testing.T, provider sampling.Sampler) (server *sdk.Server, routes *[]backfill.Route) {
	t.Helper()
	weather, err := sampling.NewTypedTool("get_weather", "Get current weather for a city", nil,
		func(_ context.Context, in struct {
			City string `json:"city"`
		}) (string, error) {
			return testkit.Weather(in.City), nil
		})
	if err != nil {
		t.Fatal(err)
	}
	routes = new([]backfill.Route)
	server = sdk.NewServer(&sdk.Implementation{Name: "fallback-test", Version: "0"}, &sdk.ServerOptions{SupportedProtocolVersions: []string{"2025-11-25"}})
	sdk.AddTool(server, &sdk.Tool{Name: "agent", Description: "Answers with a model and a weather tool"},
		func(ctx context.Context, req *sdk.CallToolRequest, in struct {
			Prompt string `json:"prompt"`
		}) (*sdk.CallToolResult, any, error) {
			fb := &backfill.Fallback{Client: gosdk.NewSampler(req.Session), Provider: provider}
			routed := sampling.SamplerFunc(func(ctx context.Context, p *mcp.CreateMessageRequestParams) (*mcp.CreateMessageResult, error) {
				r, err := fb.Route(p)
				*routes = append(*routes, r)
				if err != nil {
					return nil, err
				}
				return fb.CreateMessage(ctx, p)
			})
			loop := &sampling.Loop{Tools: []*sampling.Tool{weather}, Capabilities: fb.ClientCapabilities()}
			res, err := loop.Run(ctx, routed, &mcp.CreateMessageRequestParams{
				Messages:  []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewSamplingMessageContent(&mcp.TextContent{Type: "text", Text: in.Prompt})}},
				MaxTokens: 1000,
			})
			if err != nil {
				return nil, nil, err
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: res.Text()}}}, nil, nil
		})
	return server, routes
}

// TestFallbackWithGoSDKClient runs a go-sdk server (protocol 2025-11-25) whose tool runs the tool
// loop on a Fallback: the client's model through the session (sampling/gosdk), or Anthropic's
// API replayed from recordings. Three go-sdk clients connect to it: one with sampling.tools
// (its model plays the whole loop, the provider is never called), one with sampling but without
// tools and one without sampling (the provider plays the whole loop, the client's model is never
// asked).
func TestFallbackWithGoSDKClient(t *testing.T) {
	for _, tc := range fallbackClientCases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := t.Context()
			p := &testkit.Provider{Path: "/v1/messages", Replies: []testkit.Reply{
				testkit.RecordedReply("responses/anthropic/parallel_tool_use.json"), testkit.RecordedReply("responses/anthropic/end_turn.json")}}
			provider := fixtures[0].sampler(serve(t, p), fastRetry)

			var clientCalls atomic.Int32
			model := func() (*sdk.CreateMessageWithToolsResult, error) {
				// The client's model: a tool use of get_weather, then the answer.
				if clientCalls.Add(1) == 1 {
					return &sdk.CreateMessageWithToolsResult{Role: "assistant", Model: "client", StopReason: "toolUse",
						Content: []sdk.Content{&sdk.ToolUseContent{ID: "c1", Name: "get_weather", Input: map[string]any{"city": "Paris"}}}}, nil
				}
				return &sdk.CreateMessageWithToolsResult{Role: "assistant", Model: "client", StopReason: "endTurn",
					Content: []sdk.Content{&sdk.TextContent{Text: "Paris: 18°C (the client's model)"}}}, nil
			}

			server, routes := fallbackRoutingServer(t, provider)
			ct, st := sdk.NewInMemoryTransports()
			ss, err := server.Connect(ctx, st, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer ss.Close()
			client := sdk.NewClient(&sdk.Implementation{Name: "client", Version: "0"}, tc.clientOpts(model))
			cs, err := client.Connect(ctx, ct, &sdk.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			if v := cs.InitializeResult().ProtocolVersion; v != "2025-11-25" {
				t.Fatalf("protocol %s", v)
			}

			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "agent", Arguments: map[string]any{"prompt": "What's the weather like in Paris?"}})
			if err != nil {
				t.Fatal(err)
			}
			var text []string
			for _, c := range res.Content {
				if tc, ok := c.(*sdk.TextContent); ok {
					text = append(text, tc.Text)
				}
			}
			if res.IsError || strings.Join(text, "") != tc.wantText {
				t.Errorf("tool result (error %v): %q, want %q", res.IsError, text, tc.wantText)
			}
			if rs := *routes; len(rs) != 2 || rs[0] != tc.wantRoute || rs[1] != tc.wantRoute {
				t.Errorf("routes %v, want %s twice", rs, tc.wantRoute)
			}
			wantClient, wantProvider := 2, 0
			if tc.wantRoute == backfill.RouteProvider {
				wantClient, wantProvider = 0, 2
			}
			if int(clientCalls.Load()) != wantClient || len(p.Requests()) != wantProvider {
				t.Errorf("client's model asked %d times, provider %d; want %d and %d", clientCalls.Load(), len(p.Requests()), wantClient, wantProvider)
			}
		})
	}
}

// TestFallbackOnGoSDKSampler runs a Fallback on gosdk.NewSampler(session), as it is, with a go-sdk
// client that declares sampling with tools. At 2025-11-25 the client's model answers. At go-sdk's
// default version (2026-07-28) a server cannot send a sampling request while it serves one, so
// the Sampler reports no sampling there and the Fallback picks the provider by itself: the
// client's model is never asked.
func TestFallbackOnGoSDKSampler(t *testing.T) {
	for _, v := range []struct{ name, version string }{{"default (2026-07-28)", ""}, {"2025-11-25", "2025-11-25"}} {
		version := v.version
		t.Run(v.name, func(t *testing.T) {
			ctx := t.Context()
			p := &testkit.Provider{Path: "/v1/messages", Replies: []testkit.Reply{testkit.RecordedReply("responses/anthropic/end_turn.json")}}
			provider := fixtures[0].sampler(serve(t, p), fastRetry)
			var clientCalls atomic.Int32
			var route backfill.Route
			server := sdk.NewServer(&sdk.Implementation{Name: "fallback-test", Version: "0"}, nil)
			sdk.AddTool(server, &sdk.Tool{Name: "ask", Description: "Asks a model"},
				func(ctx context.Context, req *sdk.CallToolRequest, in struct{}) (*sdk.CallToolResult, any, error) {
					params := &mcp.CreateMessageRequestParams{MaxTokens: 100, Messages: []mcp.SamplingMessage{
						{Role: mcp.RoleUser, Content: mcp.NewSamplingMessageContent(&mcp.TextContent{Type: "text", Text: "Hello"})}}}
					fb := &backfill.Fallback{Client: gosdk.NewSampler(req.Session), Provider: provider}
					var err error
					if route, err = fb.Route(params); err != nil {
						return nil, nil, err
					}
					res, err := fb.CreateMessage(ctx, params)
					if err != nil {
						return nil, nil, err
					}
					return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: res.Content.List[0].(*mcp.TextContent).Text}}}, nil, nil
				})
			ct, st := sdk.NewInMemoryTransports()
			ss, err := server.Connect(ctx, st, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer ss.Close()
			client := sdk.NewClient(&sdk.Implementation{Name: "client", Version: "0"}, &sdk.ClientOptions{
				CreateMessageWithToolsHandler: func(context.Context, *sdk.CreateMessageWithToolsRequest) (*sdk.CreateMessageWithToolsResult, error) {
					clientCalls.Add(1)
					return &sdk.CreateMessageWithToolsResult{Role: "assistant", Model: "client", StopReason: "endTurn",
						Content: []sdk.Content{&sdk.TextContent{Text: "Hello from the client."}}}, nil
				}})
			cs, err := client.Connect(ctx, ct, &sdk.ClientSessionOptions{ProtocolVersion: version})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "ask", Arguments: map[string]any{}})
			if err != nil {
				t.Fatal(err)
			}
			wantRoute, wantText, wantClient, wantProvider := backfill.RouteClient, "Hello from the client.", 1, 0
			if version == "" {
				if v := cs.InitializeResult().ProtocolVersion; v != "2026-07-28" {
					t.Fatalf("protocol %s, want go-sdk's default 2026-07-28", v)
				}
				wantRoute, wantText, wantClient, wantProvider = backfill.RouteProvider, "Hi! My name is Claude.", 0, 1
			}
			if res.IsError || len(res.Content) != 1 || res.Content[0].(*sdk.TextContent).Text != wantText || route != wantRoute {
				t.Errorf("tool result %+v, route %s; want %q from %s", res, route, wantText, wantRoute)
			}
			if int(clientCalls.Load()) != wantClient || len(p.Requests()) != wantProvider {
				t.Errorf("client's model asked %d times, provider %d; want %d, %d", clientCalls.Load(), len(p.Requests()), wantClient, wantProvider)
			}
		})
	}
}
