package sampling

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	googleschema "github.com/google/jsonschema-go/jsonschema"
	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
)

// A ToolHandler runs one tool use of the model. The input has been validated against the tool's
// input schema. An error, or a result with IsError set, is reported to the model as a tool result
// with isError: true (the error's text is what the model reads); it does not stop the loop. A
// handler should return when ctx is done. [CallFromContext] tells which tool use it runs.
type ToolHandler func(ctx context.Context, use *mcp.ToolUseContent) (*mcp.CallToolResult, error)

// A Tool is a tool the loop offers the model: its definition, sent in every sampling request,
// and the handler that runs the model's tool uses. Make one with [NewTool] or [NewTypedTool].
type Tool struct {
	def     mcp.Tool
	schema  *schema
	output  *schema // nil: the tool has no output schema
	handler ToolHandler
}

// NewTool returns a tool with the given definition and handler. The definition must be valid
// (mcp.Tool.Validate) and its input schema must compile: the loop validates every tool input
// against it before calling the handler.
//
// When the definition has an output schema (it must compile too), the loop validates the
// structuredContent of every result of the handler that is not an error (isError unset or
// false) against it before the model sees it, as the spec says clients should: a result without
// structuredContent, or whose structuredContent the schema rejects, reaches the model as a tool
// result with isError: true that says why, with the JSON pointer of each problem
// ("tool "get_weather" returned structuredContent that its output schema rejects: /celsius: got
// string, want number"), instead of the invalid value. Error results are not validated.
func NewTool(def mcp.Tool, handler ToolHandler) (*Tool, error) {
	if handler == nil {
		return nil, fmt.Errorf("tool %q: nil handler", def.Name)
	}
	if def.Name == "" {
		return nil, errors.New("tool without a name")
	}
	if err := def.Validate(); err != nil {
		return nil, fmt.Errorf("tool %q: %w", def.Name, err)
	}
	s, err := compileToolSchema(&def.InputSchema)
	if err != nil {
		return nil, fmt.Errorf("tool %q: input schema: %w", def.Name, err)
	}
	t := &Tool{def: def, schema: s, handler: handler}
	if def.OutputSchema != nil {
		if t.output, err = compileToolSchema(def.OutputSchema); err != nil {
			return nil, fmt.Errorf("tool %q: output schema: %w", def.Name, err)
		}
	}
	return t, nil
}

// NewTypedTool returns a tool whose input is the Go type In and whose handler is fn. The input
// schema is derived from In (see [InputSchemaFor]; opts may be nil), each tool input is validated
// against it and decoded into an In. fn's result becomes the tool result: a *mcp.CallToolResult
// is taken as it is; a string is its text; any other value is encoded as JSON, which is the text
// and, when it is a JSON object, the structured content as well.
//
// When Out is a type whose values are JSON objects (a struct, a map with string keys, or a
// pointer to one), the tool's output schema is derived from Out as the input schema is from In
// (see [OutputSchemaFor]), and the structured content of each result is validated against it
// (see [NewTool]); a nil pointer is then a result without structured content, which the model
// gets as an error. For other types (string, numbers, slices, interfaces, *mcp.CallToolResult,
// types with their own MarshalJSON) the tool has no output schema. A field whose type encodes
// itself unlike its Go fields needs its schema in opts.TypeSchemas, or its values are refused.
func NewTypedTool[In, Out any](name, description string, opts *googleschema.ForOptions, fn func(ctx context.Context, in In) (Out, error)) (*Tool, error) {
	in, err := InputSchemaFor[In](opts)
	if err != nil {
		return nil, fmt.Errorf("tool %q: %w", name, err)
	}
	def := mcp.Tool{Name: name, InputSchema: in}
	if objectType(reflect.TypeFor[Out]()) {
		out, err := OutputSchemaFor[Out](opts)
		if err != nil {
			return nil, fmt.Errorf("tool %q: %w", name, err)
		}
		def.OutputSchema = &out
	}
	if description != "" {
		def.Description = &description
	}
	return NewTool(def, func(ctx context.Context, use *mcp.ToolUseContent) (*mcp.CallToolResult, error) {
		var v In
		if err := mcp.DecodeObject(use.Input, &v); err != nil {
			return nil, fmt.Errorf("decoding the input: %w", err)
		}
		out, err := fn(ctx, v)
		if err != nil {
			return nil, err
		}
		return valueResult(out)
	})
}

