//lint:file-ignore SA1019 sampling is deprecated as of 2026-07-28 (SEP-2577), and still in it: this tests its multi round-trip flow

package gosdk_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
	"github.com/mcpgen/mcpgen/sampling"
	"github.com/mcpgen/mcpgen/sampling/gosdk"
	"github.com/mcpgen/mcpgen/sampling/mrtr"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The handler tests run gosdk.Handler in a go-sdk v1.8.0 server, in process, over go-sdk's
// in-memory transports, against go-sdk's own client: at the client's default version (the
// session negotiates 2026-07-28, and the client's middleware answers the InputRequests and
// retries) and at 2025-11-25 (the handler sends the sampling requests itself).

const principalKey = "example.com/principal" // a _meta key the tests' Principal reads

// clock is a fake clock.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// handlerServer is a go-sdk server with the tools "agent" and "agent2" (the same loop), whose
// handlers run gosdk.Handler. It records the tools/call requests it received and the sampling
// requests it sent.
type handlerServer struct {
	server *sdk.Server
	clock  *clock
	guard  *mrtr.MemoryGuard
	// fallback is the handlers' Fallback (set before the first call); nil: none.
	fallback sampling.Sampler

	mu      sync.Mutex
	calls   []*sdk.CallToolParamsRaw
	sampled int // sampling/createMessage requests the server sent
}

func newHandlerServer(t *testing.T, guarded bool) *handlerServer {
	t.Helper()
	hs := &handlerServer{clock: &clock{now: time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)}}
	if guarded {
		hs.guard = &mrtr.MemoryGuard{Now: hs.clock.Now}
	}
	tools := []*sampling.Tool{
		must(t)(sampling.NewTypedTool("get_weather", "Current weather of a city", nil, func(_ context.Context, in struct {
			City string `json:"city"`
		}) (string, error) {
			return "Weather in " + in.City + ": 18°C, partly cloudy", nil
		})),
		must(t)(sampling.NewTypedTool("add", "Adds numbers", nil, func(_ context.Context, in struct {
			Numbers []float64 `json:"numbers"`
		}) (float64, error) {
			s := 0.0
			for _, n := range in.Numbers {
				s += n
			}
			return s, nil
		})),
	}
	s := sdk.NewServer(&sdk.Implementation{Name: "handler-test", Version: "0"}, nil)
	s.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			if p, ok := req.GetParams().(*sdk.CallToolParamsRaw); ok && method == "tools/call" {
				cp := *p
				hs.mu.Lock()
				hs.calls = append(hs.calls, &cp)
				hs.mu.Unlock()
			}
			return next(ctx, method, req)
		}
	})
	s.AddSendingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			if method == "sampling/createMessage" {
				hs.mu.Lock()
				hs.sampled++
				hs.mu.Unlock()
			}
			return next(ctx, method, req)
		}
	})
	handler := func(ctx context.Context, req *sdk.CallToolRequest, in agentInput) (*sdk.CallToolResult, any, error) {
		h := &gosdk.Handler{
			Runner: &mrtr.Runner{
				Loop:  &sampling.Loop{Tools: tools, MaxIterations: in.MaxIterations},
				Key:   []byte("a key of at least thirty-two bytes"),
				TTL:   time.Minute,
				Guard: guardOrNil(hs.guard),
				Now:   hs.clock.Now,
			},
			Principal: func(req *sdk.CallToolRequest) string {
				p, _ := req.Params.Meta[principalKey].(string)
				return p
			},
			Fallback: hs.fallback,
		}
		res, out, err := h.Step(ctx, req, func() (*mcp.CreateMessageRequestParams, error) {
			return &mcp.CreateMessageRequestParams{
				Messages:  []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewSamplingMessageContent(&mcp.TextContent{Text: in.Prompt})}},
				MaxTokens: 1000,
			}, nil
		})
		switch {
		case err != nil:
			return nil, nil, gosdk.JSONRPCError(err)
		case res != nil:
			return res, nil, nil
		case out.Stop != sampling.StopEndTurn:
			return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: "stopped: " + string(out.Stop)}}}, nil, nil
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: out.Text()}}}, nil, nil
	}
	sdk.AddTool(s, &sdk.Tool{Name: "agent"}, handler)
	sdk.AddTool(s, &sdk.Tool{Name: "agent2"}, handler)
	hs.server = s
	return hs
}

