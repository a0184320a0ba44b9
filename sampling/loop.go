package sampling

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
)

// Defaults of a [Loop].
const (
	DefaultMaxIterations = 10
	DefaultMaxParallel   = 4
)

// A Loop runs sampling with tools: it sends the conversation with its tools to the model, runs
// the tool uses of the model's answer, sends the tool results back, and repeats until the model
// answers without a tool use or the iteration limit is reached. See the package doc for the
// rules it keeps. A Loop is configuration: one value can run any number of conversations,
// concurrently.
type Loop struct {
	// Tools are offered to the model in every request (params.Tools is set from them).
	Tools []*Tool
	// MaxIterations bounds the sampling requests of one conversation; 0 means
	// DefaultMaxIterations. When the model still asks for tools in the answer to the last one,
	// the loop stops with StopMaxIterations without running them.
	MaxIterations int
	// MaxParallel bounds the tool uses of one answer that run at the same time; 0 means
	// DefaultMaxParallel.
	MaxParallel int
	// ForceFinalAnswer sends the last request that MaxIterations allows with toolChoice
	// {mode: "none"}, as the spec suggests, so that the model answers instead of asking for
	// more tools.
	ForceFinalAnswer bool
	// Capabilities are the client's capabilities. When nil, the loop asks the Sampler (see
	// [ClientCapabilitiesProvider]); when neither knows them, Run fails with
	// ErrUnknownCapabilities rather than guess.
	Capabilities *mcp.ClientCapabilities
}

// A ClientCapabilitiesProvider is a [Sampler] that knows the capabilities of the client behind
// it, such as a sampler on an MCP session (the capabilities the client declared in initialize).
// The loop checks every request against them. A nil result means the client declared none.
type ClientCapabilitiesProvider interface {
	ClientCapabilities() *mcp.ClientCapabilities
}

// A StopReason says why a loop stopped.
type StopReason string

const (
	// StopEndTurn: the model answered without a tool use; Result.Last is its answer, whose
	// stopReason ("endTurn", "maxTokens", "refusal", ...) says more.
	StopEndTurn StopReason = "endTurn"
	// StopMaxIterations: the model asked for tools in its answer to the last request that
	// MaxIterations allows. Those tool uses were not run (Result.PendingToolUses).
	StopMaxIterations StopReason = "maxIterations"
	// StopCanceled: the context ended.
	StopCanceled StopReason = "canceled"
	// StopMissingCapability: the client lacks a capability that the requests need (sampling,
	// sampling.tools, or sampling.context for includeContext), or its capabilities are unknown.
	// Nothing was sent.
	StopMissingCapability StopReason = "missingCapability"
	// StopInvalidRequest: a request the loop would send breaks the rules (the initial
	// messages, say), or the loop is misconfigured. It was not sent.
	StopInvalidRequest StopReason = "invalidRequest"
	// StopInvalidResult: the client answered with a result that breaks the rules (see
	// [ResultError]). None of its tool uses was run.
	StopInvalidResult StopReason = "invalidResult"
	// StopSamplerError: the Sampler failed (the client answered with an error, the connection
	// failed, ...).
	StopSamplerError StopReason = "samplerError"
)

// ErrUnknownCapabilities is the error of a loop that cannot learn the client's capabilities:
// neither Loop.Capabilities nor the Sampler (a [ClientCapabilitiesProvider]) gives them.
var ErrUnknownCapabilities = errors.New("sampling: the client's capabilities are unknown: set Loop.Capabilities, or use a Sampler that provides them")

// A CapabilityError is a request that the client's capabilities do not allow: the spec forbids
// sending it. Its error code in JSON-RPC is -32602 (Err's), and in 2026-07-28
// MissingRequiredClientCapability (-32021) with Required.
type CapabilityError struct {
	// Required holds the capabilities the request needs.
	Required *mcp.ClientCapabilities
	// Err is the error of CheckCapabilities, a *mcp.ValidationError.
	Err error
}

func (e *CapabilityError) Error() string {
	return "sampling: the client lacks a capability the request needs: " + e.Err.Error()
}

func (e *CapabilityError) Unwrap() error { return e.Err }

