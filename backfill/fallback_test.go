package backfill_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/mcpgen/mcpgen/backfill"
	"github.com/mcpgen/mcpgen/backfill/internal/testkit"
	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
	"github.com/mcpgen/mcpgen/sampling"
)

// scriptedClient is the client's model: it answers every request with one text and counts the
// requests.
type scriptedClient struct {
	caps  *mcp.ClientCapabilities
	calls int
	err   error
}

func (c *scriptedClient) CreateMessage(_ context.Context, p *mcp.CreateMessageRequestParams) (*mcp.CreateMessageResult, error) {
	c.calls++
	if c.err != nil {
		return nil, c.err
	}
	return &mcp.CreateMessageResult{Role: mcp.RoleAssistant, Model: "client-model",
		StopReason: ptr(mcp.CreateMessageResultStopReasonEndTurn),
		Content:    mcp.NewSamplingMessageContent(&mcp.TextContent{Type: "text", Text: "from the client"})}, nil
}

func (c *scriptedClient) ClientCapabilities() *mcp.ClientCapabilities { return c.caps }

func ptr[T any](v T) *T { return &v }

var (
	samplingWithTools = &mcp.ClientCapabilities{Sampling: &mcp.ClientCapabilitiesSampling{Tools: map[string]json.RawMessage{}}}
	samplingOnly      = &mcp.ClientCapabilities{Sampling: &mcp.ClientCapabilitiesSampling{}}
	noSampling        = &mcp.ClientCapabilities{Roots: &mcp.ClientCapabilitiesRoots{}}
)

// TestFallbackRoutes sends the spec's "Sampling with Tools" request (and, where it says so, the
// plain "Creating Messages" one) through a Fallback, with a scripted client and a provider that
// replays a recorded answer. Where the provider is used, its request on the wire must be the
// conversion of the MCP request, and the result the conversion of the recorded answer.
func TestFallbackRoutes(t *testing.T) {
	for _, f := range fixtures {
		for _, tc := range []struct {
			name    string
			caps    *mcp.ClientCapabilities
			request string
			want    backfill.Route
		}{
			{"client with sampling.tools, request with tools", samplingWithTools, "tools", backfill.RouteClient},
			{"client with sampling, request with tools", samplingOnly, "tools", backfill.RouteProvider},
			{"client with sampling, request without tools", samplingOnly, "text", backfill.RouteClient},
			{"client without sampling, request with tools", noSampling, "tools", backfill.RouteProvider},
			{"client without sampling, request without tools", noSampling, "text", backfill.RouteProvider},
			{"client that declares no capabilities", nil, "text", backfill.RouteProvider},
		} {
			t.Run(f.name+"/"+tc.name, func(t *testing.T) {
				p := &testkit.Provider{Path: f.path, Replies: []testkit.Reply{testkit.RecordedReply(f.response)}}
				client := &scriptedClient{caps: tc.caps}
				fb := &backfill.Fallback{Client: client, Provider: f.sampler(serve(t, p), fastRetry)}
				params := params(t, tc.request)
				if r, err := fb.Route(params); r != tc.want || err != nil {
					t.Errorf("Route = %q, %v; want %q", r, err, tc.want)
				}
				res, err := fb.CreateMessage(t.Context(), params)
				if err != nil {
					t.Fatal(err)
				}
				reqs := p.Requests()
				if tc.want == backfill.RouteClient {
					if client.calls != 1 || len(reqs) != 0 || res.Model != "client-model" {
						t.Errorf("client calls %d, provider requests %d, model %q; want the client alone", client.calls, len(reqs), res.Model)
					}
					return
				}
				if client.calls != 0 || len(reqs) != 1 {
					t.Fatalf("client calls %d, provider requests %d; want the provider alone", client.calls, len(reqs))
				}
				wantReq, err := os.ReadFile(filepath.Join("testdata", "requests", tc.request, f.name+".json"))
				if err != nil {
					t.Fatal(err)
				}
				if got := jsonValue(t, reqs[0].Body); !reflect.DeepEqual(got, jsonValue(t, wantReq)) {
					t.Errorf("provider request:\n%s\nwant:\n%s", reqs[0].Body, wantReq)
				}
				got, _ := json.Marshal(res)
				wantRes, err := os.ReadFile(filepath.Join("testdata", f.response[:len(f.response)-len(".json")]+".mcp.json"))
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(jsonValue(t, got), jsonValue(t, wantRes)) {
					t.Errorf("result:\n%s\nwant:\n%s", got, wantRes)
				}
			})
		}
	}
}

