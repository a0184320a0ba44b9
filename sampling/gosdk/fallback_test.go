//lint:file-ignore SA1019 sampling is deprecated as of 2026-07-28 (SEP-2577); this tests the way off it

package gosdk_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"

	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
	"github.com/mcpgen/mcpgen/sampling"
	"github.com/mcpgen/mcpgen/sampling/gosdk"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The fallback tests run gosdk.Handler with a Fallback (a scripted model standing in for a
// provider's API, which backfill's tests replace with a real provider Sampler on recorded
// responses) in a go-sdk server, against go-sdk's client at 2026-07-28 and 2025-11-25.

// provider is a scripted model on mcpgen's types, a sampling.Sampler: it plays the turns in order
// (or fails with err) and records the requests it got. Its capabilities are caps.
type provider struct {
	t     *testing.T
	turns []turn
	err   error
	caps  *mcp.ClientCapabilities

	mu   sync.Mutex
	seen []*mcp.CreateMessageRequestParams
}

func (p *provider) CreateMessage(ctx context.Context, params *mcp.CreateMessageRequestParams) (*mcp.CreateMessageResult, error) {
	if err := params.Validate(); err != nil {
		p.t.Errorf("the fallback's request is invalid: %v", err)
	}
	p.mu.Lock()
	n := len(p.seen)
	p.seen = append(p.seen, params)
	p.mu.Unlock()
	if p.err != nil {
		return nil, p.err
	}
	if n >= len(p.turns) {
		return nil, fmt.Errorf("no turn %d", n+1)
	}
	var r mcp.CreateMessageResult
	if err := r.UnmarshalJSON([]byte(p.turns[n](ctx, params))); err != nil {
		return nil, err
	}
	r.Model = "provider"
	return &r, nil
}

func (p *provider) ClientCapabilities() *mcp.ClientCapabilities { return p.caps }

func (p *provider) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.seen)
}

var withTools = &mcp.ClientCapabilities{Sampling: &mcp.ClientCapabilitiesSampling{Tools: map[string]json.RawMessage{}}}

func weatherTurns(t *testing.T) []turn {
	return []turn{
		answer("toolUse", use("call-1", "get_weather", `{"city":"Paris"}`)),
		echoResults(t, "call-1"),
	}
}

// TestHandlerFallback: a client with sampling.tools is asked as without a Fallback (the
// Fallback is never asked); a client with sampling but not sampling.tools, and one without
// sampling, get the whole loop run on the Fallback within the one call: no InputRequests at
// 2026-07-28, no sampling request sent at 2025-11-25.
func TestHandlerFallback(t *testing.T) {
	for _, v := range versions {
		for _, caps := range []string{"tools", "basic", "none"} {
			t.Run(v.name+"/"+caps, func(t *testing.T) {
				hs := newHandlerServer(t, true)
				p := &provider{t: t, turns: weatherTurns(t), caps: withTools}
				hs.fallback = p
				m := &model{t: t, turns: weatherTurns(t)}
				cs := connectClient(t, hs.server, v.version, clientOptions(m, caps, false))
				res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "agent", Arguments: map[string]any{"prompt": "Weather?"}})
				if err != nil {
					t.Fatalf("tools/call: %v", err)
				}
				if got, want := callText(t, res), "call-1: Weather in Paris: 18°C, partly cloudy"; got != want || res.IsError {
					t.Errorf("result %q (isError %v), want %q", got, res.IsError, want)
				}
				calls, sampled := hs.counts()
				if caps == "tools" {
					wantCalls, wantSampled := 3, 0
					if v.version != "" {
						wantCalls, wantSampled = 1, 2
					}
					if m.count() != 2 || p.count() != 0 || calls != wantCalls || sampled != wantSampled {
						t.Errorf("client's model %d, fallback %d, %d tools/call, %d sampling requests sent; want 2, 0, %d, %d",
							m.count(), p.count(), calls, sampled, wantCalls, wantSampled)
					}
					return
				}
				if m.count() != 0 || p.count() != 2 || calls != 1 || sampled != 0 {
					t.Errorf("client's model %d, fallback %d, %d tools/call, %d sampling requests sent; want 0, 2, 1, 0",
						m.count(), p.count(), calls, sampled)
				}
				for i, r := range p.seen {
					if len(r.Messages) != 2*i+1 || len(r.Tools) != 2 {
						t.Errorf("fallback request %d: %d messages, %d tools", i+1, len(r.Messages), len(r.Tools))
					}
				}
			})
		}
	}
}

