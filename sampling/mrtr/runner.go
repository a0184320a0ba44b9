//lint:file-ignore SA1019 sampling is deprecated as of 2026-07-28 (SEP-2577), and still in it: this package runs it

package mrtr

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	v1125 "github.com/mcpgen/mcpgen/gen/mcp20251125"
	mcp "github.com/mcpgen/mcpgen/gen/mcp20260728"
	"github.com/mcpgen/mcpgen/sampling"
)

// Defaults of a [Runner].
const (
	DefaultTTL           = 10 * time.Minute
	DefaultMaxStateBytes = 256 << 10
	// MinKeyBytes is the shortest key a Runner accepts.
	MinKeyBytes = 32
)

// A Runner runs a [sampling.Loop] across the round trips of multi round-trip requests: each
// sampling request of the loop is an InputRequiredResult, and the loop's state travels in its
// requestState, so that any instance of a stateless server continues it on the retried request.
// See the package doc. Its Key, TTL, MaxStateBytes, Guard and Now configure the [States] of its
// requestStates. A Runner is configuration; it is safe for concurrent use.
type Runner struct {
	// Loop is the tool loop; its Capabilities field is ignored (each request declares the
	// client's capabilities).
	Loop *sampling.Loop
	// Key authenticates the requestStates (HMAC-SHA256): at least MinKeyBytes random bytes,
	// the same for every instance of the server, and secret.
	Key []byte
	// TTL is how long a requestState is valid after it is issued; 0 means DefaultTTL. The client
	// has that long to sample (and its user to review the request) and retry.
	TTL time.Duration
	// MaxStateBytes bounds a requestState, as issued and as accepted; 0 means
	// DefaultMaxStateBytes. A conversation that grows beyond it cannot go on (ErrStateTooLarge).
	MaxStateBytes int
	// Guard, when set, makes every requestState single-use: a replayed retry is refused
	// (ErrReplayedState) before any tool runs. Without it, a replayed retry runs the tool uses
	// of its answer again (see the package doc).
	Guard ReplayGuard
	// Now returns the time; nil means time.Now.
	Now func() time.Time
}

// A Request is what the Runner needs of the client's request: what binds its state, the
// client's capabilities, and the retry's inputResponses and requestState. [CallTool] makes one of
// a tools/call request.
type Request struct {
	// Method is the request's method, e.g. "tools/call".
	Method string
	// Binding holds the request's salient parameters (for tools/call: the tool's name and its
	// arguments). A state is accepted only on a request with the same method and binding.
	Binding string
	// Principal is the authenticated principal the request comes from, "" if there is none. A
	// state is accepted only from the principal it was issued to.
	Principal string
	// Capabilities are the client's capabilities declared in this request's _meta.
	Capabilities *mcp.ClientCapabilities
	// InputResponses and RequestState are the retry's (both nil on the first request).
	InputResponses mcp.InputResponses
	RequestState   *string
}

// CallTool returns the Request of a tools/call request: bound to the tool's name and its
// arguments (compared as [Canonical] JSON, whatever the spacing and the order of the members at
// any depth), from the given principal.
func CallTool(p *mcp.CallToolRequestParams, principal string) (Request, error) {
	args, err := canonicalObject(p.Arguments)
	if err != nil {
		return Request{}, withCode(err, codeInvalidParams, "arguments: "+err.Error())
	}
	return Request{
		Method:         mcp.MethodCallTool,
		Binding:        p.Name + "\x00" + args,
		Principal:      principal,
		Capabilities:   &p.Meta.ClientCapabilities,
		InputResponses: p.InputResponses,
		RequestState:   p.RequestState,
	}, nil
}

// canonicalObject writes a free-form object as Canonical does.
func canonicalObject(m map[string]json.RawMessage) (string, error) {
	if m == nil {
		m = map[string]json.RawMessage{}
	}
	data, err := json.Marshal(m)
	if err != nil {
		return "", err
	}
	return Canonical(data)
}

// An Outcome is what a step of the loop gives: an InputRequiredResult to answer the request
// with (the loop needs the model), or the loop's result (it is over).
type Outcome struct {
	// InputRequired asks the client to sample and retry; the caller answers the request with
	// it.
	InputRequired *mcp.InputRequiredResult
	// Result is the loop's result when it is over: StopEndTurn or StopMaxIterations. The caller
	// answers the request with what it makes of it (for tools/call, a CallToolResult).
	Result *sampling.Result
}

