//lint:file-ignore SA1019 sampling is deprecated in the draft too, and still in it: these tests run it

package mrtrdraft_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	v1125 "github.com/mcpgen/mcpgen/gen/mcp20251125"
	mcp "github.com/mcpgen/mcpgen/gen/mcpdraft"
	"github.com/mcpgen/mcpgen/sampling"
	"github.com/mcpgen/mcpgen/sampling/mrtr"
	"github.com/mcpgen/mcpgen/sampling/mrtr/mrtrdraft"
)

// The tests run a stateless draft server and a draft client that exchange JSON-RPC messages as
// bytes, each side decoding and encoding them with the draft's generated types.

var testKey = []byte("0123456789abcdef0123456789abcdef")

type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

type server struct {
	t         *testing.T
	runner    *mrtrdraft.Runner
	principal string
	charges   []string // the idempotency keys of the runs of charge
}

type cityInput struct {
	City string `json:"city"`
}

func newServer(t *testing.T, clk *clock, configure func(*mrtrdraft.Runner)) *server {
	s := &server{t: t, principal: "alice"}
	weather, err := sampling.NewTypedTool("get_weather", "Current weather of a city", nil, func(_ context.Context, in cityInput) (string, error) {
		return "Weather in " + in.City + ": 18°C", nil
	})
	if err != nil {
		t.Fatal(err)
	}
	charge, err := sampling.NewTypedTool("charge", "Charges the card", nil, func(ctx context.Context, _ struct{}) (string, error) {
		c, _ := sampling.CallFromContext(ctx)
		s.charges = append(s.charges, c.IdempotencyKey)
		return "charged", nil
	})
	if err != nil {
		t.Fatal(err)
	}
	s.runner = &mrtrdraft.Runner{Loop: &sampling.Loop{Tools: []*sampling.Tool{weather, charge}, MaxIterations: 4}, Key: testKey, Now: clk.Now}
	if configure != nil {
		configure(s.runner)
	}
	return s
}

// serve answers one request, as bytes.
func (s *server) serve(ctx context.Context, data []byte) []byte {
	msg, err := mcp.DecodeClientMessage(data, nil)
	if err != nil {
		return s.encode(mcp.NewErrorResponse(nil, err))
	}
	call, ok := msg.(*mcp.CallToolRequest)
	if !ok {
		return s.encode(mcp.NewErrorResponse(nil, &mcp.Error{Code: mcp.CodeMethodNotFound, Message: "only tools/call"}))
	}
	if err := call.Validate(); err != nil {
		return s.encode(mcp.NewErrorResponse(call.ID, err))
	}
	req, err := mrtrdraft.CallTool(&call.Params, s.principal)
	if err != nil {
		return s.encode(mcp.NewErrorResponse(call.ID, err))
	}
	start := func() (*v1125.CreateMessageRequestParams, error) {
		var args struct{ Prompt string }
		if err := mcp.DecodeObject(call.Params.Arguments, &args); err != nil {
			return nil, &mcp.Error{Code: mcp.CodeInvalidParams, Message: err.Error()}
		}
		return &v1125.CreateMessageRequestParams{
			Messages:  []v1125.SamplingMessage{{Role: v1125.RoleUser, Content: v1125.NewSamplingMessageContent(&v1125.TextContent{Text: args.Prompt})}},
			MaxTokens: 1000,
		}, nil
	}
	if call.Params.Name == "structured" {
		out, err := mrtrdraft.SampleStructured[forecast](ctx, s.runner, req, start, &sampling.StructuredOptions{RetryOptions: sampling.RetryOptions{Retries: 1}})
		if err != nil {
			return s.encode(mcp.NewErrorResponse(call.ID, err))
		}
		var res mcp.AnyResult = out.InputRequired
		if out.InputRequired == nil {
			res = &mcp.CallToolResult{ResultType: mcp.ResultTypeComplete, Content: []mcp.ContentBlock{&mcp.TextContent{Text: fmt.Sprintf("%s %g after %d", out.Answer.Value.City, out.Answer.Value.TempC, out.Answer.Attempts)}}}
		}
		return s.encode(&mcp.JSONRPCResultResponse{ID: call.ID, Result: res})
	}
	out, err := s.runner.Step(ctx, req, start)
	if err != nil {
		return s.encode(mcp.NewErrorResponse(call.ID, err))
	}
	var res mcp.AnyResult = out.InputRequired
	if out.InputRequired == nil {
		res = &mcp.CallToolResult{ResultType: mcp.ResultTypeComplete, Content: []mcp.ContentBlock{&mcp.TextContent{Text: fmt.Sprintf("%s: %s", out.Result.Stop, out.Result.Text())}}}
	}
	return s.encode(&mcp.JSONRPCResultResponse{ID: call.ID, Result: res})
}