func guardOrNil(g *mrtr.MemoryGuard) mrtr.ReplayGuard {
	if g == nil {
		return nil
	}
	return g
}

func (hs *handlerServer) counts() (calls, sampled int) {
	hs.mu.Lock()
	defer hs.mu.Unlock()
	return len(hs.calls), hs.sampled
}

// model is a go-sdk client's scripted model: it plays the turns in order and records the
// requests it got.
type model struct {
	t     *testing.T
	turns []turn

	mu   sync.Mutex
	seen []*mcp.CreateMessageRequestParams
}

func (m *model) handle(ctx context.Context, req *sdk.CreateMessageWithToolsRequest) (*sdk.CreateMessageWithToolsResult, error) {
	p, err := gosdk.FromSDKParams(req.Params)
	if err != nil {
		return nil, err
	}
	if err := p.Validate(); err != nil {
		m.t.Errorf("the sampling request is invalid: %v", err)
	}
	m.mu.Lock()
	n := len(m.seen)
	m.seen = append(m.seen, p)
	m.mu.Unlock()
	if n >= len(m.turns) {
		return nil, fmt.Errorf("no turn %d", n+1)
	}
	var r mcp.CreateMessageResult
	if err := r.UnmarshalJSON([]byte(m.turns[n](ctx, p))); err != nil {
		return nil, err
	}
	return gosdk.ToSDKResult(&r)
}

func (m *model) count() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.seen)
}

// clientOptions are a client's options: "tools" (sampling with tools), "basic" (sampling
// without tools), or "none"; manual disables go-sdk's multi round-trip middleware.
func clientOptions(m *model, caps string, manual bool) *sdk.ClientOptions {
	opts := &sdk.ClientOptions{}
	switch caps {
	case "tools":
		opts.CreateMessageWithToolsHandler = m.handle
	case "basic":
		opts.CreateMessageHandler = func(context.Context, *sdk.CreateMessageRequest) (*sdk.CreateMessageResult, error) {
			return nil, errors.New("not expected")
		}
	}
	if manual {
		opts.MultiRoundTrip = &sdk.MultiRoundTripOptions{Disabled: true}
	}
	return opts
}

