package sampling_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
	"github.com/mcpgen/mcpgen/sampling"
)

// recorder is a progress sink that keeps the events. It takes no lock of its own: the loop must
// call it one call at a time, which the race detector checks.
type recorder struct {
	events []sampling.Progress
}

func (r *recorder) sink(_ context.Context, p sampling.Progress) { r.events = append(r.events, p) }

func (r *recorder) ctx(parent context.Context) context.Context {
	return sampling.WithProgress(parent, r.sink)
}

// trace writes events as "number:kind:detail", one per event, for comparison.
func trace(events []sampling.Progress) string {
	var lines []string
	for _, p := range events {
		var detail string
		switch p.Kind {
		case sampling.ProgressRequest:
			detail = fmt.Sprint(p.Iteration)
		case sampling.ProgressTool:
			detail = fmt.Sprintf("%d/%s/%s", p.Iteration, p.Tool, p.ToolUseID)
			if p.Failed {
				detail += "/failed"
			}
		case sampling.ProgressDone:
			detail = fmt.Sprintf("%d/%s", p.Iteration, p.Stop)
		}
		lines = append(lines, fmt.Sprintf("%g:%s:%s", p.Progress, p.Kind, detail))
	}
	return strings.Join(lines, "\n")
}

// checkNumbers checks that the events are numbered from first, one more each time, all of one
// conversation, each with a message.
func checkNumbers(t *testing.T, events []sampling.Progress, first float64) {
	t.Helper()
	for i, p := range events {
		if want := first + float64(i); p.Progress != want {
			t.Errorf("event %d (%s) has progress %g, want %g", i, p.Kind, p.Progress, want)
		}
		if p.ConversationID == "" || p.ConversationID != events[0].ConversationID {
			t.Errorf("event %d: conversation %q, the first's is %q", i, p.ConversationID, events[0].ConversationID)
		}
		if p.Message == "" {
			t.Errorf("event %d (%s) has no message", i, p.Kind)
		}
	}
}

func TestProgressSingleToolCall(t *testing.T) {
	s := &script{t: t, caps: withTools, turns: []turn{
		answer("toolUse", use("call-1", "get_weather", `{"city":"Paris"}`)),
		answer("endTurn", text("18°C in Paris.")),
	}}
	var rec recorder
	loop := &sampling.Loop{Tools: testTools(t, nil), Capabilities: withTools}
	res, err := loop.Run(rec.ctx(t.Context()), s, prompt("Weather in Paris?"))
	if err != nil {
		t.Fatal(err)
	}
	want := `1:request:1
2:tool:1/get_weather/call-1
3:request:2
4:done:2/endTurn`
	if got := trace(rec.events); got != want {
		t.Errorf("events:\n%s\nwant:\n%s", got, want)
	}
	checkNumbers(t, rec.events, 1)
	msgs := []string{"asking the model (request 1 of at most 10)", "tool get_weather ran", "asking the model (request 2 of at most 10)", "done after 2 requests"}
	for i, p := range rec.events {
		if p.Message != msgs[i] {
			t.Errorf("event %d: message %q, want %q", i+1, p.Message, msgs[i])
		}
	}
	if rec.events[0].ConversationID == "" {
		t.Error("no conversation id")
	}
	if res.Iterations != 2 {
		t.Errorf("%d iterations", res.Iterations)
	}
}

