package sampling_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
	"github.com/mcpgen/mcpgen/sampling"
)

// weatherOutput is the output schema of the tests' weather tool, as a server author writes it.
const weatherOutput = `{
	"type": "object",
	"properties": {
		"celsius": {"type": "number", "minimum": -90, "maximum": 60},
		"conditions": {"type": "string", "enum": ["sunny", "cloudy", "rainy"]},
		"station": {"type": "object", "properties": {"id": {"type": "string", "pattern": "^[A-Z]{4}$"}}, "required": ["id"]}
	},
	"required": ["celsius", "conditions"],
	"additionalProperties": false
}`

// toolWithOutput is a tool with the given output schema (JSON) whose handler returns result.
func toolWithOutput(t *testing.T, output string, result func() (*mcp.CallToolResult, error)) (*sampling.Tool, error) {
	t.Helper()
	def := mcp.Tool{Name: "weather", InputSchema: mcp.ToolInputSchema{Type: "object"}}
	if output != "" {
		def.OutputSchema = &mcp.ToolOutputSchema{}
		if err := mcp.Unmarshal([]byte(output), def.OutputSchema); err != nil {
			t.Fatalf("the test's schema: %v", err)
		}
	}
	return sampling.NewTool(def, func(context.Context, *mcp.ToolUseContent) (*mcp.CallToolResult, error) { return result() })
}

// structured is a result with the given structured content (JSON) and a text block.
func structured(text, content string) *mcp.CallToolResult {
	r := sampling.TextResult(text)
	if content != "" {
		if err := json.Unmarshal([]byte(content), &r.StructuredContent); err != nil {
			panic(err)
		}
	}
	return r
}

// runTool runs one tool use of tool through the loop and returns the tool result the model gets
// (decoded from the wire by the script).
func runTool(t *testing.T, tool *sampling.Tool) *mcp.ToolResultContent {
	t.Helper()
	s := &script{t: t, caps: withTools, turns: []turn{
		answer("toolUse", use("w1", tool.Name(), `{}`)),
		answer("endTurn", text("ok")),
	}}
	loop := &sampling.Loop{Tools: []*sampling.Tool{tool}, Capabilities: withTools}
	if _, err := loop.Run(t.Context(), s, prompt("go")); err != nil {
		t.Fatal(err)
	}
	return toolResults(t, s.Requests()[1])["w1"]
}

func compact(raw map[string]json.RawMessage) string {
	data, err := json.Marshal(raw)
	if err != nil {
		return "!" + err.Error()
	}
	return string(data)
}

func TestOutputSchemaValidResultUnchanged(t *testing.T) {
	const content = `{"celsius":18.5,"conditions":"cloudy","station":{"id":"LFPG"}}`
	tool, err := toolWithOutput(t, weatherOutput, func() (*mcp.CallToolResult, error) {
		return structured("18.5°C, cloudy", content), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	got := runTool(t, tool)
	if isError(got) || resultText(got) != "18.5°C, cloudy" || compact(got.StructuredContent) != content {
		t.Errorf("result changed: error %v, text %q, structured %s", isError(got), resultText(got), compact(got.StructuredContent))
	}
	if tool.Definition().OutputSchema == nil {
		t.Error("the definition lost its output schema")
	}
}

func TestOutputSchemaInvalidResult(t *testing.T) {
	for _, tc := range []struct {
		name, content string
		want          []string // in the message the model reads
	}{
		{"wrong type", `{"celsius":"SECRET-warm","conditions":"sunny"}`, []string{"/celsius", "want number"}},
		{"out of range", `{"celsius":75,"conditions":"sunny"}`, []string{"/celsius", "60"}},
		{"not in the enum", `{"celsius":10,"conditions":"SECRET-foggy"}`, []string{"/conditions"}},
		{"missing required", `{"celsius":10}`, []string{"conditions"}},
		{"extra member", `{"celsius":10,"conditions":"sunny","SECRET":1}`, []string{"SECRET"}},
		{"nested", `{"celsius":10,"conditions":"sunny","station":{"id":"lfpg"}}`, []string{"/station/id"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tool, err := toolWithOutput(t, weatherOutput, func() (*mcp.CallToolResult, error) {
				return structured("the value: SECRET-text", tc.content), nil
			})
			if err != nil {
				t.Fatal(err)
			}
			got := runTool(t, tool)
			msg := resultText(got)
			if !isError(got) || got.StructuredContent != nil {
				t.Fatalf("the model got the invalid value: error %v, text %q, structured %s", isError(got), msg, compact(got.StructuredContent))
			}
			if !strings.HasPrefix(msg, `tool "weather" returned structuredContent that its output schema rejects: `) {
				t.Errorf("message %q", msg)
			}
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("message %q does not say %q", msg, w)
				}
			}
			// The handler's text, which holds the invalid value, does not reach the model.
			if strings.Contains(msg, "SECRET-text") {
				t.Errorf("message %q holds the handler's text", msg)
			}
		})
	}
}

