//lint:file-ignore SA1019 sampling is deprecated as of 2026-07-28 (SEP-2577), and still in it: these tests run it

package mrtr_test

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
	mcp "github.com/mcpgen/mcpgen/gen/mcp20260728"
	"github.com/mcpgen/mcpgen/gen/mcpdraft"
	"github.com/mcpgen/mcpgen/sampling"
	"github.com/mcpgen/mcpgen/sampling/mrtr"
)

var testKey = []byte("0123456789abcdef0123456789abcdef")

// clock is a settable clock.
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

// effects records the runs of the side-effecting tool "charge": the idempotency key of each run.
type effects struct {
	mu   sync.Mutex
	keys []string
}

func (e *effects) record(key string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.keys = append(e.keys, key)
}

func (e *effects) runs() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.keys...)
}

type fixture struct {
	server  *server
	clock   *clock
	effects *effects
	ctx     context.Context
}

type cityInput struct {
	City string `json:"city"`
}

type numbersInput struct {
	Numbers []float64 `json:"numbers"`
}

// newFixture returns a server whose agent offers get_weather, add, charge (a side effect),
// fail (an error) and block (waits for its context).
func newFixture(t *testing.T, configure func(*mrtr.Runner)) *fixture {
	t.Helper()
	f := &fixture{clock: &clock{now: time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)}, effects: &effects{}, ctx: t.Context()}
	must := func(tool *sampling.Tool, err error) *sampling.Tool {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return tool
	}
	tools := []*sampling.Tool{
		must(sampling.NewTypedTool("get_weather", "Current weather of a city", nil, func(_ context.Context, in cityInput) (string, error) {
			return "Weather in " + in.City + ": 18°C", nil
		})),
		must(sampling.NewTypedTool("add", "Adds numbers", nil, func(_ context.Context, in numbersInput) (float64, error) {
			s := 0.0
			for _, n := range in.Numbers {
				s += n
			}
			return s, nil
		})),
		must(sampling.NewTypedTool("charge", "Charges the card", nil, func(ctx context.Context, _ struct{}) (string, error) {
			c, _ := sampling.CallFromContext(ctx)
			f.effects.record(c.IdempotencyKey)
			return "charged", nil
		})),
		must(sampling.NewTypedTool("fail", "", nil, func(context.Context, struct{}) (string, error) {
			return "", errors.New("the service is down")
		})),
		must(sampling.NewTypedTool("block", "", nil, func(ctx context.Context, _ struct{}) (string, error) {
			<-ctx.Done()
			return "", ctx.Err()
		})),
	}
	r := &mrtr.Runner{Loop: &sampling.Loop{Tools: tools, MaxIterations: 4}, Key: testKey, Now: f.clock.Now}
	if configure != nil {
		configure(r)
	}
	f.server = &server{t: t, runner: r, principal: "alice"}
	return f
}

func TestMRTRSingleToolCall(t *testing.T) {
	f := newFixture(t, nil)
	m := &model{turns: []func(*mcp.CreateMessageRequestParams) string{
		reply("toolUse", use("call-1", "get_weather", `{"city":"Paris"}`)),
		func(req *mcp.CreateMessageRequestParams) string {
			r := lastToolResults(t, req)["call-1"]
			return result("endTurn", text("It is "+contentText(r.Content)))
		},
	}}
	c := newClient(t, m)
	res, rpcErr := c.call(f.ctx, f.server, "Weather in Paris?")
	if rpcErr != nil {
		t.Fatal(rpcErr)
	}
	if got := contentText(res.Content); got != "It is Weather in Paris: 18°C" || res.IsError != nil {
		t.Errorf("result %q (isError %v)", got, res.IsError)
	}
	if len(c.exchanges) != 2 || len(m.requests) != 2 {
		t.Errorf("%d retries, %d samples; want 2 and 2", len(c.exchanges), len(m.requests))
	}
	// The sampling requests carry the tools and the growing conversation.
	if n := len(m.requests[1].Messages); n != 3 || len(m.requests[1].Tools) != 5 {
		t.Errorf("second request: %d messages, %d tools", n, len(m.requests[1].Tools))
	}
	// The keys of the input requests.
	for i, e := range c.exchanges {
		if _, ok := e.params.InputResponses[fmt.Sprint("sampling-", i+1)]; !ok {
			t.Errorf("retry %d answers %v", i+1, e.params.InputResponses)
		}
	}
}

