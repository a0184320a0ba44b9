//lint:file-ignore SA1019 sampling is deprecated as of 2026-07-28 (SEP-2577); this adapts the 2025-11-25 flow, in which it remains

// Package gosdk runs the tool loop of package sampling in servers written with the official Go
// MCP SDK (github.com/modelcontextprotocol/go-sdk, v1.8.0), on the client's model, or on a
// provider's for clients that cannot sample.
//
// # A tool handler, for every protocol version
//
// [Handler] runs the loop of an [mrtr.Runner] in a go-sdk tool handler. On a session of
// 2026-07-28 (go-sdk's default) it works in the multi round-trip style: a call that needs the
// model returns a CallToolResult with the sampling request in InputRequests and the loop's state
// in RequestState (authenticated, bounded, expiring and bound to the principal, the tool and its
// arguments, as package mrtr makes it; without an authenticated principal, to the session, unless
// Handler.Unbound); the client samples and calls again with InputResponses,
// and the loop goes on. On a session of 2025-11-25 or earlier, the same handler sends each
// sampling request itself (ServerSession.CreateMessageWithTools) and runs the following steps
// within the one call, since go-sdk's bridge for older clients answers only one round of
// InputRequests. The client's capabilities come from the request's _meta
// (io.modelcontextprotocol/clientCapabilities) in 2026-07-28 and from initialize before it.
//
//	runner := &mrtr.Runner{Loop: &sampling.Loop{Tools: tools}, Key: key, Guard: &mrtr.MemoryGuard{}} // key: 32+ secret random bytes
//	sdk.AddTool(server, &sdk.Tool{Name: "agent"}, func(ctx context.Context, req *sdk.CallToolRequest, in Input) (*sdk.CallToolResult, any, error) {
//		res, out, err := gosdk.Step(ctx, runner, req, func() (*mcp.CreateMessageRequestParams, error) {
//			return &mcp.CreateMessageRequestParams{ // the first request of the call (mcp: gen/mcp20251125)
//				Messages:  []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewSamplingMessageContent(&mcp.TextContent{Text: in.Prompt})}},
//				MaxTokens: 1024,
//			}, nil
//		})
//		if err != nil {
//			return nil, nil, gosdk.JSONRPCError(err) // -32602 for a refused state, -32021 without sampling.tools, ...
//		}
//		if res != nil {
//			return res, nil, nil // InputRequests: the client samples and calls again
//		}
//		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: out.Text()}}}, nil, nil
//	})
//
// Errors keep what caused them (errors.As finds *mrtr.StateError, *sampling.CapabilityError,
// ...), so a handler can answer some of them with a tool result instead; [JSONRPCError] gives the
// JSON-RPC error (go-sdk passes a *jsonrpc.Error through as the call's error response, and turns
// any other error into a tool result with isError).
//
// At 2026-07-28 every sample is a round trip, and go-sdk's client (v1.8.0) makes at most 10 calls
// for one tool call (its maxMultiRoundTripRetries): when the 10th call is answered with
// InputRequests again, the client fails the call itself ("multi-round-trip: exceeded maximum
// retries (10)") and the server's answer is lost. So with that client a loop gets at most 9
// samples. A loop whose Loop.MaxIterations is 9 or less ends at its limit with StopMaxIterations
// and the handler's own answer; a server that allows more can cap the limit on the sessions where
// [MultiRoundTrip] is true, as examples/sampling-agent does. The helpers below take one sample
// per attempt, so the same client allows them at most 9 attempts (Retries of 8 or less). On older
// sessions there is no such limit: the handler sends the sampling requests within the one call.
//
// The guaranteed helpers of package sampling run the same way: [Handler.SampleTools] (at least
// one valid tool call) and [SampleStructured] (a value of a Go type), with the retries and errors
// of [sampling.SampleTools] and [sampling.SampleStructured], one round trip per attempt at
// 2026-07-28 (package mrtr replays the helper over the answers recorded in the state).
//
// A call whose _meta carries a progressToken gets the loop's events (each request to the model,
// each tool use handled, the end; a helper's attempts) as notifications/progress, sent while the
// request that carried the token is handled, never after its response; the numbers go on
// increasing from round to round.
//
// # The migration path off sampling (SEP-2577)
//
// Sampling is deprecated in protocol 2026-07-28 (SEP-2577): servers are told to integrate with
// model providers' APIs, and many clients never declared sampling, or sampling.tools. A
// Handler's Fallback (typically a sampler on a provider's API, such as backfill's
// NewAnthropicSampler or NewOpenAISampler) takes the calls whose client cannot: when the
// client's capabilities (the request's own at 2026-07-28, initialize's before) lack what the
// loop's first request needs (sampling; sampling.tools when tools are offered), the handler runs
// the whole loop on Fallback within the call, with the same progress, instead of failing with
// -32021, and no sampling request reaches the client. A client with the capability is still
// asked, in the flow of its version. The helpers choose the same way. A failure of the
// fallback's model is a [*FallbackError], which go-sdk answers with a tool result with isError:
//
//	h := &gosdk.Handler{Runner: runner, Fallback: provider} // provider: a sampling.Sampler
//	res, out, err := h.Step(ctx, req, start)                // as above; out is the loop's result
//
// # A Sampler, for 2025-11-25
//
// [Sampler] makes a server session a [sampling.Sampler], so that a go-sdk server runs the loop
// (or the helpers of package sampling) with one call:
//
//	res, err := gosdk.Run(ctx, req.Session, loop, params) // loop: a *sampling.Loop
//
// The sampler sends sampling/createMessage with the SDK's ServerSession.CreateMessageWithTools,
// and takes the client's capabilities from its initialize request (so the loop checks
// sampling.tools before sending). The SDK sends server-initiated requests only in sessions of
// protocol 2025-11-25 and earlier: in 2026-07-28 it refuses them, and a server asks with
// InputRequests, which is what [Handler] does. So on a session of 2026-07-28 the Sampler reports
// the client's capabilities without sampling, and sends nothing ([ErrMultiRoundTrip]): the loop
// on it stops before its first request (a *sampling.CapabilityError), and a sampler that picks
// the client's model or a provider's by these capabilities (backfill.Fallback) picks the
// provider's by itself.
//
// # Conversions
//
// The conversion between mcpgen's types (gen/mcp20251125, gen/mcp20260728) and the SDK's goes
// through JSON, the form both agree on. A request that the SDK's types cannot carry unchanged is
// not sent: the SDK drops what its structs have no field for (unknown members, a message's _meta,
// a tool's execution) and what its omitempty tags take for unset (temperature 0, an empty
// stopSequences), and [ToSDKParams] (and Handler, for its InputRequests) compares the JSON the SDK
// will send with mcpgen's and returns a [*LossError] naming the first difference (the single and
// array forms of a message's content, which the SDK chooses by itself, count as equal). Results
// are taken as the SDK decoded them; the loop validates them.
package gosdk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
	"github.com/mcpgen/mcpgen/sampling"
	"github.com/mcpgen/mcpgen/sampling/gosdk/internal/jsonvalue"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// A Sampler sends sampling requests through a go-sdk server session. It implements
