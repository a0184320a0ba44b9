//lint:file-ignore SA1019 sampling is deprecated from protocol version 2026-07-28 (SEP-2577); this tests the way off it

package backfill_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/mcpgen/mcpgen/backfill/internal/testkit"
	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
	"github.com/mcpgen/mcpgen/sampling"
	"github.com/mcpgen/mcpgen/sampling/gosdk"
	"github.com/mcpgen/mcpgen/sampling/mrtr"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// handlerFallbackServer is a go-sdk server whose tool "agent" runs the tool loop (get_weather)
// with sampling/gosdk's Handler, with a provider Sampler as its Fallback. It counts the
// tools/call requests it receives and the sampling requests it sends.
func handlerFallbackServer(t *testing.T, provider sampling.Sampler) (server *sdk.Server, counts func() (calls, sampled int)) {
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
	h := &gosdk.Handler{
		Runner:   &mrtr.Runner{Loop: &sampling.Loop{Tools: []*sampling.Tool{weather}}, Key: []byte("a key of at least thirty-two bytes")},
		Fallback: provider,
	}
	var mu sync.Mutex
	var calls, sampled int
	server = sdk.NewServer(&sdk.Implementation{Name: "handler-fallback-test", Version: "0"}, nil)
	server.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			if method == "tools/call" {
				mu.Lock()
				calls++
				mu.Unlock()
			}
			return next(ctx, method, req)
		}
	})
	server.AddSendingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			if method == "sampling/createMessage" {
				mu.Lock()
				sampled++
				mu.Unlock()
			}
			return next(ctx, method, req)
		}
	})
	sdk.AddTool(server, &sdk.Tool{Name: "agent", Description: "Answers with a model and a weather tool"},
		func(ctx context.Context, req *sdk.CallToolRequest, in struct {
			Prompt string `json:"prompt"`
		}) (*sdk.CallToolResult, any, error) {
			res, out, err := h.Step(ctx, req, func() (*mcp.CreateMessageRequestParams, error) {
				return &mcp.CreateMessageRequestParams{
					Messages:  []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewSamplingMessageContent(&mcp.TextContent{Type: "text", Text: in.Prompt})}},
					MaxTokens: 1000,
				}, nil
			})
			switch {
			case err != nil:
				return nil, nil, gosdk.JSONRPCError(err)
			case res != nil:
				return res, nil, nil
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: out.Text()}}}, nil, nil
		})
	return server, func() (int, int) {
		mu.Lock()
		defer mu.Unlock()
		return calls, sampled
	}
}

// fallbackClientOptions is the client of TestHandlerWithProviderFallback for caps: "tools" answers
// with its own model (a tool use, then the answer), "basic" answers without tools (not
// expected to be asked), "none" has no sampling at all; each answer counts in clientCalls.
func fallbackClientOptions(caps string, clientCalls *atomic.Int32) *sdk.ClientOptions {
	opts := &sdk.ClientOptions{}
	switch caps {
	case "tools":
		opts.CreateMessageWithToolsHandler = func(context.Context, *sdk.CreateMessageWithToolsRequest) (*sdk.CreateMessageWithToolsResult, error) {
			if clientCalls.Add(1) == 1 {
				return &sdk.CreateMessageWithToolsResult{Role: "assistant", Model: "client", StopReason: "toolUse",
					Content: []sdk.Content{&sdk.ToolUseContent{ID: "c1", Name: "get_weather", Input: map[string]any{"city": "Paris"}}}}, nil
			}
			return &sdk.CreateMessageWithToolsResult{Role: "assistant", Model: "client", StopReason: "endTurn",
				Content: []sdk.Content{&sdk.TextContent{Text: "Paris: 18°C (the client's model)"}}}, nil
		}
	case "basic":
		opts.CreateMessageHandler = func(context.Context, *sdk.CreateMessageRequest) (*sdk.CreateMessageResult, error) {
			clientCalls.Add(1)
			return &sdk.CreateMessageResult{Role: "assistant", Model: "client", Content: &sdk.TextContent{Text: "not expected"}}, nil
		}
	}
	return opts
}

