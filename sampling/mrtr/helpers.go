//lint:file-ignore SA1019 sampling is deprecated as of 2026-07-28 (SEP-2577), and still in it: this package runs it

package mrtr

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"

	v1125 "github.com/mcpgen/mcpgen/gen/mcp20251125"
	mcp "github.com/mcpgen/mcpgen/gen/mcp20260728"
	"github.com/mcpgen/mcpgen/sampling"
	"github.com/mcpgen/mcpgen/sampling/mrtr/internal/boundary"
)

// The guaranteed helpers of package sampling ([sampling.SampleTools], [sampling.SampleStructured])
// ask a Sampler and wait for its answer, which a server of 2026-07-28 cannot do: it must answer
// the request with an InputRequiredResult and get the model's answer in the retry. The helpers
// here run them across the round trips by replay: the state records the model's answers received
// so far and a digest of each request sent; each round re-runs the helper from the start with a
// Sampler that answers from the record, and stops at the first request the record does not answer,
// which it asks the client for. The helpers have no effect besides sampling, so running them again
// is safe; every replayed request must match its digest (the helper and its params must be
// deterministic), or the step fails with an internal error. The retries, the checks and the
// errors are the helpers' own.

// errPending stops a replayed helper at its first unanswered request.
var errPending = errors.New("mrtr: the helper waits for the client's answer")

// errDiverged is a replayed helper that asked otherwise than it did before.
var errDiverged = errors.New("mrtr: the helper's replayed request differs from the one it sent before: its params must be the same on every round")

// replayState is the body of a helper's requestStates.
type replayState struct {
	// Key is the key of the pending sampling request in inputRequests.
	Key string `json:"key"`
	// Answers are the model's answers received so far (CreateMessageResults of 2025-11-25).
	Answers []json.RawMessage `json:"answers"`
	// Digests are those of the requests sent: one per answer, then the pending request's.
	Digests []string `json:"digests"`
}

// replaySampler answers a replayed helper from the record, then with the retry's new answer, and
// stops it at the first request left.
type replaySampler struct {
	answers []json.RawMessage
	digests []string
	fresh   *v1125.CreateMessageResult // the retry's answer, nil if it holds none
	n       int

	pending       *v1125.CreateMessageRequestParams
	pendingDigest string
}

func (s *replaySampler) CreateMessage(_ context.Context, p *v1125.CreateMessageRequestParams) (*v1125.CreateMessageResult, error) {
	d, err := requestDigest(p)
	if err != nil {
		return nil, err
	}
	i := s.n
	s.n++
	switch {
	case i < len(s.answers):
		if d != s.digests[i] {
			return nil, errDiverged
		}
		var res v1125.CreateMessageResult
		if err := res.UnmarshalJSON(s.answers[i]); err != nil {
			return nil, err
		}
		return &res, nil
	case i == len(s.answers) && s.fresh != nil:
		if d != s.digests[i] {
			return nil, errDiverged
		}
		data, err := s.fresh.MarshalJSON()
		if err != nil {
			return nil, err
		}
		s.answers = append(s.answers, data)
		res := s.fresh
		s.fresh = nil
		return res, nil
	}
	s.pending, s.pendingDigest = p, d
	return nil, errPending
}

// requestDigest identifies a sampling request by its canonical JSON.
func requestDigest(p *v1125.CreateMessageRequestParams) (string, error) {
	data, err := p.MarshalJSON()
	if err != nil {
		return "", err
	}
	c, err := Canonical(data)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(c))
	return base64.RawURLEncoding.EncodeToString(sum[:]), nil
}