// mrtrScenario is a run of the loop against a scripted model: its turns, the tool's text and
// isError it ends with, and check of the requests the model received.
type mrtrScenario struct {
	turns   []func(*mcp.CreateMessageRequestParams) string
	check   func(t *testing.T, m *model)
	want    string // the tool's text
	isError bool
}

// mrtrScenarios are the runs of TestMRTRScenarios, by name: parallel tool calls, a tool's
// failure, invalid input, an unknown tool, and the iteration limit.
var mrtrScenarios = map[string]mrtrScenario{
	"parallel tool calls": {
		turns: []func(*mcp.CreateMessageRequestParams) string{
			reply("toolUse", use("a", "get_weather", `{"city":"Paris"}`), use("b", "get_weather", `{"city":"London"}`), use("c", "add", `{"numbers":[1,2]}`)),
			reply("endTurn", text("done")),
		},
		check: func(t *testing.T, m *model) {
			last := m.requests[1].Messages[2]
			var got []string
			for _, b := range last.Content.List {
				r := b.(*mcp.ToolResultContent)
				got = append(got, r.ToolUseID+"="+contentText(r.Content))
			}
			if strings.Join(got, ",") != "a=Weather in Paris: 18°C,b=Weather in London: 18°C,c=3" {
				t.Errorf("results %v", got)
			}
		},
		want: "done",
	},
	"a failing tool": {
		turns: []func(*mcp.CreateMessageRequestParams) string{
			reply("toolUse", use("a", "fail", `{}`)),
			reply("endTurn", text("sorry")),
		},
		check: func(t *testing.T, m *model) {
			r := lastToolResults(t, m.requests[1])["a"]
			if !isError(r) || contentText(r.Content) != `tool "fail" failed: the service is down` {
				t.Errorf("result %+v", r)
			}
		},
		want: "sorry",
	},
	"invalid tool input": {
		turns: []func(*mcp.CreateMessageRequestParams) string{
			reply("toolUse", use("a", "add", `{"numbers":"1,2"}`)),
			reply("endTurn", text("ok")),
		},
		check: func(t *testing.T, m *model) {
			r := lastToolResults(t, m.requests[1])["a"]
			if !isError(r) || contentText(r.Content) != `invalid input for tool "add": /numbers: got string, want null or array` {
				t.Errorf("result %q", contentText(r.Content))
			}
		},
		want: "ok",
	},
	"an unknown tool name": {
		turns: []func(*mcp.CreateMessageRequestParams) string{
			reply("toolUse", use("a", "get_wether", `{"city":"Paris"}`)),
			reply("endTurn", text("ok")),
		},
		check: func(t *testing.T, m *model) {
			r := lastToolResults(t, m.requests[1])["a"]
			if !isError(r) || !strings.HasPrefix(contentText(r.Content), `unknown tool "get_wether": the tools are add, block, charge, fail, get_weather`) {
				t.Errorf("result %q", contentText(r.Content))
			}
		},
		want: "ok",
	},
	"the iteration limit": {
		turns: []func(*mcp.CreateMessageRequestParams) string{
			reply("toolUse", use("a", "add", `{"numbers":[1]}`)),
			reply("toolUse", use("b", "add", `{"numbers":[1]}`)),
			reply("toolUse", use("c", "add", `{"numbers":[1]}`)),
			reply("toolUse", use("d", "add", `{"numbers":[1]}`)),
		},
		check: func(t *testing.T, m *model) {
			if len(m.requests) != 4 {
				t.Errorf("%d samples, want 4 (MaxIterations)", len(m.requests))
			}
		},
		want:    "the loop stopped: maxIterations after 4 iterations",
		isError: true,
	},
}

// TestMRTRScenarios runs each of mrtrScenarios on a fixture's server, in rounds of a client
// answering with the scenario's model.
func TestMRTRScenarios(t *testing.T) {
	for name, tc := range mrtrScenarios {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, nil)
			m := &model{turns: tc.turns}
			res, rpcErr := newClient(t, m).call(f.ctx, f.server, "go")
			if rpcErr != nil {
				t.Fatal(rpcErr)
			}
			if got := contentText(res.Content); got != tc.want || (res.IsError != nil && *res.IsError) != tc.isError {
				t.Errorf("result %q (isError %v), want %q (%v)", got, res.IsError, tc.want, tc.isError)
			}
			tc.check(t, m)
		})
	}
}

