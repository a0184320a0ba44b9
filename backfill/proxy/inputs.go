package proxy

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
	"github.com/mcpgen/mcpgen/sampling/mrtr"
)

// resultInputRequired is the resultType of a result that asks for input (2026-07-28).
const resultInputRequired = "input_required"

// A call is a client request that the server may answer with input_required.
type call struct {
	clientID   json.RawMessage
	method     string
	params     map[string]json.RawMessage // as forwarded
	perRequest bool                       // the request carries its client's capabilities in _meta
	clientCaps map[string]json.RawMessage // the client's own capabilities, before the proxy's
	rounds     int                        // input_required rounds before this request (forwarded ones)
	samples    int                        // sampling requests answered for it before this request

	driving bool // the proxy answers its input requests (s.mu)
	ctx     context.Context
	cancel  context.CancelFunc
	retryID json.RawMessage // the proxy's request to the server in progress (s.mu)
}

// track records a client request that may need input, by its id.
func (s *session) track(c *call) {
	s.mu.Lock()
	s.calls[rawKey(c.clientID)] = c
	s.mu.Unlock()
}

// clientCancelled handles the client's notifications/cancelled: for a request whose input the
// proxy is answering, it cancels the provider calls and the proxy's retry at the server, and
// reports true (the server has already answered the id the client cancels).
func (s *session) clientCancelled(m message) bool {
	var n struct {
		Params struct {
			RequestID json.RawMessage `json:"requestId"`
			Reason    *string         `json:"reason,omitempty"`
		} `json:"params"`
	}
	if json.Unmarshal(mustMarshal(m), &n) != nil || n.Params.RequestID == nil {
		return false
	}
	s.mu.Lock()
	c := s.calls[rawKey(n.Params.RequestID)]
	if c == nil || !c.driving {
		s.mu.Unlock()
		return false
	}
	retryID := c.retryID
	s.mu.Unlock()
	s.log.Info("client cancelled a request whose input the proxy answers", "id", string(n.Params.RequestID))
	c.cancel()
	if retryID != nil {
		s.cancelAtServer(retryID, n.Params.Reason)
	}
	return true
}

func (s *session) cancelAtServer(id json.RawMessage, reason *string) {
	p := map[string]any{"requestId": id}
	if reason != nil {
		p["reason"] = *reason
	}
	s.server.Write(context.WithoutCancel(s.ctx), mustMarshal(map[string]any{
		"jsonrpc": "2.0", "method": mcp.MethodCancelled, "params": p,
	}))
}

// An inputRequest is one entry of a result's inputRequests.
type inputRequest struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// inputRequired is what the proxy reads of an input_required result.
type inputRequired struct {
	InputRequests map[string]inputRequest `json:"inputRequests"`
	RequestState  *string                 `json:"requestState"`
}

// drive takes over a client request that the server answered with input_required: it answers the
// input requests round after round and sends the client the final answer. It reports whether it
// took the response (it does unless Serve is returning).
func (s *session) drive(c *call, result json.RawMessage) bool {
	c.ctx, c.cancel = context.WithCancel(s.ctx)
	s.mu.Lock()
	c.driving = true
	s.calls[rawKey(c.clientID)] = c
	s.mu.Unlock()
	started := s.start(func() {
		defer func() {
			c.cancel()
			s.mu.Lock()
			if s.calls[rawKey(c.clientID)] == c {
				delete(s.calls, rawKey(c.clientID))
			}
			s.mu.Unlock()
		}()
		if out := s.rounds(c, result); out != nil {
			s.writeClient(out)
		}
	})
	if !started {
		c.cancel()
	}
	return started
}

func (s *session) maxRounds() int {
	if s.p.MaxRounds > 0 {
		return s.p.MaxRounds
	}
	return DefaultMaxRounds
}