// Step runs the loop as far as it can go on req. On the first request (no requestState), start
// gives the conversation's first params (the messages and template, see sampling.Loop.Run) and
// the loop begins; on a retry, the state is verified and the loop continues with the model's
// answer in inputResponses: it runs the answer's tool uses and either asks for the next sample
// or ends.
//
// Errors carry the JSON-RPC error that answers the request (mcp.NewErrorResponse finds it):
//   - -32602 invalid params, a *StateError: a requestState that is malformed, tampered with,
//     expired, of another request or principal, replayed, or larger than MaxStateBytes;
//   - -32602 invalid params, wrapping a *sampling.ResultError: an inputResponse that is not a
//     valid sampling result or breaks the loop's rules (a repeated tool use id, say);
//   - -32021 MissingRequiredClientCapability, wrapping a *sampling.CapabilityError, with the
//     capabilities required: the request does not declare sampling.tools (or sampling);
//   - -32603 internal error: the Runner's configuration, an invalid first request, or a
//     conversation that outgrew MaxStateBytes (*StateError);
//   - the context's error, when ctx ends while the tools run;
//   - start's error, as it is.
//
// A retry without the response the state waits for gets the same InputRequiredResult again.
func (r *Runner) Step(ctx context.Context, req Request, start func() (*v1125.CreateMessageRequestParams, error)) (*Outcome, error) {
	if err := r.check(); err != nil {
		return nil, err
	}
	caps, err := toV1125Capabilities(req.Capabilities)
	if err != nil {
		return nil, withCode(err, codeInvalidParams, "clientCapabilities: "+err.Error())
	}
	states := r.states()
	binding := Binding{Principal: req.Principal, Method: req.Method, Request: req.Binding}
	if req.RequestState == nil {
		params, err := start()
		if err != nil {
			return nil, err
		}
		conv, err := r.Loop.Start(params, caps)
		if err != nil {
			return nil, loopError(err)
		}
		return r.ask(states, conv, binding)
	}
	opened, err := states.Open(*req.RequestState, binding)
	if err != nil {
		return nil, err
	}
	var ls loopState
	d := json.NewDecoder(bytes.NewReader(opened.Body))
	d.DisallowUnknownFields()
	if err := d.Decode(&ls); err != nil {
		return nil, stateErr(ErrMalformedState, codeInvalidParams, "requestState does not decode: %v", err)
	}
	var params v1125.CreateMessageRequestParams
	if err := params.UnmarshalJSON(ls.Params); err != nil {
		return nil, stateErr(ErrMalformedState, codeInvalidParams, "requestState does not decode: %v", err)
	}
	conv, err := r.Loop.Resume(sampling.Snapshot{ID: ls.Conversation, Iterations: ls.Iterations, Params: params}, caps)
	if err != nil {
		return nil, loopError(err)
	}
	response, ok := req.InputResponses[ls.Key]
	if !ok || response == nil {
		// The client did not answer: ask again, with the same state (MRTR's error handling),
		// unless the guard says the state was used.
		if err := states.Check(ctx, opened); err != nil {
			return nil, err
		}
		return r.request(conv, ls.Key, *req.RequestState)
	}
	answer, ok := response.(*mcp.CreateMessageResult)
	if !ok {
		return nil, invalidAnswer(ls.Key, fmt.Errorf(": a %T does not answer a sampling request", response))
	}
	if err := answer.Validate(); err != nil {
		return nil, invalidAnswer(ls.Key, err)
	}
	res, err := toV1125Result(answer)
	if err != nil {
		return nil, invalidAnswer(ls.Key, err)
	}
	if err := states.Use(ctx, opened); err != nil {
		return nil, err
	}
	if err := conv.Accept(ctx, res); err != nil {
		var rerr *sampling.ResultError
		if errors.As(err, &rerr) {
			return nil, invalidAnswer(ls.Key, err)
		}
		if ctx.Err() != nil {
			return nil, err
		}
		return nil, loopError(err)
	}
	if conv.Next() == nil {
		return &Outcome{Result: conv.Result()}, nil
	}
	return r.ask(states, conv, binding)
}