// errorReason returns the reason in a JSON-RPC error's data.
func errorReason(e *mcp.Error) string {
	var data struct{ Reason string }
	json.Unmarshal(e.Data, &data)
	return data.Reason
}

func TestMRTRClientWithoutSamplingTools(t *testing.T) {
	f := newFixture(t, nil)
	c := newClient(t, &model{})
	c.caps = mcp.ClientCapabilities{Sampling: &mcp.ClientCapabilitiesSampling{}}
	_, rpcErr := c.call(f.ctx, f.server, "go")
	if rpcErr == nil || rpcErr.Code != mcp.CodeMissingRequiredClientCapability {
		t.Fatalf("error %+v, want -32021", rpcErr)
	}
	var data mcp.MissingRequiredClientCapabilityErrorObjectData
	if err := data.UnmarshalJSON(rpcErr.Data); err != nil || data.RequiredCapabilities.Sampling == nil || data.RequiredCapabilities.Sampling.Tools == nil {
		t.Errorf("data %s: %v", rpcErr.Data, err)
	}

	// A retry whose request no longer declares sampling.tools is refused the same way.
	m := &model{turns: []func(*mcp.CreateMessageRequestParams) string{reply("toolUse", use("a", "add", `{"numbers":[1]}`))}}
	c = newClient(t, m)
	p := c.params("go")
	res, rpcErr := c.send(f.ctx, f.server, p)
	if rpcErr != nil {
		t.Fatal(rpcErr)
	}
	p = c.retry(p, res.(*mcp.InputRequiredResult))
	p.Meta.ClientCapabilities = mcp.ClientCapabilities{}
	if _, rpcErr := c.send(f.ctx, f.server, p); rpcErr == nil || rpcErr.Code != mcp.CodeMissingRequiredClientCapability {
		t.Errorf("retry without sampling.tools: %+v", rpcErr)
	}
}

func TestMRTRDuplicateToolUseID(t *testing.T) {
	f := newFixture(t, nil)
	m := &model{turns: []func(*mcp.CreateMessageRequestParams) string{
		reply("toolUse", use("x", "charge", `{}`)),
		reply("toolUse", use("y", "add", `{"numbers":[1]}`), use("x", "charge", `{}`)),
	}}
	_, rpcErr := newClient(t, m).call(f.ctx, f.server, "go")
	if rpcErr == nil || rpcErr.Code != mcp.CodeInvalidParams {
		t.Fatalf("error %+v, want -32602", rpcErr)
	}
	if want := `/inputResponses/sampling-2/content/1/id: tool use id "x" is already used in message 1 of the conversation`; !strings.Contains(rpcErr.Message, want) {
		t.Errorf("message %q lacks %q", rpcErr.Message, want)
	}
	if n := len(f.effects.runs()); n != 1 {
		t.Errorf("charge ran %d times, want 1: a refused answer runs nothing", n)
	}
	// Inside one answer: Validate's rule, with its pointer.
	f = newFixture(t, nil)
	m = &model{turns: []func(*mcp.CreateMessageRequestParams) string{reply("toolUse", use("x", "charge", `{}`), use("x", "charge", `{}`))}}
	_, rpcErr = newClient(t, m).call(f.ctx, f.server, "go")
	if rpcErr == nil || rpcErr.Code != mcp.CodeInvalidParams || !strings.Contains(rpcErr.Message, `inputResponses/sampling-1/content/1/id: tool use id "x" is used twice`) {
		t.Errorf("error %+v", rpcErr)
	}
	if n := len(f.effects.runs()); n != 0 {
		t.Errorf("charge ran %d times", n)
	}
}

func TestMRTRInvalidResponses(t *testing.T) {
	for name, tc := range map[string]struct {
		response mcp.InputResponse
		want     string
	}{
		"not a sampling result": {&mcp.ElicitResult{Action: "accept"}, `/inputResponses/sampling-1: a *mcp20260728.ElicitResult does not answer a sampling request`},
		"a tool result from the model": {mustResult(t, result("endTurn", `{"type":"tool_result","toolUseId":"a","content":[]}`)),
			`/inputResponses/sampling-1/content/0: a tool result must be in a user message`},
		"toolUse without a tool use": {mustResult(t, result("toolUse", text("hm"))), `/inputResponses/sampling-1/stopReason: "toolUse", but the answer holds no tool use`},
	} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, nil)
			c := newClient(t, &model{})
			p := c.params("go")
			res, rpcErr := c.send(f.ctx, f.server, p)
			if rpcErr != nil {
				t.Fatal(rpcErr)
			}
			p.RequestState = res.(*mcp.InputRequiredResult).RequestState
			p.InputResponses = mcp.InputResponses{"sampling-1": tc.response}
			_, rpcErr = c.send(f.ctx, f.server, p)
			if rpcErr == nil || rpcErr.Code != mcp.CodeInvalidParams || !strings.Contains(rpcErr.Message, tc.want) {
				t.Errorf("error %+v, want -32602 with %q", rpcErr, tc.want)
			}
		})
	}
}

