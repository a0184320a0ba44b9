package sampling_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
	"github.com/mcpgen/mcpgen/sampling"
)

// strategyTools are the seed's decision tools.
func strategyTools() []mcp.Tool {
	return []mcp.Tool{
		{Name: "play_offensive", InputSchema: mcp.ToolInputSchema{Type: "object", Required: []string{"reasoning"},
			Properties: map[string]map[string]json.RawMessage{"reasoning": {"type": json.RawMessage(`"string"`)}}}},
		{Name: "play_defensive", InputSchema: mcp.ToolInputSchema{Type: "object", Required: []string{"threat"},
			Properties: map[string]map[string]json.RawMessage{"threat": {"type": json.RawMessage(`"string"`)}}}},
	}
}

func TestSampleToolsRetriesUntilValid(t *testing.T) {
	s := &script{t: t, caps: withTools, turns: []turn{
		answer("endTurn", text("I think offense is best.")),                                                                 // no tool call
		answer("toolUse", use("t1", "play_offensive", `{"reason":"x"}`), use("t2", "play_defensive", `{"threat":"row 1"}`)), // one invalid call
		answer("toolUse", use("t3", "play_defensive", `{"threat":"the diagonal"}`)),
	}}
	p := prompt("Board: ... Choose your strategy.")
	p.Tools = strategyTools()
	got, err := sampling.SampleTools(t.Context(), s, p, &sampling.RetryOptions{Capabilities: withTools})
	if err != nil {
		t.Fatal(err)
	}
	if got.Attempts != 3 || len(got.Calls) != 1 || got.Calls[0].ID != "t3" || got.Calls[0].Name != "play_defensive" {
		t.Fatalf("attempts %d, calls %+v", got.Attempts, got.Calls)
	}
	reqs := s.Requests()
	for i, req := range reqs {
		if req.ToolChoice == nil || *req.ToolChoice.Mode != mcp.ToolChoiceModeRequired {
			t.Errorf("request %d: toolChoice %+v, want required", i, req.ToolChoice)
		}
	}
	// The corrections the model read.
	if m := reqs[1].Messages; len(m) != 3 || m[2].Role != mcp.RoleUser ||
		m[2].Content.List[0].(*mcp.TextContent).Text != "You must call at least one of the tools (play_defensive, play_offensive). Answer with a tool call." {
		t.Errorf("first correction: %+v", m[len(m)-1])
	}
	results := toolResults(t, reqs[2])
	if r := results["t1"]; !isError(r) || resultText(r) != `invalid input for tool "play_offensive": (root): missing property 'reasoning'` {
		t.Errorf("t1: %q", resultText(r))
	}
	if r := results["t2"]; !isError(r) || !strings.HasPrefix(resultText(r), "not run: another tool call of this answer was invalid") {
		t.Errorf("t2: %q", resultText(r))
	}
	if n := len(got.Messages); n != 6 || got.Messages[5].Role != mcp.RoleAssistant {
		t.Errorf("conversation of %d messages", n)
	}
}

func TestSampleToolsExhausted(t *testing.T) {
	s := &script{t: t, caps: withTools, turns: []turn{
		answer("endTurn", text("no")), answer("endTurn", text("no")), answer("toolUse", use("x", "resign", `{}`)),
	}}
	p := prompt("Choose.")
	p.Tools = strategyTools()
	_, err := sampling.SampleTools(t.Context(), s, p, &sampling.RetryOptions{Capabilities: withTools})
	var rerr *sampling.RetryError
	if !errors.As(err, &rerr) {
		t.Fatalf("error %v, want a RetryError", err)
	}
	if rerr.Helper != "SampleTools" || rerr.Attempts != 3 || rerr.Last == nil || rerr.Last.Content.List[0].(*mcp.ToolUseContent).Name != "resign" {
		t.Errorf("%+v", rerr)
	}
	if !strings.Contains(err.Error(), `no valid answer in 3 attempts; the last: unknown tool "resign"`) {
		t.Errorf("error %q", err)
	}
	if len(rerr.Messages) != 7 || len(s.Requests()) != 3 {
		t.Errorf("%d messages, %d requests", len(rerr.Messages), len(s.Requests()))
	}
	// Retries: -1 is one attempt.
	s = &script{t: t, caps: withTools, turns: []turn{answer("endTurn", text("no"))}}
	_, err = sampling.SampleTools(t.Context(), s, p, &sampling.RetryOptions{Retries: -1, Capabilities: withTools})
	if !errors.As(err, &rerr) || rerr.Attempts != 1 {
		t.Errorf("Retries -1: %v", err)
	}
}

