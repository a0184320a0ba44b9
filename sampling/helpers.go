package sampling

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	googleschema "github.com/google/jsonschema-go/jsonschema"
	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
)

// DefaultRetries is the number of retries of the guaranteed helpers: three attempts in all.
const DefaultRetries = 2

// ErrSchemaAndTools is the error of [SampleStructured] given params that hold tools or a
// toolChoice: structured output is one forced tool of the helper's own, so asking for a schema and
// for tools at once is contradictory.
var ErrSchemaAndTools = errors.New("sampling: structured output and tools are mutually exclusive: params must hold no tools and no toolChoice")

// A RetryError is the error of a guaranteed helper whose attempts all failed.
type RetryError struct {
	// Helper is "SampleTools" or "SampleStructured".
	Helper string
	// Attempts counts the sampling requests made.
	Attempts int
	// Last is the model's last answer, which was refused too.
	Last *mcp.CreateMessageResult
	// Err says why Last was refused (it is also what the model was told).
	Err error
	// Messages is the conversation: the initial messages, then each refused answer followed by
	// the correction sent back.
	Messages []mcp.SamplingMessage
}

func (e *RetryError) Error() string {
	return fmt.Sprintf("sampling: %s: no valid answer in %d attempts; the last: %v", e.Helper, e.Attempts, e.Err)
}

func (e *RetryError) Unwrap() error { return e.Err }

// RetryOptions configure the guaranteed helpers. The zero value is the default.
type RetryOptions struct {
	// Retries is the number of requests after the first; 0 means DefaultRetries, a negative
	// number none.
	Retries int
	// Capabilities are the client's capabilities; nil means those of the Sampler (see
	// [Loop.Capabilities]).
	Capabilities *mcp.ClientCapabilities
}

func (o *RetryOptions) attempts() int {
	switch {
	case o == nil || o.Retries == 0:
		return 1 + DefaultRetries
	case o.Retries < 0:
		return 1
	}
	return 1 + o.Retries
}

// ToolCalls is the answer of [SampleTools].
type ToolCalls struct {
	// Calls are the tool uses of the answer: at least one, each naming a tool of the request
	// with an input that the tool's input schema accepts.
	Calls []*mcp.ToolUseContent
	// Result is the model's answer.
	Result *mcp.CreateMessageResult
	// Messages is the conversation ending with the answer: the initial messages, each refused
	// answer with its correction, and the answer. Its last message's tool uses are not
	// answered yet: run them and append their results to continue the conversation.
	Messages []mcp.SamplingMessage
	// Attempts counts the sampling requests made.
	Attempts int
}