// The error of an invalid answer gives NewErrorResponse (of 2026-07-28 and of the draft) the
// problems under /inputResponses/<key>, as errors.As gives them, from Step and from a helper,
// when the server does not validate the request first; and errors.As still finds the
// ResultError.
func TestInvalidAnswerErrorResponse(t *testing.T) {
	const want = `/inputResponses/sampling-1/content/0: a tool result must be in a user message`
	bad := mustResult(t, result("endTurn", `{"type":"tool_result","toolUseId":"a","content":[]}`))
	f := newFixture(t, nil)
	c := newClient(t, &model{})
	params := func() (*v1125Params, error) { return firstParams(), nil }
	for name, step := range map[string]func(mrtr.Request) (*mcp.InputRequiredResult, error){
		"Step": func(req mrtr.Request) (*mcp.InputRequiredResult, error) {
			out, err := f.server.runner.Step(f.ctx, req, params)
			if err != nil {
				return nil, err
			}
			return out.InputRequired, nil
		},
		"SampleTools": func(req mrtr.Request) (*mcp.InputRequiredResult, error) {
			out, err := f.server.runner.SampleTools(f.ctx, req, func() (*v1125Params, error) {
				p := firstParams()
				p.Tools = []v1125.Tool{{Name: "pay", InputSchema: v1125.ToolInputSchema{Type: "object"}}}
				return p, nil
			}, nil)
			if err != nil {
				return nil, err
			}
			return out.InputRequired, nil
		},
	} {
		t.Run(name, func(t *testing.T) {
			p := c.params("go")
			req, err := mrtr.CallTool(&p, "alice")
			if err != nil {
				t.Fatal(err)
			}
			ir, err := step(req)
			if err != nil || ir == nil {
				t.Fatalf("first step: %v %v", ir, err)
			}
			req.RequestState = ir.RequestState
			req.InputResponses = mcp.InputResponses{"sampling-1": bad}
			_, err = step(req)
			var rpc *mcp.Error
			var rerr *sampling.ResultError
			if !errors.As(err, &rpc) || !errors.As(err, &rerr) || rerr.Err == nil {
				t.Fatalf("error %v: want an *Error and a *sampling.ResultError", err)
			}
			got := mcp.NewErrorResponse(mcp.RequestIDNumber(1), err).Error
			if got.Code != mcp.CodeInvalidParams || !strings.Contains(got.Message, want) || got.Message != rpc.Message {
				t.Errorf("NewErrorResponse: %d %q; want -32602 with %q, as errors.As gives (%q)", got.Code, got.Message, want, rpc.Message)
			}
			draft := mcpdraft.NewErrorResponse(mcpdraft.RequestIDNumber(1), err).Error
			if draft.Code != mcpdraft.CodeInvalidParams || draft.Message != got.Message {
				t.Errorf("the draft's NewErrorResponse: %d %q, want %q", draft.Code, draft.Message, got.Message)
			}
		})
	}
}

func mustResult(t *testing.T, s string) *mcp.CreateMessageResult {
	var r mcp.CreateMessageResult
	if err := r.UnmarshalJSON([]byte(s)); err != nil {
		t.Fatal(err)
	}
	return &r
}

// TestMRTRMissingResponse: a retry without the response gets the same request and state again.
func TestMRTRMissingResponse(t *testing.T) {
	f := newFixture(t, nil)
	c := newClient(t, &model{})
	p := c.params("go")
	res, rpcErr := c.send(f.ctx, f.server, p)
	if rpcErr != nil {
		t.Fatal(rpcErr)
	}
	first := res.(*mcp.InputRequiredResult)
	p.RequestState = first.RequestState
	res, rpcErr = c.send(f.ctx, f.server, p)
	if rpcErr != nil {
		t.Fatal(rpcErr)
	}
	again := res.(*mcp.InputRequiredResult)
	a, _ := first.MarshalJSON()
	b, _ := again.MarshalJSON()
	if string(a) != string(b) {
		t.Errorf("asked again with\n%s\nwant\n%s", b, a)
	}
}