// [sampling.Sampler] and [sampling.ClientCapabilitiesProvider].
type Sampler struct {
	session *sdk.ServerSession
}

var (
	_ sampling.Sampler                    = (*Sampler)(nil)
	_ sampling.ClientCapabilitiesProvider = (*Sampler)(nil)
)

// NewSampler returns a Sampler on the session (a tool handler's req.Session).
func NewSampler(session *sdk.ServerSession) *Sampler {
	return &Sampler{session: session}
}

// Run runs the loop on the client's model behind the session: loop.Run(ctx, NewSampler(session),
// params). On a session where [MultiRoundTrip] is true it stops before the first request, with a
// *sampling.CapabilityError (see [Sampler.ClientCapabilities]): use [Handler] there.
func Run(ctx context.Context, session *sdk.ServerSession, loop *sampling.Loop, params *mcp.CreateMessageRequestParams) (*sampling.Result, error) {
	return loop.Run(ctx, NewSampler(session), params)
}

// ErrMultiRoundTrip is the error of [Sampler.CreateMessage] on a session where [MultiRoundTrip]
// is true: there a server cannot send a sampling request while it serves one (go-sdk refuses it),
// and asks for the client's model with InputRequests instead, as [Handler] does.
var ErrMultiRoundTrip = errors.New("gosdk: a session of protocol 2026-07-28 or later carries no sampling request from the server: ask with InputRequests (gosdk.Handler)")

// CreateMessage implements [sampling.Sampler]. On a session where [MultiRoundTrip] is true it
// sends nothing and fails with ErrMultiRoundTrip.
func (s *Sampler) CreateMessage(ctx context.Context, params *mcp.CreateMessageRequestParams) (*mcp.CreateMessageResult, error) {
	if MultiRoundTrip(s.session) {
		return nil, ErrMultiRoundTrip
	}
	p, err := ToSDKParams(params)
	if err != nil {
		return nil, err
	}
	res, err := s.session.CreateMessageWithTools(ctx, p)
	if err != nil {
		return nil, err
	}
	return FromSDKResult(res)
}

// ClientCapabilities reports what the Sampler can carry: the capabilities the client declared in
// initialize (nil before it), without sampling on a session where [MultiRoundTrip] is true, since
// the Sampler cannot send sampling requests there whatever the client declared. So the loop and
// the helpers of package sampling refuse to run on it there (a *sampling.CapabilityError) rather
// than fail at the first request, and a sampler that chooses between the client's model and a
// provider's by these capabilities (backfill.Fallback) chooses the provider's.
func (s *Sampler) ClientCapabilities() *mcp.ClientCapabilities {
	p := s.session.InitializeParams()
	if p == nil || p.Capabilities == nil {
		return nil
	}
	caps, err := Capabilities(p.Capabilities)
	if err != nil {
		return nil
	}
	if MultiRoundTrip(s.session) {
		caps.Sampling = nil
	}
	return caps
}