func TestProgressParallelToolUses(t *testing.T) {
	// Four tool uses in one answer: two run (concurrently), one names an unknown tool, one has an
	// invalid input. Each is reported once, numbered in the order of delivery.
	s := &script{t: t, caps: withTools, turns: []turn{
		answer("toolUse",
			use("a", "get_weather", `{"city":"Paris"}`),
			use("b", "get_wether", `{"city":"Rome"}`),
			use("c", "add", `{"numbers":[1,"2"]}`),
			use("d", "add", `{"numbers":[1,2]}`)),
		answer("endTurn", text("Done.")),
	}}
	var rec recorder
	loop := &sampling.Loop{Tools: testTools(t, nil), Capabilities: withTools, MaxParallel: 4}
	if _, err := loop.Run(rec.ctx(t.Context()), s, prompt("Go.")); err != nil {
		t.Fatal(err)
	}
	checkNumbers(t, rec.events, 1)
	if len(rec.events) != 7 {
		t.Fatalf("%d events, want 7:\n%s", len(rec.events), trace(rec.events))
	}
	if e := rec.events[0]; e.Kind != sampling.ProgressRequest || e.Iteration != 1 {
		t.Errorf("first event %+v", e)
	}
	tools := map[string]string{}
	for _, e := range rec.events[1:5] {
		if e.Kind != sampling.ProgressTool || e.Iteration != 1 {
			t.Fatalf("events 2-5 must be the tool uses of answer 1:\n%s", trace(rec.events))
		}
		if _, dup := tools[e.ToolUseID]; dup {
			t.Errorf("tool use %s reported twice", e.ToolUseID)
		}
		tools[e.ToolUseID] = fmt.Sprintf("%s %v %s", e.Tool, e.Failed, e.Message)
	}
	want := map[string]string{
		"a": "get_weather false tool get_weather ran",
		"b": "get_wether true tool get_wether failed",
		"c": "add true tool add failed",
		"d": "add false tool add ran",
	}
	for id, w := range want {
		if tools[id] != w {
			t.Errorf("tool use %s: %q, want %q", id, tools[id], w)
		}
	}
	if got := trace(rec.events[5:]); got != "6:request:2\n7:done:2/endTurn" {
		t.Errorf("last events:\n%s", got)
	}
}

func TestProgressIterationLimit(t *testing.T) {
	again := func(id string) turn { return answer("toolUse", use(id, "add", `{"numbers":[1]}`)) }
	s := &script{t: t, caps: withTools, turns: []turn{again("u1"), again("u2")}}
	var rec recorder
	loop := &sampling.Loop{Tools: testTools(t, nil), Capabilities: withTools, MaxIterations: 2}
	res, err := loop.Run(rec.ctx(t.Context()), s, prompt("Add forever."))
	if err != nil || res.Stop != sampling.StopMaxIterations {
		t.Fatalf("stop %s, err %v", res.Stop, err)
	}
	// The tool use of the last answer is not run, so not reported.
	want := `1:request:1
2:tool:1/add/u1
3:request:2
4:done:2/maxIterations`
	if got := trace(rec.events); got != want {
		t.Errorf("events:\n%s\nwant:\n%s", got, want)
	}
	if got := rec.events[3].Message; got != "stopped at the limit of 2 requests" {
		t.Errorf("done message %q", got)
	}
}

func TestProgressNoDoneOnError(t *testing.T) {
	// An answer the loop refuses stops it with an error: no ProgressDone.
	s := &script{t: t, caps: withTools, turns: []turn{
		answer("toolUse", use("x", "add", `{"numbers":[1]}`)),
		answer("toolUse", use("x", "add", `{"numbers":[2]}`)), // repeats the id
	}}
	var rec recorder
	loop := &sampling.Loop{Tools: testTools(t, nil), Capabilities: withTools}
	_, err := loop.Run(rec.ctx(t.Context()), s, prompt("Go."))
	if err == nil {
		t.Fatal("no error")
	}
	want := `1:request:1
2:tool:1/add/x
3:request:2`
	if got := trace(rec.events); got != want {
		t.Errorf("events:\n%s\nwant:\n%s", got, want)
	}
}

func TestProgressNotAfterCancel(t *testing.T) {
	// The handler cancels the request: its own tool event and everything after it are dropped.
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	stop, err := sampling.NewTypedTool("stop", "", nil, func(context.Context, struct{}) (string, error) {
		cancel()
		return "stopped", nil
	})
	if err != nil {
		t.Fatal(err)
	}
	s := &script{t: t, caps: withTools, turns: []turn{answer("toolUse", use("s", "stop", `{}`))}}
	var rec recorder
	loop := &sampling.Loop{Tools: []*sampling.Tool{stop}, Capabilities: withTools}
	res, err := loop.Run(rec.ctx(ctx), s, prompt("Stop."))
	if err == nil || res.Stop != sampling.StopCanceled {
		t.Fatalf("stop %s, err %v", res.Stop, err)
	}
	if got := trace(rec.events); got != "1:request:1" {
		t.Errorf("events:\n%s", got)
	}
}

// multiTurns is a conversation of three requests: two tool uses in parallel, then one, then the
// answer.
func multiTurns() []turn {
	return []turn{
		answer("toolUse", use("p", "get_weather", `{"city":"Paris"}`), use("l", "get_weather", `{"city":"London"}`)),
		answer("toolUse", use("s", "add", `{"numbers":[18,15]}`)),
		answer("endTurn", text("33 degrees in all.")),
	}
}

