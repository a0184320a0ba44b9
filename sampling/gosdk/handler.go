//lint:file-ignore SA1019 sampling is deprecated as of 2026-07-28 (SEP-2577), and still in it: this runs its tool loop

package gosdk

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"sync"
	"weak"

	v1125 "github.com/mcpgen/mcpgen/gen/mcp20251125"
	mcp "github.com/mcpgen/mcpgen/gen/mcp20260728"
	"github.com/mcpgen/mcpgen/sampling"
	"github.com/mcpgen/mcpgen/sampling/mrtr"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// A Handler runs the tool loop of an [mrtr.Runner] inside a go-sdk tool handler, in the multi
// round-trip style of protocol 2026-07-28: a call that needs the client's model is answered with
// a CallToolResult holding the sampling request in InputRequests and the loop's state in
// RequestState; the client samples and calls again with InputResponses and the state, and the
// loop goes on (or ends). The state is the Runner's: authenticated, bounded and expiring, bound
// to the principal, the tool and its arguments (see package mrtr). Without an authenticated
// principal the state is bound to the session it was issued on instead, so that another client
// of the server cannot present it (see Unbound).
//
// Clients of 2025-11-25 and earlier cannot answer InputRequests, and go-sdk's bridge for them
// (it sends the InputRequests as sampling/createMessage requests and calls the handler again
// with the answers) does so only once per call, while the loop may need many samples. So on a
// session of an older protocol, Step never returns InputRequests: it sends each sampling
// request itself with ServerSession.CreateMessageWithTools and feeds the answer, with the state
// just issued, to the Runner's next step, until the loop ends. Both flows run the same steps:
// the same checks, the same state, the same errors.
//
// When the request carries a progressToken (_meta.progressToken), the loop's events (each
// sampling request asked for, each tool use handled, the end; see [sampling.Progress]) go to the
// client as notifications/progress with that token, the event's number as progress (no total)
// and its message, while the request is handled and never after its response. At 2026-07-28 each
// round is a request of its own: a round reports the events of its step (the first round, request
// 1; a retry, the tool uses of the answer it carries and then the next request or the end), with
// the retry's token, and the numbers go on increasing across the rounds. On an older session the
// one call reports them all.
//
// Sampling is deprecated in protocol 2026-07-28 (SEP-2577), which tells servers to integrate
// with model providers' APIs instead, and many clients never declared it: a Handler may fall back
// on a provider's model. With Fallback set (typically a sampler on a provider's API, such as
// backfill's), a call whose client lacks what
// the loop needs (sampling, and sampling.tools when tools are offered; the check of the loop's
// first request) runs the whole loop on Fallback within the call ([sampling.Loop.Run], with the
// call's progress as above) instead of failing with -32021, and no sampling request reaches the
// client; a client with the capability is asked as without a Fallback. The capabilities are the
// call's own at 2026-07-28 (its _meta) and those of initialize before, and the choice is made on
// the call's first request: a retry that carries a requestState goes on with the client.
//
// A Handler is configuration; it is safe for concurrent use.
type Handler struct {
	// Runner runs the loop and keeps its state.
	Runner *mrtr.Runner
	// Principal returns the authenticated principal of a request: a state is accepted only from
	// the principal it was issued to. nil means the user id of the request's OAuth token
	// (req.Extra.TokenInfo.UserID), or "" without one. A request without a principal ("") has its
	// state bound to its session instead (see Unbound).
	Principal func(req *sdk.CallToolRequest) string
	// Unbound, when true, lets the state of a request without a principal be presented on any
	// session: it is bound to the tool and its arguments only, and whoever obtains it (another
	// client of the server, say) may present it. By default such a state is bound to the go-sdk
	// ServerSession it was issued on, and refused on another (-32602, otherPrincipal). A
	// stateless server over HTTP makes a session per request, so without authentication its
	// rounds need Unbound (with a Guard, so that a state is used once).
	Unbound bool
	// Fallback, when set, answers the calls whose client cannot take the sampling requests they
	// need (see above): typically a sampler on a model provider's API. When it is a
	// [sampling.ClientCapabilitiesProvider], its capabilities say what it takes; otherwise it is
	// taken to take sampling with tools, without includeContext. A call that neither the client
	// nor Fallback can take fails as without a Fallback (-32021). Its failures are
	// *FallbackError. nil: every call is the client's.
	Fallback sampling.Sampler
}