// connectClient connects a go-sdk client to the server over in-memory transports, at version
// ("" for the client's default, which must negotiate 2026-07-28).
func connectClient(t *testing.T, s *sdk.Server, version string, opts *sdk.ClientOptions) *sdk.ClientSession {
	t.Helper()
	ct, st := sdk.NewInMemoryTransports()
	ss, err := s.Connect(t.Context(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "scripted-client", Version: "0"}, opts).
		Connect(t.Context(), ct, &sdk.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	want := version
	if want == "" {
		want = "2026-07-28"
	}
	if got := cs.InitializeResult().ProtocolVersion; got != want {
		t.Fatalf("the session negotiated %s, want %s", got, want)
	}
	return cs
}

func callText(t *testing.T, res *sdk.CallToolResult) string {
	t.Helper()
	var parts []string
	for _, c := range res.Content {
		tc, ok := c.(*sdk.TextContent)
		if !ok {
			t.Fatalf("content %T", c)
		}
		parts = append(parts, tc.Text)
	}
	return strings.Join(parts, "\n")
}

var versions = []struct{ name, version string }{{"default (2026-07-28)", ""}, {"2025-11-25", "2025-11-25"}}

func TestHandlerScenarios(t *testing.T) {
	for _, v := range versions {
		for _, tc := range []struct {
			name    string
			turns   []turn
			max     int
			want    string
			isError bool
		}{
			{name: "single tool call", turns: []turn{
				answer("toolUse", use("call-1", "get_weather", `{"city":"Paris"}`)),
				echoResults(t, "call-1"),
			}, want: "call-1: Weather in Paris: 18°C, partly cloudy"},
			{name: "parallel tool calls", turns: []turn{
				answer("toolUse", text("Looking."), use("p", "get_weather", `{"city":"Paris"}`),
					use("l", "get_weather", `{"city":"London"}`), use("sum", "add", `{"numbers":[18,15]}`)),
				echoResults(t, "p", "l", "sum"),
			}, want: "p: Weather in Paris: 18°C, partly cloudy; l: Weather in London: 18°C, partly cloudy; sum: 33"},
			{name: "several iterations", turns: []turn{
				answer("toolUse", use("a", "add", `{"numbers":[1,2]}`)),
				answer("toolUse", use("b", "add", `{"numbers":[3,4]}`)),
				answer("toolUse", use("c", "get_weather", `{"city":"Rome"}`)),
				echoResults(t, "c"),
			}, want: "c: Weather in Rome: 18°C, partly cloudy"},
			{name: "the iteration limit", max: 2, turns: []turn{
				answer("toolUse", use("a", "add", `{"numbers":[1]}`)),
				answer("toolUse", use("b", "add", `{"numbers":[2]}`)),
			}, want: "stopped: maxIterations", isError: true},
		} {
			t.Run(v.name+"/"+tc.name, func(t *testing.T) {
				hs := newHandlerServer(t, true)
				m := &model{t: t, turns: tc.turns}
				cs := connectClient(t, hs.server, v.version, clientOptions(m, "tools", false))
				args := map[string]any{"prompt": "Weather?"}
				if tc.max > 0 {
					args["maxIterations"] = tc.max
				}
				res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "agent", Arguments: args})
				if err != nil {
					t.Fatalf("tools/call: %v", err)
				}
				if got := callText(t, res); got != tc.want || res.IsError != tc.isError {
					t.Errorf("result %q (isError %v), want %q (%v)", got, res.IsError, tc.want, tc.isError)
				}
				if m.count() != len(tc.turns) {
					t.Errorf("the model answered %d requests, want %d", m.count(), len(tc.turns))
				}
				calls, sampled := hs.counts()
				if v.version == "" {
					// One tools/call per sample, and one more; the server never sends a request.
					if calls != len(tc.turns)+1 || sampled != 0 {
						t.Errorf("%d tools/call, %d sampling requests sent by the server; want %d, 0", calls, sampled, len(tc.turns)+1)
					}
					hs.mu.Lock()
					for i, c := range hs.calls[1:] {
						if c.RequestState == "" || c.InputResponses[fmt.Sprintf("sampling-%d", i+1)] == nil {
							t.Errorf("retry %d: state %q, responses %v", i+1, c.RequestState, c.InputResponses)
						}
					}
					hs.mu.Unlock()
				} else if calls != 1 || sampled != len(tc.turns) {
					t.Errorf("%d tools/call, %d sampling requests sent by the server; want 1, %d", calls, sampled, len(tc.turns))
				}
				// Each request carried the conversation so far, with the tools.
				for i, p := range m.seen {
					if len(p.Messages) != 2*i+1 || len(p.Tools) != 2 {
						t.Errorf("request %d: %d messages, %d tools", i+1, len(p.Messages), len(p.Tools))
					}
				}
			})
		}
	}
}

// rpcErr returns the JSON-RPC error of a failed call, with its data decoded.
func rpcErr(t *testing.T, err error) (*jsonrpc.Error, map[string]any) {
	t.Helper()
	var werr *jsonrpc.Error
	if !errors.As(err, &werr) {
		t.Fatalf("not a JSON-RPC error: %v", err)
	}
	var data map[string]any
	if len(werr.Data) > 0 {
		if err := json.Unmarshal(werr.Data, &data); err != nil {
			t.Fatalf("data %s: %v", werr.Data, err)
		}
	}
	return werr, data
}

