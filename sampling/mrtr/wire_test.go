//lint:file-ignore SA1019 sampling is deprecated as of 2026-07-28 (SEP-2577), and still in it: these tests run it

package mrtr_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	v1125 "github.com/mcpgen/mcpgen/gen/mcp20251125"
	mcp "github.com/mcpgen/mcpgen/gen/mcp20260728"
	"github.com/mcpgen/mcpgen/sampling"
	"github.com/mcpgen/mcpgen/sampling/mrtr"
)

// The tests run a stateless server and a client that exchange JSON-RPC messages as bytes, each
// side decoding and encoding them with the generated types of 2026-07-28 (DecodeClientMessage,
// DecodeServerMessage, Marshal), so that what is tested is what goes on the wire.

// server is a stateless MCP server with one tool, "agent", whose handler runs the loop through
// the Runner. It keeps nothing between requests: any copy of it answers any retry.
type server struct {
	t         *testing.T
	runner    *mrtr.Runner
	principal string // the authenticated principal of every request
	// handle, when set, answers the tools/call requests instead of the agent's loop.
	handle func(ctx context.Context, p *mcp.CallToolRequestParams) (mcp.AnyResult, error)
}

// agentArgs are the arguments of the agent tool.
type agentArgs struct {
	Prompt string `json:"prompt"`
}

// serve answers one request.
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
	res, err := s.callTool(ctx, &call.Params)
	if err != nil {
		return s.encode(mcp.NewErrorResponse(call.ID, err))
	}
	return s.encode(&mcp.JSONRPCResultResponse{ID: call.ID, Result: res})
}

func (s *server) callTool(ctx context.Context, p *mcp.CallToolRequestParams) (mcp.AnyResult, error) {
	if s.handle != nil {
		return s.handle(ctx, p)
	}
	req, err := mrtr.CallTool(p, s.principal)
	if err != nil {
		return nil, err
	}
	out, err := s.runner.Step(ctx, req, func() (*v1125.CreateMessageRequestParams, error) {
		var args agentArgs
		if err := mcp.DecodeObject(p.Arguments, &args); err != nil {
			return nil, &mcp.Error{Code: mcp.CodeInvalidParams, Message: err.Error()}
		}
		return promptParams(args.Prompt), nil
	})
	if err != nil {
		return nil, err
	}
	if out.InputRequired != nil {
		return out.InputRequired, nil
	}
	r := out.Result
	switch r.Stop {
	case sampling.StopEndTurn:
		return &mcp.CallToolResult{ResultType: mcp.ResultTypeComplete, Content: []mcp.ContentBlock{&mcp.TextContent{Text: r.Text()}}}, nil
	default:
		return &mcp.CallToolResult{ResultType: mcp.ResultTypeComplete, IsError: ptr(true),
			Content: []mcp.ContentBlock{&mcp.TextContent{Text: fmt.Sprintf("the loop stopped: %s after %d iterations", r.Stop, r.Iterations)}}}, nil
	}
}

type v1125Params = v1125.CreateMessageRequestParams

// promptParams start a conversation with a prompt.
func promptParams(prompt string) *v1125Params {
	return &v1125.CreateMessageRequestParams{
		Messages:  []v1125.SamplingMessage{{Role: v1125.RoleUser, Content: v1125.NewSamplingMessageContent(&v1125.TextContent{Text: prompt})}},
		MaxTokens: 1000,
	}
}

func firstParams() *v1125Params { return promptParams("pay the bill") }

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

// A model answers the n-th sampling request with turns[n], a CreateMessageResult as JSON.
type model struct {
	turns []func(req *mcp.CreateMessageRequestParams) string

	mu       sync.Mutex
	requests []*mcp.CreateMessageRequestParams
}

func (m *model) answer(req *mcp.CreateMessageRequestParams) string {
	m.mu.Lock()
	n := len(m.requests)
	m.requests = append(m.requests, req)
	m.mu.Unlock()
	if n >= len(m.turns) {
		panic(fmt.Sprintf("the model has no turn %d", n+1))
	}
	return m.turns[n](req)
}

func reply(stop string, blocks ...string) func(*mcp.CreateMessageRequestParams) string {
	return func(*mcp.CreateMessageRequestParams) string { return result(stop, blocks...) }
}

func result(stop string, blocks ...string) string {
	return fmt.Sprintf(`{"role":"assistant","model":"scripted","stopReason":%q,"content":[%s]}`, stop, strings.Join(blocks, ","))
}

func use(id, name, input string) string {
	return fmt.Sprintf(`{"type":"tool_use","id":%q,"name":%q,"input":%s}`, id, name, input)
}

func text(s string) string {
	b, _ := json.Marshal(s)
	return `{"type":"text","text":` + string(b) + `}`
}