// Step runs the loop of h.Runner as far as it can go on a tools/call request, as
// [mrtr.Runner.Step] does. start gives the conversation's first params (the messages and the
// template, see [sampling.Loop.Run]); it is called on the first request of a call only.
//
// It returns one of:
//   - a CallToolResult asking for the model (InputRequests and RequestState set): the handler
//     returns it as it is, and go-sdk answers the call with resultType "input_required". Only on
//     sessions of 2026-07-28 and later;
//   - the loop's result, when it is over (Result.Stop says why: StopEndTurn or
//     StopMaxIterations); the handler answers with what it makes of it;
//   - an error, as Runner.Step gives them (errors.As finds *mrtr.StateError,
//     *sampling.CapabilityError, *sampling.ResultError, ...), or one of this package's: a
//     sampling request that go-sdk's types cannot carry (*LossError, internal error), a
//     request whose capabilities or inputResponses do not convert (invalid params), or a
//     *SamplingError (a sampling request sent on an older session failed), or a *FallbackError
//     (the loop failed on h.Fallback). [JSONRPCError] turns an error into the JSON-RPC error the
//     client should see.
//
// With h.Fallback set, start is called before the client's capabilities are checked, on the
// first request of a call (once), and a call that the fallback answers returns the loop's result.
func (h *Handler) Step(ctx context.Context, req *sdk.CallToolRequest, start func() (*v1125.CreateMessageRequestParams, error)) (*sdk.CallToolResult, *sampling.Result, error) {
	ctx, mreq, err := h.prepare(ctx, req)
	if err != nil {
		return nil, nil, err
	}
	if h.fallbackEnabled(mreq) {
		params, err := start()
		if err != nil {
			return nil, nil, err
		}
		start = func() (*v1125.CreateMessageRequestParams, error) { return params, nil }
		loop := *h.Runner.Loop
		caps, ok := h.fallbackFor(mreq, func(caps *v1125.ClientCapabilities) error {
			_, err := loop.Start(params, caps)
			return err
		})
		if ok {
			loop.Capabilities = caps
			res, err := loop.Run(ctx, h.Fallback, params)
			if err != nil {
				return nil, nil, &FallbackError{Err: err, Result: res}
			}
			return nil, res, nil
		}
	}
	var result *sampling.Result
	res, err := drive(ctx, req, mreq, func(ctx context.Context, mreq mrtr.Request) (*mcp.InputRequiredResult, error) {
		out, err := h.Runner.Step(ctx, mreq, start)
		if err != nil {
			return nil, err
		}
		result = out.Result
		return out.InputRequired, nil
	})
	if err != nil {
		return nil, nil, err
	}
	return res, result, nil
}