// ReplayNeutral runs a helper of package sampling across the round trips of req, by replay (see
// [Runner.SampleTools]), in the loop's own types: the one implementation that each version's
// SampleTools and SampleStructured call. helper names the helper; the state is bound to it as
// well as to req's binding. run runs the helper with the given Sampler and the client's
// capabilities (set them as the helper's RetryOptions.Capabilities) and keeps its result; it is
// called once per round, and must ask the same requests every time.
//
// The outcome is the helper's next sampling request (Key, Request, State), or, when run
// returned without waiting for the client, an outcome with a nil Request: the result is what run
// kept. Errors: those of Step for the state and the answer (an answer the helper's checks refuse
// as breaking the protocol is -32602 under its key), -32021 when the client lacks
// sampling.tools, -32603 for an invalid request or a helper that asks otherwise on replay, and the
// helper's *sampling.RetryError (every attempt refused) with -32603; run's other errors as they
// are.
func (r *Runner) ReplayNeutral(ctx context.Context, req *NeutralRequest, helper string,
	run func(ctx context.Context, s sampling.Sampler, caps *v1125.ClientCapabilities) error) (*NeutralOutcome, error) {
	if err := r.check(); err != nil {
		return nil, err
	}
	caps, err := neutralCapabilities(req.Capabilities)
	if err != nil {
		return nil, withCode(err, codeInvalidParams, "clientCapabilities: "+err.Error())
	}
	states := r.states()
	b := req.Binding
	b.Request = "helper:" + helper + "\x00" + b.Request
	s := &replaySampler{}
	var key string
	var opened *Opened
	if req.RequestState != nil {
		if opened, key, err = openReplay(states, req, b, s); err != nil {
			return nil, err
		}
	}
	answered := s.fresh != nil
	ctx = replayProgress(ctx, s, opened)
	err = run(ctx, s, caps)
	var rerr *sampling.ResultError
	if answered && s.fresh == nil && !errors.As(err, &rerr) && !errors.Is(err, errDiverged) {
		// The helper took the answer: the state is used (the helper has no effect besides
		// sampling, so it ran before the guard was asked; what it made of the answer is only
		// given once).
		if err := states.Use(ctx, opened); err != nil {
			return nil, err
		}
	}
	switch {
	case err == nil:
		if s.fresh != nil || s.n != len(s.answers) {
			return nil, withCode(errDiverged, codeInternal, errDiverged.Error())
		}
		return &NeutralOutcome{}, nil
	case errors.Is(err, errPending):
	case errors.Is(err, errDiverged):
		return nil, withCode(err, codeInternal, errDiverged.Error())
	default:
		return nil, helperError(key, err)
	}
	if opened != nil && !answered {
		return askAgain(ctx, states, s, key, opened, *req.RequestState)
	}
	return issueNextRound(states, b, s)
}

// openReplay opens the state that req presents, bound to b, into s: the answers recorded so
// far, the digests of their requests and of the pending one, and the client's answer to the
// pending request, under the state's key, which it gives with the opened state.
func openReplay(states *States, req *NeutralRequest, b Binding, s *replaySampler) (*Opened, string, error) {
	opened, err := states.Open(*req.RequestState, b)
	if err != nil {
		return nil, "", err
	}
	var rs replayState
	d := json.NewDecoder(bytes.NewReader(opened.Body))
	d.DisallowUnknownFields()
	if err := d.Decode(&rs); err != nil || len(rs.Digests) != len(rs.Answers)+1 {
		return nil, "", stateErr(ErrMalformedState, codeInvalidParams, "requestState does not decode")
	}
	s.answers, s.digests = rs.Answers, rs.Digests
	response, err := req.Response(rs.Key)
	if err != nil {
		return nil, "", invalidAnswer(rs.Key, err)
	}
	if !boundary.IsNil(response) {
		if s.fresh, err = boundary.Convert[v1125.CreateMessageResult](response); err != nil {
			return nil, "", invalidAnswer(rs.Key, err)
		}
	}
	return opened, rs.Key, nil
}

// replayProgress is ctx with its progress function, if any, reporting only the attempts the
// helper asks in this round: the attempts replayed from s's record, and the pending one of a
// retry (opened is the state presented, nil for none), were reported in the rounds that asked
// them.
func replayProgress(ctx context.Context, s *replaySampler, opened *Opened) context.Context {
	f := sampling.ProgressFromContext(ctx)
	if f == nil {
		return ctx
	}
	reported := float64(len(s.answers))
	if opened != nil {
		reported++
	}
	return sampling.WithProgress(ctx, func(ctx context.Context, p sampling.Progress) {
		if p.Progress > reported {
			f(ctx, p)
		}
	})
}

// askAgain is the outcome of a round in which the client did not answer the pending request
// of the opened state: the same request under key, with the same state, unless it was used or
// the helper asked otherwise.
func askAgain(ctx context.Context, states *States, s *replaySampler, key string, opened *Opened, state string) (*NeutralOutcome, error) {
	if s.pendingDigest != s.digests[len(s.digests)-1] {
		return nil, withCode(errDiverged, codeInternal, errDiverged.Error())
	}
	if err := states.Check(ctx, opened); err != nil {
		return nil, err
	}
	return &NeutralOutcome{Key: key, Request: s.pending, State: state}, nil
}

