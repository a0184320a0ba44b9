//lint:file-ignore SA1019 sampling is deprecated in the draft too, and still in it: this package runs it

// Package mrtrdraft is package mrtr on the draft's types (gen/mcpdraft): the tool loop of package
// sampling over multi round-trip requests, with the same names, the same state and the same
// errors. Only the boundary differs: the client's capabilities, inputResponses and the
// InputRequiredResult are the draft's. All the logic is mrtr's ([mrtr.Runner.StepNeutral],
// [mrtr.States]); read mrtr's package doc for the flow, the state and what it guarantees.
//
// A tools/call handler of a draft server:
//
//	runner := &mrtrdraft.Runner{Loop: loop, Key: key, Guard: guard}
//
//	req, err := mrtrdraft.CallTool(p, user) // p: *mcpdraft.CallToolRequestParams
//	...
//	out, err := runner.Step(ctx, req, firstParams)
//	// err: mcpdraft.NewErrorResponse(id, err) answers with its JSON-RPC error
//	// out.InputRequired: answer with it; out.Result: the loop is over
//
// Errors are mrtr's: a refused state is an *mrtr.StateError (errors.Is with mrtr.ErrExpiredState,
// ...), and every error carries its JSON-RPC error as an *mcpdraft.Error (errors.As).
package mrtrdraft

import (
	"context"
	"encoding/json"
	"fmt"

	v1125 "github.com/mcpgen/mcpgen/gen/mcp20251125"
	mcp "github.com/mcpgen/mcpgen/gen/mcpdraft"
	"github.com/mcpgen/mcpgen/sampling"
	"github.com/mcpgen/mcpgen/sampling/mrtr"
	"github.com/mcpgen/mcpgen/sampling/mrtr/internal/boundary"
)

// A Runner is an [mrtr.Runner] (the same fields, the same meaning) whose Step takes and gives
// the draft's types. Convert between the two with a conversion: (*mrtr.Runner)(r).
type Runner mrtr.Runner

// A Request is [mrtr.Request] with the draft's capabilities and inputResponses.
type Request struct {
	// Method is the request's method, e.g. "tools/call".
	Method string
	// Binding holds the request's salient parameters; a state is accepted only on a request
	// with the same method and binding.
	Binding string
	// Principal is the authenticated principal the request comes from, "" if there is none.
	Principal string
	// Capabilities are the client's capabilities declared in this request's _meta.
	Capabilities *mcp.ClientCapabilities
	// InputResponses and RequestState are the retry's (both nil on the first request).
	InputResponses mcp.InputResponses
	RequestState   *string
}