// prepare checks the configuration and the request, and returns the Runner's request and the
// context of the steps (with the progress sink when the request carries a progressToken).
func (h *Handler) prepare(ctx context.Context, req *sdk.CallToolRequest) (context.Context, *mrtr.Request, error) {
	if h == nil || h.Runner == nil {
		return nil, nil, &rpcError{code: jsonrpc.CodeInternalError, err: errors.New("gosdk: Handler.Runner is nil")}
	}
	if req == nil || req.Params == nil || req.Session == nil {
		return nil, nil, &rpcError{code: jsonrpc.CodeInternalError, err: errors.New("gosdk: a tools/call request without params or session")}
	}
	params, err := callParams(req)
	if err != nil {
		return nil, nil, err
	}
	principal := ""
	switch {
	case h.Principal != nil:
		principal = h.Principal(req)
	case req.Extra != nil && req.Extra.TokenInfo != nil:
		principal = req.Extra.TokenInfo.UserID
	}
	if principal == "" && !h.Unbound {
		principal = sessionPrincipal(req.Session)
	}
	mreq, err := mrtr.CallTool(params, principal)
	if err != nil {
		return nil, nil, err
	}
	if token := req.Params.GetProgressToken(); token != nil {
		// The loop's events go out while this request is handled, with its own token: the sink
		// lives in this ctx only, so nothing is sent after the response.
		ss := req.Session
		ctx = sampling.WithProgress(ctx, func(ctx context.Context, p sampling.Progress) {
			_ = ss.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: token, Progress: p.Progress, Message: p.Message})
		})
	}
	return ctx, &mreq, nil
}

// fallbackEnabled reports whether a call may go to h.Fallback: one is set, the call is the first
// of its conversation (no requestState), and the Runner is configured well enough to run (else
// the Runner's own error answers every call alike).
func (h *Handler) fallbackEnabled(req *mrtr.Request) bool {
	return h.Fallback != nil && req.RequestState == nil && h.Runner.Loop != nil && (len(h.Runner.Key) >= mrtr.MinKeyBytes || h.Runner.Keys != nil)
}

// fallbackFor decides where a call goes: to h.Fallback, with the capabilities to run it with,
// when check (what the loop or helper checks before its first request) finds a capability
// missing for the client's capabilities and none for Fallback's.
func (h *Handler) fallbackFor(req *mrtr.Request, check func(*v1125.ClientCapabilities) error) (*v1125.ClientCapabilities, bool) {
	client, err := toV1125Capabilities(req.Capabilities)
	if err != nil {
		return nil, false // the Runner refuses them
	}
	var cerr *sampling.CapabilityError
	if !errors.As(check(client), &cerr) {
		return nil, false
	}
	caps := &v1125.ClientCapabilities{Sampling: &v1125.ClientCapabilitiesSampling{Tools: map[string]json.RawMessage{}}}
	if p, ok := h.Fallback.(sampling.ClientCapabilitiesProvider); ok {
		if caps = p.ClientCapabilities(); caps == nil {
			caps = &v1125.ClientCapabilities{}
		}
	}
	if errors.As(check(caps), &cerr) {
		return nil, false
	}
	return caps, true
}

// probe is the sampler of a helper run that only checks capabilities: it fails at once.
var probe = sampling.SamplerFunc(func(context.Context, *v1125.CreateMessageRequestParams) (*v1125.CreateMessageResult, error) {
	return nil, errors.New("gosdk: probe")
})

// A FallbackError is the failure of the loop or of a helper that [Handler] ran on its Fallback:
// the provider's failure (a *sampling.SamplerError wrapping the provider's error), an answer that
// breaks the rules, a helper's *sampling.RetryError, the context's error, ... errors.As finds
// them. [JSONRPCError] leaves it as it is, so that go-sdk answers the call with a tool result
// with isError and this error's text (a failure of the server's model is the tool's failure, not
// a protocol error), except for a request of the server's that is invalid (*sampling.RequestError,
// sampling.ErrSchemaAndTools), which is -32603 as without a Fallback.
type FallbackError struct {
	// Err is the error of sampling.Loop.Run, sampling.SampleTools or sampling.SampleStructured.
	Err error
	// Result is the loop's result (the conversation so far and why it stopped); nil for the
	// helpers.
	Result *sampling.Result
}

func (e *FallbackError) Error() string { return "gosdk: the fallback model: " + e.Err.Error() }

func (e *FallbackError) Unwrap() error { return e.Err }