// TestFallbackCapabilities checks what a Fallback declares (the loop checks requests against it)
// and where it reads the client's capabilities from.
func TestFallbackCapabilities(t *testing.T) {
	provider := fixtures[0].sampler("http://127.0.0.1:1/", fastRetry) // never called here
	withContext := &mcp.ClientCapabilities{Roots: &mcp.ClientCapabilitiesRoots{},
		Sampling: &mcp.ClientCapabilitiesSampling{Context: map[string]json.RawMessage{}}}
	for _, tc := range []struct {
		name string
		fb   *backfill.Fallback
		want *mcp.ClientCapabilities
	}{
		{"client without sampling", &backfill.Fallback{Client: &scriptedClient{caps: noSampling}, Provider: provider},
			&mcp.ClientCapabilities{Roots: &mcp.ClientCapabilitiesRoots{}, Sampling: &mcp.ClientCapabilitiesSampling{Tools: map[string]json.RawMessage{}}}},
		{"client with sampling.context", &backfill.Fallback{Client: &scriptedClient{caps: withContext}, Provider: provider},
			&mcp.ClientCapabilities{Roots: &mcp.ClientCapabilitiesRoots{},
				Sampling: &mcp.ClientCapabilitiesSampling{Context: map[string]json.RawMessage{}, Tools: map[string]json.RawMessage{}}}},
		{"no provider", &backfill.Fallback{Client: &scriptedClient{caps: samplingOnly}}, samplingOnly},
		{"no client", &backfill.Fallback{Provider: provider}, samplingWithTools},
		{"capabilities from the function, not the client", &backfill.Fallback{Client: &scriptedClient{caps: samplingWithTools},
			Capabilities: func() *mcp.ClientCapabilities { return nil }}, nil},
		{"a client that does not say", &backfill.Fallback{Client: sampling.SamplerFunc(nil)}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := json.Marshal(tc.fb.ClientCapabilities())
			want, _ := json.Marshal(tc.want)
			if string(got) != string(want) {
				t.Errorf("capabilities %s, want %s", got, want)
			}
		})
	}
	if !reflect.DeepEqual(withContext.Sampling.Tools, map[string]json.RawMessage(nil)) {
		t.Error("ClientCapabilities changed the client's capabilities")
	}
}

// TestFallbackRefuses checks the requests a Fallback sends nowhere, and that a failure of the
// client's model is not retried at the provider.
func TestFallbackRefuses(t *testing.T) {
	p := &testkit.Provider{Path: "/v1/messages", Replies: []testkit.Reply{testkit.RecordedReply("responses/anthropic/end_turn.json")}}
	provider := fixtures[0].sampler(serve(t, p), fastRetry)

	client := &scriptedClient{caps: samplingOnly}
	fb := &backfill.Fallback{Client: client}
	_, err := fb.CreateMessage(t.Context(), params(t, "tools"))
	var ve *mcp.ValidationError
	if !errors.As(err, &ve) || client.calls != 0 {
		t.Errorf("no provider, tools to a client without sampling.tools: %v (client calls %d)", err, client.calls)
	}

	// includeContext "thisServer": neither a client without sampling.context nor a provider
	// takes it.
	withContext := params(t, "text")
	withContext.IncludeContext = ptr(mcp.CreateMessageRequestParamsIncludeContextThisServer)
	fb = &backfill.Fallback{Client: client, Provider: provider}
	if _, err := fb.CreateMessage(t.Context(), withContext); !errors.As(err, &ve) || client.calls != 0 {
		t.Errorf("includeContext: %v (client calls %d)", err, client.calls)
	}

	declined := errors.New("the user declined the request")
	client = &scriptedClient{caps: samplingWithTools, err: declined}
	fb = &backfill.Fallback{Client: client, Provider: provider}
	if _, err := fb.CreateMessage(t.Context(), params(t, "tools")); !errors.Is(err, declined) || client.calls != 1 {
		t.Errorf("client failure: %v (client calls %d)", err, client.calls)
	}
	if n := len(p.Requests()); n != 0 {
		t.Errorf("%d provider requests, want none", n)
	}

	if _, err := (&backfill.Fallback{}).CreateMessage(t.Context(), params(t, "text")); err == nil {
		t.Error("an empty Fallback answered")
	}
	if _, err := fb.Route(nil); err == nil {
		t.Error("Route(nil) did not fail")
	}
}

// TestLoopOnFallback runs the tool loop on a Fallback whose client declares sampling without
// tools: the loop's capability check passes (the provider takes tools), and the provider answers
// both requests from its recordings.
func TestLoopOnFallback(t *testing.T) {
	p := &testkit.Provider{Path: "/v1/messages", Replies: []testkit.Reply{
		testkit.RecordedReply("responses/anthropic/parallel_tool_use.json"), testkit.RecordedReply("responses/anthropic/end_turn.json")}}
	client := &scriptedClient{caps: samplingOnly}
	fb := &backfill.Fallback{Client: client, Provider: fixtures[0].sampler(serve(t, p), fastRetry)}
	weather, err := sampling.NewTypedTool("get_weather", "Get current weather for a city", nil,
		func(_ context.Context, in struct {
			City string `json:"city"`
		}) (string, error) {
			return testkit.Weather(in.City), nil
		})
	if err != nil {
		t.Fatal(err)
	}
	res, err := (&sampling.Loop{Tools: []*sampling.Tool{weather}}).Run(t.Context(), fb, &mcp.CreateMessageRequestParams{
		Messages:  []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewSamplingMessageContent(&mcp.TextContent{Type: "text", Text: "What's the weather like in Paris and London?"})}},
		MaxTokens: 1000,
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stop != sampling.StopEndTurn || res.Iterations != 2 || res.Text() != "Hi! My name is Claude." {
		t.Errorf("stop %s after %d iterations, text %q", res.Stop, res.Iterations, res.Text())
	}
	if client.calls != 0 || len(p.Requests()) != 2 {
		t.Errorf("client calls %d, provider requests %d", client.calls, len(p.Requests()))
	}

	// The same loop without a provider fails its capability check before any request.
	_, err = (&sampling.Loop{Tools: []*sampling.Tool{weather}}).Run(t.Context(), &backfill.Fallback{Client: client}, &mcp.CreateMessageRequestParams{
		Messages:  []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewSamplingMessageContent(&mcp.TextContent{Type: "text", Text: "hi"})}},
		MaxTokens: 10,
	})
	var ce *sampling.CapabilityError
	if !errors.As(err, &ce) || client.calls != 0 {
		t.Errorf("without a provider: %v (client calls %d)", err, client.calls)
	}
}
