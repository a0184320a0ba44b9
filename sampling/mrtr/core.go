//lint:file-ignore SA1019 sampling is deprecated as of 2026-07-28 (SEP-2577), and still in it: this package runs it

package mrtr

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	v1125 "github.com/mcpgen/mcpgen/gen/mcp20251125"
	mcp "github.com/mcpgen/mcpgen/gen/mcp20260728"
	"github.com/mcpgen/mcpgen/gen/mcpdraft"
	"github.com/mcpgen/mcpgen/sampling"
	"github.com/mcpgen/mcpgen/sampling/mrtr/internal/boundary"
)

// The loop works on the types of 2025-11-25; the sampling types of 2026-07-28 and of the draft
// have the same JSON, and are converted at the boundary through it (internal/boundary; members
// one version does not know are kept in Extra).

// A NeutralRequest is a multi round-trip request in the loop's own types, whatever the protocol
// version it came in: what a flavour of the Runner for one version ([Runner.Step] for
// 2026-07-28, package mrtrdraft for the draft) makes of its version's request before calling
// [Runner.StepNeutral]. The sampling types of 2026-07-28 and of the draft have the JSON of
// 2025-11-25, the loop's; they are converted through it.
type NeutralRequest struct {
	// Binding is what the state is bound to: the principal, the method, and the request's
	// salient parameters (for tools/call: the tool's name, a NUL, and Canonical(arguments)).
	Binding Binding
	// Capabilities are the client's capabilities declared in the request's _meta, in the
	// request's version (its ClientCapabilities); nil means none.
	Capabilities json.Marshaler
	// RequestState is the retry's requestState; nil on the first request.
	RequestState *string
	// Response returns the retry's inputResponse under key, in the request's version (its
	// CreateMessageResult), after checking that it is one and valid; nil and no error if the
	// retry holds none under key (the request is asked again). An error is the client's (the
	// step fails with -32602, the error's problems under /inputResponses/<key>).
	Response func(key string) (json.Marshaler, error)
}

// A NeutralOutcome is what [Runner.StepNeutral] gives: the loop's next sampling request, to ask
// for under Key with State as the requestState, or the loop's Result when it is over.
type NeutralOutcome struct {
	// Key is the key of the sampling request in inputRequests ("sampling-1", ...).
	Key string
	// Request is the sampling request; nil when the loop (or the helper) is over.
	Request *v1125.CreateMessageRequestParams
	// State is the requestState to send with it.
	State string
	// Result is set, and the others are not, when the loop is over (StepNeutral only).
	Result *sampling.Result
}

// StepNeutral is [Runner.Step] in the loop's own types: the one implementation of the step that
// every version's flavour calls. Its errors are those of Step, with JSON-RPC errors that
// NewErrorResponse of gen/mcp20260728 and of gen/mcpdraft both find.
func (r *Runner) StepNeutral(ctx context.Context, req *NeutralRequest, start func() (*v1125.CreateMessageRequestParams, error)) (*NeutralOutcome, error) {
	if err := r.check(); err != nil {
		return nil, err
	}
	caps, err := neutralCapabilities(req.Capabilities)
	if err != nil {
		return nil, withCode(err, codeInvalidParams, "clientCapabilities: "+err.Error())
	}
	states := r.states()
	if req.RequestState == nil {
		params, err := start()
		if err != nil {
			return nil, err
		}
		conv, err := r.Loop.StartContext(ctx, params, caps)
		if err != nil {
			return nil, loopError(err)
		}
		return r.ask(states, conv, req.Binding)
	}
	opened, err := states.Open(*req.RequestState, req.Binding)
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
	response, responseErr := req.Response(ls.Key)
	if responseErr == nil && boundary.IsNil(response) {
		// The client did not answer: ask again, with the same state (MRTR's error handling),
		// unless the guard says the state was used (checked before any work on the state).
		if err := states.Check(ctx, opened); err != nil {
			return nil, err
		}
	}
	conv, err := r.Loop.Resume(sampling.Snapshot{ID: ls.Conversation, Iterations: ls.Iterations, Params: params}, caps)
	if err != nil {
		return nil, loopError(err)
	}
	if responseErr != nil {
		return nil, invalidAnswer(ls.Key, responseErr)
	}
	if boundary.IsNil(response) {
		return &NeutralOutcome{Key: ls.Key, Request: conv.Next(), State: *req.RequestState}, nil
	}
	res, err := boundary.Convert[v1125.CreateMessageResult](response)
	if err != nil {
		return nil, invalidAnswer(ls.Key, err)
	}
	// The answer is checked against the loop's rules before the state is used, so that a client
	// whose answer is refused may correct it and retry with the same state.
	if err := conv.Check(res); err != nil {
		return nil, invalidAnswer(ls.Key, err)
	}
	if err := states.Use(ctx, opened); err != nil {
		return nil, err
	}
	if err := conv.Accept(ctx, res); err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		return nil, loopError(err)
	}
	if conv.Next() == nil {
		return &NeutralOutcome{Result: conv.Result()}, nil
	}
	return r.ask(states, conv, req.Binding)
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
func (r *Runner) ask(states *States, conv *sampling.Conversation, b Binding) (*NeutralOutcome, error) {
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
	return &NeutralOutcome{Key: key, Request: conv.Next(), State: state}, nil
}

func neutralCapabilities(c json.Marshaler) (*v1125.ClientCapabilities, error) {
	if boundary.IsNil(c) {
		return &v1125.ClientCapabilities{}, nil
	}
	return boundary.Convert[v1125.ClientCapabilities](c)
}

// loopError gives an error of the loop's Start, Resume or Accept its JSON-RPC error.
func loopError(err error) error {
	var cerr *sampling.CapabilityError
	if errors.As(err, &cerr) {
		required, err2 := json.Marshal(map[string]any{"requiredCapabilities": cerr.Required})
		if err2 != nil {
			return withCode(err, codeInternal, err.Error())
		}
		return &rpcError{err: err, code: mcp.CodeMissingRequiredClientCapability,
			message: "sampling with tools needs the client's sampling.tools capability: " + cerr.Err.Error(), data: required}
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
	var verr3 *mcpdraft.ValidationError
	var msgs []string
	switch {
	case errors.As(err, &verr2):
		for _, p := range verr2.Problems {
			msgs = append(msgs, prefix+p.Pointer+": "+p.Message)
		}
	case errors.As(err, &verr3):
		for _, p := range verr3.Problems {
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
	case r.Keys == nil && len(r.Key) < MinKeyBytes:
		return withCode(fmt.Errorf("mrtr: Runner.Key has %d bytes, fewer than %d", len(r.Key), MinKeyBytes), codeInternal, "the server is misconfigured")
	}
	return r.states().check()
}

// states returns the Runner's configuration of its requestStates.
func (r *Runner) states() *States {
	return &States{Key: r.Key, Keys: r.Keys, TTL: r.TTL, MaxStateBytes: r.MaxStateBytes, Guard: r.Guard, Now: r.Now}
}