// Capabilities converts the SDK's client capabilities.
func Capabilities(c *sdk.ClientCapabilities) (*mcp.ClientCapabilities, error) {
	data, err := json.Marshal(c)
	if err != nil {
		return nil, err
	}
	var out mcp.ClientCapabilities
	if err := out.UnmarshalJSON(data); err != nil {
		return nil, err
	}
	return &out, nil
}

// A LossError is a request that the SDK's types cannot carry unchanged.
type LossError struct {
	// Pointer is the JSON pointer of the first difference, in the params.
	Pointer string
	// Want is mcpgen's JSON of that part, Got the SDK's ("" when absent).
	Want, Got string
}

func (e *LossError) Error() string {
	switch {
	case e.Got == "":
		return fmt.Sprintf("gosdk: the SDK's types cannot carry %s: %s would not be sent", e.Pointer, e.Want)
	case e.Want == "":
		return fmt.Sprintf("gosdk: the SDK would send %s: %s, which the request does not hold", e.Pointer, e.Got)
	}
	return fmt.Sprintf("gosdk: the SDK would send %s as %s, not %s", e.Pointer, e.Got, e.Want)
}

// ToSDKParams converts sampling request params to the SDK's, and fails with a *LossError when
// the SDK would not send the same JSON.
func ToSDKParams(p *mcp.CreateMessageRequestParams) (*sdk.CreateMessageWithToolsParams, error) {
	want, err := p.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return sdkParams(want)
}

// sdkParams decodes the JSON of sampling request params (of any version from 2025-11-25 on) into
// the SDK's, and fails with a *LossError when the SDK would not send the same JSON.
func sdkParams(want []byte) (*sdk.CreateMessageWithToolsParams, error) {
	out, ok := decodeSDKParams(want)
	if !ok {
		out = new(sdk.CreateMessageWithToolsParams)
		if err := json.Unmarshal(want, out); err != nil {
			return nil, fmt.Errorf("gosdk: the SDK does not take the request: %w", err)
		}
	}
	got, err := json.Marshal(out)
	if err != nil {
		return nil, fmt.Errorf("gosdk: the SDK does not encode the request: %w", err)
	}
	if err := compare(want, got); err != nil {
		return nil, err
	}
	return out, nil
}

// FromSDKParams converts the SDK's sampling request params (as a go-sdk client's handler gets
// them) to mcpgen's, without validating them.
func FromSDKParams(p *sdk.CreateMessageWithToolsParams) (*mcp.CreateMessageRequestParams, error) {
	data, err := json.Marshal(p)
	if err != nil {
		return nil, err
	}
	var out mcp.CreateMessageRequestParams
	if err := out.UnmarshalJSON(data); err != nil {
		return nil, err
	}
	return &out, nil
}

// FromSDKResult converts the SDK's sampling result to mcpgen's, without validating it (the loop
// does).
func FromSDKResult(r *sdk.CreateMessageWithToolsResult) (*mcp.CreateMessageResult, error) {
	data, err := json.Marshal(r)
	if err != nil {
		return nil, fmt.Errorf("gosdk: encoding the SDK's result: %w", err)
	}
	var out mcp.CreateMessageResult
	if err := out.UnmarshalJSON(data); err != nil {
		return nil, fmt.Errorf("gosdk: the client's result: %w", err)
	}
	return &out, nil
}

// ToSDKResult converts a sampling result to the SDK's (for a go-sdk client's handler that
// answers with a model working on mcpgen's types).
func ToSDKResult(r *mcp.CreateMessageResult) (*sdk.CreateMessageWithToolsResult, error) {
	data, err := r.MarshalJSON()
	if err != nil {
		return nil, err
	}
	var out sdk.CreateMessageWithToolsResult
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// compare returns a *LossError for the first difference between two JSON values, taking a
// message's single content block and an array of that one block as equal.
func compare(want, got []byte) error {
	var a, b any
	if err := json.Unmarshal(want, &a); err != nil {
		return err
	}
	if err := json.Unmarshal(got, &b); err != nil {
		return err
	}
	return diff(normalize(a, ""), normalize(b, ""))
}

// normalize turns the single-block form of a message's content into the array form.
func normalize(v any, key string) any {
	switch v := v.(type) {
	case map[string]any:
		if key == "content" {
			if _, ok := v["type"]; ok {
				return []any{normalize(v, "")}
			}
		}
		for k, x := range v {
			v[k] = normalize(x, k)
		}
	case []any:
		for i, x := range v {
			v[i] = normalize(x, "")
		}
	}
	return v
}

func diff(a, b any) error {
	for d := range jsonvalue.Differences(a, b) {
		return &LossError{Pointer: d.Pointer, Want: show(d.A), Got: show(d.B)}
	}
	return nil
}

// show is a value's JSON, or "" for a member that is absent.
func show(v any) string {
	if v == jsonvalue.Absent {
		return ""
	}
	data, _ := json.Marshal(v)
	return string(data)
}
