//lint:file-ignore SA1019 sampling is deprecated as of 2026-07-28 (SEP-2577); this tests the 2025-11-25 flow, in which it remains

package gosdk_test

import (
	"bytes"
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
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The interop tests run the official Go SDK on both ends, over newline-delimited JSON on pipes:
// its server carries the tool loop (through gosdk.Sampler), its client answers the sampling
// requests with a scripted model. Every line is recorded; afterwards, every sampling request on
// the wire is decoded with mcpgen's types and must be what the loop sent, and every answer
// what the loop received.

// wire records the lines written by each side.
type wire struct {
	mu    sync.Mutex
	lines []line
	part  map[string]*bytes.Buffer
}

type line struct {
	from string // "server" or "client"
	data []byte
}

func (w *wire) writer(from string, to io.WriteCloser) io.WriteCloser {
	return writeCloser{io.MultiWriter(writerFunc(func(b []byte) (int, error) {
		w.mu.Lock()
		defer w.mu.Unlock()
		if w.part == nil {
			w.part = map[string]*bytes.Buffer{}
		}
		buf := w.part[from]
		if buf == nil {
			buf = new(bytes.Buffer)
			w.part[from] = buf
		}
		buf.Write(b)
		for {
			l, err := buf.ReadBytes('\n')
			if err != nil {
				buf.Write(l)
				break
			}
			w.lines = append(w.lines, line{from, bytes.TrimSpace(l)})
		}
		return len(b), nil
	}), to), to} // recorded before it is sent
}

func (w *wire) all() []line {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]line(nil), w.lines...)
}

type writeCloser struct {
	io.Writer
	io.Closer
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }

// recorder is the sampler the server's loop runs on: gosdk.Sampler, recording what the loop sent
// and received, as mcpgen's JSON.
type recorder struct {
	inner *gosdk.Sampler

	mu       sync.Mutex
	sent     [][]byte
	received [][]byte
}

func (r *recorder) CreateMessage(ctx context.Context, p *mcp.CreateMessageRequestParams) (*mcp.CreateMessageResult, error) {
	data, err := p.MarshalJSON()
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	r.sent = append(r.sent, data)
	r.mu.Unlock()
	res, err := r.inner.CreateMessage(ctx, p)
	if err == nil {
		data, _ := res.MarshalJSON()
		r.mu.Lock()
		r.received = append(r.received, data)
		r.mu.Unlock()
	}
	return res, err
}

func (r *recorder) ClientCapabilities() *mcp.ClientCapabilities { return r.inner.ClientCapabilities() }

type agentInput struct {
	Prompt        string `json:"prompt"`
	MaxIterations int    `json:"maxIterations,omitempty"`
}

// outcome is what the server's loop did.
type outcome struct {
	res *sampling.Result
	err error
}

// testServer is a go-sdk server (protocol 2025-11-25) with one tool, "agent", which runs the
// loop on the client's model with get_weather, add and fail.
func testServer(t *testing.T, rec **recorder, outcomes chan<- outcome) *sdk.Server {
	t.Helper()
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
		must(t)(sampling.NewTypedTool("fail", "Always fails", nil, func(context.Context, struct{}) (string, error) {
			return "", errors.New("the service is down")
		})),
	}
	s := sdk.NewServer(&sdk.Implementation{Name: "loop-test", Version: "0"}, &sdk.ServerOptions{SupportedProtocolVersions: []string{"2025-11-25"}})
	sdk.AddTool(s, &sdk.Tool{Name: "agent", Description: "Answers with the client's model and tools"},
		func(ctx context.Context, req *sdk.CallToolRequest, in agentInput) (*sdk.CallToolResult, any, error) {
			loop := &sampling.Loop{Tools: tools, MaxIterations: in.MaxIterations}
			r := &recorder{inner: gosdk.NewSampler(req.Session)}
			*rec = r
			res, err := loop.Run(ctx, r, &mcp.CreateMessageRequestParams{
				Messages:  []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewSamplingMessageContent(&mcp.TextContent{Text: in.Prompt})}},
				MaxTokens: 1000,
			})
			outcomes <- outcome{res, err}
			if err != nil {
				return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: err.Error()}}}, nil, nil
			}
			if res.Stop != sampling.StopEndTurn {
				return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: "stopped: " + string(res.Stop)}}}, nil, nil
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: res.Text()}}}, nil, nil
		})
	return s
}

func must(t *testing.T) func(*sampling.Tool, error) *sampling.Tool {
	return func(tool *sampling.Tool, err error) *sampling.Tool {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return tool
	}
}