func TestProgressAcrossSnapshots(t *testing.T) {
	tools := testTools(t, nil)
	// MaxParallel 1 makes the order of the tool events that of the tool uses, so that both runs
	// can be compared event by event.
	loop := &sampling.Loop{Tools: tools, Capabilities: withTools, MaxParallel: 1}

	// The whole loop in one Run.
	var whole recorder
	if _, err := loop.Run(whole.ctx(t.Context()), &script{t: t, caps: withTools, turns: multiTurns()}, prompt("Paris plus London?")); err != nil {
		t.Fatal(err)
	}
	want := `1:request:1
2:tool:1/get_weather/p
3:tool:1/get_weather/l
4:request:2
5:tool:2/add/s
6:request:3
7:done:3/endTurn`
	if got := trace(whole.events); got != want {
		t.Fatalf("Run's events:\n%s\nwant:\n%s", got, want)
	}

	// The same loop round by round, as the multi round-trip flow runs it: each round is a new
	// request with its own sink, and the conversation travels as a Snapshot through JSON.
	model := &script{t: t, caps: withTools, turns: multiTurns()}
	var rounds [][]sampling.Progress
	var round recorder
	conv, err := loop.StartContext(round.ctx(t.Context()), prompt("Paris plus London?"), withTools)
	if err != nil {
		t.Fatal(err)
	}
	rounds = append(rounds, round.events)
	for conv.Next() != nil {
		if got, want := conv.Progress(), float64(len(flatten(rounds))); got != want {
			t.Errorf("before round %d: Progress() = %g, want %g", len(rounds)+1, got, want)
		}
		snap := roundTrip(t, conv.Snapshot())
		res, err := model.CreateMessage(t.Context(), conv.Next())
		if err != nil {
			t.Fatal(err)
		}
		round = recorder{}
		conv, err = loop.Resume(snap, withTools)
		if err != nil {
			t.Fatal(err)
		}
		if err := conv.Accept(round.ctx(t.Context()), res); err != nil {
			t.Fatal(err)
		}
		rounds = append(rounds, round.events)
	}
	if len(rounds) != 4 {
		t.Errorf("%d rounds, want 4", len(rounds))
	}
	all := flatten(rounds)
	checkNumbers(t, all, 1)
	if got := trace(all); got != want {
		t.Errorf("events of the rounds:\n%s\nwant Run's:\n%s", got, want)
	}
	for i, r := range rounds {
		if len(r) == 0 {
			t.Errorf("round %d reported nothing", i+1)
		}
	}
}

func TestProgressResumeWithoutAnswer(t *testing.T) {
	// A round that resumes the conversation but has no answer to accept (the client retried
	// without it, and the server asks again) reports nothing, and the numbers go on as before.
	loop := &sampling.Loop{Tools: testTools(t, nil), Capabilities: withTools}
	model := &script{t: t, caps: withTools, turns: multiTurns()}
	var rec recorder
	ctx := rec.ctx(t.Context())
	conv, err := loop.StartContext(ctx, prompt("Paris plus London?"), withTools)
	if err != nil {
		t.Fatal(err)
	}
	res, _ := model.CreateMessage(ctx, conv.Next())
	if err := conv.Accept(ctx, res); err != nil {
		t.Fatal(err)
	}
	n := len(rec.events) // request 1, two tools, request 2
	again, err := loop.Resume(roundTrip(t, conv.Snapshot()), withTools)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.events) != n || again.Progress() != 4 || n != 4 {
		t.Fatalf("after Resume: %d events (was %d), Progress() %g, want 4", len(rec.events), n, again.Progress())
	}
	again2, err := loop.Resume(roundTrip(t, again.Snapshot()), withTools)
	if err != nil {
		t.Fatal(err)
	}
	res, _ = model.CreateMessage(ctx, again2.Next())
	if err := again2.Accept(ctx, res); err != nil {
		t.Fatal(err)
	}
	checkNumbers(t, rec.events, 1)
	if got := trace(rec.events[n:]); got != "5:tool:2/add/s\n6:request:3" {
		t.Errorf("events after the second Resume:\n%s", got)
	}
}

