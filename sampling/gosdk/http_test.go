//lint:file-ignore SA1019 sampling is deprecated as of 2026-07-28 (SEP-2577), and still in it: this tests its multi round-trip flow

package gosdk_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
	"github.com/mcpgen/mcpgen/sampling"
	"github.com/mcpgen/mcpgen/sampling/gosdk"
	"github.com/mcpgen/mcpgen/sampling/mrtr"
	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// bearer adds an Authorization header to every request.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// TestHandlerOverStatelessHTTP runs the handler in a stateless go-sdk server over Streamable
// HTTP (httptest, in process) behind go-sdk's bearer-token middleware: every round is an HTTP
// request of its own, the principal is the token's user (Handler's default), and a state issued
// to one user is refused to another.
func TestHandlerOverStatelessHTTP(t *testing.T) {
	weather := must(t)(sampling.NewTypedTool("get_weather", "", nil, func(_ context.Context, in struct {
		City string `json:"city"`
	}) (string, error) {
		return "Weather in " + in.City + ": 18°C, partly cloudy", nil
	}))
	runner := &mrtr.Runner{
		Loop:  &sampling.Loop{Tools: []*sampling.Tool{weather}},
		Key:   []byte("a key of at least thirty-two bytes"),
		Guard: &mrtr.MemoryGuard{},
	}
	server := sdk.NewServer(&sdk.Implementation{Name: "http-test", Version: "0"}, nil)
	sdk.AddTool(server, &sdk.Tool{Name: "agent"}, func(ctx context.Context, req *sdk.CallToolRequest, in agentInput) (*sdk.CallToolResult, any, error) {
		res, out, err := gosdk.Step(ctx, runner, req, func() (*mcp.CreateMessageRequestParams, error) {
			return &mcp.CreateMessageRequestParams{
				Messages:  []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewSamplingMessageContent(&mcp.TextContent{Text: in.Prompt})}},
				MaxTokens: 100,
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
	users := map[string]string{"token-alice": "alice", "token-mallory": "mallory"}
	verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		user, ok := users[token]
		if !ok {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{UserID: user, Expiration: time.Now().Add(time.Hour)}, nil
	}
	handler := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return server }, &sdk.StreamableHTTPOptions{Stateless: true})
	srv := httptest.NewServer(auth.RequireBearerToken(verify, nil)(handler))
	t.Cleanup(srv.Close)
	connect := func(token string, opts *sdk.ClientOptions) *sdk.ClientSession {
		t.Helper()
		cs, err := sdk.NewClient(&sdk.Implementation{Name: "http-client", Version: "0"}, opts).Connect(t.Context(),
			&sdk.StreamableClientTransport{Endpoint: srv.URL, HTTPClient: &http.Client{Transport: bearer{token}}, DisableStandaloneSSE: true}, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close() })
		if v := cs.InitializeResult().ProtocolVersion; v != "2026-07-28" {
			t.Fatalf("negotiated %s", v)
		}
		return cs
	}
	args := map[string]any{"prompt": "Weather in Paris?"}

	// The whole loop, go-sdk's client answering the input requests.
	m := &model{t: t, turns: []turn{
		answer("toolUse", use("w", "get_weather", `{"city":"Paris"}`)),
		echoResults(t, "w"),
	}}
	res, err := connect("token-alice", clientOptions(m, "tools", false)).CallTool(t.Context(), &sdk.CallToolParams{Name: "agent", Arguments: args})
	if err != nil || callText(t, res) != "w: Weather in Paris: 18°C, partly cloudy" {
		t.Fatalf("tools/call: %v %+v", err, res)
	}

	// Alice's state, presented by Mallory.
	alice := connect("token-alice", clientOptions(&model{t: t}, "tools", true))
	res, err = alice.CallTool(t.Context(), &sdk.CallToolParams{Name: "agent", Arguments: args})
	if err != nil || !res.NeedsInput() || res.RequestState == "" {
		t.Fatalf("first round: %v %+v", err, res)
	}
	retry := &sdk.CallToolParams{Name: "agent", Arguments: args, RequestState: res.RequestState,
		InputResponses: sdk.InputResponseMap{"sampling-1": sdkAnswer(t, answer("endTurn", text("18°C.")))}}
	_, err = connect("token-mallory", clientOptions(&model{t: t}, "tools", true)).CallTool(t.Context(), retry)
	if werr, data := rpcErr(t, err); werr.Code != -32602 || data["reason"] != "otherPrincipal" {
		t.Errorf("Mallory: error %d %q, data %s", werr.Code, werr.Message, werr.Data)
	}
	res, err = alice.CallTool(t.Context(), retry)
	if err != nil || res.NeedsInput() || callText(t, res) != "18°C." {
		t.Fatalf("Alice's retry: %v %+v", err, res)
	}
}