// rounds answers input_required results until the server gives another answer, and returns the
// message for the client (nil when the client cancelled).
func (s *session) rounds(c *call, result json.RawMessage) []byte {
	id := string(c.clientID)
	for round := c.rounds + 1; ; round++ {
		var ir inputRequired
		if err := json.Unmarshal(result, &ir); err != nil {
			return rawError(c.clientID, mcp.CodeInternalError, "the server's input_required result does not decode: "+err.Error(), nil)
		}
		if round > s.maxRounds() {
			s.log.Warn("the server asked for input too many times", "id", id, "rounds", s.maxRounds())
			return rawError(c.clientID, mcp.CodeInternalError, fmt.Sprintf("the server asked for input more than %d times", s.maxRounds()), nil)
		}
		var forClient []string
		var samplingKeys []string
		for k, r := range ir.InputRequests {
			if r.Method == mcp.MethodCreateMessage {
				samplingKeys = append(samplingKeys, k)
			} else {
				forClient = append(forClient, k)
			}
		}
		sort.Strings(samplingKeys)
		sort.Strings(forClient)
		s.log.Info("the server asks for input", "id", id, "round", round, "sampling", len(samplingKeys), "forClient", forClient)
		for _, k := range forClient {
			if !c.clientCan(ir.InputRequests[k]) {
				s.log.Warn("the server asks the client for what it does not support", "id", id, "method", ir.InputRequests[k].Method)
				return rawError(c.clientID, mcp.CodeInternalError, fmt.Sprintf("the server asks for %s (input request %q), which the client does not support", ir.InputRequests[k].Method, k), nil)
			}
		}
		if lerr := s.samplesAllowed(c, len(samplingKeys)); lerr != nil {
			return rawError(c.clientID, lerr.Code, lerr.Message, lerr.Data)
		}
		answers, rerr := s.answerInputs(c.ctx, id, ir.InputRequests, samplingKeys)
		c.samples += len(samplingKeys)
		if c.ctx.Err() != nil {
			return nil
		}
		if rerr != nil {
			// inputResponses have no place for an error: the request fails, with the error the
			// server would have got.
			return rawError(c.clientID, rerr.Code, rerr.Message, rerr.Data)
		}
		if len(forClient) > 0 {
			return s.forward(c, result, ir, forClient, answers, round)
		}
		next, ok := s.retry(c, answers, ir.RequestState)
		if !ok {
			return nil
		}
		m := parseMessage(next)
		if m == nil || m.isRequest() {
			return rawError(c.clientID, mcp.CodeInternalError, "the server's answer to the retry does not decode", nil)
		}
		if m["result"] != nil {
			var head struct {
				ResultType string `json:"resultType"`
			}
			if json.Unmarshal(m["result"], &head) == nil && head.ResultType == resultInputRequired {
				result = m["result"]
				continue
			}
		}
		m["id"] = c.clientID
		return mustMarshal(m)
	}
}

// clientCan reports whether the client declared what an input request needs: elicitation (in
// URL mode, elicitation.url; in form mode, elicitation.form or an empty elicitation, as the spec
// reads it for older clients), or roots.
func (c *call) clientCan(r inputRequest) bool {
	if !c.perRequest {
		return false
	}
	switch r.Method {
	case "elicitation/create":
		el := decodeObject(c.clientCaps["elicitation"])
		if el == nil {
			return false
		}
		// The member is read by its exact name, as the client reads it (the message has no
		// other member of that name in another case: see checkStrict).
		var mode string
		json.Unmarshal(decodeObject(r.Params)["mode"], &mode)
		if mode == "url" {
			return el["url"] != nil
		}
		return el["form"] != nil || len(el) == 0
	case "roots/list":
		return c.clientCaps["roots"] != nil
	}
	return false
}

// answerInputs answers the sampling input requests named by keys with the Sampler, all at once:
// they are admitted together by the limits (a round needs as many free provider calls as it has
// sampling requests, and its reservations must fit in the budget), or the round is refused.
func (s *session) answerInputs(ctx context.Context, id string, reqs map[string]inputRequest, keys []string) (map[string]json.RawMessage, *rpcError) {
	answers := make(map[string]json.RawMessage, len(keys))
	if len(keys) == 0 {
		return answers, nil
	}
	samples := make([]sample, len(keys))
	for i, k := range keys {
		what := fmt.Sprintf("%s/%s", id, k)
		line := mustMarshal(map[string]any{"jsonrpc": "2.0", "id": 0, "method": mcp.MethodCreateMessage, "params": reqs[k].Params})
		params, rerr := s.decodeSample(what, line)
		if rerr != nil {
			return nil, rerr
		}
		samples[i] = sample{what: what, params: params, route: s.route(params)}
	}
	releases, lerr := s.limiter.admit(samples)
	if lerr != nil {
		return nil, lerr
	}
	var mu sync.Mutex
	var first *rpcError
	var wg sync.WaitGroup
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for i, k := range keys {
		wg.Go(func() {
			start := time.Now()
			res, rerr := s.call(ctx, samples[i].what, samples[i].params, releases[i])
			mu.Lock()
			defer mu.Unlock()
			switch {
			case rerr != nil:
				if first == nil {
					first = rerr
					cancel()
				}
			case res != nil:
				answers[k] = mustMarshal(res)
				s.log.Info("answered sampling input request", "id", id, "key", k, "duration", time.Since(start).Round(time.Millisecond))
			}
		})
	}
	wg.Wait()
	if first != nil {
		return nil, first
	}
	return answers, nil
}