func TestHandlerWithoutSamplingTools(t *testing.T) {
	for _, v := range versions {
		for _, caps := range []string{"basic", "none"} {
			t.Run(v.name+"/"+caps, func(t *testing.T) {
				hs := newHandlerServer(t, false)
				m := &model{t: t}
				cs := connectClient(t, hs.server, v.version, clientOptions(m, caps, false))
				_, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "agent", Arguments: map[string]any{"prompt": "hi"}})
				werr, data := rpcErr(t, err)
				required, _ := json.Marshal(data["requiredCapabilities"])
				if werr.Code != -32021 || string(required) != `{"sampling":{"tools":{}}}` {
					t.Errorf("error %d %q, data %s", werr.Code, werr.Message, werr.Data)
				}
				if _, sampled := hs.counts(); sampled != 0 || m.count() != 0 {
					t.Errorf("%d sampling requests sent", sampled)
				}
			})
		}
	}
}

// firstRound calls the agent tool with go-sdk's multi round-trip middleware disabled, and returns
// the state and the key of the sampling request it asks for.
func firstRound(t *testing.T, cs *sdk.ClientSession, tool string, args map[string]any, principal string) (state, key string, params *sdk.CreateMessageWithToolsParams) {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Meta: sdk.Meta{principalKey: principal}, Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("tools/call: %v", err)
	}
	if !res.NeedsInput() || len(res.InputRequests) != 1 || res.RequestState == "" {
		t.Fatalf("not an input_required result: %+v", res)
	}
	for k, r := range res.InputRequests {
		p, ok := r.(*sdk.CreateMessageWithToolsParams)
		if !ok {
			t.Fatalf("input request %s is a %T", k, r)
		}
		return res.RequestState, k, p
	}
	panic("unreachable")
}

// sdkAnswer is a sampling result as go-sdk's type.
func sdkAnswer(t *testing.T, tr turn) *sdk.CreateMessageWithToolsResult {
	t.Helper()
	var r sdk.CreateMessageWithToolsResult
	if err := json.Unmarshal([]byte(tr(t.Context(), nil)), &r); err != nil {
		t.Fatal(err)
	}
	return &r
}

// TestHandlerRefusesStates drives the retries by hand (go-sdk's client with MultiRoundTrip
// disabled) and presents tampered, expired, foreign and replayed states: each is refused with
// -32602 and the reason in data, and no tool runs.
func TestHandlerRefusesStates(t *testing.T) {
	args := map[string]any{"prompt": "Weather in Paris?"}
	toolUse := answer("toolUse", use("w", "get_weather", `{"city":"Paris"}`))
	retry := func(cs *sdk.ClientSession, tool string, args map[string]any, principal, state, key string, ans *sdk.CreateMessageWithToolsResult) (*sdk.CallToolResult, error) {
		return cs.CallTool(t.Context(), &sdk.CallToolParams{
			Meta: sdk.Meta{principalKey: principal}, Name: tool, Arguments: args,
			InputResponses: sdk.InputResponseMap{key: ans}, RequestState: state,
		})
	}
	for _, tc := range []struct {
		name   string
		reason string
		// present retries the call with the first round's state changed as the case wants.
		present func(t *testing.T, hs *handlerServer, cs *sdk.ClientSession, state, key string) error
	}{
		{"tampered", "tampered", func(t *testing.T, _ *handlerServer, cs *sdk.ClientSession, state, key string) error {
			b := []byte(state)
			i := len("v1.") + 5
			b[i] ^= 1 // one character of the body
			_, err := retry(cs, "agent", args, "alice", string(b), key, sdkAnswer(t, toolUse))
			return err
		}},
		{"expired", "expired", func(t *testing.T, hs *handlerServer, cs *sdk.ClientSession, state, key string) error {
			hs.clock.advance(time.Minute + time.Second)
			_, err := retry(cs, "agent", args, "alice", state, key, sdkAnswer(t, toolUse))
			return err
		}},
		{"another principal", "otherPrincipal", func(t *testing.T, _ *handlerServer, cs *sdk.ClientSession, state, key string) error {
			_, err := retry(cs, "agent", args, "mallory", state, key, sdkAnswer(t, toolUse))
			return err
		}},
		{"other arguments", "otherRequest", func(t *testing.T, _ *handlerServer, cs *sdk.ClientSession, state, key string) error {
			_, err := retry(cs, "agent", map[string]any{"prompt": "Weather in Rome?"}, "alice", state, key, sdkAnswer(t, toolUse))
			return err
		}},
		{"another tool", "otherRequest", func(t *testing.T, _ *handlerServer, cs *sdk.ClientSession, state, key string) error {
			_, err := retry(cs, "agent2", args, "alice", state, key, sdkAnswer(t, toolUse))
			return err
		}},
		{"replayed", "replayed", func(t *testing.T, _ *handlerServer, cs *sdk.ClientSession, state, key string) error {
			res, err := retry(cs, "agent", args, "alice", state, key, sdkAnswer(t, toolUse))
			if err != nil || !res.NeedsInput() {
				t.Fatalf("the first presentation: %v %+v", err, res)
			}
			_, err = retry(cs, "agent", args, "alice", state, key, sdkAnswer(t, toolUse))
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hs := newHandlerServer(t, true)
			cs := connectClient(t, hs.server, "", clientOptions(&model{t: t}, "tools", true))
			state, key, _ := firstRound(t, cs, "agent", args, "alice")
			werr, data := rpcErr(t, tc.present(t, hs, cs, state, key))
			if werr.Code != -32602 || data["reason"] != tc.reason {
				t.Errorf("error %d %q, data %s; want -32602, reason %s", werr.Code, werr.Message, werr.Data, tc.reason)
			}
		})
	}
}