// drive runs step, a multi round-trip step of the Runner, on a tools/call request: on a session
// of 2026-07-28 once, returning its InputRequests as a CallToolResult; on an older session round
// after round, sending the sampling requests itself, until step is done (it returns nil).
func drive(ctx context.Context, req *sdk.CallToolRequest, mreq *mrtr.Request, step func(context.Context, mrtr.Request) (*mcp.InputRequiredResult, error)) (*sdk.CallToolResult, error) {
	modern := MultiRoundTrip(req.Session)
	for {
		ir, err := step(ctx, *mreq)
		if err != nil || ir == nil {
			return nil, err
		}
		requests, err := toSDKInputRequests(ir.InputRequests)
		if err != nil {
			return nil, err
		}
		if modern {
			res := &sdk.CallToolResult{InputRequests: requests}
			if s := ir.RequestState; s != nil {
				res.RequestState = *s
			}
			return res, nil
		}
		// An older session: ask the client here, and continue with its answers.
		responses, err := fulfil(ctx, req.Session, requests)
		if err != nil {
			return nil, err
		}
		mreq.InputResponses = responses
		mreq.RequestState = ir.RequestState
	}
}

// Step runs the loop of runner on a tools/call request: (&Handler{Runner: runner}).Step.
func Step(ctx context.Context, runner *mrtr.Runner, req *sdk.CallToolRequest, start func() (*v1125.CreateMessageRequestParams, error)) (*sdk.CallToolResult, *sampling.Result, error) {
	return (&Handler{Runner: runner}).Step(ctx, req, start)
}

// MultiRoundTrip reports whether the client of the session answers InputRequests itself
// (protocol 2026-07-28 and later), as go-sdk decides it. On such a session [Handler] asks for
// each sample with a round trip of its own (so the client's limit on the calls of one tool call
// bounds the samples, see the package doc); on an older one it sends the sampling requests itself
// within the call. A session without initialize params (a stateless server's) is of 2026-07-28,
// as in go-sdk.
func MultiRoundTrip(ss *sdk.ServerSession) bool {
	if ss == nil {
		return true
	}
	p := ss.InitializeParams()
	return p == nil || p.ProtocolVersion >= mcp.LatestProtocolVersion
}

// fulfil sends the sampling requests of an older session to its client.
func fulfil(ctx context.Context, ss *sdk.ServerSession, requests sdk.InputRequestMap) (mcp.InputResponses, error) {
	responses := mcp.InputResponses{}
	for _, key := range slices.Sorted(maps.Keys(requests)) {
		p, ok := requests[key].(*sdk.CreateMessageWithToolsParams)
		if !ok {
			return nil, &rpcError{code: jsonrpc.CodeInternalError, err: fmt.Errorf("gosdk: input request %q is a %T, not a sampling request", key, requests[key])}
		}
		res, err := ss.CreateMessageWithTools(ctx, p)
		if err != nil {
			return nil, &SamplingError{Key: key, Err: err}
		}
		r, err := toInputResponse(res)
		if err != nil {
			return nil, &rpcError{code: jsonrpc.CodeInvalidParams, err: fmt.Errorf("gosdk: the client's sampling result %q: %w", key, err)}
		}
		responses[key] = r
	}
	return responses, nil
}