func TestSampleToolsRefusals(t *testing.T) {
	p := prompt("Choose.")
	if _, err := sampling.SampleTools(t.Context(), &script{t: t}, p, &sampling.RetryOptions{Capabilities: withTools}); err == nil || !strings.Contains(err.Error(), "needs at least one tool") {
		t.Errorf("no tools: %v", err)
	}
	p.Tools = strategyTools()
	noTools := &mcp.ClientCapabilities{Sampling: &mcp.ClientCapabilitiesSampling{}}
	var cerr *sampling.CapabilityError
	if _, err := sampling.SampleTools(t.Context(), &script{t: t}, p, &sampling.RetryOptions{Capabilities: noTools}); !errors.As(err, &cerr) {
		t.Errorf("client without sampling.tools: %v", err)
	}
	p.ToolChoice = &mcp.ToolChoice{Mode: ptr(mcp.ToolChoiceModeNone)}
	if _, err := sampling.SampleTools(t.Context(), &script{t: t}, p, &sampling.RetryOptions{Capabilities: withTools}); err == nil {
		t.Error("toolChoice none accepted")
	}
}

// The structured output of the tests: nested types and enums.
type Suit string

type Card struct {
	Rank int  `json:"rank" jsonschema:"2 to 14, ace high"`
	Suit Suit `json:"suit"`
}

type Move struct {
	Player string  `json:"player"`
	Play   []Card  `json:"play"`
	Pass   bool    `json:"pass,omitempty"`
	Table  *Table  `json:"table,omitempty"`
	Score  float64 `json:"score"`
}

type Table struct {
	Seats int    `json:"seats"`
	Mode  string `json:"mode"`
}

var suits = &jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
	reflect.TypeFor[Suit](): {Type: "string", Enum: []any{"clubs", "diamonds", "hearts", "spades"}},
}}

func TestSchemaFromGoType(t *testing.T) {
	in, err := sampling.InputSchemaFor[Move](suits)
	if err != nil {
		t.Fatal(err)
	}
	got, err := mcp.Marshal(&in)
	if err != nil {
		t.Fatal(err)
	}
	// What jsonschema-go derives: required fields, no other properties, nested objects, the
	// enum of Suit, the field's description, a pointer that may be null.
	want := `{"type":"object","properties":{
		"pass":{"type":"boolean"},
		"play":{"type":["null","array"],"items":{"type":"object","properties":{
			"rank":{"type":"integer","description":"2 to 14, ace high"},
			"suit":{"type":"string","enum":["clubs","diamonds","hearts","spades"]}},
			"required":["rank","suit"],"additionalProperties":false}},
		"player":{"type":"string"},
		"score":{"type":"number"},
		"table":{"type":["null","object"],"properties":{"mode":{"type":"string"},"seats":{"type":"integer"}},
			"required":["seats","mode"],"additionalProperties":false}},
		"required":["player","play","score"],"additionalProperties":false}`
	if !jsonEqual(t, got, []byte(want)) {
		t.Errorf("schema\n%s\nwant\n%s", got, want)
	}
	if _, err := sampling.InputSchemaFor[[]Card](nil); err == nil {
		t.Error("an array schema accepted as a tool's input schema")
	}
}