// A turn answers one sampling request, given as mcpgen's params, with a result as JSON.
type turn func(ctx context.Context, p *mcp.CreateMessageRequestParams) string

func answer(stop string, blocks ...string) turn {
	return func(context.Context, *mcp.CreateMessageRequestParams) string {
		return fmt.Sprintf(`{"role":"assistant","model":"scripted","stopReason":%q,"content":[%s]}`, stop, strings.Join(blocks, ","))
	}
}

func use(id, name, input string) string {
	return fmt.Sprintf(`{"type":"tool_use","id":%q,"name":%q,"input":%s}`, id, name, input)
}

func text(s string) string {
	b, _ := json.Marshal(s)
	return `{"type":"text","text":` + string(b) + `}`
}

// session connects a go-sdk client whose model plays the turns (nil turns: a client without
// sampling; basic: a client with sampling but not sampling.tools) to a fresh test server.
type session struct {
	client   *sdk.ClientSession
	wire     *wire
	rec      *recorder
	outcomes chan outcome
	seen     [][]byte // the sampling requests the client's model got, as mcpgen's JSON
}

func connect(t *testing.T, turns []turn, basic bool) *session {
	t.Helper()
	s := &session{wire: &wire{}, outcomes: make(chan outcome, 1)}
	server := testServer(t, &s.rec, s.outcomes)
	cr, cw := io.Pipe()
	sr, sw := io.Pipe()
	ctx := t.Context()
	ss, err := server.Connect(ctx, &sdk.IOTransport{Reader: cr, Writer: s.wire.writer("server", sw)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	var mu sync.Mutex
	model := func(ctx context.Context, params *sdk.CreateMessageWithToolsParams) (*sdk.CreateMessageWithToolsResult, error) {
		p, err := gosdk.FromSDKParams(params)
		if err != nil {
			return nil, err
		}
		data, _ := p.MarshalJSON()
		mu.Lock()
		n := len(s.seen)
		s.seen = append(s.seen, data)
		mu.Unlock()
		if n >= len(turns) {
			return nil, fmt.Errorf("no turn %d", n+1)
		}
		var r mcp.CreateMessageResult
		if err := r.UnmarshalJSON([]byte(turns[n](ctx, p))); err != nil {
			return nil, err
		}
		return gosdk.ToSDKResult(&r)
	}
	opts := &sdk.ClientOptions{}
	switch {
	case turns == nil:
	case basic:
		opts.CreateMessageHandler = func(context.Context, *sdk.CreateMessageRequest) (*sdk.CreateMessageResult, error) {
			return nil, errors.New("not called")
		}
	default:
		opts.CreateMessageWithToolsHandler = func(ctx context.Context, req *sdk.CreateMessageWithToolsRequest) (*sdk.CreateMessageWithToolsResult, error) {
			return model(ctx, req.Params)
		}
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "scripted-client", Version: "0"}, opts)
	s.client, err = client.Connect(ctx, &sdk.IOTransport{Reader: sr, Writer: s.wire.writer("client", cw)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.client.Close() })
	if v := s.client.InitializeResult().ProtocolVersion; v != "2025-11-25" {
		t.Fatalf("protocol %s", v)
	}
	return s
}

// call calls the agent tool and returns its text, whether it is an error, and the loop's outcome.
func (s *session) call(t *testing.T, ctx context.Context, args map[string]any) (string, bool, outcome) {
	t.Helper()
	res, err := s.client.CallTool(ctx, &sdk.CallToolParams{Name: "agent", Arguments: args})
	if err != nil {
		t.Fatalf("tools/call: %v", err)
	}
	var texts []string
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			texts = append(texts, tc.Text)
		}
	}
	return strings.Join(texts, "\n"), res.IsError, <-s.outcomes
}