// TestHandlerManualRounds: a client that drives the rounds itself gets the same conversation;
// a retry without the answer is asked again with the same state; an invalid answer is -32602
// with its JSON pointer.
func TestHandlerManualRounds(t *testing.T) {
	hs := newHandlerServer(t, true)
	cs := connectClient(t, hs.server, "", clientOptions(&model{t: t}, "tools", true))
	args := map[string]any{"prompt": "Weather in Paris?"}
	state, key, params := firstRound(t, cs, "agent", args, "alice")
	if key != "sampling-1" || len(params.Tools) != 2 || params.MaxTokens != 1000 {
		t.Fatalf("first request %s: %+v", key, params)
	}
	// No answer: asked again, with the same state.
	res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Meta: sdk.Meta{principalKey: "alice"}, Name: "agent", Arguments: args, RequestState: state})
	if err != nil || !res.NeedsInput() || res.RequestState != state || res.InputRequests[key] == nil {
		t.Fatalf("a retry without the answer: %v %+v", err, res)
	}
	// An invalid answer: a tool use id used twice.
	bad := sdkAnswer(t, answer("toolUse", use("x", "add", `{"numbers":[1]}`), use("x", "add", `{"numbers":[2]}`)))
	_, err = cs.CallTool(t.Context(), &sdk.CallToolParams{Meta: sdk.Meta{principalKey: "alice"}, Name: "agent", Arguments: args,
		InputResponses: sdk.InputResponseMap{key: bad}, RequestState: state})
	werr, _ := rpcErr(t, err)
	if werr.Code != -32602 || !strings.Contains(werr.Message, "/inputResponses/sampling-1/content/1/id") {
		t.Errorf("an invalid answer: %d %q", werr.Code, werr.Message)
	}
	// The answer, then the final text.
	res, err = cs.CallTool(t.Context(), &sdk.CallToolParams{Meta: sdk.Meta{principalKey: "alice"}, Name: "agent", Arguments: args,
		InputResponses: sdk.InputResponseMap{key: sdkAnswer(t, answer("toolUse", use("w", "get_weather", `{"city":"Paris"}`)))}, RequestState: state})
	if err != nil || !res.NeedsInput() || res.InputRequests["sampling-2"] == nil {
		t.Fatalf("second round: %v %+v", err, res)
	}
	p2, err := gosdk.FromSDKParams(res.InputRequests["sampling-2"].(*sdk.CreateMessageWithToolsParams))
	if err != nil {
		t.Fatal(err)
	}
	results := lastResults(t, p2)
	if r := results["w"]; r == nil || r.Content[0].(*mcp.TextContent).Text != "Weather in Paris: 18°C, partly cloudy" {
		t.Errorf("the tool result in the second request: %+v", results)
	}
	res, err = cs.CallTool(t.Context(), &sdk.CallToolParams{Meta: sdk.Meta{principalKey: "alice"}, Name: "agent", Arguments: args,
		InputResponses: sdk.InputResponseMap{"sampling-2": sdkAnswer(t, answer("endTurn", text("18°C in Paris.")))}, RequestState: res.RequestState})
	if err != nil || res.NeedsInput() || callText(t, res) != "18°C in Paris." {
		t.Fatalf("final round: %v %+v", err, res)
	}
}