func TestMRTRCancellation(t *testing.T) {
	f := newFixture(t, nil)
	m := &model{turns: []func(*mcp.CreateMessageRequestParams) string{reply("toolUse", use("a", "block", `{}`))}}
	c := newClient(t, m)
	p := c.params("go")
	res, rpcErr := c.send(f.ctx, f.server, p)
	if rpcErr != nil {
		t.Fatal(rpcErr)
	}
	p = c.retry(p, res.(*mcp.InputRequiredResult))
	ctx, cancel := context.WithTimeout(f.ctx, 20*time.Millisecond)
	defer cancel()
	req, err := mrtr.CallTool(&p, "alice")
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.server.runner.Step(ctx, req, nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error %v, want the context's", err)
	}
	// On the wire: an internal error.
	ctx, cancel = context.WithTimeout(f.ctx, 20*time.Millisecond)
	defer cancel()
	if _, rpcErr := c.send(ctx, f.server, p); rpcErr == nil || rpcErr.Code != mcp.CodeInternalError {
		t.Errorf("error %+v, want -32603", rpcErr)
	}
}

// pendingRetry returns a fixture and a client's retry that answers the first sampling request
// with a call of the side-effecting tool charge.
func pendingRetry(t *testing.T, configure func(*mrtr.Runner)) (*fixture, *client, mcp.CallToolRequestParams) {
	t.Helper()
	f := newFixture(t, configure)
	m := &model{turns: []func(*mcp.CreateMessageRequestParams) string{
		reply("toolUse", use("pay", "charge", `{}`)),
		reply("endTurn", text("paid")),
		reply("endTurn", text("paid")),
	}}
	c := newClient(t, m)
	p := c.params("pay the bill")
	res, rpcErr := c.send(f.ctx, f.server, p)
	if rpcErr != nil {
		t.Fatal(rpcErr)
	}
	return f, c, c.retry(p, res.(*mcp.InputRequiredResult))
}

// refused checks that the retry p is refused with -32602 and the reason, and runs no tool.
func refused(t *testing.T, f *fixture, c *client, p mcp.CallToolRequestParams, reason string) {
	t.Helper()
	before := len(f.effects.runs())
	_, rpcErr := c.send(f.ctx, f.server, p)
	if rpcErr == nil || rpcErr.Code != mcp.CodeInvalidParams || errorReason(rpcErr) != reason {
		t.Fatalf("error %+v, want -32602 with reason %q", rpcErr, reason)
	}
	if len(f.effects.runs()) != before {
		t.Error("a refused retry ran a tool")
	}
	t.Logf("%s: %s", reason, rpcErr.Message)
}

func TestMRTRTamperedState(t *testing.T) {
	f, c, p := pendingRetry(t, nil)
	state := *p.RequestState
	version, rest, _ := strings.Cut(state, ".")
	body, sum, _ := strings.Cut(rest, ".")
	flip := func(s string, i int) string {
		b := []byte(s)
		if b[i] == 'A' {
			b[i] = 'B'
		} else {
			b[i] = 'A'
		}
		return string(b)
	}
	other := &mrtr.Runner{Loop: f.server.runner.Loop, Key: []byte("another key of thirty-two bytes!"), Now: f.clock.Now}
	otherState := func() string {
		// A state for the same request, issued under another key.
		req, _ := mrtr.CallTool(&mcp.CallToolRequestParams{Name: p.Name, Arguments: p.Arguments, Meta: p.Meta}, "alice")
		out, err := other.Step(f.ctx, req, func() (*v1125Params, error) { return firstParams(), nil })
		if err != nil {
			t.Fatal(err)
		}
		return *out.InputRequired.RequestState
	}
	for name, tc := range map[string]struct {
		state, reason string
	}{
		"a byte of the body": {version + "." + flip(body, len(body)/2) + "." + sum, "tampered"},
		"a byte of the MAC":  {version + "." + body + "." + flip(sum, 3), "tampered"},
		"no MAC":             {version + "." + body + ".", "tampered"},
		"another key":        {otherState(), "tampered"},
		"another version":    {"v1." + body + "." + sum, "malformed"},
		"not a state":        {"opaque", "malformed"},
		"too large":          {strings.Repeat("A", mrtr.DefaultMaxStateBytes+1), "tooLarge"},
		"a truncated MAC":    {state[:len(state)-2], "tampered"},
		"bodies swapped":     {version + "." + sum + "." + body, "tampered"},
	} {
		t.Run(name, func(t *testing.T) {
			q := p
			q.RequestState = &tc.state
			refused(t, f, c, q, tc.reason)
		})
	}
	// The untouched state still works.
	res, rpcErr := c.send(f.ctx, f.server, p)
	if rpcErr != nil {
		t.Fatal(rpcErr)
	}
	if _, ok := res.(*mcp.InputRequiredResult); !ok {
		t.Fatalf("answered with a %T", res)
	}
}

