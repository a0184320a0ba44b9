//lint:file-ignore SA1019 sampling is deprecated as of 2026-07-28 (SEP-2577), and still in it: these tests run it

package mrtr_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	v1125 "github.com/mcpgen/mcpgen/gen/mcp20251125"
	mcp "github.com/mcpgen/mcpgen/gen/mcp20260728"
	"github.com/mcpgen/mcpgen/sampling"
	"github.com/mcpgen/mcpgen/sampling/mrtr"
)

type forecast struct {
	City  string  `json:"city"`
	TempC float64 `json:"tempC"`
}

// helperServer serves tools/call with a helper across round trips: "structured" runs
// SampleStructured[forecast], "tools" runs SampleTools with two tools. params may be changed by
// the test (to check replays that diverge).
type helperServer struct {
	*fixture
	params  func(prompt string) *v1125Params
	retries int
}

func newHelperServer(t *testing.T, configure func(*mrtr.Runner)) *helperServer {
	h := &helperServer{fixture: newFixture(t, configure), params: promptParams}
	h.server.handle = h.handle
	return h
}

func (h *helperServer) handle(ctx context.Context, p *mcp.CallToolRequestParams) (mcp.AnyResult, error) {
	req, err := mrtr.CallTool(p, h.server.principal)
	if err != nil {
		return nil, err
	}
	var args agentArgs
	if err := mcp.DecodeObject(p.Arguments, &args); err != nil {
		return nil, err
	}
	text := func(s string) (mcp.AnyResult, error) {
		return &mcp.CallToolResult{ResultType: mcp.ResultTypeComplete, Content: []mcp.ContentBlock{&mcp.TextContent{Text: s}}}, nil
	}
	switch p.Name {
	case "structured", "structured with tools":
		params := func() (*v1125Params, error) {
			q := h.params(args.Prompt)
			if p.Name == "structured with tools" {
				q.Tools = []v1125.Tool{{Name: "x", InputSchema: v1125.ToolInputSchema{Type: "object"}}}
			}
			return q, nil
		}
		out, err := mrtr.SampleStructured[forecast](ctx, h.server.runner, req, params, &sampling.StructuredOptions{RetryOptions: sampling.RetryOptions{Retries: h.retries}})
		if err != nil {
			return nil, err
		}
		if out.InputRequired != nil {
			return out.InputRequired, nil
		}
		return text(fmt.Sprintf("%s %g after %d attempts", out.Answer.Value.City, out.Answer.Value.TempC, out.Answer.Attempts))
	case "tools":
		params := func() (*v1125Params, error) {
			q := h.params(args.Prompt)
			for _, name := range []string{"get_weather", "get_time"} {
				q.Tools = append(q.Tools, v1125.Tool{Name: name, InputSchema: v1125.ToolInputSchema{
					Type: "object", Required: []string{"city"},
					Properties: map[string]map[string]json.RawMessage{"city": {"type": json.RawMessage(`"string"`)}},
				}})
			}
			return q, nil
		}
		out, err := h.server.runner.SampleTools(ctx, req, params, &sampling.RetryOptions{Retries: h.retries})
		if err != nil {
			return nil, err
		}
		if out.InputRequired != nil {
			return out.InputRequired, nil
		}
		var calls []string
		for _, c := range out.Calls.Calls {
			in, _ := json.Marshal(c.Input)
			calls = append(calls, c.Name+string(in))
		}
		return text(fmt.Sprintf("%s after %d attempts", strings.Join(calls, " "), out.Calls.Attempts))
	}
	return nil, &mcp.Error{Code: mcp.CodeInvalidParams, Message: "unknown tool " + p.Name}
}

// callHelper calls the tool name to its end, the model answering with turns.
func (h *helperServer) callHelper(t *testing.T, name string, turns ...string) (*mcp.CallToolResult, *mcp.Error, *model) {
	t.Helper()
	m := &model{}
	for _, turn := range turns {
		m.turns = append(m.turns, reply2(turn))
	}
	c := newClient(t, m)
	p := c.params("the forecast of Paris")
	p.Name = name
	for range 10 {
		res, rpcErr := c.send(h.ctx, h.server, p)
		if rpcErr != nil {
			return nil, rpcErr, m
		}
		switch r := res.(type) {
		case *mcp.CallToolResult:
			return r, nil, m
		case *mcp.InputRequiredResult:
			p = c.retry(p, r)
		}
	}
	t.Fatal("more than 10 round trips")
	return nil, nil, nil
}

