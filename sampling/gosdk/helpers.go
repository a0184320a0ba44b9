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
func (h *Handler) SampleTools(ctx context.Context, req *sdk.CallToolRequest, params func() (*v1125.CreateMessageRequestParams, error), opts *sampling.RetryOptions) (*sdk.CallToolResult, *sampling.ToolCalls, error) {
	ctx, mreq, err := h.prepare(ctx, req)
	if err != nil {
		return nil, nil, err
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
// of the call, as [Handler.SampleTools] does. Its errors are those of Handler.SampleTools; params
// holding tools or a toolChoice (sampling.ErrSchemaAndTools) is an internal error.
func SampleStructured[T any](ctx context.Context, h *Handler, req *sdk.CallToolRequest, params func() (*v1125.CreateMessageRequestParams, error), opts *sampling.StructuredOptions) (*sdk.CallToolResult, *sampling.Structured[T], error) {
	ctx, mreq, err := h.prepare(ctx, req)
	if err != nil {
		return nil, nil, err
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
