//lint:file-ignore SA1019 sampling is deprecated as of 2026-07-28 (SEP-2577), and still in it: this runs its helpers

package gosdk

import (
	"context"

	v1125 "github.com/mcpgen/mcpgen/gen/mcp20251125"
	mcp "github.com/mcpgen/mcpgen/gen/mcp20260728"
	"github.com/mcpgen/mcpgen/sampling"
	"github.com/mcpgen/mcpgen/sampling/mrtr"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// SampleTools runs [sampling.SampleTools] (ask the model for at least one valid tool call,
// retrying as opts says) in a go-sdk tool handler, across the round trips of the call as
// [mrtr.Runner.SampleTools] does: each sampling request of the helper is returned as the
// CallToolResult's InputRequests, with the helper's progress in RequestState, until the helper is
// done. On a session older than 2026-07-28 the handler sends the requests itself within the call,
// as [Handler.Step] does.
//
// params gives the helper's params; it is called on every round and must give the same params
// each time (derive them from the call's arguments, to which the state is bound).
// opts.Capabilities is ignored: the client's capabilities are the request's (or initialize's).
//
// It returns a CallToolResult asking for the model (return it as it is), or the helper's answer
// (its tool calls are not run), or an error: those of [Handler.Step], and the helper's
// *sampling.RetryError when every attempt was refused (a handler may answer that with a tool
// result with isError; [JSONRPCError] makes it -32603).
//
// With h.Fallback set, a call whose client lacks sampling.tools (or what else the helper's
// request needs) runs the helper on h.Fallback within the call, as [Handler.Step] does the loop;
// its failures are a *FallbackError (errors.As still finds a *sampling.RetryError in it).
func (h *Handler) SampleTools(ctx context.Context, req *sdk.CallToolRequest, params func() (*v1125.CreateMessageRequestParams, error), opts *sampling.RetryOptions) (*sdk.CallToolResult, *sampling.ToolCalls, error) {
	ctx, mreq, err := h.prepare(ctx, req)
	if err != nil {
		return nil, nil, err
	}
	if h.fallbackEnabled(mreq) {
		var calls *sampling.ToolCalls
		ran, err := h.runHelper(ctx, mreq, params, func(ctx context.Context, s sampling.Sampler, p *v1125.CreateMessageRequestParams, caps *v1125.ClientCapabilities) error {
			var o sampling.RetryOptions
			if opts != nil {
				o = *opts
			}
			o.Capabilities = caps
			var err error
			calls, err = sampling.SampleTools(ctx, s, p, &o)
			return err
		})
		if ran {
			if err != nil {
				return nil, nil, err
			}
			return nil, calls, nil
		}
	}
	var calls *sampling.ToolCalls
	res, err := drive(ctx, req, mreq, func(ctx context.Context, mreq mrtr.Request) (*mcp.InputRequiredResult, error) {
		out, err := h.Runner.SampleTools(ctx, mreq, params, opts)
		if err != nil {
			return nil, err
		}
		calls = out.Calls
		return out.InputRequired, nil
	})
	if err != nil {
		return nil, nil, err
	}
	return res, calls, nil
}

// SampleStructured runs [sampling.SampleStructured] (ask the model for a value of the Go type T
// through a forced tool, retrying as opts says) in a go-sdk tool handler, across the round trips
// of the call, as [Handler.SampleTools] does, and on h.Fallback when the client cannot take its
// requests. Its errors are those of Handler.SampleTools; params holding tools or a toolChoice
// (sampling.ErrSchemaAndTools) is an internal error.
func SampleStructured[T any](ctx context.Context, h *Handler, req *sdk.CallToolRequest, params func() (*v1125.CreateMessageRequestParams, error), opts *sampling.StructuredOptions) (*sdk.CallToolResult, *sampling.Structured[T], error) {
	ctx, mreq, err := h.prepare(ctx, req)
	if err != nil {
		return nil, nil, err
	}
	if h.fallbackEnabled(mreq) {
		var answer *sampling.Structured[T]
		ran, err := h.runHelper(ctx, mreq, params, func(ctx context.Context, s sampling.Sampler, p *v1125.CreateMessageRequestParams, caps *v1125.ClientCapabilities) error {
			var o sampling.StructuredOptions
			if opts != nil {
				o = *opts
			}
			o.Capabilities = caps
			var err error
			answer, err = sampling.SampleStructured[T](ctx, s, p, &o)
			return err
		})
		if ran {
			if err != nil {
				return nil, nil, err
			}
			return nil, answer, nil
		}
	}
	var answer *sampling.Structured[T]
	res, err := drive(ctx, req, mreq, func(ctx context.Context, mreq mrtr.Request) (*mcp.InputRequiredResult, error) {
		out, err := mrtr.SampleStructured[T](ctx, h.Runner, mreq, params, opts)
		if err != nil {
			return nil, err
		}
		answer = out.Answer
		return out.InputRequired, nil
	})
	if err != nil {
		return nil, nil, err
	}
	return res, answer, nil
}

// runHelper runs a helper on h.Fallback when the client cannot take its requests and the
// fallback can: run runs the helper on the given sampler and capabilities. It first runs it on a
// probe, without progress, to learn whether the helper's check of its request refuses the
// client's capabilities (and then the fallback's). ran says whether the helper ran on the
// fallback; its failure is a *FallbackError. params' own error is returned as it is, with ran.
func (h *Handler) runHelper(ctx context.Context, req *mrtr.Request, params func() (*v1125.CreateMessageRequestParams, error),
	run func(ctx context.Context, s sampling.Sampler, p *v1125.CreateMessageRequestParams, caps *v1125.ClientCapabilities) error) (ran bool, err error) {
	p, err := params()
	if err != nil {
		return true, err
	}
	quiet := sampling.WithProgress(ctx, nil)
	caps, ok := h.fallbackFor(req, func(caps *v1125.ClientCapabilities) error {
		return run(quiet, probe, p, caps)
	})
	if !ok {
		return false, nil
	}
	if err := run(ctx, h.Fallback, p, caps); err != nil {
		return true, &FallbackError{Err: err}
	}
	return true, nil
}
