package sampling_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
	"github.com/mcpgen/mcpgen/sampling"
)

func TestSingleToolCall(t *testing.T) {
	calls := &counter{}
	s := &script{t: t, caps: withTools, turns: []turn{
		answer("toolUse", text("Let me look."), use("call-1", "get_weather", `{"city":"Paris"}`)),
		func(_ context.Context, req *mcp.CreateMessageRequestParams) (string, error) {
			r := toolResults(t, req)["call-1"]
			return result("endTurn", text("It says: "+resultText(r))), nil
		},
	}}
	loop := &sampling.Loop{Tools: testTools(t, calls), Capabilities: withTools}
	res, err := loop.Run(t.Context(), s, prompt("Weather in Paris?"))
	if err != nil {
		t.Fatal(err)
	}
	if res.Stop != sampling.StopEndTurn || res.Iterations != 2 {
		t.Errorf("stop %s after %d iterations, want endTurn after 2", res.Stop, res.Iterations)
	}
	if got, want := res.Text(), "It says: Weather in Paris: 18°C, partly cloudy"; got != want {
		t.Errorf("text %q, want %q", got, want)
	}
	if calls.get("get_weather") != 1 {
		t.Errorf("get_weather ran %d times, want 1", calls.get("get_weather"))
	}
	// The transcript: the prompt, the tool use, its result, the answer.
	roles := ""
	for _, m := range res.Messages {
		roles += string(m.Role[0])
	}
	if roles != "uaua" {
		t.Errorf("transcript roles %s, want uaua", roles)
	}
	reqs := s.Requests()
	for i, req := range reqs {
		if len(req.Tools) != 2 || req.Tools[0].Name != "get_weather" || req.Tools[1].Name != "add" {
			t.Errorf("request %d: tools %v", i, req.Tools)
		}
		if req.ToolChoice != nil {
			t.Errorf("request %d: toolChoice %v, want none set", i, req.ToolChoice)
		}
	}
	r := toolResults(t, reqs[1])["call-1"]
	if r == nil || isError(r) || resultText(r) != "Weather in Paris: 18°C, partly cloudy" {
		t.Errorf("tool result %+v", r)
	}
	// The schema derived from cityInput reached the model.
	if got := string(reqs[0].Tools[0].InputSchema.Properties["city"]["type"]); got != `"string"` {
		t.Errorf("get_weather input schema: city of type %s", got)
	}
	if res.PendingToolUses() != nil {
		t.Errorf("pending tool uses after the end of the turn: %v", res.PendingToolUses())
	}
}