// loopState is the body of the Runner's requestStates.
type loopState struct {
	// Key is the key of the pending sampling request in inputRequests.
	Key string `json:"key"`
	// Conversation, Iterations and Params are the loop's snapshot: its id, the requests
	// answered, and the next request without its tools.
	Conversation string          `json:"conv"`
	Iterations   int             `json:"n"`
	Params       json.RawMessage `json:"params"`
}

// ask issues the next sampling request of conv with a new state.
func (r *Runner) ask(states *States, conv *sampling.Conversation, b Binding) (*Outcome, error) {
	snap := conv.Snapshot()
	params, err := snap.Params.MarshalJSON()
	if err != nil {
		return nil, withCode(err, codeInternal, "encoding the conversation: "+err.Error())
	}
	key := fmt.Sprintf("sampling-%d", snap.Iterations+1)
	body, err := json.Marshal(&loopState{Key: key, Conversation: snap.ID, Iterations: snap.Iterations, Params: params})
	if err != nil {
		return nil, withCode(err, codeInternal, "encoding the conversation: "+err.Error())
	}
	state, err := states.Issue(b, body)
	if err != nil {
		return nil, err
	}
	return r.request(conv, key, state)
}

// request returns the InputRequiredResult asking for conv's next request under key.
func (r *Runner) request(conv *sampling.Conversation, key, state string) (*Outcome, error) {
	params, err := toV2026Params(conv.Next())
	if err != nil {
		return nil, withCode(err, codeInternal, "converting the sampling request: "+err.Error())
	}
	res := &mcp.InputRequiredResult{
		ResultType:    mcp.ResultTypeInputRequired,
		InputRequests: mcp.InputRequests{key: &mcp.CreateMessageRequest{Method: mcp.MethodCreateMessage, Params: *params}},
		RequestState:  &state,
	}
	if err := res.Validate(); err != nil {
		return nil, withCode(err, codeInternal, "the sampling request is invalid in 2026-07-28: "+err.Error())
	}
	return &Outcome{InputRequired: res}, nil
}

// loopError gives an error of the loop's Start, Resume or Accept its JSON-RPC error.
func loopError(err error) error {
	var cerr *sampling.CapabilityError
	if errors.As(err, &cerr) {
		required, cerr2 := toV2026Capabilities(cerr.Required)
		if cerr2 != nil {
			return withCode(err, codeInternal, err.Error())
		}
		return &rpcError{err: err, rpc: &mcp.MissingRequiredClientCapabilityErrorError{
			Code:    mcp.MissingRequiredClientCapability,
			Message: "sampling with tools needs the client's sampling.tools capability: " + cerr.Err.Error(),
			Data:    mcp.MissingRequiredClientCapabilityErrorErrorData{RequiredCapabilities: *required},
		}}
	}
	if errors.Is(err, sampling.ErrUnknownCapabilities) {
		return withCode(err, codeInvalidParams, err.Error())
	}
	return withCode(err, codeInternal, err.Error())
}

// prefixed writes the problems of a refused answer with their JSON pointers from the retried
// request's params.
func prefixed(prefix string, err error) string {
	var verr *v1125.ValidationError
	var verr2 *mcp.ValidationError
	var msgs []string
	switch {
	case errors.As(err, &verr2):
		for _, p := range verr2.Problems {
			msgs = append(msgs, prefix+p.Pointer+": "+p.Message)
		}
	case errors.As(err, &verr):
		for _, p := range verr.Problems {
			msgs = append(msgs, prefix+p.Pointer+": "+p.Message)
		}
	default:
		var rerr *sampling.ResultError
		if errors.As(err, &rerr) {
			err = rerr.Err
		}
		msgs = append(msgs, prefix+err.Error())
	}
	return "invalid sampling result: " + strings.Join(msgs, "; ")
}

func (r *Runner) check() error {
	switch {
	case r.Loop == nil:
		return withCode(errors.New("mrtr: Runner.Loop is nil"), codeInternal, "the server is misconfigured")
	case len(r.Key) < MinKeyBytes:
		return withCode(fmt.Errorf("mrtr: Runner.Key has %d bytes, fewer than %d", len(r.Key), MinKeyBytes), codeInternal, "the server is misconfigured")
	}
	return nil
}

// states returns the Runner's configuration of its requestStates.
func (r *Runner) states() *States {
	return &States{Key: r.Key, TTL: r.TTL, MaxStateBytes: r.MaxStateBytes, Guard: r.Guard, Now: r.Now}
}