func (s *server) encode(m mcp.Message) []byte {
	data, err := mcp.Marshal(m.(interface {
		json.Marshaler
		Validate() error
	}))
	if err != nil {
		s.t.Fatalf("the server's answer is invalid: %v", err)
	}
	return data
}

// client sends tools/call requests of the draft and decodes the answers.
type client struct {
	t      *testing.T
	nextID int64
	caps   mcp.ClientCapabilities
	// requests records the sampling requests the server asked for.
	requests []*mcp.CreateMessageRequestParams
}

func (c *client) send(ctx context.Context, s *server, p mcp.CallToolRequestParams) (mcp.AnyResult, *mcp.Error) {
	c.t.Helper()
	c.nextID++
	id := mcp.RequestIDNumber(c.nextID)
	data, err := (&mcp.CallToolRequest{ID: id, Params: p}).MarshalJSON()
	if err != nil {
		c.t.Fatal(err)
	}
	var pending mcp.Pending
	pending.Add(id, mcp.MethodCallTool)
	msg, err := mcp.DecodeServerMessage(s.serve(ctx, data), pending.Take)
	if err != nil {
		c.t.Fatalf("the server's answer does not decode: %v", err)
	}
	switch m := msg.(type) {
	case *mcp.JSONRPCResultResponse:
		return m.Result, nil
	case *mcp.JSONRPCErrorResponse:
		return nil, &m.Error
	}
	c.t.Fatalf("the server answered with a %T", msg)
	return nil, nil
}

func (c *client) params(prompt string) mcp.CallToolRequestParams {
	return mcp.CallToolRequestParams{
		Meta:      mcp.RequestMetaObject{ProtocolVersion: mcp.LatestProtocolVersion, ClientCapabilities: c.caps},
		Name:      "agent",
		Arguments: map[string]json.RawMessage{"prompt": json.RawMessage(fmt.Sprintf("%q", prompt))},
	}
}

// retry answers the one sampling request of r with answer (a CreateMessageResult as JSON).
func (c *client) retry(p mcp.CallToolRequestParams, r *mcp.InputRequiredResult, answer string) mcp.CallToolRequestParams {
	c.t.Helper()
	if len(r.InputRequests) != 1 || r.RequestState == nil {
		c.t.Fatalf("input required: %d requests, state %v", len(r.InputRequests), r.RequestState)
	}
	for key, ir := range r.InputRequests {
		cm, ok := ir.(*mcp.CreateMessageRequest)
		if !ok {
			c.t.Fatalf("input request %s is a %T", key, ir)
		}
		c.requests = append(c.requests, &cm.Params)
		var res mcp.CreateMessageResult
		if err := res.UnmarshalJSON([]byte(answer)); err != nil {
			c.t.Fatal(err)
		}
		p.InputResponses = mcp.InputResponses{key: &res}
	}
	p.RequestState = r.RequestState
	return p
}

func result(stop string, blocks ...string) string {
	return fmt.Sprintf(`{"role":"assistant","model":"scripted","stopReason":%q,"content":[%s]}`, stop, strings.Join(blocks, ","))
}

func use(id, name, input string) string {
	return fmt.Sprintf(`{"type":"tool_use","id":%q,"name":%q,"input":%s}`, id, name, input)
}

func text(s string) string { return fmt.Sprintf(`{"type":"text","text":%q}`, s) }

var toolsCaps = mcp.ClientCapabilities{Sampling: &mcp.ClientCapabilitiesSampling{Tools: map[string]json.RawMessage{}}}