func TestJSONRPCError(t *testing.T) {
	if gosdk.JSONRPCError(nil) != nil {
		t.Error("nil became an error")
	}
	plain := errors.New("plain")
	if gosdk.JSONRPCError(plain) != plain {
		t.Error("an error without a code was changed")
	}
	if err := gosdk.JSONRPCError(context.Canceled); !errors.Is(err, context.Canceled) {
		t.Errorf("the context's error became %v", err)
	}
}

// TestHandlerRefusesLossyRequest: a sampling request that go-sdk's types would not send unchanged
// (temperature 0, which its omitempty drops) is not sent: the call fails with -32603 naming it.
func TestHandlerRefusesLossyRequest(t *testing.T) {
	for _, v := range versions {
		t.Run(v.name, func(t *testing.T) {
			s := sdk.NewServer(&sdk.Implementation{Name: "lossy", Version: "0"}, nil)
			runner := &mrtr.Runner{Loop: &sampling.Loop{Tools: nil}, Key: []byte("a key of at least thirty-two bytes")}
			sdk.AddTool(s, &sdk.Tool{Name: "agent"}, func(ctx context.Context, req *sdk.CallToolRequest, in agentInput) (*sdk.CallToolResult, any, error) {
				res, _, err := gosdk.Step(ctx, runner, req, func() (*mcp.CreateMessageRequestParams, error) {
					zero := 0.0
					return &mcp.CreateMessageRequestParams{
						Messages:    []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewSamplingMessageContent(&mcp.TextContent{Text: in.Prompt})}},
						MaxTokens:   10,
						Temperature: &zero,
					}, nil
				})
				if err != nil {
					return nil, nil, gosdk.JSONRPCError(err)
				}
				return res, nil, nil
			})
			m := &model{t: t}
			cs := connectClient(t, s, v.version, clientOptions(m, "tools", false))
			_, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "agent", Arguments: map[string]any{"prompt": "hi"}})
			werr, _ := rpcErr(t, err)
			if werr.Code != -32603 || !strings.Contains(werr.Message, "/temperature") {
				t.Errorf("error %d %q", werr.Code, werr.Message)
			}
			if m.count() != 0 {
				t.Errorf("the model got %d requests", m.count())
			}
		})
	}
}

// TestHandlerProgress: a call with a progressToken gets the loop's events as
// notifications/progress, numbered 1, 2, 3, ... across the rounds, each written by the server
// before the response to the request that carried the token (checked on the bytes it wrote).
func TestHandlerProgress(t *testing.T) {
	for _, v := range versions {
		t.Run(v.name, func(t *testing.T) {
			hs := newHandlerServer(t, true)
			m := &model{t: t, turns: []turn{
				answer("toolUse", use("p", "get_weather", `{"city":"Paris"}`), use("s", "add", `{"numbers":[1,2]}`)),
				echoResults(t, "p", "s"),
			}}
			w := &wire{}
			received := &receivedProgress{}
			cs := connectRecorded(t, hs, v.version, m, w, received)
			params := &sdk.CallToolParams{Name: "agent", Arguments: map[string]any{"prompt": "Weather?"}}
			params.SetProgressToken("tok-1")
			res, err := cs.CallTool(t.Context(), params)
			if err != nil || callText(t, res) != "p: Weather in Paris: 18°C, partly cloudy; s: 3" {
				t.Fatalf("tools/call: %v %+v", err, res)
			}
			events, responses := wireProgress(t, w)
			checkWireProgress(t, v.version, events, responses)
			cs.Close() // the client has handled every notification it received
			received.mu.Lock()
			defer received.mu.Unlock()
			if len(received.got) != len(events) {
				t.Errorf("the client's handler got %d notifications, the server wrote %d", len(received.got), len(events))
			}
		})
	}
}