// A RequestError is a sampling request that the loop refused to send because it breaks the rules
// (Validate): typically initial messages that do not keep the rules of sampling with tools.
type RequestError struct {
	Err error
}

func (e *RequestError) Error() string { return "sampling: invalid request: " + e.Err.Error() }
func (e *RequestError) Unwrap() error { return e.Err }

// A ResultError is a sampling result that the loop refused: it breaks the rules of the schema or
// of sampling with tools (Validate); its role is not "assistant"; one of its tool uses repeats
// the id of a tool use earlier in the conversation (the spec requires ids to be unique, and a
// tool result could not say which tool use it answers); or its stopReason is "toolUse" but it
// holds no tool use. The loop runs none of its tool uses and stops.
type ResultError struct {
	// Result is the refused result.
	Result *mcp.CreateMessageResult
	// Err says what is wrong, with the JSON pointer of the part at fault in the result.
	Err error
}

func (e *ResultError) Error() string { return "sampling: invalid result: " + e.Err.Error() }
func (e *ResultError) Unwrap() error { return e.Err }

// A SamplerError is a failure of the Sampler.
type SamplerError struct {
	Err error
}

func (e *SamplerError) Error() string { return "sampling: " + e.Err.Error() }
func (e *SamplerError) Unwrap() error { return e.Err }

// A Result is what a loop did.
type Result struct {
	// Messages is the whole conversation: the initial messages, then each answer of the model
	// and each message of tool results, in order.
	Messages []mcp.SamplingMessage
	// Last is the model's last accepted answer (also the last assistant message of Messages),
	// nil if there was none.
	Last *mcp.CreateMessageResult
	// Stop says why the loop stopped.
	Stop StopReason
	// Iterations counts the sampling requests answered.
	Iterations int
}