// client is an MCP client of 2026-07-28: it calls a tool and, while the server answers with an
// InputRequiredResult, fulfils its sampling requests with the model and retries with the
// inputResponses and the requestState.
type client struct {
	t      *testing.T
	caps   mcp.ClientCapabilities
	model  *model
	nextID int64

	// exchanges records every retry the client sent, for replay and tampering.
	exchanges []exchange
}

type exchange struct {
	params mcp.CallToolRequestParams // the retried request's params
}

var toolsCaps = mcp.ClientCapabilities{Sampling: &mcp.ClientCapabilitiesSampling{Tools: map[string]json.RawMessage{}}}

func newClient(t *testing.T, m *model) *client {
	return &client{t: t, caps: toolsCaps, model: m}
}

// send sends one tools/call request and returns the decoded answer: a result or an error.
func (c *client) send(ctx context.Context, s *server, p mcp.CallToolRequestParams) (mcp.AnyResult, *mcp.Error) {
	c.t.Helper()
	c.nextID++
	id := mcp.RequestIDNumber(c.nextID)
	// Encoded without validation: a client may send anything, and the tests send what a broken
	// or hostile client would. The server validates what it receives.
	data, err := (&mcp.CallToolRequest{ID: id, Params: p}).MarshalJSON()
	if err != nil {
		c.t.Fatalf("the client's request does not encode: %v", err)
	}
	var pending mcp.Pending
	pending.Add(id, mcp.MethodCallTool)
	msg, err := mcp.DecodeServerMessage(s.serve(ctx, data), pending.Take)
	if err != nil {
		c.t.Fatalf("the server's answer does not decode: %v", err)
	}
	switch m := msg.(type) {
	case *mcp.JSONRPCResultResponse:
		if err := m.Validate(); err != nil {
			c.t.Fatalf("the server's answer is invalid: %v", err)
		}
		return m.Result, nil
	case *mcp.JSONRPCErrorResponse:
		return nil, &m.Error
	}
	c.t.Fatalf("the server answered with a %T", msg)
	return nil, nil
}

// params are the params of a call of the agent tool.
func (c *client) params(prompt string) mcp.CallToolRequestParams {
	return mcp.CallToolRequestParams{
		Meta:      mcp.RequestMetaObject{ProtocolVersion: mcp.LatestProtocolVersion, ClientCapabilities: c.caps},
		Name:      "agent",
		Arguments: map[string]json.RawMessage{"prompt": mustJSON(prompt)},
	}
}

// call calls the agent tool to its end: the final CallToolResult, or the JSON-RPC error.
func (c *client) call(ctx context.Context, s *server, prompt string) (*mcp.CallToolResult, *mcp.Error) {
	c.t.Helper()
	p := c.params(prompt)
	for range 20 {
		res, rpcErr := c.send(ctx, s, p)
		if rpcErr != nil {
			return nil, rpcErr
		}
		switch r := res.(type) {
		case *mcp.CallToolResult:
			return r, nil
		case *mcp.InputRequiredResult:
			p = c.retry(p, r)
		default:
			c.t.Fatalf("tools/call answered with a %T", res)
		}
	}
	c.t.Fatal("more than 20 round trips")
	return nil, nil
}

// retry fulfils the input requests of r and returns the retried params.
func (c *client) retry(p mcp.CallToolRequestParams, r *mcp.InputRequiredResult) mcp.CallToolRequestParams {
	c.t.Helper()
	if len(r.InputRequests) != 1 || r.RequestState == nil {
		c.t.Fatalf("input required: %d requests, state %v; want one sampling request and a state", len(r.InputRequests), r.RequestState)
	}
	responses := mcp.InputResponses{}
	for key, ir := range r.InputRequests {
		cm, ok := ir.(*mcp.CreateMessageRequest)
		if !ok {
			c.t.Fatalf("input request %s is a %T", key, ir)
		}
		var res mcp.CreateMessageResult
		if err := res.UnmarshalJSON([]byte(c.model.answer(&cm.Params))); err != nil {
			c.t.Fatalf("the model's answer: %v", err)
		}
		responses[key] = &res
	}
	p.InputResponses = responses
	p.RequestState = r.RequestState
	c.exchanges = append(c.exchanges, exchange{params: p})
	return p
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func ptr[T any](v T) *T { return &v }

func contentText(content []mcp.ContentBlock) string {
	var parts []string
	for _, b := range content {
		if t, ok := b.(*mcp.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// lastToolResults returns the tool results of a sampling request's last message, by id.
func lastToolResults(t *testing.T, req *mcp.CreateMessageRequestParams) map[string]*mcp.ToolResultContent {
	t.Helper()
	last := req.Messages[len(req.Messages)-1]
	out := map[string]*mcp.ToolResultContent{}
	for _, b := range last.Content.List {
		r, ok := b.(*mcp.ToolResultContent)
		if !ok {
			t.Fatalf("the last message holds a %T", b)
		}
		out[r.ToolUseID] = r
	}
	return out
}

func isError(r *mcp.ToolResultContent) bool { return r != nil && r.IsError != nil && *r.IsError }