// issueNextRound is the outcome of a round that recorded every answer so far: the helper's
// pending request under the next key, with a new state bound to b that records s's answers.
func issueNextRound(states *States, b Binding, s *replaySampler) (*NeutralOutcome, error) {
	key := fmt.Sprintf("sampling-%d", len(s.answers)+1)
	body, err := json.Marshal(&replayState{Key: key, Answers: s.answers, Digests: append(s.digests[:len(s.answers):len(s.answers)], s.pendingDigest)})
	if err != nil {
		return nil, withCode(err, codeInternal, "encoding the state: "+err.Error())
	}
	state, err := states.Issue(b, body)
	if err != nil {
		return nil, err
	}
	return &NeutralOutcome{Key: key, Request: s.pending, State: state}, nil
}

// helperError gives an error of a helper its JSON-RPC error.
func helperError(key string, err error) error {
	var rerr *sampling.ResultError
	var retryErr *sampling.RetryError
	var reqErr *sampling.RequestError
	switch {
	case errors.As(err, &rerr):
		return invalidAnswer(key, err)
	case errors.As(err, &retryErr):
		return withCode(err, codeInternal, err.Error())
	case errors.As(err, &reqErr), errors.Is(err, sampling.ErrSchemaAndTools):
		return withCode(err, codeInternal, err.Error())
	}
	var cerr *sampling.CapabilityError
	if errors.As(err, &cerr) || errors.Is(err, sampling.ErrUnknownCapabilities) {
		return loopError(err)
	}
	return err
}

// ToolsOutcome is what [Runner.SampleTools] gives: an InputRequiredResult to answer the request
// with, or the helper's result.
type ToolsOutcome struct {
	// InputRequired asks the client for the helper's next sample; answer the request with it.
	InputRequired *mcp.InputRequiredResult
	// Calls is the helper's result, when it is done (the tools are not run).
	Calls *sampling.ToolCalls
}

// SampleTools runs [sampling.SampleTools] (ask the model for at least one valid tool call,
// retrying as opts says) across the round trips of req: each sampling request of the helper is
// an InputRequiredResult, and the helper's progress travels in the requestState (the model's
// answers so far, and digests of the requests sent), so that any instance continues it. params
// gives the helper's params; it is called on every round and must give the same params each time
// (derive them from the request's arguments, which the state is bound to). opts.Capabilities is
// ignored: the request declares the client's capabilities.
//
// When the helper is done, Calls is its result (its tools are not run); until then,
// InputRequired asks the client for the next sample. A retry without the answer is asked again,
// with the same state. Errors: the state's and the answer's as in [Runner.Step]; -32021 when the
// request does not declare sampling.tools; the helper's *sampling.RetryError when every attempt
// was refused, with -32603 (a tools/call handler may rather answer with a CallToolResult with
// isError: errors.As finds it); -32603 for params the helper refuses (*sampling.RequestError) or
// that differ from one round to the next; params' own errors as they are.
func (r *Runner) SampleTools(ctx context.Context, req Request, params func() (*v1125.CreateMessageRequestParams, error), opts *sampling.RetryOptions) (*ToolsOutcome, error) {
	var calls *sampling.ToolCalls
	out, err := r.ReplayNeutral(ctx, req.neutral(), "SampleTools", boundary.ToolsRun(params, opts, &calls))
	if err != nil {
		return nil, err
	}
	if out.Request == nil {
		return &ToolsOutcome{Calls: calls}, nil
	}
	o, err := r.request(out)
	if err != nil {
		return nil, err
	}
	return &ToolsOutcome{InputRequired: o.InputRequired}, nil
}

// StructuredOutcome is what [SampleStructured] gives: an InputRequiredResult to answer the
// request with, or the helper's result.
type StructuredOutcome[T any] struct {
	// InputRequired asks the client for the helper's next sample; answer the request with it.
	InputRequired *mcp.InputRequiredResult
	// Answer is the helper's result, when it is done.
	Answer *sampling.Structured[T]
}

// SampleStructured runs [sampling.SampleStructured] (ask the model for a value of the Go type T
// through a forced tool, retrying as opts says) across the round trips of req, as
// [Runner.SampleTools] does; its errors are those of Runner.SampleTools, and params holding tools
// or a toolChoice (sampling.ErrSchemaAndTools) is -32603.
func SampleStructured[T any](ctx context.Context, r *Runner, req Request, params func() (*v1125.CreateMessageRequestParams, error), opts *sampling.StructuredOptions) (*StructuredOutcome[T], error) {
	var answer *sampling.Structured[T]
	out, err := r.ReplayNeutral(ctx, req.neutral(), "SampleStructured", boundary.StructuredRun(params, opts, &answer))
	if err != nil {
		return nil, err
	}
	if out.Request == nil {
		return &StructuredOutcome[T]{Answer: answer}, nil
	}
	o, err := r.request(out)
	if err != nil {
		return nil, err
	}
	return &StructuredOutcome[T]{InputRequired: o.InputRequired}, nil
}