// Text returns the text blocks of the last answer, joined by newlines.
func (r *Result) Text() string {
	if r.Last == nil {
		return ""
	}
	var parts []string
	for _, b := range r.Last.Content.List {
		if t, ok := b.(*mcp.TextContent); ok && t != nil {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// PendingToolUses returns the tool uses of the last answer that were not run: those of an answer
// at the iteration limit (StopMaxIterations), or of a conversation that stopped before running
// them.
func (r *Result) PendingToolUses() []*mcp.ToolUseContent {
	if len(r.Messages) == 0 || r.Last == nil {
		return nil
	}
	last := r.Messages[len(r.Messages)-1]
	if last.Role != mcp.RoleAssistant {
		return nil
	}
	return toolUses(&last.Content)
}

// Run runs the loop on s, starting from params: its messages (at least one), maxTokens, and
// whatever else the requests should carry (systemPrompt, temperature, toolChoice, ...). The loop
// sets params.Tools from l.Tools; params.Tools must be nil. params is not modified.
//
// Run always returns a Result, with the conversation so far and the reason it stopped; the error
// is nil when the model ended its turn (StopEndTurn) or the iteration limit was reached
// (StopMaxIterations), else it says what failed: *CapabilityError, ErrUnknownCapabilities,
// *RequestError, *ResultError, *SamplerError, or the context's error (errors.Is(err,
// context.Canceled)).
func (l *Loop) Run(ctx context.Context, s Sampler, params *mcp.CreateMessageRequestParams) (*Result, error) {
	caps, err := l.capabilities(s)
	if err != nil {
		return stopped(params, StopMissingCapability), err
	}
	c, err := l.StartContext(ctx, params, caps)
	if err != nil {
		return stopped(params, stopOf(err)), err
	}
	for req := c.Next(); req != nil; req = c.Next() {
		if err := ctx.Err(); err != nil {
			c.end(StopCanceled)
			return c.Result(), err
		}
		res, err := s.CreateMessage(ctx, req)
		if err != nil {
			if cerr := ctx.Err(); cerr != nil {
				c.end(StopCanceled)
				return c.Result(), fmt.Errorf("sampling: %w (the sampler: %w)", cerr, err)
			}
			c.end(StopSamplerError)
			return c.Result(), &SamplerError{Err: err}
		}
		if err := c.Accept(ctx, res); err != nil {
			return c.Result(), err
		}
	}
	return c.Result(), nil
}

// capabilities returns the client's capabilities: Loop.Capabilities, else the Sampler's.
func (l *Loop) capabilities(s Sampler) (*mcp.ClientCapabilities, error) {
	return capabilitiesOf(l.Capabilities, s)
}

func capabilitiesOf(given *mcp.ClientCapabilities, s Sampler) (*mcp.ClientCapabilities, error) {
	if given != nil {
		return given, nil
	}
	if p, ok := s.(ClientCapabilitiesProvider); ok {
		caps := p.ClientCapabilities()
		if caps == nil {
			caps = &mcp.ClientCapabilities{}
		}
		return caps, nil
	}
	return nil, ErrUnknownCapabilities
}

// stopped is the result of a loop that stopped before its first request.
func stopped(params *mcp.CreateMessageRequestParams, reason StopReason) *Result {
	r := &Result{Stop: reason}
	if params != nil {
		r.Messages = slices.Clone(params.Messages)
	}
	return r
}

func stopOf(err error) StopReason {
	var cerr *CapabilityError
	if errors.As(err, &cerr) || errors.Is(err, ErrUnknownCapabilities) {
		return StopMissingCapability
	}
	return StopInvalidRequest
}

// A Conversation is one run of a loop, driven step by step: [Conversation.Next] gives the
// request to send, [Conversation.Accept] takes the model's answer (and runs its tool uses).
// [Loop.Run] drives one to its end on a Sampler; a flow that cannot wait for the answer, such as
// the multi round-trip requests of 2026-07-28 (package mrtr), saves it between requests with
// [Conversation.Snapshot] and continues it with [Loop.Resume]. A Conversation is not safe for
// concurrent use.
type Conversation struct {
	maxIterations, maxParallel int
	forceFinal                 bool
	tools                      map[string]*Tool
	defs                       []mcp.Tool
	names                      string // the tool names, for the model: "add, get_weather"

	id         string
	params     mcp.CreateMessageRequestParams // the template; Messages is the conversation; no Tools
	caps       *mcp.ClientCapabilities
	iterations int
	seen       map[string]int // tool use id -> index of its message
	next       *mcp.CreateMessageRequestParams
	last       *mcp.CreateMessageResult
	stop       StopReason
	progress   progressCounter
}

// A Snapshot is what a [Conversation] needs to continue: its id, the requests answered so far,
// and the template of its requests holding the conversation so far (params without tools). It is
// only data: a flow that cannot keep the Conversation (a stateless server) keeps the Snapshot,
// protected against tampering, and continues with [Loop.Resume].
type Snapshot struct {
	// ID identifies the conversation; it is random, and the same in every snapshot of it.
	ID string
	// Iterations counts the sampling requests answered.
	Iterations int
	// Params is the next request without its tools: the template given to Start, with the
	// conversation so far as its messages.
	Params mcp.CreateMessageRequestParams
}

// Start begins a conversation from params (see [Loop.Run]) for a client with the given
// capabilities (nil: none). Its first request is checked: the error is a *CapabilityError or a
// *RequestError, or says what is wrong with the loop's configuration. Start reports no progress;
// [Loop.StartContext] does.
func (l *Loop) Start(params *mcp.CreateMessageRequestParams, caps *mcp.ClientCapabilities) (*Conversation, error) {
	return l.StartContext(context.Background(), params, caps)
}

// StartContext is [Loop.Start] that reports the first request (a [ProgressRequest] event
// numbered 1) to the progress sink of ctx (see [WithProgress]).
func (l *Loop) StartContext(ctx context.Context, params *mcp.CreateMessageRequestParams, caps *mcp.ClientCapabilities) (*Conversation, error) {
	if params == nil {
		return nil, &RequestError{Err: errors.New("nil params")}
	}
	if params.Tools != nil {
		return nil, &RequestError{Err: errors.New("/tools: set by the loop from Loop.Tools; leave it nil")}
	}
	id, err := newID()
	if err != nil {
		return nil, err
	}
	c, err := l.resume(Snapshot{ID: id, Params: *params}, caps)
	if err != nil {
		return nil, err
	}
	c.progress.n-- // resume counts the pending request as reported: it is reported now
	c.reportRequest(ctx)
	return c, nil
}

// Resume continues a conversation from a snapshot, for a client with the given capabilities
// (which may differ from those it started with: in 2026-07-28 each request declares its own).
// Its next request is checked as in Start. It reports no progress: the pending request was
// reported when it was asked for, and the conversation's next progress event continues the
// numbers of the snapshot's (see [Conversation.Progress]).
func (l *Loop) Resume(s Snapshot, caps *mcp.ClientCapabilities) (*Conversation, error) {
	if s.ID == "" {
		return nil, &RequestError{Err: errors.New("snapshot without an id")}
	}
	if s.Params.Tools != nil {
		return nil, &RequestError{Err: errors.New("/tools: a snapshot holds no tools")}
	}
	return l.resume(s, caps)
}

func (l *Loop) resume(s Snapshot, caps *mcp.ClientCapabilities) (*Conversation, error) {
	c := &Conversation{
		maxIterations: l.MaxIterations,
		maxParallel:   l.MaxParallel,
		forceFinal:    l.ForceFinalAnswer,
		tools:         map[string]*Tool{},
		id:            s.ID,
		params:        s.Params,
		caps:          caps,
		iterations:    s.Iterations,
		seen:          map[string]int{},
		progress:      progressCounter{n: progressOf(&s)},
	}
	if c.maxIterations <= 0 {
		c.maxIterations = DefaultMaxIterations
	}
	if c.maxParallel <= 0 {
		c.maxParallel = DefaultMaxParallel
	}
	if c.caps == nil {
		c.caps = &mcp.ClientCapabilities{}
	}
	var names []string
	for i, t := range l.Tools {
		if t == nil || t.handler == nil {
			return nil, &RequestError{Err: fmt.Errorf("Loop.Tools[%d] is not a tool made by NewTool", i)}
		}
		if c.tools[t.def.Name] != nil {
			return nil, &RequestError{Err: fmt.Errorf("Loop.Tools: two tools are named %q", t.def.Name)}
		}
		c.tools[t.def.Name] = t
		c.defs = append(c.defs, t.def)
		names = append(names, t.def.Name)
	}
	sort.Strings(names)
	c.names = strings.Join(names, ", ")
	c.params.Messages = slices.Clone(s.Params.Messages)
	for i := range c.params.Messages {
		for _, u := range toolUses(&c.params.Messages[i].Content) {
			c.seen[u.ID] = i
		}
	}
	if c.iterations >= c.maxIterations {
		return nil, &RequestError{Err: fmt.Errorf("the conversation has had its %d iterations", c.maxIterations)}
	}
	if err := c.prepare(); err != nil {
		return nil, err
	}
	return c, nil
}

// prepare builds and checks the next request.
func (c *Conversation) prepare() error {
	req := c.params
	req.Messages = slices.Clone(c.params.Messages)
	if len(c.defs) > 0 {
		req.Tools = slices.Clone(c.defs)
	}
	if c.forceFinal && c.iterations+1 == c.maxIterations && len(c.defs) > 0 {
		req.ToolChoice = &mcp.ToolChoice{Mode: ptr(mcp.ToolChoiceModeNone)}
	}
	if err := req.CheckCapabilities(c.caps); err != nil {
		c.end(StopMissingCapability)
		return &CapabilityError{Required: required(&req), Err: err}
	}
	if err := req.Validate(); err != nil {
		c.end(StopInvalidRequest)
		return &RequestError{Err: err}
	}
	c.next = &req
	return nil
}

// required returns the capabilities a request needs.
func required(p *mcp.CreateMessageRequestParams) *mcp.ClientCapabilities {
	s := &mcp.ClientCapabilitiesSampling{}
	if p.Tools != nil || p.ToolChoice != nil {
		s.Tools = map[string]json.RawMessage{}
	}
	if p.IncludeContext != nil && *p.IncludeContext != mcp.CreateMessageRequestParamsIncludeContextNone {
		s.Context = map[string]json.RawMessage{}
	}
	return &mcp.ClientCapabilities{Sampling: s}
}

// Next returns the request to send now, or nil when the conversation is over. It has passed
// Validate and CheckCapabilities. The caller may keep it; the conversation does not change it.
func (c *Conversation) Next() *mcp.CreateMessageRequestParams {
	if c.next == nil {
		return nil
	}
	req := *c.next
	req.Messages = slices.Clone(c.next.Messages)
	req.Tools = slices.Clone(c.next.Tools)
	return &req
}

// Iterations counts the requests answered so far.
func (c *Conversation) Iterations() int { return c.iterations }

// ID returns the conversation's id (see [Snapshot]).
func (c *Conversation) ID() string { return c.id }

// Snapshot returns what [Loop.Resume] needs to continue the conversation.
func (c *Conversation) Snapshot() Snapshot {
	p := c.params
	p.Messages = slices.Clone(c.params.Messages)
	return Snapshot{ID: c.id, Iterations: c.iterations, Params: p}
}

// Result returns the conversation so far, and why it stopped if it did (Stop is "" while it
// goes on).
func (c *Conversation) Result() *Result {
	return &Result{
		Messages:   slices.Clone(c.params.Messages),
		Last:       c.last,
		Stop:       c.stop,
		Iterations: c.iterations,
	}
}

// end stops the conversation.
func (c *Conversation) end(reason StopReason) {
	c.stop = reason
	c.next = nil
}

// Accept takes the model's answer to the request of Next. An answer that breaks the rules is
// refused (*ResultError) and stops the conversation. An answer with tool uses adds the answer and
// one user message with a result for each tool use, in the order of the tool uses, and prepares
// the next request, unless the iteration limit is reached (StopMaxIterations, the tool uses are
// not run). An answer without tool uses ends the conversation (StopEndTurn). When ctx ends while
// the tools run, the conversation stops (StopCanceled) with their results added, and Accept
// returns the context's error.
//
// Every tool use gets a result: an unknown tool name, an input that its tool's input schema
// rejects, a handler's error or panic, and an invalid result of a handler are tool results with
// isError: true and a message that says what went wrong, for the model to read and correct.
//
// Accept reports to the progress sink of ctx (see [WithProgress]) a [ProgressTool] event for
// each tool use as it is handled (in the order they finish), then a [ProgressRequest] event for
// the next request, or a [ProgressDone] event when the loop is over.
func (c *Conversation) Accept(ctx context.Context, res *mcp.CreateMessageResult) error {
	if c.next == nil {
		return errConversationOver
	}
	c.iterations++
	if err := c.check(res); err != nil {
		c.end(StopInvalidResult)
		return &ResultError{Result: res, Err: err}
	}
	c.last = res
	i := len(c.params.Messages)
	c.params.Messages = append(c.params.Messages, mcp.SamplingMessage{Role: mcp.RoleAssistant, Content: res.Content})
	uses := toolUses(&res.Content)
	for _, u := range uses {
		c.seen[u.ID] = i
	}
	switch {
	case len(uses) == 0:
		c.end(StopEndTurn)
		c.reportDone(ctx)
		return nil
	case c.iterations >= c.maxIterations:
		c.end(StopMaxIterations)
		c.reportDone(ctx)
		return nil
	}
	results := c.runTools(ctx, uses)
	c.params.Messages = append(c.params.Messages, mcp.SamplingMessage{Role: mcp.RoleUser, Content: mcp.NewSamplingMessageContentList(results...)})
	if err := ctx.Err(); err != nil {
		c.end(StopCanceled)
		return err
	}
	if err := c.prepare(); err != nil {
		return err
	}
	c.reportRequest(ctx)
	return nil
}

// errConversationOver is the error of an answer to a conversation that asks for none.
var errConversationOver = errors.New("sampling: the conversation is over")

// Check reports whether [Conversation.Accept] would refuse res, without accepting it or running
// anything: it returns the *ResultError that Accept would return (the same rules), or an error
// when the conversation is over, or nil. The conversation is unchanged either way. A flow that
// must commit to an answer before Accept acts on it (package mrtr marks its requestState used
// before the tools run) checks it first, so that an answer that breaks the rules commits nothing.
func (c *Conversation) Check(res *mcp.CreateMessageResult) error {
	if c.next == nil {
		return errConversationOver
	}
	if err := c.check(res); err != nil {
		return &ResultError{Result: res, Err: err}
	}
	return nil
}

// check refuses an answer the loop must not accept: the rules of Check and Accept.
func (c *Conversation) check(res *mcp.CreateMessageResult) error {
	if res == nil {
		return errors.New("no result")
	}
	if err := res.Validate(); err != nil {
		return err
	}
	if res.Role != mcp.RoleAssistant {
		return fmt.Errorf("/role: the answer of the model must have the role \"assistant\", not %q", res.Role)
	}
	n := 0
	for i, b := range res.Content.List {
		u, ok := b.(*mcp.ToolUseContent)
		if !ok {
			continue
		}
		n++
		if at, dup := c.seen[u.ID]; dup {
			ptr := "/content"
			if res.Content.IsList {
				ptr = fmt.Sprintf("/content/%d", i)
			}
			return fmt.Errorf("%s/id: tool use id %q is already used in message %d of the conversation; ids must be unique", ptr, u.ID, at)
		}
	}
	if res.StopReason != nil && *res.StopReason == mcp.CreateMessageResultStopReasonToolUse && n == 0 {
		return errors.New(`/stopReason: "toolUse", but the answer holds no tool use`)
	}
	return nil
}

// runTools runs the tool uses of an answer, at most maxParallel at a time, and returns their
// results in the same order.
func (c *Conversation) runTools(ctx context.Context, uses []*mcp.ToolUseContent) []mcp.SamplingMessageContentBlock {
	results := make([]mcp.SamplingMessageContentBlock, len(uses))
	sem := make(chan struct{}, c.maxParallel)
	var wg sync.WaitGroup
	refuse := func(i int, u *mcp.ToolUseContent, message string) {
		r := toolError(u.ID, message)
		results[i] = r
		c.reportTool(ctx, u, r)
	}
	for i, u := range uses {
		t := c.tools[u.Name]
		if t == nil {
			refuse(i, u, fmt.Sprintf("unknown tool %q: the tools are %s", u.Name, c.names))
			continue
		}
		if err := t.schema.validate(u.Input); err != nil {
			refuse(i, u, fmt.Sprintf("invalid input for tool %q: %v", u.Name, err))
			continue
		}
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			refuse(i, u, fmt.Sprintf("tool %q was not run: %v", u.Name, ctx.Err()))
			continue
		}
		call := Call{ID: u.ID, Name: u.Name, Iteration: c.iterations, IdempotencyKey: c.idempotencyKey(u)}
		if len(uses) == 1 {
			// Nothing to run beside it: on this goroutine, without handing the work to another
			// and back (which, in a process with idle cores, wakes a thread each way).
			r := t.run(ctx, call, u)
			results[i] = r
			<-sem
			c.reportTool(ctx, u, r)
			continue
		}
		wg.Go(func() {
			r := t.run(ctx, call, u)
			results[i] = r
			<-sem
			c.reportTool(ctx, u, r)
		})
	}
	wg.Wait()
	return results
}

// idempotencyKey is the key of a tool use of this conversation (see [Call]): of its id, its
// tool's name and its input, written with the members of its objects sorted at every depth, so
// that another tool use under the same id (a replayed retry answered otherwise) has another key.
func (c *Conversation) idempotencyKey(u *mcp.ToolUseContent) string {
	input, err := json.Marshal(u.Input)
	if err == nil {
		d := json.NewDecoder(bytes.NewReader(input))
		d.UseNumber()
		var v any
		if d.Decode(&v) == nil {
			if canonical, err := json.Marshal(v); err == nil { // maps are written sorted
				input = canonical
			}
		}
	}
	h := sha256.New()
	for _, part := range []string{"mcpgen/sampling/call", c.id, u.ID, u.Name, string(input)} {
		fmt.Fprintf(h, "%d:%s", len(part), part)
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// toolUses returns the tool uses of a message.
func toolUses(content *mcp.SamplingMessageContent) []*mcp.ToolUseContent {
	var uses []*mcp.ToolUseContent
	for _, b := range content.List {
		if u, ok := b.(*mcp.ToolUseContent); ok && u != nil {
			uses = append(uses, u)
		}
	}
	return uses
}

func newID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return hex.EncodeToString(b[:]), nil
}