// TestHandlerFallbackPerRequest: at 2026-07-28 the choice follows each call's own capabilities:
// a call whose _meta declares none goes to the Fallback, the next (go-sdk's default _meta,
// sampling.tools) to the client.
func TestHandlerFallbackPerRequest(t *testing.T) {
	hs := newHandlerServer(t, false)
	p := &provider{t: t, turns: []turn{answer("endTurn", text("From the provider."))}, caps: withTools}
	hs.fallback = p
	m := &model{t: t, turns: []turn{answer("endTurn", text("From the client."))}}
	cs := connectClient(t, hs.server, "", clientOptions(m, "tools", false))
	res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{
		Meta: sdk.Meta{sdk.MetaKeyClientCapabilities: map[string]any{}},
		Name: "agent", Arguments: map[string]any{"prompt": "hi"},
	})
	if err != nil || callText(t, res) != "From the provider." || p.count() != 1 || m.count() != 0 {
		t.Fatalf("without capabilities: %v %+v; fallback %d, client %d", err, res, p.count(), m.count())
	}
	res, err = cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "agent", Arguments: map[string]any{"prompt": "hi"}})
	if err != nil || callText(t, res) != "From the client." || p.count() != 1 || m.count() != 1 {
		t.Fatalf("with sampling.tools: %v %+v; fallback %d, client %d", err, res, p.count(), m.count())
	}
}

// TestHandlerFallbackError: the Fallback's failure is the tool's: a tool result with isError
// saying what failed, not a JSON-RPC error, and the client is not asked instead.
func TestHandlerFallbackError(t *testing.T) {
	for _, v := range versions {
		t.Run(v.name, func(t *testing.T) {
			hs := newHandlerServer(t, false)
			p := &provider{t: t, err: errors.New("provider: HTTP 529: overloaded"), caps: withTools}
			hs.fallback = p
			m := &model{t: t}
			cs := connectClient(t, hs.server, v.version, clientOptions(m, "none", false))
			res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "agent", Arguments: map[string]any{"prompt": "hi"}})
			if err != nil {
				t.Fatalf("tools/call: %v", err)
			}
			if got, want := callText(t, res), "gosdk: the fallback model: sampling: provider: HTTP 529: overloaded"; got != want || !res.IsError {
				t.Errorf("result %q (isError %v), want %q", got, res.IsError, want)
			}
			if _, sampled := hs.counts(); p.count() != 1 || sampled != 0 {
				t.Errorf("fallback asked %d times, %d sampling requests sent", p.count(), sampled)
			}
		})
	}
}

// TestHandlerFallbackCannotTake: a call that the Fallback cannot take either (its capabilities
// lack sampling.tools) fails as without one, with -32021, and nobody is asked; a Fallback that
// is not a ClientCapabilitiesProvider is taken to take sampling with tools.
func TestHandlerFallbackCannotTake(t *testing.T) {
	for _, v := range versions {
		t.Run(v.name, func(t *testing.T) {
			hs := newHandlerServer(t, false)
			p := &provider{t: t, turns: weatherTurns(t), caps: &mcp.ClientCapabilities{Sampling: &mcp.ClientCapabilitiesSampling{}}}
			hs.fallback = p
			cs := connectClient(t, hs.server, v.version, clientOptions(&model{t: t}, "basic", false))
			_, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "agent", Arguments: map[string]any{"prompt": "Weather?"}})
			if werr, _ := rpcErr(t, err); werr.Code != -32021 || p.count() != 0 {
				t.Errorf("error %d %q; fallback asked %d times", werr.Code, werr.Message, p.count())
			}

			hs = newHandlerServer(t, false)
			hs.fallback = sampling.SamplerFunc(p.CreateMessage)
			cs = connectClient(t, hs.server, v.version, clientOptions(&model{t: t}, "basic", false))
			res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "agent", Arguments: map[string]any{"prompt": "Weather?"}})
			if err != nil || callText(t, res) != "call-1: Weather in Paris: 18°C, partly cloudy" || p.count() != 2 {
				t.Errorf("a SamplerFunc fallback: %v %+v; asked %d times", err, res, p.count())
			}
		})
	}
}