func TestParallelToolCalls(t *testing.T) {
	// Three tool uses in one answer; each handler waits until all three have started, which only
	// happens if they run at the same time.
	var started sync.WaitGroup
	started.Add(3)
	all := make(chan struct{})
	go func() { started.Wait(); close(all) }()
	slow, err := sampling.NewTypedTool("get_weather", "", nil, func(ctx context.Context, in cityInput) (string, error) {
		started.Done()
		select {
		case <-all:
		case <-time.After(5 * time.Second):
			return "", errors.New("the other tool uses did not run at the same time")
		}
		return weather(in.City), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	s := &script{t: t, caps: withTools, turns: []turn{
		answer("toolUse",
			use("call_abc123", "get_weather", `{"city":"Paris"}`),
			use("call_def456", "get_weather", `{"city":"London"}`),
			use("call_ghi789", "get_weather", `{"city":"Rome"}`)),
		answer("endTurn", text("Done.")),
	}}
	loop := &sampling.Loop{Tools: []*sampling.Tool{slow}, Capabilities: withTools}
	res, err := loop.Run(t.Context(), s, prompt("Compare Paris, London and Rome."))
	if err != nil {
		t.Fatal(err)
	}
	// One user message answers all three, in the order of the tool uses.
	last := s.Requests()[1].Messages[2]
	var ids []string
	for _, b := range last.Content.List {
		r := b.(*mcp.ToolResultContent)
		if isError(r) {
			t.Errorf("%s: %s", r.ToolUseID, resultText(r))
		}
		ids = append(ids, r.ToolUseID+"="+resultText(r))
	}
	want := "call_abc123=Weather in Paris: 18°C, partly cloudy,call_def456=Weather in London: 15°C, rainy,call_ghi789=Weather in Rome: 20°C, sunny"
	if got := strings.Join(ids, ","); got != want {
		t.Errorf("tool results %s\nwant %s", got, want)
	}
	if res.Stop != sampling.StopEndTurn {
		t.Errorf("stop %s", res.Stop)
	}
}

func TestParallelToolCallsBounded(t *testing.T) {
	var running, most atomic.Int32
	tool, err := sampling.NewTypedTool("work", "", nil, func(context.Context, struct{}) (string, error) {
		n := running.Add(1)
		defer running.Add(-1)
		for {
			m := most.Load()
			if n <= m || most.CompareAndSwap(m, n) {
				break
			}
		}
		time.Sleep(20 * time.Millisecond)
		return "done", nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var uses []string
	for i := range 6 {
		uses = append(uses, use(fmt.Sprint("c", i), "work", `{}`))
	}
	s := &script{t: t, caps: withTools, turns: []turn{answer("toolUse", uses...), answer("endTurn", text("ok"))}}
	loop := &sampling.Loop{Tools: []*sampling.Tool{tool}, MaxParallel: 2, Capabilities: withTools}
	if _, err := loop.Run(t.Context(), s, prompt("work")); err != nil {
		t.Fatal(err)
	}
	if got := most.Load(); got != 2 {
		t.Errorf("at most %d tool uses ran at once, want 2 (MaxParallel)", got)
	}
	if n := len(toolResults(t, s.Requests()[1])); n != 6 {
		t.Errorf("%d tool results, want 6", n)
	}
}

func TestFailingTools(t *testing.T) {
	failing, err := sampling.NewTypedTool("flaky", "", nil, func(context.Context, struct{}) (string, error) {
		return "", errors.New("the weather service is unavailable")
	})
	if err != nil {
		t.Fatal(err)
	}
	panicking, err := sampling.NewTypedTool("crash", "", nil, func(context.Context, struct{}) (string, error) {
		panic("index out of range")
	})
	if err != nil {
		t.Fatal(err)
	}
	erroring, err := sampling.NewTool(mcp.Tool{Name: "refuse", InputSchema: mcp.ToolInputSchema{Type: "object"}},
		func(context.Context, *mcp.ToolUseContent) (*mcp.CallToolResult, error) {
			return sampling.ErrorResult("not allowed today"), nil
		})
	if err != nil {
		t.Fatal(err)
	}
	invalid, err := sampling.NewTool(mcp.Tool{Name: "broken", InputSchema: mcp.ToolInputSchema{Type: "object"}},
		func(context.Context, *mcp.ToolUseContent) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{nil}}, nil // a nil block cannot be sent
		})
	if err != nil {
		t.Fatal(err)
	}
	s := &script{t: t, caps: withTools, turns: []turn{
		answer("toolUse", use("a", "flaky", `{}`), use("b", "crash", `{}`), use("c", "refuse", `{}`), use("d", "broken", `{}`)),
		answer("endTurn", text("Sorry.")),
	}}
	loop := &sampling.Loop{Tools: []*sampling.Tool{failing, panicking, erroring, invalid}, Capabilities: withTools}
	res, err := loop.Run(t.Context(), s, prompt("go"))
	if err != nil || res.Stop != sampling.StopEndTurn {
		t.Fatalf("stop %s: %v; a failing tool must not stop the loop", res.Stop, err)
	}
	results := toolResults(t, s.Requests()[1])
	for id, want := range map[string]string{
		"a": `tool "flaky" failed: the weather service is unavailable`,
		"b": `tool "crash" failed: it panicked: index out of range`,
		"c": `not allowed today`,
		"d": `tool "broken" returned an invalid result: invalid: /content/0: nil ContentBlock`,
	} {
		r := results[id]
		if r == nil || !isError(r) || resultText(r) != want {
			t.Errorf("%s: %+v, want isError and %q", id, r, want)
			if r != nil {
				t.Logf("text: %q", resultText(r))
			}
		}
	}
}

func TestInvalidToolInput(t *testing.T) {
	calls := &counter{}
	s := &script{t: t, caps: withTools, turns: []turn{
		answer("toolUse",
			use("w", "get_weather", `{"city":42}`),
			use("a", "add", `{"numbers":[1,"two",3]}`),
			use("x", "add", `{"numbers":[1],"extra":true}`),
			use("m", "get_weather", `{}`)),
		answer("toolUse", use("ok", "add", `{"numbers":[1,2,3.5]}`)),
		answer("endTurn", text("6.5")),
	}}
	loop := &sampling.Loop{Tools: testTools(t, calls), Capabilities: withTools}
	res, err := loop.Run(t.Context(), s, prompt("go"))
	if err != nil {
		t.Fatal(err)
	}
	if calls.get("get_weather") != 0 || calls.get("add") != 1 {
		t.Errorf("runs: get_weather %d, add %d; want 0 and 1: invalid input must not reach a handler", calls.get("get_weather"), calls.get("add"))
	}
	results := toolResults(t, s.Requests()[1])
	for id, want := range map[string]string{
		"w": `invalid input for tool "get_weather": /city: got number, want string`,
		"a": `invalid input for tool "add": /numbers/1: got string, want number`,
		"x": `invalid input for tool "add": (root): additional properties 'extra' not allowed`,
		"m": `invalid input for tool "get_weather": (root): missing property 'city'`,
	} {
		if r := results[id]; r == nil || !isError(r) || resultText(r) != want {
			t.Errorf("%s: got %q, want isError and %q", id, resultText(r), want)
		}
	}
	if r := toolResults(t, s.Requests()[2])["ok"]; r == nil || isError(r) || resultText(r) != "6.5" {
		t.Errorf("add: %+v", r)
	}
	if res.Iterations != 3 || res.Stop != sampling.StopEndTurn {
		t.Errorf("stop %s after %d", res.Stop, res.Iterations)
	}
}

func TestUnknownToolName(t *testing.T) {
	calls := &counter{}
	s := &script{t: t, caps: withTools, turns: []turn{
		answer("toolUse", use("u1", "get_wether", `{"city":"Paris"}`), use("u2", "get_weather", `{"city":"Paris"}`)),
		answer("endTurn", text("ok")),
	}}
	loop := &sampling.Loop{Tools: testTools(t, calls), Capabilities: withTools}
	res, err := loop.Run(t.Context(), s, prompt("go"))
	if err != nil || res.Stop != sampling.StopEndTurn {
		t.Fatalf("stop %s: %v; an unknown tool is the model's error, not the loop's", res.Stop, err)
	}
	results := toolResults(t, s.Requests()[1])
	if r := results["u1"]; !isError(r) || resultText(r) != `unknown tool "get_wether": the tools are add, get_weather` {
		t.Errorf("u1: %q", resultText(r))
	}
	if r := results["u2"]; isError(r) || calls.get("get_weather") != 1 {
		t.Errorf("u2: %q, runs %d", resultText(r), calls.get("get_weather"))
	}
}

func TestDuplicateToolUseID(t *testing.T) {
	t.Run("in one answer", func(t *testing.T) {
		calls := &counter{}
		s := &script{t: t, caps: withTools, turns: []turn{
			answer("toolUse", use("dup", "get_weather", `{"city":"Paris"}`), use("dup", "get_weather", `{"city":"London"}`)),
		}}
		loop := &sampling.Loop{Tools: testTools(t, calls), Capabilities: withTools}
		res, err := loop.Run(t.Context(), s, prompt("go"))
		var rerr *sampling.ResultError
		if !errors.As(err, &rerr) || res.Stop != sampling.StopInvalidResult {
			t.Fatalf("stop %s, error %v; want a ResultError", res.Stop, err)
		}
		if want := `/content/1/id: tool use id "dup" is used twice in the conversation`; !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
		if calls.get("get_weather") != 0 {
			t.Error("a tool of a refused answer ran")
		}
		if len(res.Messages) != 1 || res.Last != nil {
			t.Errorf("the refused answer is in the transcript: %d messages", len(res.Messages))
		}
	})
	t.Run("across answers", func(t *testing.T) {
		calls := &counter{}
		s := &script{t: t, caps: withTools, turns: []turn{
			answer("toolUse", use("call-1", "get_weather", `{"city":"Paris"}`)),
			answer("toolUse", use("call-2", "add", `{"numbers":[1]}`), use("call-1", "get_weather", `{"city":"Rome"}`)),
		}}
		loop := &sampling.Loop{Tools: testTools(t, calls), Capabilities: withTools}
		res, err := loop.Run(t.Context(), s, prompt("go"))
		var rerr *sampling.ResultError
		if !errors.As(err, &rerr) || res.Stop != sampling.StopInvalidResult || res.Iterations != 2 {
			t.Fatalf("stop %s after %d, error %v; want a ResultError at the second answer", res.Stop, res.Iterations, err)
		}
		if want := `/content/1/id: tool use id "call-1" is already used in message 1 of the conversation`; !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
		if calls.get("add") != 0 || calls.get("get_weather") != 1 {
			t.Errorf("runs add %d, get_weather %d: the refused answer's tools ran", calls.get("add"), calls.get("get_weather"))
		}
		if len(res.Messages) != 3 {
			t.Errorf("%d messages, want 3 (the refused answer left out)", len(res.Messages))
		}
	})
}

func TestRefusedResults(t *testing.T) {
	for name, tc := range map[string]struct {
		answer string
		want   string
	}{
		"user role":              {`{"role":"user","model":"m","content":{"type":"text","text":"hi"}}`, `/role: the answer of the model must have the role "assistant", not "user"`},
		"toolUse without a call": {result("toolUse", text("I would like to use a tool.")), `/stopReason: "toolUse", but the answer holds no tool use`},
		"tool result from model": {result("endTurn", `{"type":"tool_result","toolUseId":"x","content":[]}`), `a tool result must be in a user message`},
		"unknown content type":   {result("endTurn", `{"type":"hologram"}`), `/content/0`},
	} {
		t.Run(name, func(t *testing.T) {
			s := &script{t: t, caps: withTools, turns: []turn{answer("x"), nil}}
			s.turns[0] = func(context.Context, *mcp.CreateMessageRequestParams) (string, error) { return tc.answer, nil }
			loop := &sampling.Loop{Tools: testTools(t, nil), Capabilities: withTools}
			res, err := loop.Run(t.Context(), s, prompt("go"))
			var rerr *sampling.ResultError
			if !errors.As(err, &rerr) || res.Stop != sampling.StopInvalidResult {
				t.Fatalf("stop %s, error %v", res.Stop, err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q lacks %q", err, tc.want)
			}
		})
	}
}

// Check applies Accept's rules without accepting: a refused answer leaves the conversation as it
// was (a valid answer is then accepted), and a valid one is only checked (nothing runs).
func TestCheck(t *testing.T) {
	calls := &counter{}
	loop := &sampling.Loop{Tools: testTools(t, calls), Capabilities: withTools}
	c, err := loop.Start(prompt("go"), withTools)
	if err != nil {
		t.Fatal(err)
	}
	mustParse := func(s string) *mcp.CreateMessageResult {
		t.Helper()
		var r mcp.CreateMessageResult
		if err := r.UnmarshalJSON([]byte(s)); err != nil {
			t.Fatal(err)
		}
		return &r
	}
	first := mustParse(result("toolUse", use("call-1", "get_weather", `{"city":"Paris"}`)))
	if err := c.Check(first); err != nil {
		t.Fatalf("Check of a valid answer: %v", err)
	}
	if calls.get("get_weather") != 0 || c.Iterations() != 0 || c.Next() == nil {
		t.Fatal("Check accepted the answer")
	}
	if err := c.Accept(t.Context(), first); err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct{ answer, want string }{
		"repeated id":            {result("toolUse", use("call-1", "add", `{"numbers":[1]}`)), `/content/0/id: tool use id "call-1" is already used in message 1`},
		"user role":              {`{"role":"user","model":"m","content":{"type":"text","text":"hi"}}`, `/role: the answer of the model must have the role "assistant"`},
		"toolUse without a call": {result("toolUse", text("hm")), `/stopReason: "toolUse", but the answer holds no tool use`},
		"tool result from model": {result("endTurn", `{"type":"tool_result","toolUseId":"x","content":[]}`), `a tool result must be in a user message`},
	} {
		err := c.Check(mustParse(tc.answer))
		var rerr *sampling.ResultError
		if !errors.As(err, &rerr) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Check gave %v, want a ResultError with %q", name, err, tc.want)
		}
	}
	if err := c.Check(nil); err == nil {
		t.Error("Check(nil) passed")
	}
	if c.Iterations() != 1 || c.Next() == nil || c.Result().Stop != "" || len(c.Result().Messages) != 3 {
		t.Fatalf("the refused answers changed the conversation: %d iterations, stop %q, %d messages", c.Iterations(), c.Result().Stop, len(c.Result().Messages))
	}
	if err := c.Accept(t.Context(), mustParse(result("endTurn", text("done")))); err != nil {
		t.Fatal(err)
	}
	if c.Result().Stop != sampling.StopEndTurn || calls.get("get_weather") != 1 {
		t.Errorf("stop %q, get_weather ran %d times", c.Result().Stop, calls.get("get_weather"))
	}
	if err := c.Check(mustParse(result("endTurn", text("more")))); err == nil || errors.As(err, new(*sampling.ResultError)) {
		t.Errorf("Check after the end: %v, want the conversation's end", err)
	}
}

func TestIterationLimit(t *testing.T) {
	always := func(_ context.Context, req *mcp.CreateMessageRequestParams) (string, error) {
		return result("toolUse", use(fmt.Sprint("call-", len(req.Messages)), "get_weather", `{"city":"Paris"}`)), nil
	}
	for _, force := range []bool{false, true} {
		t.Run(fmt.Sprint("ForceFinalAnswer=", force), func(t *testing.T) {
			calls := &counter{}
			s := &script{t: t, caps: withTools, turns: []turn{always, always, always, always}}
			loop := &sampling.Loop{Tools: testTools(t, calls), MaxIterations: 3, ForceFinalAnswer: force, Capabilities: withTools}
			res, err := loop.Run(t.Context(), s, prompt("go"))
			if err != nil {
				t.Fatal(err)
			}
			if res.Stop != sampling.StopMaxIterations || res.Iterations != 3 || len(s.Requests()) != 3 {
				t.Errorf("stop %s after %d iterations and %d requests, want maxIterations after 3", res.Stop, res.Iterations, len(s.Requests()))
			}
			if calls.get("get_weather") != 2 {
				t.Errorf("get_weather ran %d times, want 2: the tool uses of the last answer are not run", calls.get("get_weather"))
			}
			pending := res.PendingToolUses()
			if len(pending) != 1 || pending[0].ID != "call-5" {
				t.Errorf("pending %v, want call-5", pending)
			}
			for i, req := range s.Requests() {
				forced := req.ToolChoice != nil && *req.ToolChoice.Mode == mcp.ToolChoiceModeNone
				if forced != (force && i == 2) {
					t.Errorf("request %d: toolChoice %+v", i, req.ToolChoice)
				}
			}
		})
	}
}

func TestCancellation(t *testing.T) {
	t.Run("while a tool runs", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		blocking, err := sampling.NewTypedTool("wait", "", nil, func(ctx context.Context, _ struct{}) (string, error) {
			cancel()
			<-ctx.Done()
			return "", ctx.Err()
		})
		if err != nil {
			t.Fatal(err)
		}
		s := &script{t: t, caps: withTools, turns: []turn{answer("toolUse", use("w", "wait", `{}`)), answer("endTurn", text("never"))}}
		loop := &sampling.Loop{Tools: []*sampling.Tool{blocking}, Capabilities: withTools}
		res, err := loop.Run(ctx, s, prompt("go"))
		if !errors.Is(err, context.Canceled) || res.Stop != sampling.StopCanceled {
			t.Fatalf("stop %s, error %v", res.Stop, err)
		}
		if len(s.Requests()) != 1 {
			t.Errorf("%d requests after the cancellation", len(s.Requests()))
		}
		// The transcript holds the tool result of the canceled run.
		if n := len(res.Messages); n != 3 || res.Messages[2].Role != mcp.RoleUser {
			t.Errorf("transcript of %d messages", n)
		}
	})
	t.Run("while sampling", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		s := &script{t: t, caps: withTools, turns: []turn{func(ctx context.Context, _ *mcp.CreateMessageRequestParams) (string, error) {
			cancel()
			<-ctx.Done()
			return "", errors.New("request canceled by the client")
		}}}
		loop := &sampling.Loop{Tools: testTools(t, nil), Capabilities: withTools}
		res, err := loop.Run(ctx, s, prompt("go"))
		if !errors.Is(err, context.Canceled) || res.Stop != sampling.StopCanceled {
			t.Fatalf("stop %s, error %v", res.Stop, err)
		}
	})
	t.Run("before", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		s := &script{t: t, caps: withTools}
		res, err := (&sampling.Loop{Tools: testTools(t, nil), Capabilities: withTools}).Run(ctx, s, prompt("go"))
		if !errors.Is(err, context.Canceled) || res.Stop != sampling.StopCanceled || len(s.Requests()) != 0 {
			t.Fatalf("stop %s, error %v, %d requests", res.Stop, err, len(s.Requests()))
		}
	})
}