// callParams converts a go-sdk tools/call request to mcpgen's params of 2026-07-28, with the
// client's capabilities: the request's own (_meta io.modelcontextprotocol/clientCapabilities) on
// a session of 2026-07-28, those of initialize on an older one.
func callParams(req *sdk.CallToolRequest) (*mcp.CallToolRequestParams, error) {
	p := &mcp.CallToolRequestParams{Name: req.Params.Name}
	if len(req.Params.Arguments) > 0 && string(req.Params.Arguments) != "null" {
		if err := json.Unmarshal(req.Params.Arguments, &p.Arguments); err != nil {
			return nil, &rpcError{code: jsonrpc.CodeInvalidParams, err: fmt.Errorf("gosdk: arguments: %w", err)}
		}
	}
	caps, err := requestCapabilities(req)
	if err != nil {
		return nil, &rpcError{code: jsonrpc.CodeInvalidParams, err: fmt.Errorf("gosdk: client capabilities: %w", err)}
	}
	p.Meta.ClientCapabilities = *caps
	if req.Params.RequestState != "" {
		s := req.Params.RequestState
		p.RequestState = &s
	}
	if len(req.Params.InputResponses) > 0 {
		p.InputResponses = mcp.InputResponses{}
		for k, v := range req.Params.InputResponses {
			if v == nil {
				continue
			}
			r, err := toInputResponse(v)
			if err != nil {
				return nil, &rpcError{code: jsonrpc.CodeInvalidParams, err: fmt.Errorf("gosdk: inputResponses[%q]: %w", k, err)}
			}
			p.InputResponses[k] = r
		}
	}
	return p, nil
}

// RequestCapabilities returns the client's capabilities for a tools/call request, as [Handler]
// takes them: the request's own (_meta io.modelcontextprotocol/clientCapabilities) on a session
// where [MultiRoundTrip] is true, those of initialize on an older one; empty when it declares
// none. A handler may use them to know which model a Handler with a Fallback will ask (the
// client's when they hold what the loop needs, see [Handler]).
func RequestCapabilities(req *sdk.CallToolRequest) (*v1125.ClientCapabilities, error) {
	if req == nil || req.Params == nil || req.Session == nil {
		return nil, errors.New("gosdk: a tools/call request without params or session")
	}
	caps, err := requestCapabilities(req)
	if err != nil {
		return nil, fmt.Errorf("gosdk: client capabilities: %w", err)
	}
	return toV1125Capabilities(caps)
}

func toV1125Capabilities(c *mcp.ClientCapabilities) (*v1125.ClientCapabilities, error) {
	out := &v1125.ClientCapabilities{}
	if c == nil {
		return out, nil
	}
	data, err := c.MarshalJSON()
	if err != nil {
		return nil, err
	}
	if err := out.UnmarshalJSON(data); err != nil {
		return nil, err
	}
	return out, nil
}