// SampleTools asks the model for at least one tool call. params must hold tools; unless it sets
// toolChoice, the requests carry toolChoice {mode: "required"}. An answer is accepted when it has
// at least one tool use and every tool use names a tool of params.Tools with an input that the
// tool's input schema accepts (checked by a JSON Schema validator). Otherwise the helper tells the
// model what was wrong — a user message saying it must call a tool, or a tool result with isError:
// true for each tool use — and asks again, up to the retries of opts. The tools are not run.
//
// Each attempt is reported to the progress sink of ctx (see [WithProgress]) as a
// [ProgressRequest] event numbered by the attempt (1, 2, 3), without a conversation id. A caller
// that runs the helper again over answers it recorded (the multi round-trip flow, by replay)
// passes on only the attempts it has not reported before (see [ProgressFromContext]).
//
// Errors: *RetryError when every attempt was refused; *CapabilityError (the client lacks
// sampling.tools), ErrUnknownCapabilities, *RequestError, *ResultError (an answer that breaks the
// protocol's rules is not retried), *SamplerError, or the context's error.
func SampleTools(ctx context.Context, s Sampler, params *mcp.CreateMessageRequestParams, opts *RetryOptions) (*ToolCalls, error) {
	if params == nil || len(params.Tools) == 0 {
		return nil, &RequestError{Err: errors.New("/tools: SampleTools needs at least one tool")}
	}
	if params.ToolChoice != nil && params.ToolChoice.Mode != nil && *params.ToolChoice.Mode == mcp.ToolChoiceModeNone {
		return nil, &RequestError{Err: errors.New(`/toolChoice/mode: "none" forbids the tool call that SampleTools asks for`)}
	}
	tools := map[string]*schema{}
	var names []string
	for i := range params.Tools {
		t := &params.Tools[i]
		sch, err := compileToolSchema(&t.InputSchema)
		if err != nil {
			return nil, &RequestError{Err: fmt.Errorf("/tools/%d/inputSchema: %w", i, err)}
		}
		tools[t.Name] = sch
		names = append(names, t.Name)
	}
	slices.Sort(names)
	p := *params
	if p.ToolChoice == nil {
		p.ToolChoice = &mcp.ToolChoice{Mode: ptr(mcp.ToolChoiceModeRequired)}
	}
	judge := func(res *mcp.CreateMessageResult) (any, *mcp.SamplingMessage, error) {
		uses := toolUses(&res.Content)
		if len(uses) == 0 {
			return nil, userText(fmt.Sprintf("You must call at least one of the tools (%s). Answer with a tool call.",
				strings.Join(names, ", "))), errors.New("the answer calls no tool")
		}
		problems := make([]string, len(uses))
		var all []string
		for i, u := range uses {
			sch := tools[u.Name]
			switch {
			case sch == nil:
				problems[i] = fmt.Sprintf("unknown tool %q: the tools are %s", u.Name, strings.Join(names, ", "))
			default:
				if err := sch.validate(u.Input); err != nil {
					problems[i] = fmt.Sprintf("invalid input for tool %q: %v", u.Name, err)
				}
			}
			if problems[i] != "" {
				all = append(all, problems[i])
			}
		}
		if len(all) == 0 {
			return uses, nil, nil
		}
		for i := range problems {
			if problems[i] == "" {
				problems[i] = "not run: another tool call of this answer was invalid; call the tools again, each with a valid input"
			}
		}
		return nil, toolErrors(uses, problems), errors.New(strings.Join(all, "; "))
	}
	r, err := retry(ctx, "SampleTools", s, &p, opts, judge)
	if err != nil {
		return nil, err
	}
	return &ToolCalls{Calls: r.value.([]*mcp.ToolUseContent), Result: r.result, Messages: r.messages, Attempts: r.attempts}, nil
}

// StructuredOptions configure [SampleStructured]. The zero value is the default.
type StructuredOptions struct {
	RetryOptions
	// ToolName and ToolDescription define the tool through which the model answers; defaults
	// "answer" and a description asking for the answer as the tool's input.
	ToolName, ToolDescription string
	// Schema configures how the schema is derived from the Go type (enums, say: see
	// [SchemaFor]); nil means the defaults.
	Schema *googleschema.ForOptions
}

// Structured is the answer of [SampleStructured].
type Structured[T any] struct {
	// Value is the answer, decoded from an input that the schema of T accepts.
	Value T
	// Result is the model's answer; Call is its tool use that holds Value.
	Result *mcp.CreateMessageResult
	Call   *mcp.ToolUseContent
	// Messages is the conversation ending with the answer (as in [ToolCalls]).
	Messages []mcp.SamplingMessage
	// Attempts counts the sampling requests made.
	Attempts int
}