func TestCapabilities(t *testing.T) {
	noTools := &mcp.ClientCapabilities{Sampling: &mcp.ClientCapabilitiesSampling{}}
	t.Run("client without sampling.tools", func(t *testing.T) {
		s := &script{t: t}
		res, err := (&sampling.Loop{Tools: testTools(t, nil), Capabilities: noTools}).Run(t.Context(), s, prompt("go"))
		var cerr *sampling.CapabilityError
		if !errors.As(err, &cerr) || res.Stop != sampling.StopMissingCapability {
			t.Fatalf("stop %s, error %v", res.Stop, err)
		}
		if len(s.Requests()) != 0 {
			t.Error("a request was sent to a client without sampling.tools")
		}
		if !strings.Contains(err.Error(), "/tools: the client does not declare the sampling.tools capability") {
			t.Errorf("error %q", err)
		}
		if req, _ := json.Marshal(cerr.Required); string(req) != `{"sampling":{"tools":{}}}` {
			t.Errorf("required %s", req)
		}
		var verr *mcp.ValidationError
		if !errors.As(err, &verr) || verr.Code != mcp.CodeInvalidParams {
			t.Errorf("the error does not carry the ValidationError of CheckCapabilities: %#v", err)
		}
	})
	t.Run("from the sampler", func(t *testing.T) {
		s := capsScript{&script{t: t, caps: noTools}}
		res, err := (&sampling.Loop{Tools: testTools(t, nil)}).Run(t.Context(), s, prompt("go"))
		var cerr *sampling.CapabilityError
		if !errors.As(err, &cerr) || res.Stop != sampling.StopMissingCapability {
			t.Fatalf("stop %s, error %v", res.Stop, err)
		}
		s = capsScript{&script{t: t, caps: withTools, turns: []turn{answer("endTurn", text("hi"))}}}
		if res, err := (&sampling.Loop{Tools: testTools(t, nil)}).Run(t.Context(), s, prompt("go")); err != nil || res.Text() != "hi" {
			t.Fatalf("%v %q", err, res.Text())
		}
	})
	t.Run("unknown", func(t *testing.T) {
		s := &script{t: t}
		res, err := (&sampling.Loop{Tools: testTools(t, nil)}).Run(t.Context(), s, prompt("go"))
		if !errors.Is(err, sampling.ErrUnknownCapabilities) || res.Stop != sampling.StopMissingCapability {
			t.Fatalf("stop %s, error %v", res.Stop, err)
		}
	})
	t.Run("no tools, no sampling.tools needed", func(t *testing.T) {
		s := &script{t: t, caps: noTools, turns: []turn{answer("endTurn", text("plain"))}}
		res, err := (&sampling.Loop{Capabilities: noTools}).Run(t.Context(), s, prompt("go"))
		if err != nil || res.Text() != "plain" || s.Requests()[0].Tools != nil {
			t.Fatalf("%v %q", err, res.Text())
		}
	})
}