// samplesAllowed checks a round's sampling requests against the limits on a round and on a client
// request, and returns the error to fail the request with, or nil.
func (s *session) samplesAllowed(c *call, n int) *rpcError {
	l := s.p.Limits
	var d map[string]any
	var msg string
	switch {
	case l.MaxRoundSamples > 0 && n > l.MaxRoundSamples:
		d = map[string]any{"limit": "maxRoundSamples", "maxRoundSamples": l.MaxRoundSamples, "asked": n}
		msg = fmt.Sprintf("sampling refused: the server asks for %d samples in one round; the proxy answers at most %d", n, l.MaxRoundSamples)
	case l.MaxRequestSamples > 0 && c.samples+n > l.MaxRequestSamples:
		d = map[string]any{"limit": "maxRequestSamples", "maxRequestSamples": l.MaxRequestSamples, "answered": c.samples, "asked": n}
		msg = fmt.Sprintf("sampling refused: the server asks for %d more samples for this request, after %d; the proxy answers at most %d", n, c.samples, l.MaxRequestSamples)
	default:
		return nil
	}
	s.log.Warn(msg, "id", string(c.clientID))
	return &rpcError{Code: CodeLimit, Message: msg, Data: mustMarshal(d)}
}

// retry sends the original request again with the answers and the server's requestState, and
// returns the server's response; false when the client cancelled or the proxy is stopping.
func (s *session) retry(c *call, answers map[string]json.RawMessage, state *string) ([]byte, bool) {
	params := make(map[string]json.RawMessage, len(c.params)+2)
	for k, v := range c.params {
		params[k] = v
	}
	delete(params, "requestState")
	params["inputResponses"] = mustMarshal(answers)
	if state != nil {
		params["requestState"] = mustMarshal(*state)
	}
	id := mustMarshal(fmt.Sprintf("%s%d", s.idPrefix, s.nextID.Add(1)))
	ch := make(chan []byte, 1)
	s.mu.Lock()
	s.waiting[rawKey(id)] = ch
	c.retryID = id
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.waiting, rawKey(id))
		c.retryID = nil
		s.mu.Unlock()
	}()
	req := mustMarshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": c.method, "params": params})
	if err := s.server.Write(c.ctx, req); err != nil {
		if c.ctx.Err() != nil {
			return nil, false
		}
		s.log.Warn("retrying the request at the server", "id", string(c.clientID), "error", err)
		return rawError(id, mcp.CodeInternalError, "the proxy could not send the retry to the server: "+err.Error(), nil), true
	}
	s.log.Info("retried the request with the answers", "id", string(c.clientID), "retry", string(id), "answers", len(answers))
	select {
	case resp := <-ch:
		return resp, true
	case <-c.ctx.Done():
		return nil, false
	}
}

// carried is what the proxy's requestState carries through the client.
type carried struct {
	// State is the server's requestState, if it gave one.
	State *string `json:"state,omitempty"`
	// Answers are the proxy's answers to the round's sampling input requests.
	Answers map[string]json.RawMessage `json:"answers"`
	// Round is the number of input_required rounds so far.
	Round int `json:"round"`
	// Samples is the number of sampling requests answered so far.
	Samples int `json:"samples,omitempty"`
}

// NewStates returns the States a proxy seals its requestStates with when [Proxy.States] is nil:
// a random key, valid for this process only, the default TTL and bound, and a guard in memory
// that makes each state single-use (a state presented again is refused, -32602 "replayed": each
// retry through the client could otherwise lead the server to ask for more samples).
func NewStates() (*mrtr.States, error) {
	key := make([]byte, mrtr.MinKeyBytes)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	return &mrtr.States{Key: key, Guard: &mrtr.MemoryGuard{}}, nil
}