// receivedProgress is what the client's ProgressNotificationHandler received: token,
// progress and message of each notification.
type receivedProgress struct {
	mu  sync.Mutex
	got []string
}

// connectRecorded connects hs's server and a go-sdk client at version, answered by m, over
// pipes whose bytes w records; the client's progress notifications go to received.
func connectRecorded(t *testing.T, hs *handlerServer, version string, m *model, w *wire, received *receivedProgress) *sdk.ClientSession {
	t.Helper()
	cr, cw := io.Pipe()
	sr, sw := io.Pipe()
	ss, err := hs.server.Connect(t.Context(), &sdk.IOTransport{Reader: cr, Writer: w.writer("server", sw)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	opts := clientOptions(m, "tools", false)
	opts.ProgressNotificationHandler = func(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
		received.mu.Lock()
		defer received.mu.Unlock()
		received.got = append(received.got, fmt.Sprintf("%v %g %s", req.Params.ProgressToken, req.Params.Progress, req.Params.Message))
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "scripted-client", Version: "0"}, opts).
		Connect(t.Context(), &sdk.IOTransport{Reader: sr, Writer: w.writer("client", cw)}, &sdk.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// wireProgress reads, on the wire w recorded and in the order the server wrote them, the
// progress notifications (token, progress and message) and the responses to tools/call (the
// number of notifications written before each).
func wireProgress(t *testing.T, w *wire) (events []string, responses []int) {
	t.Helper()
	calls := map[string]bool{}
	for _, l := range w.all() {
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ProgressToken any     `json:"progressToken"`
				Progress      float64 `json:"progress"`
				Message       string  `json:"message"`
			} `json:"params"`
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal(l.data, &msg); err != nil {
			t.Fatal(err)
		}
		switch {
		case l.from == "client" && msg.Method == "tools/call":
			calls[string(msg.ID)] = true
		case l.from == "server" && msg.Method == "notifications/progress":
			events = append(events, fmt.Sprintf("%v %g %s", msg.Params.ProgressToken, msg.Params.Progress, msg.Params.Message))
		case l.from == "server" && msg.Result != nil && calls[string(msg.ID)]:
			responses = append(responses, len(events))
		}
	}
	return events, responses
}

// checkWireProgress checks the progress notifications the server wrote at version, and the
// number of them written before each response to tools/call.
func checkWireProgress(t *testing.T, version string, events []string, responses []int) {
	t.Helper()
	want := []string{
		"tok-1 1 asking the model (request 1 of at most 10)",
		"tok-1 2 tool get_weather ran",
		"tok-1 3 tool add ran",
		"tok-1 4 asking the model (request 2 of at most 10)",
		"tok-1 5 done after 2 requests",
	}
	// The two tools run concurrently: their events come in the order they finish.
	if len(events) == 5 && strings.HasSuffix(events[1], "add ran") {
		want[1], want[2] = "tok-1 2 tool add ran", "tok-1 3 tool get_weather ran"
	}
	if strings.Join(events, "\n") != strings.Join(want, "\n") {
		t.Errorf("progress on the wire:\n%s\nwant:\n%s", strings.Join(events, "\n"), strings.Join(want, "\n"))
	}
	// Each round's events precede its response: at 2026-07-28 the rounds end after
	// events 1, 4 and 5; at 2025-11-25 the one call ends after all five.
	wantResponses := []int{1, 4, 5}
	if version != "" {
		wantResponses = []int{5}
	}
	if fmt.Sprint(responses) != fmt.Sprint(wantResponses) {
		t.Errorf("tools/call responses written after %v notifications, want %v", responses, wantResponses)
	}
}

// TestHandlerPerRequestCapabilities: at 2026-07-28 the capabilities are the request's own: a
// client that can sample with tools but declares none in one call's _meta is refused for that
// call (and served for the next).
func TestHandlerPerRequestCapabilities(t *testing.T) {
	hs := newHandlerServer(t, false)
	m := &model{t: t, turns: []turn{answer("endTurn", text("Hello."))}}
	cs := connectClient(t, hs.server, "", clientOptions(m, "tools", false))
	_, err := cs.CallTool(t.Context(), &sdk.CallToolParams{
		Meta: sdk.Meta{sdk.MetaKeyClientCapabilities: map[string]any{}},
		Name: "agent", Arguments: map[string]any{"prompt": "hi"},
	})
	if werr, _ := rpcErr(t, err); werr.Code != -32021 || m.count() != 0 {
		t.Errorf("error %d %q; %d requests", werr.Code, werr.Message, m.count())
	}
	res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "agent", Arguments: map[string]any{"prompt": "hi"}})
	if err != nil || callText(t, res) != "Hello." {
		t.Fatalf("the next call: %v %+v", err, res)
	}
}