func TestInvalidStart(t *testing.T) {
	tools := testTools(t, nil)
	loop := &sampling.Loop{Tools: tools, Capabilities: withTools}
	p := prompt("go")
	p.Tools = []mcp.Tool{tools[0].Definition()}
	if _, err := loop.Run(t.Context(), &script{t: t}, p); err == nil || !strings.Contains(err.Error(), "/tools: set by the loop") {
		t.Errorf("params with tools: %v", err)
	}
	// A conversation that breaks the rules: a tool use nobody answered.
	p = prompt("go")
	p.Messages = append(p.Messages, mcp.SamplingMessage{Role: mcp.RoleAssistant,
		Content: mcp.NewSamplingMessageContent(&mcp.ToolUseContent{ID: "x", Name: "add", Input: map[string]json.RawMessage{}})})
	res, err := loop.Run(t.Context(), &script{t: t}, p)
	var rerr *sampling.RequestError
	if !errors.As(err, &rerr) || res.Stop != sampling.StopInvalidRequest || !strings.Contains(err.Error(), `the tool uses "x" of the last message (1) are not answered`) {
		t.Errorf("stop %s: %v", res.Stop, err)
	}
	dup := &sampling.Loop{Tools: append(tools, tools[0]), Capabilities: withTools}
	if _, err := dup.Run(t.Context(), &script{t: t}, prompt("go")); err == nil || !strings.Contains(err.Error(), `two tools are named "get_weather"`) {
		t.Errorf("duplicate tool names: %v", err)
	}
}

