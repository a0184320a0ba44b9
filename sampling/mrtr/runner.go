//lint:file-ignore SA1019 sampling is deprecated as of 2026-07-28 (SEP-2577), and still in it: this package runs it

package mrtr

import (
	"context"
	"encoding/json"
	"time"

	v1125 "github.com/mcpgen/mcpgen/gen/mcp20251125"
	mcp "github.com/mcpgen/mcpgen/gen/mcp20260728"
	"github.com/mcpgen/mcpgen/sampling"
	"github.com/mcpgen/mcpgen/sampling/mrtr/internal/boundary"
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
// See the package doc. Its Key (or Keys), TTL, MaxStateBytes, Guard and Now configure the
// [States] of its requestStates. A Runner is configuration; it is safe for concurrent use.
type Runner struct {
	// Loop is the tool loop; its Capabilities field is ignored (each request declares the
	// client's capabilities).
	Loop *sampling.Loop
	// Key authenticates the requestStates (HMAC-SHA256): at least MinKeyBytes random bytes,
	// the same for every instance of the server, and secret. Set Key or Keys, not both.
	Key []byte
	// Keys, instead of Key, is a key ring shared by the instances: its first key issues the
	// requestStates and each of its keys opens them, so that the key can be rotated without
	// refusing the states in flight (see [KeyRing]).
	Keys *KeyRing
	// TTL is how long a requestState is valid after it is issued; 0 means DefaultTTL. The client
	// has that long to sample (and its user to review the request) and retry.
	TTL time.Duration
	// MaxStateBytes bounds a requestState, as issued and as accepted, and the JSON it inflates
	// to; 0 means DefaultMaxStateBytes. A conversation whose JSON grows beyond it cannot go on
	// (ErrStateTooLarge).
	MaxStateBytes int
	// Guard, when set, makes every requestState single-use: a replayed retry is refused
	// (ErrReplayedState) before any tool runs, and a used state is not asked again. A state is
	// used only by an answer the loop accepts: after a refused answer the client may retry with
	// the same state. Without a guard, a replayed retry runs the tool uses of its answer again
	// (see the package doc).
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
	binding, err := boundary.CallToolBinding(p.Name, p.Arguments)
	if err != nil {
		return Request{}, withCode(err, codeInvalidParams, "arguments: "+err.Error())
	}
	return Request{
		Method:         mcp.MethodCallTool,
		Binding:        binding,
		Principal:      principal,
		Capabilities:   &p.Meta.ClientCapabilities,
		InputResponses: p.InputResponses,
		RequestState:   p.RequestState,
	}, nil
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
//   - -32602 invalid params, with a *sampling.ResultError (errors.As finds it): an
//     inputResponse that is not a valid sampling result or breaks the loop's rules (a repeated
//     tool use id, say); the message gives the problems' JSON pointers from the params
//     ("/inputResponses/sampling-2/content/1/id: ..."), and the ResultError's Err has them from
//     the answer. Nothing runs and the state is not used;
//   - -32021 MissingRequiredClientCapability, wrapping a *sampling.CapabilityError, with the
//     capabilities required: the request does not declare sampling.tools (or sampling);
//   - -32603 internal error: the Runner's configuration, an invalid first request, or a
//     conversation that outgrew MaxStateBytes (*StateError);
//   - the context's error, when ctx ends while the tools run;
//   - start's error, as it is.
//
// A retry without the response the state waits for gets the same InputRequiredResult again.
func (r *Runner) Step(ctx context.Context, req Request, start func() (*v1125.CreateMessageRequestParams, error)) (*Outcome, error) {
	out, err := r.StepNeutral(ctx, req.neutral(), start)
	if err != nil {
		return nil, err
	}
	if out.Result != nil {
		return &Outcome{Result: out.Result}, nil
	}
	return r.request(out)
}

// neutral returns req in the loop's own types.
func (req *Request) neutral() *NeutralRequest {
	var caps json.Marshaler
	if req.Capabilities != nil {
		caps = req.Capabilities
	}
	return &NeutralRequest{
		Binding:      Binding{Principal: req.Principal, Method: req.Method, Request: req.Binding},
		Capabilities: caps,
		RequestState: req.RequestState,
		Response: func(key string) (json.Marshaler, error) {
			return boundary.Answer[*mcp.CreateMessageResult](req.InputResponses, key)
		},
	}
}

// request returns the InputRequiredResult asking for out's sampling request.
func (r *Runner) request(out *NeutralOutcome) (*Outcome, error) {
	params, err := boundary.Convert[mcp.CreateMessageRequestParams](out.Request)
	if err != nil {
		return nil, withCode(err, codeInternal, "converting the sampling request: "+err.Error())
	}
	state := out.State
	res := &mcp.InputRequiredResult{
		ResultType:    mcp.ResultTypeInputRequired,
		InputRequests: mcp.InputRequests{out.Key: &mcp.CreateMessageRequest{Method: mcp.MethodCreateMessage, Params: *params}},
		RequestState:  &state,
	}
	if err := res.Validate(); err != nil {
		return nil, withCode(err, codeInternal, "the sampling request is invalid in 2026-07-28: "+err.Error())
	}
	return &Outcome{InputRequired: res}, nil
}