func reason(e *mcp.Error) string {
	var data struct{ Reason string }
	json.Unmarshal(e.Data, &data)
	return data.Reason
}

// TestDraftScenario: three round trips on the draft's types: parallel tool uses, then a second
// tool use, then the end.
func TestDraftScenario(t *testing.T) {
	clk := &clock{now: time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)}
	s := newServer(t, clk, nil)
	c := &client{t: t, caps: toolsCaps}
	ctx := t.Context()
	p := c.params("weather in Paris and London, then pay")
	answers := []string{
		result("toolUse", use("a", "get_weather", `{"city":"Paris"}`), use("b", "get_weather", `{"city":"London"}`)),
		result("toolUse", use("c", "charge", `{}`)),
		result("endTurn", text("done")),
	}
	var final *mcp.CallToolResult
	for i := 0; final == nil; i++ {
		res, rpcErr := c.send(ctx, s, p)
		if rpcErr != nil {
			t.Fatal(rpcErr)
		}
		switch r := res.(type) {
		case *mcp.InputRequiredResult:
			if i >= len(answers) {
				t.Fatal("asked more than the script holds")
			}
			if _, ok := r.InputRequests[fmt.Sprint("sampling-", i+1)]; !ok {
				t.Errorf("round %d asks %v", i+1, r.InputRequests)
			}
			p = c.retry(p, r, answers[i])
		case *mcp.CallToolResult:
			final = r
		}
	}
	if got := final.Content[0].(*mcp.TextContent).Text; got != "endTurn: done" {
		t.Errorf("result %q", got)
	}
	if len(c.requests) != 3 || len(c.requests[1].Messages) != 3 || len(c.requests[2].Messages) != 5 || len(c.requests[2].Tools) != 2 {
		t.Fatalf("%d requests", len(c.requests))
	}
	results := c.requests[1].Messages[2].Content.List
	if len(results) != 2 || results[1].(*mcp.ToolResultContent).Content[0].(*mcp.TextContent).Text != "Weather in London: 18°C" {
		t.Errorf("tool results %+v", results)
	}
	if len(s.charges) != 1 {
		t.Errorf("charge ran %d times", len(s.charges))
	}
}

// TestDraftRefusals: the state's refusals, on the draft's wire.
func TestDraftRefusals(t *testing.T) {
	clk := &clock{now: time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)}
	s := newServer(t, clk, func(r *mrtrdraft.Runner) { r.TTL = time.Minute; r.Guard = &mrtr.MemoryGuard{Now: clk.Now} })
	c := &client{t: t, caps: toolsCaps}
	ctx := t.Context()
	p := c.params("pay")
	res, rpcErr := c.send(ctx, s, p)
	if rpcErr != nil {
		t.Fatal(rpcErr)
	}
	retry := c.retry(p, res.(*mcp.InputRequiredResult), result("toolUse", use("pay", "charge", `{}`)))
	state := *retry.RequestState
	refused := func(name string, q mcp.CallToolRequestParams, code int64, want string) {
		t.Helper()
		before := len(s.charges)
		_, rpcErr := c.send(ctx, s, q)
		if rpcErr == nil || rpcErr.Code != code || reason(rpcErr) != want {
			t.Errorf("%s: error %+v, want %d %q", name, rpcErr, code, want)
		}
		if len(s.charges) != before {
			t.Errorf("%s: a refused retry ran a tool", name)
		}
	}
	q := retry
	tampered := state[:len(state)/2] + "A" + state[len(state)/2+1:]
	if tampered == state {
		tampered = state[:len(state)/2] + "B" + state[len(state)/2+1:]
	}
	q.RequestState = &tampered
	refused("tampered", q, mcp.CodeInvalidParams, "tampered")
	q = retry
	q.Arguments = map[string]json.RawMessage{"prompt": json.RawMessage(`"pay more"`)}
	refused("another request", q, mcp.CodeInvalidParams, "otherRequest")
	s.principal = "mallory"
	refused("another principal", retry, mcp.CodeInvalidParams, "otherPrincipal")
	s.principal = "alice"
	q = retry
	q.Meta.ClientCapabilities = mcp.ClientCapabilities{}
	refused("no sampling.tools", q, mcp.CodeMissingRequiredClientCapability, "")
	q = retry
	q.InputResponses = mcp.InputResponses{"sampling-1": &mcp.ElicitResult{Action: "accept"}}
	refused("not a sampling result", q, mcp.CodeInvalidParams, "")

	// Accepted once, then replayed: refused, with the answer and without it.
	if _, rpcErr := c.send(ctx, s, retry); rpcErr != nil {
		t.Fatal(rpcErr)
	}
	refused("replayed", retry, mcp.CodeInvalidParams, "replayed")
	q = retry
	q.InputResponses = nil
	refused("asked again after use", q, mcp.CodeInvalidParams, "replayed")

	// Expired.
	res, _ = c.send(ctx, s, p)
	retry = c.retry(p, res.(*mcp.InputRequiredResult), result("toolUse", use("pay", "charge", `{}`)))
	clk.set(clk.Now().Add(time.Minute))
	refused("expired", retry, mcp.CodeInvalidParams, "expired")
}