func TestSamplerError(t *testing.T) {
	s := &script{t: t, caps: withTools, turns: []turn{func(context.Context, *mcp.CreateMessageRequestParams) (string, error) {
		return "", errors.New("User rejected sampling request")
	}}}
	res, err := (&sampling.Loop{Tools: testTools(t, nil), Capabilities: withTools}).Run(t.Context(), s, prompt("go"))
	var serr *sampling.SamplerError
	if !errors.As(err, &serr) || res.Stop != sampling.StopSamplerError || !strings.Contains(err.Error(), "User rejected") {
		t.Fatalf("stop %s, error %v", res.Stop, err)
	}
}

// TestIdempotencyKey: each tool use sees its own key, stable for the conversation.
func TestIdempotencyKey(t *testing.T) {
	var mu sync.Mutex
	keys := map[string]sampling.Call{}
	tool, err := sampling.NewTypedTool("t", "", nil, func(ctx context.Context, _ struct{}) (string, error) {
		c, ok := sampling.CallFromContext(ctx)
		if !ok {
			return "", errors.New("no call in the context")
		}
		mu.Lock()
		keys[c.ID] = c
		mu.Unlock()
		return "ok", nil
	})
	if err != nil {
		t.Fatal(err)
	}
	s := &script{t: t, caps: withTools, turns: []turn{
		answer("toolUse", use("a", "t", `{}`), use("b", "t", `{}`)),
		answer("toolUse", use("c", "t", `{}`)),
		answer("endTurn", text("ok")),
	}}
	if _, err := (&sampling.Loop{Tools: []*sampling.Tool{tool}, Capabilities: withTools}).Run(t.Context(), s, prompt("go")); err != nil {
		t.Fatal(err)
	}
	if len(keys) != 3 || keys["a"].Iteration != 1 || keys["c"].Iteration != 2 || keys["a"].Name != "t" {
		t.Fatalf("calls %+v", keys)
	}
	if keys["a"].IdempotencyKey == keys["b"].IdempotencyKey || len(keys["a"].IdempotencyKey) != 32 {
		t.Errorf("keys %q %q", keys["a"].IdempotencyKey, keys["b"].IdempotencyKey)
	}
}