// CallTool returns the Request of a draft tools/call request, as [mrtr.CallTool] does.
func CallTool(p *mcp.CallToolRequestParams, principal string) (Request, error) {
	binding, err := boundary.CallToolBinding(p.Name, p.Arguments)
	if err != nil {
		return Request{}, fmt.Errorf("mrtrdraft: arguments: %w", &mcp.Error{Code: mcp.CodeInvalidParams, Message: "arguments: " + err.Error()})
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

// An Outcome is [mrtr.Outcome] with the draft's InputRequiredResult.
type Outcome struct {
	// InputRequired asks the client to sample and retry; the caller answers the request with
	// it.
	InputRequired *mcp.InputRequiredResult
	// Result is the loop's result when it is over.
	Result *sampling.Result
}

// Step is [mrtr.Runner.Step] on the draft's types.
func (r *Runner) Step(ctx context.Context, req Request, start func() (*v1125.CreateMessageRequestParams, error)) (*Outcome, error) {
	out, err := (*mrtr.Runner)(r).StepNeutral(ctx, req.neutral(), start)
	if err != nil {
		return nil, err
	}
	if out.Result != nil {
		return &Outcome{Result: out.Result}, nil
	}
	ir, err := inputRequired(out)
	if err != nil {
		return nil, err
	}
	return &Outcome{InputRequired: ir}, nil
}

// ToolsOutcome is [mrtr.ToolsOutcome] with the draft's InputRequiredResult.
type ToolsOutcome struct {
	// InputRequired asks the client for the helper's next sample; answer the request with it.
	InputRequired *mcp.InputRequiredResult
	// Calls is the helper's result, when it is done (the tools are not run).
	Calls *sampling.ToolCalls
}

// SampleTools is [mrtr.Runner.SampleTools] on the draft's types.
func (r *Runner) SampleTools(ctx context.Context, req Request, params func() (*v1125.CreateMessageRequestParams, error), opts *sampling.RetryOptions) (*ToolsOutcome, error) {
	var calls *sampling.ToolCalls
	out, err := (*mrtr.Runner)(r).ReplayNeutral(ctx, req.neutral(), "SampleTools", boundary.ToolsRun(params, opts, &calls))
	if err != nil {
		return nil, err
	}
	if out.Request == nil {
		return &ToolsOutcome{Calls: calls}, nil
	}
	ir, err := inputRequired(out)
	if err != nil {
		return nil, err
	}
	return &ToolsOutcome{InputRequired: ir}, nil
}

// StructuredOutcome is [mrtr.StructuredOutcome] with the draft's InputRequiredResult.
type StructuredOutcome[T any] struct {
	// InputRequired asks the client for the helper's next sample; answer the request with it.
	InputRequired *mcp.InputRequiredResult
	// Answer is the helper's result, when it is done.
	Answer *sampling.Structured[T]
}

// SampleStructured is [mrtr.SampleStructured] on the draft's types.
func SampleStructured[T any](ctx context.Context, r *Runner, req Request, params func() (*v1125.CreateMessageRequestParams, error), opts *sampling.StructuredOptions) (*StructuredOutcome[T], error) {
	var answer *sampling.Structured[T]
	out, err := (*mrtr.Runner)(r).ReplayNeutral(ctx, req.neutral(), "SampleStructured", boundary.StructuredRun(params, opts, &answer))
	if err != nil {
		return nil, err
	}
	if out.Request == nil {
		return &StructuredOutcome[T]{Answer: answer}, nil
	}
	ir, err := inputRequired(out)
	if err != nil {
		return nil, err
	}
	return &StructuredOutcome[T]{InputRequired: ir}, nil
}

// neutral returns req in the loop's own types.
func (req *Request) neutral() *mrtr.NeutralRequest {
	var caps json.Marshaler
	if req.Capabilities != nil {
		caps = req.Capabilities
	}
	return &mrtr.NeutralRequest{
		Binding:      mrtr.Binding{Principal: req.Principal, Method: req.Method, Request: req.Binding},
		Capabilities: caps,
		RequestState: req.RequestState,
		Response: func(key string) (json.Marshaler, error) {
			return boundary.Answer[*mcp.CreateMessageResult](req.InputResponses, key)
		},
	}
}

// inputRequired returns the InputRequiredResult asking for out's sampling request.
func inputRequired(out *mrtr.NeutralOutcome) (*mcp.InputRequiredResult, error) {
	params, err := boundary.Convert[mcp.CreateMessageRequestParams](out.Request)
	if err != nil {
		return nil, internal("converting the sampling request", err)
	}
	state := out.State
	res := &mcp.InputRequiredResult{
		ResultType:    mcp.ResultTypeInputRequired,
		InputRequests: mcp.InputRequests{out.Key: &mcp.CreateMessageRequest{Method: mcp.MethodCreateMessage, Params: *params}},
		RequestState:  &state,
	}
	if err := res.Validate(); err != nil {
		return nil, internal("the sampling request is invalid in the draft", err)
	}
	return res, nil
}

func internal(what string, err error) error {
	return fmt.Errorf("mrtrdraft: %s: %w", what, &mcp.Error{Code: mcp.CodeInternalError, Message: what + ": " + err.Error()})
}