// TestHandlerWithProviderFallback runs sampling/gosdk's Handler with Anthropic's API (replayed
// from recordings) as its Fallback, against go-sdk clients at 2026-07-28 and 2025-11-25: a client
// with sampling.tools plays the loop with its own model (the provider is never called); a client
// with sampling but no tools, and one without sampling, get the loop run on the provider within
// the one call (parallel tool uses, then the answer), and no sampling request reaches them.
func TestHandlerWithProviderFallback(t *testing.T) {
	for _, v := range []struct{ name, version string }{{"default (2026-07-28)", ""}, {"2025-11-25", "2025-11-25"}} {
		for _, caps := range []string{"tools", "basic", "none"} {
			t.Run(v.name+"/"+caps, func(t *testing.T) {
				ctx := t.Context()
				p := &testkit.Provider{Path: "/v1/messages", Replies: []testkit.Reply{
					testkit.RecordedReply("responses/anthropic/parallel_tool_use.json"), testkit.RecordedReply("responses/anthropic/end_turn.json")}}
				server, counts := handlerFallbackServer(t, fixtures[0].sampler(serve(t, p), fastRetry))

				var clientCalls atomic.Int32
				opts := fallbackClientOptions(caps, &clientCalls)
				ct, st := sdk.NewInMemoryTransports()
				ss, err := server.Connect(ctx, st, nil)
				if err != nil {
					t.Fatal(err)
				}
				defer ss.Close()
				cs, err := sdk.NewClient(&sdk.Implementation{Name: "client", Version: "0"}, opts).
					Connect(ctx, ct, &sdk.ClientSessionOptions{ProtocolVersion: v.version})
				if err != nil {
					t.Fatal(err)
				}
				defer cs.Close()
				wantVersion := v.version
				if wantVersion == "" {
					wantVersion = "2026-07-28"
				}
				if got := cs.InitializeResult().ProtocolVersion; got != wantVersion {
					t.Fatalf("protocol %s, want %s", got, wantVersion)
				}

				res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "agent", Arguments: map[string]any{"prompt": "What's the weather like in Paris and London?"}})
				if err != nil {
					t.Fatal(err)
				}
				calls, sampled := counts()
				if caps == "tools" {
					wantCalls, wantSampled := 3, 0 // a round trip per sample, and the last call
					if v.version != "" {
						wantCalls, wantSampled = 1, 2
					}
					if res.IsError || res.Content[0].(*sdk.TextContent).Text != "Paris: 18°C (the client's model)" ||
						clientCalls.Load() != 2 || len(p.Requests()) != 0 || calls != wantCalls || sampled != wantSampled {
						t.Errorf("result %+v; client's model %d, provider %d, %d tools/call, %d sampling requests; want 2, 0, %d, %d",
							res, clientCalls.Load(), len(p.Requests()), calls, sampled, wantCalls, wantSampled)
					}
					return
				}
				if res.IsError || res.Content[0].(*sdk.TextContent).Text != "Hi! My name is Claude." {
					t.Errorf("result %+v", res)
				}
				if clientCalls.Load() != 0 || len(p.Requests()) != 2 || calls != 1 || sampled != 0 {
					t.Errorf("client's model %d, provider %d, %d tools/call, %d sampling requests; want 0, 2, 1, 0",
						clientCalls.Load(), len(p.Requests()), calls, sampled)
				}
				// The provider's second request carries the results of the tools the Handler ran for
				// its recorded tool uses.
				if reqs := p.Requests(); len(reqs) == 2 {
					body := string(reqs[1].Body)
					for _, want := range []string{"toolu_01Paris0000000000000001", testkit.Weather("Paris"), "toolu_01London000000000000002", testkit.Weather("London")} {
						if !strings.Contains(body, want) {
							t.Errorf("the second provider request lacks %q: %s", want, body)
						}
					}
				}
			})
		}
	}
}

// TestHandlerProviderFallbackError: a provider failure (after the Sampler's retries) is the tool's
// failure: the client gets a tool result with isError and the provider's sanitised error, at
// both versions, and its model is not asked.
func TestHandlerProviderFallbackError(t *testing.T) {
	for _, v := range []struct{ name, version string }{{"default (2026-07-28)", ""}, {"2025-11-25", "2025-11-25"}} {
		t.Run(v.name, func(t *testing.T) {
			ctx := t.Context()
			p := &testkit.Provider{Path: "/v1/messages", Replies: []testkit.Reply{{Status: 529,
				Body: `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded; key sk-ant-api03-abcdefghijklmnopqrstuvwxyz"}}`}}}
			server, counts := handlerFallbackServer(t, fixtures[0].sampler(serve(t, p), fastRetry))
			ct, st := sdk.NewInMemoryTransports()
			ss, err := server.Connect(ctx, st, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer ss.Close()
			cs, err := sdk.NewClient(&sdk.Implementation{Name: "client", Version: "0"}, nil).
				Connect(ctx, ct, &sdk.ClientSessionOptions{ProtocolVersion: v.version})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "agent", Arguments: map[string]any{"prompt": "Weather?"}})
			if err != nil {
				t.Fatalf("tools/call: %v", err)
			}
			data, _ := json.Marshal(res.Content)
			text := res.Content[0].(*sdk.TextContent).Text
			t.Logf("the tool error: %s", text)
			if !res.IsError || text != "gosdk: the fallback model: sampling: anthropic: HTTP 529 after 3 attempts: overloaded_error: Overloaded; key [REDACTED]" || strings.Contains(string(data), "abcdefghijklmnop") {
				t.Errorf("result (isError %v) %s", res.IsError, data)
			}
			if calls, sampled := counts(); len(p.Requests()) != 3 || calls != 1 || sampled != 0 {
				t.Errorf("provider %d requests, %d tools/call, %d sampling requests; want 3, 1, 0", len(p.Requests()), calls, sampled)
			}
		})
	}
}