func TestSampleStructuredRetriesUntilValid(t *testing.T) {
	s := &script{t: t, caps: withTools, turns: []turn{
		answer("endTurn", text(`{"player":"me"}`)), // text, not the tool
		answer("toolUse", use("m1", "answer", `{"player":"me","play":[{"rank":12,"suit":"stars"}],"score":1}`)),
		answer("toolUse", use("m2", "answer", `{"player":"me","play":[{"rank":12,"suit":"hearts"}],"score":1.5,"table":{"seats":4,"mode":"ranked"}}`)),
	}}
	got, err := sampling.SampleStructured[Move](t.Context(), s, prompt("Your move."), &sampling.StructuredOptions{
		RetryOptions: sampling.RetryOptions{Capabilities: withTools}, Schema: suits})
	if err != nil {
		t.Fatal(err)
	}
	want := Move{Player: "me", Play: []Card{{12, "hearts"}}, Score: 1.5, Table: &Table{Seats: 4, Mode: "ranked"}}
	if !reflect.DeepEqual(got.Value, want) || got.Attempts != 3 || got.Call.ID != "m2" {
		t.Errorf("value %+v after %d attempts, want %+v", got.Value, got.Attempts, want)
	}
	reqs := s.Requests()
	for i, req := range reqs {
		if len(req.Tools) != 1 || req.Tools[0].Name != "answer" || req.ToolChoice == nil || *req.ToolChoice.Mode != mcp.ToolChoiceModeRequired {
			t.Errorf("request %d: tools %v, toolChoice %+v", i, req.Tools, req.ToolChoice)
		}
	}
	// The validator's finding is the feedback.
	r := toolResults(t, reqs[2])["m1"]
	if !isError(r) || !strings.Contains(resultText(r), `/play/0/suit: value must be one of 'clubs', 'diamonds', 'hearts', 'spades'`) {
		t.Errorf("feedback %q", resultText(r))
	}
	if last := reqs[1].Messages[2]; last.Content.List[0].(*mcp.TextContent).Text != `You must answer by calling the tool "answer" with your answer as its input, matching its input schema.` {
		t.Errorf("correction %+v", last)
	}
}

func TestSampleStructuredScalar(t *testing.T) {
	// A []string is not an object: it is the property "value" of the tool's input.
	s := &script{t: t, caps: withTools, turns: []turn{
		answer("toolUse", use("a", "answer", `{"value":["x",1]}`)),
		answer("toolUse", use("b", "answer", `{"value":["Paris","London"]}`)),
	}}
	got, err := sampling.SampleStructured[[]string](t.Context(), s, prompt("Two capitals."), &sampling.StructuredOptions{
		RetryOptions: sampling.RetryOptions{Capabilities: withTools}})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got.Value, ",") != "Paris,London" || got.Attempts != 2 {
		t.Errorf("%v after %d", got.Value, got.Attempts)
	}
	if r := toolResults(t, s.Requests()[1])["a"]; !strings.Contains(resultText(r), "/value/1: got number, want string") {
		t.Errorf("feedback %q", resultText(r))
	}
}

func TestSampleStructuredExhausted(t *testing.T) {
	s := &script{t: t, caps: withTools, turns: []turn{
		answer("toolUse", use("m1", "answer", `{"player":"me"}`)),
		answer("toolUse", use("m2", "answer", `{"player":"me"}`)),
		answer("toolUse", use("m3", "answer", `{"player":"me"}`)),
	}}
	_, err := sampling.SampleStructured[Move](t.Context(), s, prompt("Your move."), &sampling.StructuredOptions{
		RetryOptions: sampling.RetryOptions{Capabilities: withTools}, Schema: suits})
	var rerr *sampling.RetryError
	if !errors.As(err, &rerr) || rerr.Helper != "SampleStructured" || rerr.Attempts != 3 || rerr.Last == nil {
		t.Fatalf("error %v", err)
	}
	if !strings.Contains(rerr.Err.Error(), "missing properties 'play', 'score'") {
		t.Errorf("last problem %v", rerr.Err)
	}
}

func TestSampleStructuredMutuallyExclusive(t *testing.T) {
	p := prompt("x")
	p.Tools = strategyTools()
	s := &script{t: t, caps: withTools}
	if _, err := sampling.SampleStructured[Move](t.Context(), s, p, nil); !errors.Is(err, sampling.ErrSchemaAndTools) {
		t.Errorf("tools: %v", err)
	}
	p = prompt("x")
	p.ToolChoice = &mcp.ToolChoice{Mode: ptr(mcp.ToolChoiceModeAuto)}
	if _, err := sampling.SampleStructured[Move](t.Context(), s, p, nil); !errors.Is(err, sampling.ErrSchemaAndTools) {
		t.Errorf("toolChoice: %v", err)
	}
	if len(s.Requests()) != 0 {
		t.Error("a request was sent")
	}
}

func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatal(err)
	}
	return reflect.DeepEqual(x, y)
}

func ptr[T any](v T) *T { return &v }