// checkWire decodes the sampling traffic with mcpgen's types: each request must decode,
// validate and be what the loop sent; each answer must decode as the result of
// sampling/createMessage and be what the loop received.
func (s *session) checkWire(t *testing.T) {
	t.Helper()
	var pending mcp.Pending
	var requests, responses [][]byte
	for _, l := range s.wire.all() {
		var probe struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		json.Unmarshal(l.data, &probe)
		switch {
		case l.from == "server" && probe.Method == mcp.MethodCreateMessage:
			msg, err := mcp.DecodeServerMessage(l.data, nil)
			if err != nil {
				t.Fatalf("a sampling request does not decode: %v\n%s", err, l.data)
			}
			req := msg.(*mcp.CreateMessageRequest)
			if err := req.Validate(); err != nil {
				t.Errorf("a sampling request on the wire is invalid: %v", err)
			}
			pending.Add(req.ID, mcp.MethodCreateMessage)
			data, _ := req.Params.MarshalJSON()
			requests = append(requests, data)
		case l.from == "client" && probe.Method == "" && probe.ID != nil:
			var id mcp.RequestID
			var idErr error
			if id, idErr = mcp.UnmarshalRequestID(probe.ID); idErr != nil {
				t.Fatal(idErr)
			}
			method, ok := pending.Take(id)
			if !ok {
				continue // not an answer to a sampling request
			}
			msg, err := mcp.DecodeClientMessage(l.data, func(mcp.RequestID) (string, bool) { return method, true })
			if err != nil {
				t.Fatalf("an answer to a sampling request does not decode: %v\n%s", err, l.data)
			}
			if r, ok := msg.(*mcp.JSONRPCResultResponse); ok {
				res, ok := r.Result.(*mcp.CreateMessageResult)
				if !ok {
					continue
				}
				data, _ := res.MarshalJSON()
				responses = append(responses, data)
			}
		}
	}
	s.rec.mu.Lock()
	defer s.rec.mu.Unlock()
	if len(requests) != len(s.rec.sent) {
		t.Fatalf("%d sampling requests on the wire, the loop sent %d", len(requests), len(s.rec.sent))
	}
	for i := range requests {
		if !sameJSON(t, requests[i], s.rec.sent[i]) {
			t.Errorf("sampling request %d on the wire:\n%s\nthe loop sent:\n%s", i+1, requests[i], s.rec.sent[i])
		}
		if !sameJSON(t, requests[i], s.seen[i]) {
			t.Errorf("sampling request %d: the client's model got\n%s", i+1, s.seen[i])
		}
	}
	if len(responses) != len(s.rec.received) {
		t.Fatalf("%d sampling results on the wire, the loop received %d", len(responses), len(s.rec.received))
	}
	for i := range responses {
		if !sameJSON(t, responses[i], s.rec.received[i]) {
			t.Errorf("sampling result %d on the wire:\n%s\nthe loop received:\n%s", i+1, responses[i], s.rec.received[i])
		}
	}
}

func lastResults(t *testing.T, p *mcp.CreateMessageRequestParams) map[string]*mcp.ToolResultContent {
	t.Helper()
	out := map[string]*mcp.ToolResultContent{}
	for _, b := range p.Messages[len(p.Messages)-1].Content.List {
		if r, ok := b.(*mcp.ToolResultContent); ok {
			out[r.ToolUseID] = r
		}
	}
	return out
}