// SampleStructured asks the model for a value of the Go type T. The request offers one tool whose
// input schema is derived from T (see [SchemaFor]; a T that is not a struct is wrapped as the
// property "value" of an object, since a tool's input is an object) and forces its use
// (toolChoice {mode: "required"}, the only tool). The answer's first tool use of that tool whose
// input the schema accepts (checked by a JSON Schema validator) and that decodes into a T is the
// value. Otherwise the helper tells the model what was wrong, the validator's findings included,
// and asks again, up to the retries of opts.
//
// params must not hold tools or a toolChoice: ErrSchemaAndTools. The other errors, and the
// progress events, are those of [SampleTools].
func SampleStructured[T any](ctx context.Context, s Sampler, params *mcp.CreateMessageRequestParams, opts *StructuredOptions) (*Structured[T], error) {
	if params == nil {
		return nil, &RequestError{Err: errors.New("nil params")}
	}
	if params.Tools != nil || params.ToolChoice != nil {
		return nil, ErrSchemaAndTools
	}
	if opts == nil {
		opts = &StructuredOptions{}
	}
	name := cmp.Or(opts.ToolName, "answer")
	description := cmp.Or(opts.ToolDescription, "Give your answer: call this tool with the answer as its input, which must match the input schema.")
	in, wrapped, err := structuredSchema[T](opts.Schema)
	if err != nil {
		return nil, &RequestError{Err: err}
	}
	sch, err := compileToolSchema(&in)
	if err != nil {
		return nil, &RequestError{Err: fmt.Errorf("the schema of %s: %w", reflect.TypeFor[T](), err)}
	}
	p := *params
	p.Tools = []mcp.Tool{{Name: name, Description: &description, InputSchema: in}}
	p.ToolChoice = &mcp.ToolChoice{Mode: ptr(mcp.ToolChoiceModeRequired)}
	type answer struct {
		value T
		call  *mcp.ToolUseContent
	}
	judge := func(res *mcp.CreateMessageResult) (any, *mcp.SamplingMessage, error) {
		uses := toolUses(&res.Content)
		if len(uses) == 0 {
			return nil, userText(fmt.Sprintf("You must answer by calling the tool %q with your answer as its input, matching its input schema.",
				name)), fmt.Errorf("the answer does not call the tool %q", name)
		}
		problems := make([]string, len(uses))
		for i, u := range uses {
			if u.Name != name {
				problems[i] = fmt.Sprintf("unknown tool %q: answer with the tool %q", u.Name, name)
				continue
			}
			if err := sch.validate(u.Input); err != nil {
				problems[i] = fmt.Sprintf("invalid input for tool %q: %v", name, err)
				continue
			}
			var v T
			if err := decodeStructured(u.Input, wrapped, &v); err != nil {
				problems[i] = fmt.Sprintf("the input of tool %q does not decode: %v", name, err)
				continue
			}
			return answer{v, u}, nil, nil
		}
		return nil, toolErrors(uses, problems), errors.New(strings.Join(problems, "; "))
	}
	r, err := retry(ctx, "SampleStructured", s, &p, &opts.RetryOptions, judge)
	if err != nil {
		return nil, err
	}
	a := r.value.(answer)
	return &Structured[T]{Value: a.value, Call: a.call, Result: r.result, Messages: r.messages, Attempts: r.attempts}, nil
}

// structuredSchema derives the input schema of the structured-output tool for T, and tells
// whether T is wrapped as the property "value".
func structuredSchema[T any](opts *googleschema.ForOptions) (mcp.ToolInputSchema, bool, error) {
	t := reflect.TypeFor[T]()
	s, err := SchemaFor[T](opts)
	if err != nil {
		return mcp.ToolInputSchema{}, false, err
	}
	if isObjectSchema(s) {
		in, err := toInputSchema(s, t)
		return in, false, err
	}
	value, err := json.Marshal(s)
	if err != nil {
		return mcp.ToolInputSchema{}, false, err
	}
	in := mcp.ToolInputSchema{
		Type:       "object",
		Properties: map[string]map[string]json.RawMessage{},
		Required:   []string{"value"},
		Extra:      map[string]json.RawMessage{"additionalProperties": json.RawMessage("false")},
	}
	var prop map[string]json.RawMessage
	if err := json.Unmarshal(value, &prop); err != nil {
		return mcp.ToolInputSchema{}, false, fmt.Errorf("the schema of %s: %w", t, err)
	}
	in.Properties["value"] = prop
	return in, true, nil
}