// TestHandlerClientRetryLimit pins what the package doc says of go-sdk's client: it makes at
// most 10 calls for one tool call, so at 2026-07-28 a loop's 9th sample is its last one (the
// 10th call's input requests fail in the client), while at 2025-11-25 the loop runs to its own
// limit.
func TestHandlerClientRetryLimit(t *testing.T) {
	var turns []turn
	for i := range 10 {
		turns = append(turns, answer("toolUse", use(fmt.Sprint("a", i), "add", `{"numbers":[1]}`)))
	}
	for _, v := range versions {
		t.Run(v.name, func(t *testing.T) {
			hs := newHandlerServer(t, false)
			m := &model{t: t, turns: turns}
			cs := connectClient(t, hs.server, v.version, clientOptions(m, "tools", false))
			res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "agent", Arguments: map[string]any{"prompt": "count", "maxIterations": 10}})
			if v.version == "" {
				if err == nil || !strings.Contains(err.Error(), "exceeded maximum retries (10)") || m.count() != 9 {
					t.Errorf("result %+v, error %v; %d samples", res, err, m.count())
				}
				return
			}
			if err != nil || callText(t, res) != "stopped: maxIterations" || m.count() != 10 {
				t.Errorf("result %+v, error %v; %d samples", res, err, m.count())
			}
		})
	}
}

// TestHandlerClientSamplingError: at 2025-11-25 a client that answers the server's sampling
// request with an error gets a tool result with isError saying so, not its own JSON-RPC error
// back as the server's.
func TestHandlerClientSamplingError(t *testing.T) {
	hs := newHandlerServer(t, false)
	m := &model{t: t, turns: []turn{answer("toolUse", use("a", "add", `{"numbers":[1]}`))}} // no second turn: the model fails
	cs := connectClient(t, hs.server, "2025-11-25", clientOptions(m, "tools", false))
	res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "agent", Arguments: map[string]any{"prompt": "count"}})
	if err != nil {
		t.Fatalf("tools/call: %v", err)
	}
	if got := callText(t, res); !res.IsError || !strings.Contains(got, "sampling request sampling-2") || !strings.Contains(got, "no turn 2") {
		t.Errorf("result %q (isError %v)", got, res.IsError)
	}
}

// TestMultiRoundTrip: true on a session of go-sdk's client at its default version (2026-07-28),
// false at 2025-11-25, as the handler's flows go.
func TestMultiRoundTrip(t *testing.T) {
	if !gosdk.MultiRoundTrip(nil) {
		t.Error("MultiRoundTrip(nil) is false; a session unknown is of 2026-07-28, as in go-sdk")
	}
	for _, v := range versions {
		t.Run(v.name, func(t *testing.T) {
			s := sdk.NewServer(&sdk.Implementation{Name: "mrt", Version: "0"}, nil)
			var got bool
			sdk.AddTool(s, &sdk.Tool{Name: "probe"}, func(_ context.Context, req *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
				got = gosdk.MultiRoundTrip(req.Session)
				return &sdk.CallToolResult{}, nil, nil
			})
			cs := connectClient(t, s, v.version, clientOptions(&model{t: t}, "tools", false))
			if _, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "probe", Arguments: map[string]any{}}); err != nil {
				t.Fatal(err)
			}
			if want := v.version == ""; got != want {
				t.Errorf("MultiRoundTrip %v, want %v", got, want)
			}
		})
	}
}