func TestMRTRExpiredState(t *testing.T) {
	f, c, p := pendingRetry(t, func(r *mrtr.Runner) { r.TTL = time.Minute })
	f.clock.advance(time.Minute + time.Millisecond)
	refused(t, f, c, p, "expired")
	// Within the TTL it is accepted; the next state gets a new expiry.
	f, c, p = pendingRetry(t, func(r *mrtr.Runner) { r.TTL = time.Minute })
	f.clock.advance(59 * time.Second)
	res, rpcErr := c.send(f.ctx, f.server, p)
	if rpcErr != nil {
		t.Fatal(rpcErr)
	}
	next := c.retry(p, res.(*mcp.InputRequiredResult))
	f.clock.advance(59 * time.Second)
	if res, rpcErr := c.send(f.ctx, f.server, next); rpcErr != nil || contentText(res.(*mcp.CallToolResult).Content) != "paid" {
		t.Fatalf("%v %v", res, rpcErr)
	}
}

func TestMRTROtherRequestState(t *testing.T) {
	f, c, p := pendingRetry(t, nil)
	q := p
	q.Arguments = map[string]json.RawMessage{"prompt": mustJSON("pay the other bill")}
	refused(t, f, c, q, "otherRequest")
	q = p
	q.Name = "agent2"
	refused(t, f, c, q, "otherRequest")
	// Another principal presenting alice's state.
	f.server.principal = "mallory"
	refused(t, f, c, p, "otherPrincipal")
	f.server.principal = "alice"
	// The same arguments, spaced and ordered differently, are the same request.
	q = p
	q.Arguments = map[string]json.RawMessage{"prompt": json.RawMessage(`  "pay the bill" `)}
	if _, rpcErr := c.send(f.ctx, f.server, q); rpcErr != nil {
		t.Errorf("the same arguments respaced: %v", rpcErr)
	}
}

// TestMRTRReplayedState: the same retry sent twice. Without a guard, the tool of its answer runs
// twice, with the same idempotency key; with a guard, the second is refused and runs nothing.
func TestMRTRReplayedState(t *testing.T) {
	t.Run("without a guard", func(t *testing.T) {
		f, c, p := pendingRetry(t, nil)
		for range 2 {
			res, rpcErr := c.send(f.ctx, f.server, p)
			if rpcErr != nil {
				t.Fatal(rpcErr)
			}
			if _, ok := res.(*mcp.InputRequiredResult); !ok {
				t.Fatalf("answered with a %T", res)
			}
		}
		runs := f.effects.runs()
		if len(runs) != 2 || runs[0] != runs[1] || runs[0] == "" {
			t.Errorf("charge ran with keys %q: want twice with the same key, so that it can notice", runs)
		}
	})
	t.Run("with a guard", func(t *testing.T) {
		guard := &mrtr.MemoryGuard{}
		f, c, p := pendingRetry(t, func(r *mrtr.Runner) { r.Guard = guard })
		res, rpcErr := c.send(f.ctx, f.server, p)
		if rpcErr != nil {
			t.Fatal(rpcErr)
		}
		refused(t, f, c, p, "replayed")
		if n := len(f.effects.runs()); n != 1 {
			t.Errorf("charge ran %d times, want 1", n)
		}
		// The conversation goes on from the next state.
		next := c.retry(p, res.(*mcp.InputRequiredResult))
		res, rpcErr = c.send(f.ctx, f.server, next)
		if rpcErr != nil || contentText(res.(*mcp.CallToolResult).Content) != "paid" {
			t.Fatalf("%v %v", res, rpcErr)
		}
		refused(t, f, c, next, "replayed")
		if guard.Len() != 2 {
			t.Errorf("the guard holds %d ids", guard.Len())
		}
	})
	t.Run("the guard forgets expired ids", func(t *testing.T) {
		clk := &clock{now: time.Unix(0, 0)}
		g := &mrtr.MemoryGuard{Now: clk.Now}
		for i := range 100 {
			if first, _ := g.Use(t.Context(), fmt.Sprint(i), clk.now.Add(time.Minute)); !first {
				t.Fatal("not first")
			}
		}
		clk.advance(2 * time.Minute)
		for i := range 100 {
			g.Use(t.Context(), fmt.Sprint("new", i), clk.now.Add(time.Minute))
		}
		if g.Len() > 150 {
			t.Errorf("the guard holds %d ids; the expired ones were kept", g.Len())
		}
		if first, _ := g.Use(t.Context(), "new1", clk.now.Add(time.Minute)); first {
			t.Error("an id in force was forgotten")
		}
	})
}