// TestHandlerFallbackProgress: the loop on the Fallback reports its events as the client's model
// does, within the one call.
func TestHandlerFallbackProgress(t *testing.T) {
	for _, v := range versions {
		t.Run(v.name, func(t *testing.T) {
			hs := newHandlerServer(t, false)
			hs.fallback = &provider{t: t, turns: weatherTurns(t), caps: withTools}
			opts := clientOptions(&model{t: t}, "none", false)
			var mu sync.Mutex
			var got []string
			opts.ProgressNotificationHandler = func(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
				mu.Lock()
				defer mu.Unlock()
				got = append(got, fmt.Sprintf("%v %g %s", req.Params.ProgressToken, req.Params.Progress, req.Params.Message))
			}
			cs := connectClient(t, hs.server, v.version, opts)
			params := &sdk.CallToolParams{Name: "agent", Arguments: map[string]any{"prompt": "Weather?"}}
			params.SetProgressToken("tok-f")
			if _, err := cs.CallTool(t.Context(), params); err != nil {
				t.Fatal(err)
			}
			cs.Close() // the client has handled every notification it received
			mu.Lock()
			defer mu.Unlock()
			sort.Strings(got)
			want := []string{
				"tok-f 1 asking the model (request 1 of at most 10)",
				"tok-f 2 tool get_weather ran",
				"tok-f 3 asking the model (request 2 of at most 10)",
				"tok-f 4 done after 2 requests",
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("progress:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// TestHelpersFallback: the helpers run on the Fallback for a client without sampling (each
// attempt asked of it within the call), and on the client's model for one with sampling.tools;
// a helper that exhausts its attempts on the Fallback gives its *sampling.RetryError.
func TestHelpersFallback(t *testing.T) {
	for _, v := range versions {
		for _, tc := range []struct {
			name, tool, caps string
			turns            []turn
			want             string
			isError          bool
		}{
			{name: "tool call", tool: "pick", caps: "none", turns: []turn{
				answer("endTurn", text("It is sunny.")),
				answer("toolUse", use("w", "get_weather", `{"city":"Paris"}`)),
			}, want: `2 attempts: {"type":"tool_use","id":"w","name":"get_weather","input":{"city":"Paris"}}`},
			{name: "structured", tool: "forecast", caps: "basic", turns: []turn{
				answer("toolUse", use("f", "answer", `{"city":"Paris","tempC":18}`)),
			}, want: "1 attempts: {City:Paris TempC:18}"},
			{name: "structured exhaustion", tool: "forecast", caps: "none", isError: true, turns: []turn{
				answer("endTurn", text("18 degrees")),
				answer("endTurn", text("18")),
				answer("endTurn", text("warm")),
			}, want: "sampling: SampleStructured: no valid answer in 3 attempts; the last: the answer does not call the tool \"answer\""},
			{name: "the client's model", tool: "forecast", caps: "tools", turns: []turn{
				answer("toolUse", use("f", "answer", `{"city":"Paris","tempC":18}`)),
			}, want: "1 attempts: {City:Paris TempC:18}"},
		} {
			t.Run(v.name+"/"+tc.name, func(t *testing.T) {
				hs := helperServer(t)
				p := &provider{t: t, turns: tc.turns, caps: withTools}
				hs.fallback = p
				m := &model{t: t, turns: tc.turns}
				cs := connectClient(t, hs.server, v.version, clientOptions(m, tc.caps, false))
				res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: tc.tool, Arguments: map[string]any{"prompt": "Weather in Paris?"}})
				if err != nil {
					t.Fatalf("tools/call: %v", err)
				}
				if got := callText(t, res); got != tc.want || res.IsError != tc.isError {
					t.Errorf("result %q (isError %v), want %q (%v)", got, res.IsError, tc.want, tc.isError)
				}
				wantClient, wantFallback := 0, len(tc.turns)
				if tc.caps == "tools" {
					wantClient, wantFallback = wantFallback, wantClient
				}
				if m.count() != wantClient || p.count() != wantFallback {
					t.Errorf("client's model %d, fallback %d; want %d, %d", m.count(), p.count(), wantClient, wantFallback)
				}
				if calls, _ := hs.counts(); tc.caps != "tools" && calls != 1 {
					t.Errorf("%d tools/call, want 1", calls)
				}
			})
		}
	}
}

// TestJSONRPCErrorFallback: a Fallback's failure stays a tool error, but an invalid request of the
// server's is -32603, as without a Fallback.
func TestJSONRPCErrorFallback(t *testing.T) {
	failed := &gosdk.FallbackError{Err: &sampling.SamplerError{Err: errors.New("HTTP 500")}}
	if got := gosdk.JSONRPCError(failed); got != error(failed) {
		t.Errorf("a failed fallback: %v", got)
	}
	for _, err := range []error{&sampling.RequestError{Err: errors.New("/messages: empty")}, sampling.ErrSchemaAndTools} {
		var werr *jsonrpc.Error
		if !errors.As(gosdk.JSONRPCError(&gosdk.FallbackError{Err: err}), &werr) || werr.Code != jsonrpc.CodeInternalError {
			t.Errorf("%v: %v", err, werr)
		}
	}
}

// TestSamplerCapabilities: gosdk.Sampler reports what it can carry: the client's sampling
// capability at 2025-11-25, no sampling at 2026-07-28 (where it sends nothing, and the loop on it
// stops before its first request) whatever the client declared; the call's capabilities
// (RequestCapabilities, as the Handler takes them) hold sampling.tools at both versions.
func TestSamplerCapabilities(t *testing.T) {
	for _, v := range versions {
		t.Run(v.name, func(t *testing.T) {
			s := sdk.NewServer(&sdk.Implementation{Name: "caps", Version: "0"}, nil)
			var caps []byte
			var run *sampling.Result
			var runErr, sendErr error
			sdk.AddTool(s, &sdk.Tool{Name: "probe"}, func(ctx context.Context, req *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
				sampler := gosdk.NewSampler(req.Session)
				caps, _ = json.Marshal(sampler.ClientCapabilities())
				params := &mcp.CreateMessageRequestParams{MaxTokens: 10, Messages: []mcp.SamplingMessage{
					{Role: mcp.RoleUser, Content: mcp.NewSamplingMessageContent(&mcp.TextContent{Text: "hi"})}}}
				if rc, err := gosdk.RequestCapabilities(req); err != nil || rc.Sampling == nil || rc.Sampling.Tools == nil {
					t.Errorf("the request's capabilities: %+v, %v", rc, err)
				}
				run, runErr = gosdk.Run(ctx, req.Session, &sampling.Loop{}, params)
				_, sendErr = sampler.CreateMessage(ctx, params)
				return &sdk.CallToolResult{}, nil, nil
			})
			m := &model{t: t, turns: []turn{answer("endTurn", text("a")), answer("endTurn", text("b"))}}
			cs := connectClient(t, s, v.version, clientOptions(m, "tools", false))
			if _, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "probe", Arguments: map[string]any{}}); err != nil {
				t.Fatal(err)
			}
			if v.version != "" {
				if string(caps) != `{"roots":{"listChanged":true},"sampling":{"tools":{}}}` || runErr != nil || run.Text() != "a" || sendErr != nil || m.count() != 2 {
					t.Errorf("capabilities %s; run %v %v; send %v; %d samples", caps, run, runErr, sendErr, m.count())
				}
				return
			}
			var cerr *sampling.CapabilityError
			if string(caps) != `{"roots":{"listChanged":true}}` || !errors.As(runErr, &cerr) || run.Stop != sampling.StopMissingCapability ||
				!errors.Is(sendErr, gosdk.ErrMultiRoundTrip) || m.count() != 0 {
				t.Errorf("capabilities %s; run %+v %v; send %v; %d samples", caps, run, runErr, sendErr, m.count())
			}
		})
	}
}

// TestHandlerFallbackNotOnRetry: the choice is made on a call's first request; a retry that
// carries a requestState goes on with the client (rounds driven by hand at 2026-07-28), and one
// whose _meta no longer declares sampling.tools is refused with -32021, the Fallback not asked.
func TestHandlerFallbackNotOnRetry(t *testing.T) {
	hs := newHandlerServer(t, false)
	p := &provider{t: t, turns: weatherTurns(t), caps: withTools}
	hs.fallback = p
	cs := connectClient(t, hs.server, "", clientOptions(&model{t: t}, "tools", true))
	args := map[string]any{"prompt": "Weather in Paris?"}
	state, key, _ := firstRound(t, cs, "agent", args, "")
	answer1 := sdk.InputResponseMap{key: sdkAnswer(t, answer("toolUse", use("w", "get_weather", `{"city":"Paris"}`)))}
	_, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Meta: sdk.Meta{sdk.MetaKeyClientCapabilities: map[string]any{}},
		Name: "agent", Arguments: args, InputResponses: answer1, RequestState: state})
	if werr, _ := rpcErr(t, err); werr.Code != -32021 {
		t.Errorf("a retry without sampling.tools: %d %q", werr.Code, werr.Message)
	}
	res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "agent", Arguments: args, InputResponses: answer1, RequestState: state})
	if err != nil || !res.NeedsInput() || res.InputRequests["sampling-2"] == nil {
		t.Fatalf("the retry with sampling.tools: %v %+v", err, res)
	}
	if p.count() != 0 {
		t.Errorf("the fallback was asked %d times", p.count())
	}
}