func reply2(answer string) func(*mcp.CreateMessageRequestParams) string {
	return func(*mcp.CreateMessageRequestParams) string { return answer }
}

// TestSampleStructuredAcrossRoundTrips: the helper's retries, one per round trip: an answer
// without the tool, then one the schema refuses, then a valid one.
func TestSampleStructuredAcrossRoundTrips(t *testing.T) {
	h := newHelperServer(t, nil)
	res, rpcErr, m := h.callHelper(t, "structured",
		result("endTurn", text("It is sunny.")),
		result("toolUse", use("a", "answer", `{"city":"Paris","tempC":"warm"}`)),
		result("toolUse", use("b", "answer", `{"city":"Paris","tempC":18.5}`)),
	)
	if rpcErr != nil {
		t.Fatal(rpcErr)
	}
	if got := contentText(res.Content); got != "Paris 18.5 after 3 attempts" {
		t.Errorf("result %q", got)
	}
	if len(m.requests) != 3 {
		t.Fatalf("%d samples", len(m.requests))
	}
	// Each request carries the forced tool and the corrections so far.
	second, third := m.requests[1], m.requests[2]
	if len(second.Tools) != 1 || second.Tools[0].Name != "answer" || second.ToolChoice == nil || len(second.Messages) != 3 {
		t.Errorf("second request: %d tools, %d messages", len(second.Tools), len(second.Messages))
	}
	if !strings.Contains(contentText([]mcp.ContentBlock{second.Messages[2].Content.List[0].(*mcp.TextContent)}), `You must answer by calling the tool "answer"`) {
		t.Errorf("the correction: %+v", second.Messages[2])
	}
	if r := lastToolResults(t, third)["a"]; !isError(r) || !strings.Contains(contentText(r.Content), `invalid input for tool "answer"`) {
		t.Errorf("the schema's finding: %+v", r)
	}
}

func TestSampleToolsAcrossRoundTrips(t *testing.T) {
	h := newHelperServer(t, nil)
	res, rpcErr, m := h.callHelper(t, "tools",
		result("toolUse", use("a", "get_wether", `{"city":"Paris"}`)),
		result("toolUse", use("b", "get_weather", `{"city":"Paris"}`), use("c", "get_time", `{"city":"Paris"}`)),
	)
	if rpcErr != nil {
		t.Fatal(rpcErr)
	}
	if got := contentText(res.Content); got != `get_weather{"city":"Paris"} get_time{"city":"Paris"} after 2 attempts` {
		t.Errorf("result %q", got)
	}
	if r := lastToolResults(t, m.requests[1])["a"]; !isError(r) || !strings.Contains(contentText(r.Content), `unknown tool "get_wether"`) {
		t.Errorf("the correction: %+v", r)
	}
	if tc := m.requests[0].ToolChoice; tc == nil || tc.Mode == nil || *tc.Mode != "required" {
		t.Errorf("toolChoice %+v", tc)
	}
	if n := len(h.effects.runs()); n != 0 {
		t.Errorf("the helper ran %d tools", n)
	}
}

// TestHelperExhausted: every attempt refused: the helper's RetryError, -32603 on the wire.
func TestHelperExhausted(t *testing.T) {
	h := newHelperServer(t, nil)
	h.retries = 1
	_, rpcErr, m := h.callHelper(t, "structured",
		result("endTurn", text("no")),
		result("endTurn", text("still no")),
	)
	if rpcErr == nil || rpcErr.Code != mcp.CodeInternalError || !strings.Contains(rpcErr.Message, "SampleStructured: no valid answer in 2 attempts") {
		t.Fatalf("error %+v", rpcErr)
	}
	if len(m.requests) != 2 {
		t.Errorf("%d samples, want 2", len(m.requests))
	}
	// The Go error is the helper's.
	c := newClient(t, &model{turns: []func(*mcp.CreateMessageRequestParams) string{reply2(result("endTurn", text("no"))), reply2(result("endTurn", text("no")))}})
	p := c.params("x")
	p.Name = "structured"
	res, _ := c.send(h.ctx, h.server, p)
	p = c.retry(p, res.(*mcp.InputRequiredResult))
	res, _ = c.send(h.ctx, h.server, p)
	p = c.retry(p, res.(*mcp.InputRequiredResult))
	req, _ := mrtr.CallTool(&p, "alice")
	_, err := mrtr.SampleStructured[forecast](h.ctx, h.server.runner, req, func() (*v1125Params, error) { return promptParams("x"), nil }, &sampling.StructuredOptions{RetryOptions: sampling.RetryOptions{Retries: 1}})
	var retryErr *sampling.RetryError
	if !errors.As(err, &retryErr) || retryErr.Attempts != 2 || len(retryErr.Messages) != 5 {
		t.Errorf("error %v", err)
	}
}