// With a guard, an answer that breaks the loop's rules is refused before the state is used: the
// client may correct it and retry with the same state.
func TestMRTRRefusedAnswerLeavesTheStateUnused(t *testing.T) {
	guard := &mrtr.MemoryGuard{}
	f, c, p := pendingRetry(t, func(r *mrtr.Runner) { r.Guard = guard })
	good := p.InputResponses
	for name, bad := range map[string]string{
		"toolUse without a tool use": result("toolUse", text("hm")),
		"repeated tool use id":       result("toolUse", use("pay", "charge", `{}`), use("pay", "charge", `{}`)),
	} {
		p.InputResponses = mcp.InputResponses{"sampling-1": mustResult(t, bad)}
		if _, rpcErr := c.send(f.ctx, f.server, p); rpcErr == nil || rpcErr.Code != mcp.CodeInvalidParams || !strings.Contains(rpcErr.Message, "/inputResponses/sampling-1") {
			t.Fatalf("%s: error %+v, want -32602 under /inputResponses/sampling-1", name, rpcErr)
		}
	}
	if guard.Len() != 0 || len(f.effects.runs()) != 0 {
		t.Fatalf("the refused answers used the state (guard holds %d ids) or ran tools (%d)", guard.Len(), len(f.effects.runs()))
	}
	p.InputResponses = good
	res, rpcErr := c.send(f.ctx, f.server, p)
	if rpcErr != nil {
		t.Fatalf("the corrected retry: %+v", rpcErr)
	}
	if _, ok := res.(*mcp.InputRequiredResult); !ok || len(f.effects.runs()) != 1 || guard.Len() != 1 {
		t.Errorf("the corrected retry gave a %T, charge ran %d times, the guard holds %d ids", res, len(f.effects.runs()), guard.Len())
	}
	refused(t, f, c, p, "replayed")
}

func TestMRTRStateTooLarge(t *testing.T) {
	// A conversation that outgrows the bound ends with an internal error, not a state the server
	// would refuse.
	f := newFixture(t, func(r *mrtr.Runner) { r.MaxStateBytes = 600 })
	big := strings.Repeat("Lorem ipsum dolor sit amet, consectetur adipiscing elit. ", 4)
	m := &model{turns: []func(*mcp.CreateMessageRequestParams) string{
		func(*mcp.CreateMessageRequestParams) string {
			var uses []string
			for i := range 30 {
				uses = append(uses, use(fmt.Sprintf("call-%d-%x", i, i*7919), "get_weather", fmt.Sprintf(`{"city":"%s %d"}`, big[:20], i)))
			}
			return result("toolUse", uses...)
		},
	}}
	_, rpcErr := newClient(t, m).call(f.ctx, f.server, "go")
	if rpcErr == nil || rpcErr.Code != mcp.CodeInternalError || errorReason(rpcErr) != "tooLarge" {
		t.Fatalf("error %+v", rpcErr)
	}
}

func TestMRTRMisconfigured(t *testing.T) {
	f := newFixture(t, func(r *mrtr.Runner) { r.Key = []byte("short") })
	_, rpcErr := newClient(t, &model{}).call(f.ctx, f.server, "go")
	if rpcErr == nil || rpcErr.Code != mcp.CodeInternalError {
		t.Fatalf("error %+v", rpcErr)
	}
}