// binding is what a state of the proxy belongs to: the request's method and its params but for
// _meta, inputResponses and requestState, canonical.
func binding(method string, params map[string]json.RawMessage) (mrtr.Binding, error) {
	salient := make(map[string]json.RawMessage, len(params))
	for k, v := range params {
		switch k {
		case "_meta", "inputResponses", "requestState":
		default:
			salient[k] = v
		}
	}
	canon, err := mrtr.Canonical(mustMarshal(salient))
	if err != nil {
		return mrtr.Binding{}, err
	}
	return mrtr.Binding{Method: method, Request: canon}, nil
}

// forward answers the client with an input_required result holding only the input requests it
// must answer itself (the server's other members kept), and a requestState of the proxy's that
// carries the server's requestState and the sampling answers made.
func (s *session) forward(c *call, result json.RawMessage, ir inputRequired, keys []string, answers map[string]json.RawMessage, round int) []byte {
	var res map[string]json.RawMessage
	var reqs map[string]json.RawMessage
	if json.Unmarshal(result, &res) != nil || json.Unmarshal(res["inputRequests"], &reqs) != nil {
		return rawError(c.clientID, mcp.CodeInternalError, "the server's input_required result does not decode", nil)
	}
	b, err := binding(c.method, c.params)
	if err != nil {
		return rawError(c.clientID, mcp.CodeInvalidParams, "the request's params do not decode: "+err.Error(), nil)
	}
	state, err := s.states.Issue(b, mustMarshal(carried{State: ir.RequestState, Answers: answers, Round: round, Samples: c.samples}))
	if err != nil {
		s.log.Warn("sealing the proxy's requestState", "id", string(c.clientID), "error", err)
		return rawError(c.clientID, mcp.CodeInternalError, "the proxy could not carry its state through the client: "+err.Error(), nil)
	}
	forClient := make(map[string]json.RawMessage, len(keys))
	for _, k := range keys {
		forClient[k] = reqs[k]
	}
	res["inputRequests"] = mustMarshal(forClient)
	res["requestState"] = mustMarshal(state)
	s.log.Info("forwarded input requests to the client", "id", string(c.clientID), "round", round, "keys", keys, "sampled", len(answers))
	return mustMarshal(message{"jsonrpc": json.RawMessage(`"2.0"`), "id": c.clientID, "result": mustMarshal(res)})
}

// restore gives a retry that carries the proxy's requestState the server's, and the answers the
// proxy made with the client's; it reports whether it changed params, or the error for the client.
func (s *session) restore(c *call, params map[string]json.RawMessage, state string) (bool, []byte) {
	b, err := binding(c.method, params)
	if err != nil {
		return false, rawError(c.clientID, mcp.CodeInvalidParams, "the request's params do not decode: "+err.Error(), nil)
	}
	refuse := func(err error) (bool, []byte) {
		s.log.Warn("refused a requestState", "id", string(c.clientID), "error", err)
		code := int64(mcp.CodeInvalidParams)
		var se *mrtr.StateError
		if errors.As(err, &se) {
			code = se.Code
		}
		return false, rawError(c.clientID, code, "requestState: "+err.Error(), nil)
	}
	opened, err := s.states.Open(state, b)
	if err != nil {
		return refuse(err)
	}
	if err := s.states.Use(s.ctx, opened); err != nil {
		return refuse(err)
	}
	var body carried
	if err := json.Unmarshal(opened.Body, &body); err != nil {
		return refuse(err)
	}
	responses := decodeObject(params["inputResponses"])
	if responses == nil {
		responses = map[string]json.RawMessage{}
	}
	for k, v := range body.Answers {
		responses[k] = v
	}
	params["inputResponses"] = mustMarshal(responses)
	if body.State != nil {
		params["requestState"] = mustMarshal(*body.State)
	} else {
		delete(params, "requestState")
	}
	c.rounds = body.Round
	c.samples = body.Samples
	s.log.Info("the client answered forwarded input requests; retrying with the server's state", "id", string(c.clientID), "round", body.Round)
	return true, nil
}