// TestDraftErrorsCarryTheirRPCError: the errors of Step carry the draft's JSON-RPC error types.
func TestDraftErrorsCarryTheirRPCError(t *testing.T) {
	clk := &clock{now: time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)}
	s := newServer(t, clk, nil)
	bad := "v2.AAAA.AAAA"
	_, err := s.runner.Step(t.Context(), mrtrdraft.Request{Method: mcp.MethodCallTool, Capabilities: &toolsCaps, RequestState: &bad}, nil)
	var rpc *mcp.Error
	if !errors.Is(err, mrtr.ErrTamperedState) || !errors.As(err, &rpc) || rpc.Code != mcp.CodeInvalidParams {
		t.Errorf("error %v (%+v)", err, rpc)
	}
	_, err = s.runner.Step(t.Context(), mrtrdraft.Request{Method: mcp.MethodCallTool}, func() (*v1125.CreateMessageRequestParams, error) {
		return &v1125.CreateMessageRequestParams{MaxTokens: 1}, nil
	})
	var missing *mcp.MissingRequiredClientCapabilityErrorObject
	if !errors.As(err, &missing) || missing.Data.RequiredCapabilities.Sampling == nil || missing.Data.RequiredCapabilities.Sampling.Tools == nil {
		t.Errorf("error %v: %+v", err, missing)
	}
	if _, err := mrtrdraft.CallTool(&mcp.CallToolRequestParams{Name: "x", Arguments: map[string]json.RawMessage{"a": json.RawMessage(`{"b":1,"b":2}`)}}, ""); !errors.As(err, &rpc) || rpc.Code != mcp.CodeInvalidParams {
		t.Errorf("arguments with a member twice: %v", err)
	}
	// An invalid answer (not validated by the server first): NewErrorResponse gives its problems
	// under /inputResponses/<key>, as errors.As does.
	c := &client{t: t, caps: toolsCaps}
	p := c.params("go")
	req, err := mrtrdraft.CallTool(&p, s.principal)
	if err != nil {
		t.Fatal(err)
	}
	start := func() (*v1125.CreateMessageRequestParams, error) {
		return &v1125.CreateMessageRequestParams{MaxTokens: 1, Messages: []v1125.SamplingMessage{{Role: v1125.RoleUser, Content: v1125.NewSamplingMessageContent(&v1125.TextContent{Text: "go"})}}}, nil
	}
	out, err := s.runner.Step(t.Context(), req, start)
	if err != nil {
		t.Fatal(err)
	}
	p = c.retry(p, out.InputRequired, result("endTurn", `{"type":"tool_result","toolUseId":"a","content":[]}`))
	if req, err = mrtrdraft.CallTool(&p, s.principal); err != nil {
		t.Fatal(err)
	}
	_, err = s.runner.Step(t.Context(), req, start)
	got := mcp.NewErrorResponse(mcp.RequestIDNumber(1), err).Error
	const want = "/inputResponses/sampling-1/content/0: a tool result must be in a user message"
	if !errors.As(err, &rpc) || got.Code != mcp.CodeInvalidParams || got.Message != rpc.Message || !strings.Contains(got.Message, want) {
		t.Errorf("NewErrorResponse of an invalid answer: %d %q; want -32602 with %q, as errors.As gives (%+v)", got.Code, got.Message, want, rpc)
	}
}