func TestTypedToolResults(t *testing.T) {
	type point struct {
		X int `json:"x"`
		Y int `json:"y"`
	}
	p, err := sampling.NewTypedTool("point", "", nil, func(context.Context, struct{}) (point, error) { return point{1, 2}, nil })
	if err != nil {
		t.Fatal(err)
	}
	r, err := sampling.NewTypedTool("raw", "", nil, func(context.Context, struct{}) (*mcp.CallToolResult, error) {
		return sampling.ErrorResult("as it is"), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	s := &script{t: t, caps: withTools, turns: []turn{answer("toolUse", use("p", "point", `{}`), use("r", "raw", `{}`)), answer("endTurn", text("ok"))}}
	if _, err := (&sampling.Loop{Tools: []*sampling.Tool{p, r}, Capabilities: withTools}).Run(t.Context(), s, prompt("go")); err != nil {
		t.Fatal(err)
	}
	results := toolResults(t, s.Requests()[1])
	if got := results["p"]; resultText(got) != `{"x":1,"y":2}` || string(got.StructuredContent["y"]) != "2" || isError(got) {
		t.Errorf("point: %q %v", resultText(got), got.StructuredContent)
	}
	if got := results["r"]; resultText(got) != "as it is" || !isError(got) {
		t.Errorf("raw: %q", resultText(got))
	}
}

// TestLoneToolUse: a tool use alone in its answer runs on the goroutine that runs the loop (with
// nothing to run beside it, handing it to another goroutine and waiting would only cost), and its
// result reaches the model as any other.
func TestLoneToolUse(t *testing.T) {
	var ran uint64
	tool, err := sampling.NewTypedTool("get_weather", "", nil, func(ctx context.Context, in cityInput) (string, error) {
		ran = goroutineID()
		return weather(in.City), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	s := &script{t: t, caps: withTools, turns: []turn{
		answer("toolUse", use("call_abc123", "get_weather", `{"city":"Paris"}`)),
		answer("endTurn", text("Done.")),
	}}
	loop := &sampling.Loop{Tools: []*sampling.Tool{tool}, Capabilities: withTools}
	if _, err := loop.Run(t.Context(), s, prompt("Weather in Paris?")); err != nil {
		t.Fatal(err)
	}
	if ran != goroutineID() {
		t.Errorf("the tool ran on goroutine %d, the loop on %d", ran, goroutineID())
	}
	if r := toolResults(t, s.Requests()[1])["call_abc123"]; r == nil || resultText(r) != weather("Paris") {
		t.Errorf("tool results %v", toolResults(t, s.Requests()[1]))
	}
}

// goroutineID is the id of the calling goroutine, from the first line of its stack trace
// ("goroutine 7 [running]:").
func goroutineID() uint64 {
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	field := strings.Fields(strings.TrimPrefix(string(buf), "goroutine "))[0]
	id, err := strconv.ParseUint(field, 10, 64)
	if err != nil {
		panic(fmt.Sprintf("goroutine id of %q: %v", buf, err))
	}
	return id
}