func TestOutputSchemaMissingStructuredContent(t *testing.T) {
	tool, err := toolWithOutput(t, weatherOutput, func() (*mcp.CallToolResult, error) {
		return sampling.TextResult("18°C"), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	got := runTool(t, tool)
	if want := `tool "weather" returned no structuredContent, which its output schema requires`; !isError(got) || resultText(got) != want {
		t.Errorf("error %v, text %q, want %q", isError(got), resultText(got), want)
	}
}

func TestOutputSchemaErrorResultsNotValidated(t *testing.T) {
	// An error result needs no structured content, and keeps what it has.
	tool, err := toolWithOutput(t, weatherOutput, func() (*mcp.CallToolResult, error) {
		r := structured("the station is down", `{"code":503}`)
		r.IsError = new(true)
		return r, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	got := runTool(t, tool)
	if !isError(got) || resultText(got) != "the station is down" || compact(got.StructuredContent) != `{"code":503}` {
		t.Errorf("error %v, text %q, structured %s", isError(got), resultText(got), compact(got.StructuredContent))
	}
	// A handler's error is reported as before.
	failing, err := toolWithOutput(t, weatherOutput, func() (*mcp.CallToolResult, error) { return nil, errors.New("no network") })
	if err != nil {
		t.Fatal(err)
	}
	if got := runTool(t, failing); !isError(got) || resultText(got) != `tool "weather" failed: no network` {
		t.Errorf("error %v, text %q", isError(got), resultText(got))
	}
}

func TestOutputSchemaDraft7(t *testing.T) {
	// A schema that names its draft is read as that draft: in draft-07, "items" as an array is
	// a tuple.
	const draft7 = `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object",
		"properties":{"pair":{"type":"array","items":[{"type":"string"},{"type":"number"}]}}}`
	for content, ok := range map[string]bool{`{"pair":["a",1]}`: true, `{"pair":[1,"a"]}`: false} {
		tool, err := toolWithOutput(t, draft7, func() (*mcp.CallToolResult, error) { return structured("x", content), nil })
		if err != nil {
			t.Fatal(err)
		}
		if got := runTool(t, tool); isError(got) == ok {
			t.Errorf("%s: error %v (%s), want valid %v", content, isError(got), resultText(got), ok)
		}
	}
}

func TestOutputSchemaMustCompile(t *testing.T) {
	for name, output := range map[string]string{
		"unknown type":       `{"type":"object","properties":{"x":{"type":"nope"}}}`,
		"external reference": `{"type":"object","properties":{"x":{"$ref":"https://example.com/s.json"}}}`,
		"bad pattern":        `{"type":"object","properties":{"x":{"type":"string","pattern":"("}}}`,
	} {
		_, err := toolWithOutput(t, output, func() (*mcp.CallToolResult, error) { return nil, nil })
		if err == nil || !strings.Contains(err.Error(), `tool "weather": output schema: `) {
			t.Errorf("%s: error %v", name, err)
		}
	}
}

type reading struct {
	Celsius    float64  `json:"celsius"`
	Conditions string   `json:"conditions"`
	Alerts     []string `json:"alerts,omitempty"`
}

// selfEncoded encodes itself as something else than its fields say.
type selfEncoded struct{ N int }

func (s selfEncoded) MarshalJSON() ([]byte, error) {
	return []byte(`{"n":"` + strings.Repeat("x", s.N) + `"}`), nil
}

func TestTypedToolOutputSchema(t *testing.T) {
	tool, err := sampling.NewTypedTool("reading", "", nil, func(context.Context, struct{}) (reading, error) {
		return reading{Celsius: 18, Conditions: "cloudy"}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	out := tool.Definition().OutputSchema
	if out == nil {
		t.Fatal("no output schema derived from the result type")
	}
	if string(out.Properties["celsius"]["type"]) != `"number"` || strings.Join(out.Required, ",") != "celsius,conditions" {
		t.Errorf("output schema: properties %v, required %v", out.Properties, out.Required)
	}
	// The definition the model gets carries it, through the wire.
	s := &script{t: t, caps: withTools, turns: []turn{answer("toolUse", use("r", "reading", `{}`)), answer("endTurn", text("ok"))}}
	if _, err := (&sampling.Loop{Tools: []*sampling.Tool{tool}, Capabilities: withTools}).Run(t.Context(), s, prompt("go")); err != nil {
		t.Fatal(err)
	}
	sent := s.Requests()[0].Tools[0].OutputSchema
	if sent == nil || string(sent.Extra["additionalProperties"]) != "false" {
		t.Errorf("the request's tool has output schema %+v", sent)
	}
	// A valid value passes unchanged.
	got := toolResults(t, s.Requests()[1])["r"]
	if isError(got) || compact(got.StructuredContent) != `{"celsius":18,"conditions":"cloudy"}` || resultText(got) != `{"celsius":18,"conditions":"cloudy"}` {
		t.Errorf("error %v, text %q, structured %s", isError(got), resultText(got), compact(got.StructuredContent))
	}

	// A pointer result: the same schema; nil is a result without structured content.
	ptr, err := sampling.NewTypedTool("reading", "", nil, func(context.Context, struct{}) (*reading, error) { return nil, nil })
	if err != nil {
		t.Fatal(err)
	}
	if ptr.Definition().OutputSchema == nil || ptr.Definition().OutputSchema.Type != "object" {
		t.Errorf("pointer result: output schema %+v", ptr.Definition().OutputSchema)
	}
	if got := runTool(t, ptr); !isError(got) || !strings.Contains(resultText(got), "no structuredContent") {
		t.Errorf("nil pointer: error %v, text %q", isError(got), resultText(got))
	}

	// A map result.
	m, err := sampling.NewTypedTool("reading", "", nil, func(context.Context, struct{}) (map[string]int, error) {
		return map[string]int{"a": 1}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if m.Definition().OutputSchema == nil {
		t.Error("map result: no output schema")
	}
	if got := runTool(t, m); isError(got) || compact(got.StructuredContent) != `{"a":1}` {
		t.Errorf("map: error %v, text %q", isError(got), resultText(got))
	}
}

func TestTypedToolWithoutOutputSchema(t *testing.T) {
	check := func(name string, tool *sampling.Tool, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		if tool.Definition().OutputSchema != nil {
			t.Errorf("%s: output schema %+v", name, tool.Definition().OutputSchema)
		}
	}
	str, err := sampling.NewTypedTool("s", "", nil, func(context.Context, struct{}) (string, error) { return "x", nil })
	check("string", str, err)
	num, err := sampling.NewTypedTool("n", "", nil, func(context.Context, struct{}) (float64, error) { return 1, nil })
	check("number", num, err)
	list, err := sampling.NewTypedTool("l", "", nil, func(context.Context, struct{}) ([]reading, error) { return nil, nil })
	check("slice", list, err)
	raw, err := sampling.NewTypedTool("r", "", nil, func(context.Context, struct{}) (*mcp.CallToolResult, error) { return nil, nil })
	check("*CallToolResult", raw, err)
	anyOut, err := sampling.NewTypedTool("a", "", nil, func(context.Context, struct{}) (any, error) { return reading{}, nil })
	check("any", anyOut, err)
	self, err := sampling.NewTypedTool("e", "", nil, func(context.Context, struct{}) (selfEncoded, error) { return selfEncoded{3}, nil })
	check("json.Marshaler", self, err)
	// Its value reaches the model as it encodes itself.
	if got := runTool(t, self); isError(got) || compact(got.StructuredContent) != `{"n":"xxx"}` {
		t.Errorf("self-encoded: error %v, text %q", isError(got), resultText(got))
	}
}

func TestOutputSchemaFor(t *testing.T) {
	if _, err := sampling.OutputSchemaFor[[]int](nil); err == nil || !strings.Contains(err.Error(), "not an object schema") {
		t.Errorf("a slice: %v", err)
	}
	s, err := sampling.OutputSchemaFor[**reading](nil)
	if err != nil || s.Type != "object" {
		t.Errorf("a pointer: %+v, %v", s, err)
	}
}