// Definition returns the tool's definition, as the loop sends it.
func (t *Tool) Definition() mcp.Tool { return t.def }

// Name returns the tool's name.
func (t *Tool) Name() string { return t.def.Name }

// TextResult returns a tool result holding one text block.
func TextResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.ContentBlock{&mcp.TextContent{Text: text}}}
}

// ErrorResult returns a tool result with isError: true holding one text block.
func ErrorResult(text string) *mcp.CallToolResult {
	r := TextResult(text)
	r.IsError = ptr(true)
	return r
}

// valueResult turns a typed tool's output into a tool result.
func valueResult(out any) (*mcp.CallToolResult, error) {
	switch out := out.(type) {
	case string:
		return TextResult(out), nil
	case *mcp.CallToolResult:
		return out, nil
	}
	data, err := json.Marshal(out)
	if err != nil {
		return nil, fmt.Errorf("encoding the result: %w", err)
	}
	r := TextResult(string(data))
	if obj, err := mcp.EncodeObject(out); err == nil {
		r.StructuredContent = obj
	}
	return r, nil
}

// Call describes the tool use a [ToolHandler] runs; [CallFromContext] returns it.
type Call struct {
	// ID is the id of the tool use, Name the tool's name.
	ID, Name string
	// Iteration is the number of the sampling request whose answer asked for the tool use,
	// from 1.
	Iteration int
	// IdempotencyKey is the same whenever this tool use is run: in a replayed retry of the
	// multi round-trip flow (package mrtr) as in the first run. A tool with side effects that
	// must happen at most once records it where the effect happens, or passes it on (as an
	// Idempotency-Key header, say), and does nothing when it sees it again. It is derived
	// from the conversation's id and the tool use's id, tool name and input (compared as JSON,
	// whatever the order of the members), and unique in practice.
	IdempotencyKey string
}

type callKey struct{}

// CallFromContext returns the tool use that the handler given ctx runs.
func CallFromContext(ctx context.Context) (Call, bool) {
	c, ok := ctx.Value(callKey{}).(Call)
	return c, ok
}

// run runs the handler on a tool use whose input is valid, and returns the tool result. A
// panic of the handler is a failed tool use, not a crash.
func (t *Tool) run(ctx context.Context, call Call, use *mcp.ToolUseContent) (block *mcp.ToolResultContent) {
	defer func() {
		if p := recover(); p != nil {
			block = toolError(use.ID, fmt.Sprintf("tool %q failed: it panicked: %v", t.def.Name, p))
		}
	}()
	res, err := t.handler(context.WithValue(ctx, callKey{}, call), use)
	if err != nil {
		return toolError(use.ID, fmt.Sprintf("tool %q failed: %v", t.def.Name, err))
	}
	if res == nil {
		res = &mcp.CallToolResult{}
	}
	block = &mcp.ToolResultContent{
		ToolUseID:         use.ID,
		Content:           res.Content,
		StructuredContent: res.StructuredContent,
		IsError:           res.IsError,
		Meta:              res.Meta,
	}
	if block.Content == nil {
		block.Content = []mcp.ContentBlock{}
	}
	if err := block.Validate(); err != nil {
		return toolError(use.ID, fmt.Sprintf("tool %q returned an invalid result: %v", t.def.Name, err))
	}
	if t.output != nil && !(block.IsError != nil && *block.IsError) {
		if block.StructuredContent == nil {
			return toolError(use.ID, fmt.Sprintf("tool %q returned no structuredContent, which its output schema requires", t.def.Name))
		}
		if err := t.output.validate(block.StructuredContent); err != nil {
			return toolError(use.ID, fmt.Sprintf("tool %q returned structuredContent that its output schema rejects: %v", t.def.Name, err))
		}
	}
	return block
}

// toolError is a tool result with isError: true and a message for the model.
func toolError(id, message string) *mcp.ToolResultContent {
	return &mcp.ToolResultContent{
		ToolUseID: id,
		Content:   []mcp.ContentBlock{&mcp.TextContent{Text: message}},
		IsError:   ptr(true),
	}
}

func ptr[T any](v T) *T { return &v }