func resultText(r *mcp.ToolResultContent) string {
	if r == nil {
		return "<none>"
	}
	var parts []string
	for _, b := range r.Content {
		if tc, ok := b.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	s := strings.Join(parts, "\n")
	if r.IsError != nil && *r.IsError {
		s = "error: " + s
	}
	return s
}

// echoResults is a turn that answers with the text of the tool results it got.
func echoResults(t *testing.T, ids ...string) turn {
	return func(_ context.Context, p *mcp.CreateMessageRequestParams) string {
		results := lastResults(t, p)
		var parts []string
		for _, id := range ids {
			parts = append(parts, id+": "+resultText(results[id]))
		}
		return answer("endTurn", text(strings.Join(parts, "; ")))(nil, p)
	}
}

func TestInteropScenarios(t *testing.T) {
	for _, tc := range []struct {
		name    string
		turns   []turn
		max     int
		want    string
		isError bool
		stop    sampling.StopReason
	}{
		{name: "single tool call", turns: []turn{
			answer("toolUse", use("call-1", "get_weather", `{"city":"Paris"}`)),
			echoResults(t, "call-1"),
		}, want: "call-1: Weather in Paris: 18°C, partly cloudy", stop: sampling.StopEndTurn},
		{name: "parallel tool calls", turns: []turn{
			answer("toolUse", text("Looking."), use("call_abc123", "get_weather", `{"city":"Paris"}`),
				use("call_def456", "get_weather", `{"city":"London"}`), use("sum", "add", `{"numbers":[18,15]}`)),
			echoResults(t, "call_abc123", "call_def456", "sum"),
		}, want: "call_abc123: Weather in Paris: 18°C, partly cloudy; call_def456: Weather in London: 18°C, partly cloudy; sum: 33", stop: sampling.StopEndTurn},
		{name: "a failing tool", turns: []turn{
			answer("toolUse", use("f", "fail", `{}`)),
			echoResults(t, "f"),
		}, want: `f: error: tool "fail" failed: the service is down`, stop: sampling.StopEndTurn},
		{name: "invalid tool input", turns: []turn{
			answer("toolUse", use("a", "add", `{"numbers":[1,"2"]}`)),
			echoResults(t, "a"),
		}, want: `a: error: invalid input for tool "add": /numbers/1: got string, want number`, stop: sampling.StopEndTurn},
		{name: "an unknown tool name", turns: []turn{
			answer("toolUse", use("u", "get_wether", `{"city":"Paris"}`)),
			echoResults(t, "u"),
		}, want: `u: error: unknown tool "get_wether": the tools are add, fail, get_weather`, stop: sampling.StopEndTurn},
		{name: "the iteration limit", max: 2, turns: []turn{
			answer("toolUse", use("a", "add", `{"numbers":[1]}`)),
			answer("toolUse", use("b", "add", `{"numbers":[2]}`)),
		}, want: "stopped: maxIterations", isError: true, stop: sampling.StopMaxIterations},
		{name: "a duplicate id", turns: []turn{
			answer("toolUse", use("x", "add", `{"numbers":[1]}`)),
			answer("toolUse", use("x", "add", `{"numbers":[2]}`)),
		}, want: `sampling: invalid result: /content/id: tool use id "x" is already used in message 1 of the conversation; ids must be unique`,
			isError: true, stop: sampling.StopInvalidResult},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
			defer cancel()
			s := connect(t, tc.turns, false)
			args := map[string]any{"prompt": "Weather in Paris and London?"}
			if tc.max > 0 {
				args["maxIterations"] = tc.max
			}
			got, isErr, out := s.call(t, ctx, args)
			if got != tc.want || isErr != tc.isError {
				t.Errorf("tool result %q (isError %v)\nwant %q (%v)", got, isErr, tc.want, tc.isError)
			}
			if out.res.Stop != tc.stop || out.res.Iterations != len(tc.turns) {
				t.Errorf("the loop stopped with %s after %d iterations, want %s after %d", out.res.Stop, out.res.Iterations, tc.stop, len(tc.turns))
			}
			s.checkWire(t)
		})
	}
}

func TestInteropClientWithoutSamplingTools(t *testing.T) {
	for name, basic := range map[string]bool{"sampling without tools": true, "no sampling": false} {
		t.Run(name, func(t *testing.T) {
			var turns []turn
			if basic {
				turns = []turn{}
			}
			s := connect(t, turns, basic)
			got, isErr, out := s.call(t, t.Context(), map[string]any{"prompt": "hi"})
			var cerr *sampling.CapabilityError
			if !isErr || !errors.As(out.err, &cerr) || out.res.Stop != sampling.StopMissingCapability {
				t.Fatalf("result %q (isError %v), loop error %v", got, isErr, out.err)
			}
			want := "the client does not declare the sampling.tools capability"
			if !basic {
				want = "the client does not declare the sampling capability"
			}
			if !strings.Contains(got, want) {
				t.Errorf("result %q lacks %q", got, want)
			}
			s.checkWire(t)
			for _, l := range s.wire.all() {
				if bytes.Contains(l.data, []byte(`"sampling/createMessage"`)) {
					t.Errorf("a sampling request went to a client without sampling.tools: %s", l.data)
				}
			}
		})
	}
}

func TestInteropCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	canceled := make(chan struct{})
	s := connect(t, []turn{
		answer("toolUse", use("a", "add", `{"numbers":[1]}`)),
		func(ctx context.Context, _ *mcp.CreateMessageRequestParams) string {
			cancel() // the user gives up on the tool call while the model thinks
			select {
			case <-ctx.Done(): // the server cancels its sampling request
				close(canceled)
			case <-time.After(5 * time.Second):
			}
			return answer("endTurn", text("too late"))(ctx, nil)
		},
	}, false)
	_, err := s.client.CallTool(ctx, &sdk.CallToolParams{Name: "agent", Arguments: map[string]any{"prompt": "go"}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("tools/call: %v", err)
	}
	select {
	case out := <-s.outcomes:
		if out.res.Stop != sampling.StopCanceled || !errors.Is(out.err, context.Canceled) {
			t.Errorf("the loop stopped with %s: %v", out.res.Stop, out.err)
		}
		if out.res.Iterations != 1 || len(out.res.Messages) != 3 {
			t.Errorf("%d iterations, %d messages", out.res.Iterations, len(out.res.Messages))
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the server's loop did not stop")
	}
	select {
	case <-canceled:
	case <-time.After(5 * time.Second):
		t.Error("the client's sampling handler was not canceled")
	}
}