// requestCapabilities returns the client's capabilities for req, as mcpgen's type.
func requestCapabilities(req *sdk.CallToolRequest) (*mcp.ClientCapabilities, error) {
	var v any
	if MultiRoundTrip(req.Session) {
		raw, ok := req.Params.Meta[sdk.MetaKeyClientCapabilities]
		if !ok || raw == nil {
			return &mcp.ClientCapabilities{}, nil
		}
		v = raw
	} else {
		ip := req.Session.InitializeParams()
		if ip == nil || ip.Capabilities == nil {
			return &mcp.ClientCapabilities{}, nil
		}
		v = ip.Capabilities
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	out := &mcp.ClientCapabilities{}
	if err := out.UnmarshalJSON(data); err != nil {
		return nil, err
	}
	return out, nil
}

// toInputResponse converts a client's answer, as go-sdk decoded it, to mcpgen's.
func toInputResponse(v any) (mcp.InputResponse, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return mcp.UnmarshalInputResponse(data)
}

// toSDKInputRequests converts the Runner's input requests to go-sdk's, refusing (with a
// *LossError, as an internal error) a request that go-sdk would not send unchanged.
func toSDKInputRequests(in mcp.InputRequests) (sdk.InputRequestMap, error) {
	out := sdk.InputRequestMap{}
	for key, r := range in {
		cm, ok := r.(*mcp.CreateMessageRequest)
		if !ok {
			return nil, &rpcError{code: jsonrpc.CodeInternalError, err: fmt.Errorf("gosdk: input request %q is a %T, not a sampling request", key, r)}
		}
		want, err := cm.Params.MarshalJSON()
		if err != nil {
			return nil, &rpcError{code: jsonrpc.CodeInternalError, err: err}
		}
		p, err := sdkParams(want)
		if err != nil {
			return nil, &rpcError{code: jsonrpc.CodeInternalError, err: err}
		}
		out[key] = p
	}
	return out, nil
}

// A SamplingError is the failure of a sampling request that [Handler] sent itself, on a session
// older than 2026-07-28: the client answered it with an error, or it could not be sent. It is not
// an error of the tools/call request: [JSONRPCError] leaves it as it is, so that go-sdk answers
// the call with a tool result with isError (the client's JSON-RPC error is not passed off as the
// server's).
type SamplingError struct {
	// Key is the key of the input request.
	Key string
	// Err is the error of ServerSession.CreateMessageWithTools.
	Err error
}

func (e *SamplingError) Error() string {
	return fmt.Sprintf("gosdk: sampling request %s: %v", e.Key, e.Err)
}

func (e *SamplingError) Unwrap() error { return e.Err }

// rpcError is an error of this package with the JSON-RPC code that answers it.
type rpcError struct {
	code int64
	err  error
}

func (e *rpcError) Error() string { return e.err.Error() }
func (e *rpcError) Unwrap() error { return e.err }

// JSONRPCError returns the error a go-sdk tool handler returns for an error of [Handler.Step],
// so that the client gets the JSON-RPC error that answers it: a *jsonrpc.Error with the code,
// message and data of the error mrtr attached, as mcp.NewErrorResponse of gen/mcp20260728 gives
// them (-32602 with data {"reason": ...} for a refused
// requestState, -32602 with the JSON pointer of the problem for an invalid answer, -32021 with
// data {"requiredCapabilities": ...} for a client without sampling.tools, -32603 for the
// server's own failures; an *mcp.Error that start returns is passed on the same way), or of this
// package's errors. go-sdk passes a *jsonrpc.Error through as the call's error response (any
// other error becomes a tool result with isError). Other errors (the context's, start's own, a
// sampling request's failure on an older session, a *FallbackError but for an invalid request of
// the server's) are returned unchanged; nil stays nil.
func JSONRPCError(err error) error {
	if err == nil {
		return nil
	}
	var serr *SamplingError
	if errors.As(err, &serr) {
		return err
	}
	var ferr *FallbackError
	if errors.As(err, &ferr) {
		var rerr *sampling.RequestError
		if errors.As(ferr.Err, &rerr) || errors.Is(ferr.Err, sampling.ErrSchemaAndTools) {
			return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
		}
		return err
	}
	var w *jsonrpc.Error
	if errors.As(err, &w) {
		return w
	}
	var own *rpcError
	var e *mcp.Error
	switch {
	case errors.As(err, &e):
		// mrtr's errors (and an *Error of start's): the error object of a JSON-RPC error response.
		obj := mcp.NewErrorResponse(nil, err).Error
		return &jsonrpc.Error{Code: obj.Code, Message: obj.Message, Data: obj.Data}
	case errors.As(err, &own):
		return &jsonrpc.Error{Code: own.code, Message: own.Error()}
	}
	return err
}

// sessions holds a random id for each live session, forgotten when the session is collected.
var sessions sync.Map // weak.Pointer[sdk.ServerSession] → string

// sessionPrincipal is the principal of the requests of a session that have no authenticated
// one: a random id of the session, which no authenticated principal equals (it starts with a NUL
// byte).
func sessionPrincipal(ss *sdk.ServerSession) string {
	wp := weak.Make(ss)
	if id, ok := sessions.Load(wp); ok {
		return id.(string)
	}
	var b [16]byte
	rand.Read(b[:])
	id, loaded := sessions.LoadOrStore(wp, "\x00session:"+hex.EncodeToString(b[:]))
	if !loaded {
		runtime.AddCleanup(ss, func(wp weak.Pointer[sdk.ServerSession]) { sessions.Delete(wp) }, wp)
	}
	return id.(string)
}