func TestProgressWithoutSink(t *testing.T) {
	// No sink: nothing is reported, but the numbers are counted, so that a later round with a
	// sink continues them.
	loop := &sampling.Loop{Tools: testTools(t, nil), Capabilities: withTools}
	model := &script{t: t, caps: withTools, turns: multiTurns()}
	conv, err := loop.Start(prompt("Paris plus London?"), withTools)
	if err != nil {
		t.Fatal(err)
	}
	res, _ := model.CreateMessage(t.Context(), conv.Next())
	if err := conv.Accept(t.Context(), res); err != nil {
		t.Fatal(err)
	}
	if conv.Progress() != 4 {
		t.Errorf("Progress() = %g, want 4", conv.Progress())
	}
	var rec recorder
	res, _ = model.CreateMessage(t.Context(), conv.Next())
	if err := conv.Accept(rec.ctx(t.Context()), res); err != nil {
		t.Fatal(err)
	}
	if got := trace(rec.events); got != "5:tool:2/add/s\n6:request:3" {
		t.Errorf("events:\n%s", got)
	}
	// A nil sink removes the parent's.
	var outer recorder
	ctx := sampling.WithProgress(outer.ctx(t.Context()), nil)
	if _, err := loop.Run(ctx, &script{t: t, caps: withTools, turns: multiTurns()}, prompt("Again.")); err != nil {
		t.Fatal(err)
	}
	if len(outer.events) != 0 {
		t.Errorf("a removed sink got %d events", len(outer.events))
	}
}

func flatten(rounds [][]sampling.Progress) []sampling.Progress {
	var all []sampling.Progress
	for _, r := range rounds {
		all = append(all, r...)
	}
	return all
}

// roundTrip sends a snapshot through JSON, as a stateless server keeps it.
func roundTrip(t *testing.T, s sampling.Snapshot) sampling.Snapshot {
	t.Helper()
	data, err := s.Params.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	var params mcp.CreateMessageRequestParams
	if err := params.UnmarshalJSON(data); err != nil {
		t.Fatal(err)
	}
	return sampling.Snapshot{ID: s.ID, Iterations: s.Iterations, Params: params}
}

func TestProgressHelpers(t *testing.T) {
	s := &script{t: t, caps: withTools, turns: []turn{
		answer("endTurn", text("No tool.")),
		answer("toolUse", use("t1", "play_defensive", `{"threat":"row 1"}`)),
	}}
	p := prompt("Choose.")
	p.Tools = strategyTools()
	var rec recorder
	if _, err := sampling.SampleTools(rec.ctx(t.Context()), s, p, &sampling.RetryOptions{Capabilities: withTools}); err != nil {
		t.Fatal(err)
	}
	if got := trace(rec.events); got != "1:request:1\n2:request:2" {
		t.Errorf("SampleTools events:\n%s", got)
	}
	if got := rec.events[1].Message; got != "asking the model (attempt 2 of at most 3)" {
		t.Errorf("message %q", got)
	}

	// SampleStructured, out of attempts: one event per attempt.
	s = &script{t: t, caps: withTools, turns: []turn{answer("endTurn", text("a")), answer("endTurn", text("b"))}}
	rec = recorder{}
	_, err := sampling.SampleStructured[cityInput](rec.ctx(t.Context()), s, prompt("A city?"),
		&sampling.StructuredOptions{RetryOptions: sampling.RetryOptions{Capabilities: withTools, Retries: 1}})
	var rerr *sampling.RetryError
	if !errors.As(err, &rerr) {
		t.Fatalf("error %v", err)
	}
	if got := trace(rec.events); got != "1:request:1\n2:request:2" {
		t.Errorf("SampleStructured events:\n%s", got)
	}
}

func TestProgressFromContext(t *testing.T) {
	if sampling.ProgressFromContext(t.Context()) != nil {
		t.Error("a sink in a context without one")
	}
	var rec recorder
	ctx := rec.ctx(t.Context())
	f := sampling.ProgressFromContext(ctx)
	if f == nil {
		t.Fatal("no sink")
	}
	// A replaying layer that reported attempt 1 before passes on only what follows.
	ctx = sampling.WithProgress(ctx, func(ctx context.Context, p sampling.Progress) {
		if p.Progress > 1 {
			f(ctx, p)
		}
	})
	s := &script{t: t, caps: withTools, turns: []turn{
		answer("endTurn", text("No tool.")),
		answer("toolUse", use("t1", "play_defensive", `{"threat":"row 1"}`)),
	}}
	p := prompt("Choose.")
	p.Tools = strategyTools()
	if _, err := sampling.SampleTools(ctx, s, p, &sampling.RetryOptions{Capabilities: withTools}); err != nil {
		t.Fatal(err)
	}
	if got := trace(rec.events); got != "2:request:2" {
		t.Errorf("events:\n%s", got)
	}
}
