package sampling_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
	"github.com/mcpgen/mcpgen/sampling"
)

// A script is a scripted model: a Sampler that answers the n-th request with turns[n]. Every
// request goes through the wire as a sender and a receiver would put it: mcp.Marshal (Validate,
// then encode), mcp.Unmarshal (decode, then Validate), and the client's side of the capability
// check. Answers are written as JSON and decoded without validation, so that a test can send an
// invalid one: the loop must refuse it.
type script struct {
	t     *testing.T
	caps  *mcp.ClientCapabilities // the client's capabilities; nil: the script provides none
	turns []turn

	mu       sync.Mutex
	requests []*mcp.CreateMessageRequestParams
}

// A turn answers one request with a CreateMessageResult as JSON.
type turn func(ctx context.Context, req *mcp.CreateMessageRequestParams) (string, error)

func (s *script) CreateMessage(ctx context.Context, p *mcp.CreateMessageRequestParams) (*mcp.CreateMessageResult, error) {
	data, err := mcp.Marshal(p)
	if err != nil {
		s.t.Errorf("the loop sent an invalid request: %v", err)
		return nil, err
	}
	var wire mcp.CreateMessageRequestParams
	if err := mcp.Unmarshal(data, &wire); err != nil {
		s.t.Errorf("the request does not decode: %v\n%s", err, data)
		return nil, err
	}
	if s.caps != nil {
		if err := wire.CheckCapabilities(s.caps); err != nil {
			s.t.Errorf("the loop sent a request the client's capabilities forbid: %v", err)
			return nil, err
		}
	}
	s.mu.Lock()
	n := len(s.requests)
	s.requests = append(s.requests, &wire)
	s.mu.Unlock()
	if n >= len(s.turns) {
		return nil, fmt.Errorf("the script has no turn %d", n+1)
	}
	out, err := s.turns[n](ctx, &wire)
	if err != nil {
		return nil, err
	}
	var res mcp.CreateMessageResult
	if err := res.UnmarshalJSON([]byte(out)); err != nil {
		s.t.Fatalf("turn %d: bad JSON: %v\n%s", n+1, err, out)
	}
	return &res, nil
}

func (s *script) Requests() []*mcp.CreateMessageRequestParams {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*mcp.CreateMessageRequestParams(nil), s.requests...)
}

// capsScript is a script that provides the client's capabilities, as a sampler on an MCP session.
type capsScript struct{ *script }

func (s capsScript) ClientCapabilities() *mcp.ClientCapabilities { return s.caps }

// withTools are the capabilities of a client with sampling with tools.
var withTools = &mcp.ClientCapabilities{Sampling: &mcp.ClientCapabilitiesSampling{Tools: map[string]json.RawMessage{}}}

// answer is a turn that answers with the given stop reason and content blocks (JSON).
func answer(stop string, blocks ...string) turn {
	return func(context.Context, *mcp.CreateMessageRequestParams) (string, error) {
		return result(stop, blocks...), nil
	}
}

func result(stop string, blocks ...string) string {
	content := "[" + strings.Join(blocks, ",") + "]"
	if stop == "" {
		return fmt.Sprintf(`{"role":"assistant","model":"scripted","content":%s}`, content)
	}
	return fmt.Sprintf(`{"role":"assistant","model":"scripted","stopReason":%q,"content":%s}`, stop, content)
}

func use(id, name, input string) string {
	return fmt.Sprintf(`{"type":"tool_use","id":%q,"name":%q,"input":%s}`, id, name, input)
}

func text(s string) string {
	b, _ := json.Marshal(s)
	return `{"type":"text","text":` + string(b) + `}`
}

// toolResults returns the tool results of a request's last message, by tool use id.
func toolResults(t *testing.T, req *mcp.CreateMessageRequestParams) map[string]*mcp.ToolResultContent {
	t.Helper()
	last := req.Messages[len(req.Messages)-1]
	if last.Role != mcp.RoleUser {
		t.Fatalf("the last message is the %s's, not a user message of tool results", last.Role)
	}
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

// resultText is the text of a tool result.
func resultText(r *mcp.ToolResultContent) string {
	var parts []string
	for _, b := range r.Content {
		if t, ok := b.(*mcp.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func isError(r *mcp.ToolResultContent) bool { return r.IsError != nil && *r.IsError }

// prompt is a conversation's start.
func prompt(text string) *mcp.CreateMessageRequestParams {
	return &mcp.CreateMessageRequestParams{
		Messages:  []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewSamplingMessageContent(&mcp.TextContent{Text: text})}},
		MaxTokens: 1000,
	}
}

// weather is the deterministic made-up weather of the tests.
func weather(city string) string {
	switch city {
	case "Paris":
		return "Weather in Paris: 18°C, partly cloudy"
	case "London":
		return "Weather in London: 15°C, rainy"
	}
	return "Weather in " + city + ": 20°C, sunny"
}

type cityInput struct {
	City string `json:"city" jsonschema:"the city"`
}

type numbersInput struct {
	Numbers []float64 `json:"numbers"`
}

// counter counts the runs of each tool.
type counter struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *counter) add(name string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == nil {
		c.n = map[string]int{}
	}
	c.n[name]++
}

func (c *counter) get(name string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[name]
}

// testTools returns get_weather and add, counting their runs.
func testTools(t *testing.T, calls *counter) []*sampling.Tool {
	t.Helper()
	w, err := sampling.NewTypedTool("get_weather", "Current weather of a city", nil, func(_ context.Context, in cityInput) (string, error) {
		calls.add("get_weather")
		return weather(in.City), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	a, err := sampling.NewTypedTool("add", "Adds numbers", nil, func(_ context.Context, in numbersInput) (float64, error) {
		calls.add("add")
		sum := 0.0
		for _, n := range in.Numbers {
			sum += n
		}
		return sum, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return []*sampling.Tool{w, a}
}