type forecast struct {
	City  string  `json:"city"`
	TempC float64 `json:"tempC"`
}

// TestDraftSampleStructured: the helper across round trips on the draft's types: a refused
// answer, then a valid one; and, another time, two refused answers (the retries exhausted).
func TestDraftSampleStructured(t *testing.T) {
	clk := &clock{now: time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)}
	s := newServer(t, clk, nil)
	ctx := t.Context()
	run := func(answers ...string) (*mcp.CallToolResult, *mcp.Error, *client) {
		c := &client{t: t, caps: toolsCaps}
		p := c.params("the forecast")
		p.Name = "structured"
		for i := 0; ; i++ {
			res, rpcErr := c.send(ctx, s, p)
			if rpcErr != nil {
				return nil, rpcErr, c
			}
			switch r := res.(type) {
			case *mcp.CallToolResult:
				return r, nil, c
			case *mcp.InputRequiredResult:
				if i >= len(answers) {
					t.Fatal("asked more than the script holds")
				}
				p = c.retry(p, r, answers[i])
			}
		}
	}
	res, rpcErr, c := run(result("toolUse", use("a", "answer", `{"city":"Paris"}`)), result("toolUse", use("b", "answer", `{"city":"Paris","tempC":18}`)))
	if rpcErr != nil {
		t.Fatal(rpcErr)
	}
	if got := res.Content[0].(*mcp.TextContent).Text; got != "Paris 18 after 2" {
		t.Errorf("result %q", got)
	}
	if len(c.requests) != 2 || len(c.requests[1].Messages) != 3 || c.requests[1].Tools[0].Name != "answer" {
		t.Errorf("requests %+v", c.requests)
	}
	_, rpcErr, _ = run(result("endTurn", text("no")), result("endTurn", text("no")))
	if rpcErr == nil || rpcErr.Code != mcp.CodeInternalError || !strings.Contains(rpcErr.Message, "no valid answer in 2 attempts") {
		t.Errorf("exhausted: %+v", rpcErr)
	}
}

// TestDraftKeyRing: the draft's Runner takes a key ring as mrtr's does (they share the step): a
// conversation begun under the old key goes on after the new one is promoted, and a state of a
// retired key is refused as such.
func TestDraftKeyRing(t *testing.T) {
	clk := &clock{now: time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)}
	old, next := []byte(strings.Repeat("o", 32)), []byte(strings.Repeat("n", 32))
	s := newServer(t, clk, func(r *mrtrdraft.Runner) { r.Key, r.Keys = nil, &mrtr.KeyRing{Keys: [][]byte{old}} })
	c := &client{t: t, caps: toolsCaps}
	ctx := t.Context()
	p := c.params("weather in Paris")
	res, rpcErr := c.send(ctx, s, p)
	if rpcErr != nil {
		t.Fatal(rpcErr)
	}
	retry := c.retry(p, res.(*mcp.InputRequiredResult), result("toolUse", use("a", "get_weather", `{"city":"Paris"}`)))
	s.runner.Keys = &mrtr.KeyRing{Keys: [][]byte{next, old}}
	res, rpcErr = c.send(ctx, s, retry)
	if rpcErr != nil {
		t.Fatalf("the promoted ring refuses the old key's state: %v", rpcErr)
	}
	last := c.retry(retry, res.(*mcp.InputRequiredResult), result("endTurn", text("sunny")))
	s.runner.Keys = &mrtr.KeyRing{Keys: [][]byte{next}, Retired: [][]byte{old}}
	if res, rpcErr := c.send(ctx, s, last); rpcErr != nil || res.(*mcp.CallToolResult).Content[0].(*mcp.TextContent).Text != "endTurn: sunny" {
		t.Fatalf("the new key's state after the old one retired: %v %v", res, rpcErr)
	}
	if _, rpcErr := c.send(ctx, s, retry); rpcErr == nil || rpcErr.Code != mcp.CodeInvalidParams || reason(rpcErr) != "retiredKey" {
		t.Errorf("the old key's state, retired: %+v", rpcErr)
	}
}