func decodeStructured(input map[string]json.RawMessage, wrapped bool, v any) error {
	if wrapped {
		return json.Unmarshal(input["value"], v)
	}
	return mcp.DecodeObject(input, v)
}

// retried is what retry accepted.
type retried struct {
	value    any
	result   *mcp.CreateMessageResult
	messages []mcp.SamplingMessage
	attempts int
}

// retry samples until judge accepts an answer or the attempts run out. judge returns the value it
// made of an accepted answer, or why it refused it and the message that tells the model.
func retry(ctx context.Context, helper string, s Sampler, p *mcp.CreateMessageRequestParams, opts *RetryOptions,
	judge func(*mcp.CreateMessageResult) (any, *mcp.SamplingMessage, error)) (*retried, error) {
	var given *mcp.ClientCapabilities
	if opts != nil {
		given = opts.Capabilities
	}
	caps, err := capabilitiesOf(given, s)
	if err != nil {
		return nil, err
	}
	if err := p.CheckCapabilities(caps); err != nil {
		return nil, &CapabilityError{Required: required(p), Err: err}
	}
	messages := slices.Clone(p.Messages)
	seen := map[string]int{}
	for i := range messages {
		for _, u := range toolUses(&messages[i].Content) {
			seen[u.ID] = i
		}
	}
	attempts := opts.attempts()
	var last *mcp.CreateMessageResult
	var lastErr error
	for n := 1; n <= attempts; n++ {
		req := *p
		req.Messages = slices.Clone(messages)
		if err := req.Validate(); err != nil {
			return nil, &RequestError{Err: err}
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if f := ProgressFromContext(ctx); f != nil {
			f(ctx, Progress{Kind: ProgressRequest, Progress: float64(n), Iteration: n,
				Message: fmt.Sprintf("asking the model (attempt %d of at most %d)", n, attempts)})
		}
		res, err := s.CreateMessage(ctx, &req)
		if err != nil {
			if cerr := ctx.Err(); cerr != nil {
				return nil, fmt.Errorf("sampling: %w (the sampler: %w)", cerr, err)
			}
			return nil, &SamplerError{Err: err}
		}
		if err := checkAnswer(res, seen); err != nil {
			return nil, &ResultError{Result: res, Err: err}
		}
		i := len(messages)
		messages = append(messages, mcp.SamplingMessage{Role: mcp.RoleAssistant, Content: res.Content})
		for _, u := range toolUses(&res.Content) {
			seen[u.ID] = i
		}
		value, reply, problem := judge(res)
		if problem == nil {
			return &retried{value: value, result: res, messages: messages, attempts: n}, nil
		}
		last, lastErr = res, problem
		messages = append(messages, *reply)
	}
	return nil, &RetryError{Helper: helper, Attempts: attempts, Last: last, Err: lastErr, Messages: messages}
}

// checkAnswer refuses an answer that breaks the rules, as Conversation.Accept does.
func checkAnswer(res *mcp.CreateMessageResult, seen map[string]int) error {
	c := Conversation{seen: seen}
	return c.check(res)
}

// userText is a user message of one text block.
func userText(text string) *mcp.SamplingMessage {
	return &mcp.SamplingMessage{Role: mcp.RoleUser, Content: mcp.NewSamplingMessageContent(&mcp.TextContent{Text: text})}
}

// toolErrors is a user message answering each tool use with a tool result with isError: true.
func toolErrors(uses []*mcp.ToolUseContent, messages []string) *mcp.SamplingMessage {
	blocks := make([]mcp.SamplingMessageContentBlock, len(uses))
	for i, u := range uses {
		blocks[i] = toolError(u.ID, messages[i])
	}
	return &mcp.SamplingMessage{Role: mcp.RoleUser, Content: mcp.NewSamplingMessageContentList(blocks...)}
}