// TestHelperSchemaAndTools: SampleStructured's params must hold no tools: -32603 on the first
// request, before anything is asked.
func TestHelperSchemaAndTools(t *testing.T) {
	h := newHelperServer(t, nil)
	_, rpcErr, m := h.callHelper(t, "structured with tools")
	if rpcErr == nil || rpcErr.Code != mcp.CodeInternalError || !strings.Contains(rpcErr.Message, "mutually exclusive") {
		t.Fatalf("error %+v", rpcErr)
	}
	if len(m.requests) != 0 {
		t.Errorf("%d samples", len(m.requests))
	}
}

// TestHelperState: the state of a helper: asked again without the answer, single-use with a
// guard, bound to its helper and request, and refused when the replay diverges.
func TestHelperState(t *testing.T) {
	h := newHelperServer(t, func(r *mrtr.Runner) { r.Guard = &mrtr.MemoryGuard{} })
	m := &model{turns: []func(*mcp.CreateMessageRequestParams) string{reply2(result("endTurn", text("no"))), reply2(result("endTurn", text("no")))}}
	c := newClient(t, m)
	p := c.params("x")
	p.Name = "structured"
	res, rpcErr := c.send(h.ctx, h.server, p)
	if rpcErr != nil {
		t.Fatal(rpcErr)
	}
	first := res.(*mcp.InputRequiredResult)
	retry := c.retry(p, first)

	again := retry
	again.InputResponses = nil
	res, rpcErr = c.send(h.ctx, h.server, again)
	if rpcErr != nil {
		t.Fatal(rpcErr)
	}
	a, _ := first.MarshalJSON()
	b, _ := res.(*mcp.InputRequiredResult).MarshalJSON()
	if string(a) != string(b) {
		t.Errorf("asked again with\n%s\nwant\n%s", b, a)
	}

	// Another helper's, or the loop's, request: otherRequest.
	other := retry
	other.Name = "tools"
	refused(t, h.fixture, c, other, "otherRequest")

	// An answer that breaks the protocol: -32602 under its key.
	bad := retry
	bad.InputResponses = mcp.InputResponses{"sampling-1": mustResult(t, result("toolUse", text("hm")))}
	if _, rpcErr := c.send(h.ctx, h.server, bad); rpcErr == nil || rpcErr.Code != mcp.CodeInvalidParams || !strings.Contains(rpcErr.Message, "/inputResponses/sampling-1") {
		t.Errorf("error %+v", rpcErr)
	}

	// Params that differ on the next round: the replay does not match, -32603.
	h.params = func(prompt string) *v1125Params { return promptParams(prompt + "!") }
	if _, rpcErr := c.send(h.ctx, h.server, again); rpcErr == nil || rpcErr.Code != mcp.CodeInternalError || !strings.Contains(rpcErr.Message, "differs") {
		t.Errorf("diverging params: %+v", rpcErr)
	}
	h.params = promptParams

	// Used once; then replayed, with or without the answer: refused.
	res, rpcErr = c.send(h.ctx, h.server, retry)
	if rpcErr != nil {
		t.Fatal(rpcErr)
	}
	if ir, ok := res.(*mcp.InputRequiredResult); !ok || ir.InputRequests["sampling-2"] == nil {
		t.Fatalf("answered with %+v", res)
	}
	refused(t, h.fixture, c, retry, "replayed")
	refused(t, h.fixture, c, again, "replayed")
}
