package proxy

import (
	"encoding/json"
	"errors"
	"log/slog"
	"math"
	"sync"

	"github.com/mcpgen/mcpgen/backfill"
	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
)

// CodeLimit is the JSON-RPC error code of a sampling request that a [Limits] refused (in the
// range JSON-RPC leaves to implementations). Its data says which limit:
//
//	{"limit": "maxConcurrent", "maxConcurrent": 4}
//	{"limit": "tokenBudget", "tokenBudget": 100000, "spent": 99500, "reserved": 0, "needed": 2100}
//	{"limit": "tokenBudget", "route": "opus", "tokenBudget": 20000, "spent": 19000, "reserved": 0, "needed": 2100}
//	{"limit": "maxRoundSamples", "maxRoundSamples": 4, "asked": 100}
//	{"limit": "maxRequestSamples", "maxRequestSamples": 20, "answered": 16, "asked": 8}
//
// A server may retry a request refused for maxConcurrent later; a spent budget stays spent for
// the proxy's run.
const CodeLimit = -32000

// Limits bound what a server can spend with the operator's key. Zero fields set no limit.
type Limits struct {
	// MaxTokens caps every request's maxTokens: a request asking for more is sent to the
	// provider with MaxTokens (and its answer may stop with stopReason "maxTokens").
	MaxTokens int64
	// TokenBudget is the number of tokens the proxy may spend in its run, counted from the
	// providers' usage reports (input, cache and output tokens). A call starts only while the
	// tokens spent, the reservations of the calls in progress and its own reservation fit in the
	// budget. A call's reservation is its maxTokens plus an upper estimate of its input (see
	// [EstimateInputTokens]), so that neither its output nor its input overshoots the budget.
	// When the call ends, its reservation is replaced by the usage the provider reports; a call
	// that ends without a report (cancelled, timed out, or a Sampler that reports no usage) is
	// charged its whole reservation, since the provider may have billed it; a call the provider
	// refused with an HTTP error status is charged nothing.
	TokenBudget int64
	// MaxConcurrent bounds the provider calls in progress; a request beyond it is refused at
	// once (not queued), so that a flooding server gets errors rather than a growing backlog. The
	// sampling requests of one input_required round are admitted together or not at all: a round
	// needs as many free calls as it has sampling requests.
	MaxConcurrent int
	// MaxRoundSamples bounds the sampling requests of one input_required round: a round asking
	// for more fails the client's request (CodeLimit), before any provider call.
	MaxRoundSamples int
	// MaxRequestSamples bounds the sampling requests answered for one client request, over all
	// its input_required rounds (those carried through the client in the proxy's requestState
	// included): a round that would go beyond it fails the request (CodeLimit).
	MaxRequestSamples int
}

// Input estimate: one token per byte of the request's JSON (every tokenizer the providers use
// makes at least one byte of text a token), images at a fixed count rather than their bytes,
// and the providers' own framing (roles, the tool-use system prompt).
const (
	// imageTokens bounds what one image costs: both providers scale images down before they
	// count them (Anthropic to about 1.15 megapixels, about 1,600 tokens).
	imageTokens = 1600
	// framingTokens is what a provider adds to a request of its own.
	framingTokens = 1024
)

// EstimateInputTokens is an upper estimate of the input tokens of a sampling request, which the
// token budget reserves before the call: one token per byte of the request's JSON, images
// counted 1,600 tokens each instead of their bytes, plus 1,024 tokens of the provider's own
// framing.
func EstimateInputTokens(p *mcp.CreateMessageRequestParams) int64 {
	data, err := json.Marshal(p)
	if err != nil {
		return math.MaxInt64
	}
	n := int64(len(data)) + framingTokens
	var v any
	if json.Unmarshal(data, &v) == nil {
		n = satAdd(n, imageAdjustment(v))
	}
	return max(n, framingTokens)
}

// imageAdjustment is what counting images by imageTokens instead of their bytes changes.
func imageAdjustment(v any) int64 {
	var n int64
	switch v := v.(type) {
	case map[string]any:
		if t, _ := v["type"].(string); t == "image" {
			if d, ok := v["data"].(string); ok {
				n += imageTokens - int64(len(d))
			}
		}
		for _, e := range v {
			n += imageAdjustment(e)
		}
	case []any:
		for _, e := range v {
			n += imageAdjustment(e)
		}
	}
	return n
}

// satAdd adds non-negative counts without overflowing.
func satAdd(a, b int64) int64 {
	if b > 0 && a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// account is a token budget's book: the budget, the tokens spent and those reserved by the calls
// in progress.
type account struct {
	budget          int64
	spent, reserved int64
}

// fits reports whether a reservation of need fits in the budget.
func (a *account) fits(need int64) bool {
	return a.budget <= 0 || satAdd(satAdd(a.spent, a.reserved), need) <= a.budget
}

type limiter struct {
	l      Limits
	routes map[string]int64 // the token budgets of routes, by name
	log    *slog.Logger

	mu       sync.Mutex
	inFlight int
	total    account
	byRoute  map[string]*account
}

func newLimiter(l Limits, routes map[string]int64, log *slog.Logger) *limiter {
	lim := &limiter{l: l, routes: routes, log: log, total: account{budget: l.TokenBudget}, byRoute: map[string]*account{}}
	for name, b := range routes {
		lim.byRoute[name] = &account{budget: b}
	}
	return lim
}

// A sample is a request about to go to the provider: what names it in the log, its params, and
// the route it takes ("" for none with a budget of its own).
type sample struct {
	what   string
	params *mcp.CreateMessageRequestParams
	route  string
}

// A release ends an admitted call: it charges the call's usage to the budgets and frees its slot.
// Call it once, with the call's result and error.
type release func(*mcp.CreateMessageResult, error)

// admit applies the limits to requests about to go to the provider together (one, or the
// sampling requests of a round): it caps their maxTokens, and admits them all, returning the
// function to call with each call's result, or none, returning the error to answer with.
func (l *limiter) admit(samples []sample) ([]release, *rpcError) {
	needs := make([]int64, len(samples))
	for i, s := range samples {
		if l.l.MaxTokens > 0 && s.params.MaxTokens > l.l.MaxTokens {
			l.log.Info("capped maxTokens", "id", s.what, "asked", s.params.MaxTokens, "cap", l.l.MaxTokens)
			s.params.MaxTokens = l.l.MaxTokens
		}
		if l.l.TokenBudget > 0 || l.routes[s.route] > 0 {
			needs[i] = satAdd(max(s.params.MaxTokens, 0), EstimateInputTokens(s.params))
		} else {
			needs[i] = max(s.params.MaxTokens, 0)
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	what := samples[0].what
	if l.l.MaxConcurrent > 0 && l.inFlight+len(samples) > l.l.MaxConcurrent {
		l.log.Warn("sampling refused: too many provider calls in progress", "id", what, "requests", len(samples), "maxConcurrent", l.l.MaxConcurrent)
		data, _ := json.Marshal(map[string]any{"limit": "maxConcurrent", "maxConcurrent": l.l.MaxConcurrent})
		return nil, &rpcError{Code: CodeLimit, Message: "sampling refused: the proxy's limit of concurrent provider calls is reached; retry later", Data: data}
	}
	// What the samples reserve together, in total and by route.
	total := int64(0)
	byRoute := map[string]int64{}
	for i, s := range samples {
		total = satAdd(total, needs[i])
		if l.byRoute[s.route] != nil {
			byRoute[s.route] = satAdd(byRoute[s.route], needs[i])
		}
	}
	if !l.total.fits(total) {
		return nil, l.refuseBudget(what, "", &l.total, total)
	}
	for route, need := range byRoute {
		if a := l.byRoute[route]; !a.fits(need) {
			return nil, l.refuseBudget(what, route, a, need)
		}
	}
	// Reservations are clamped to the budget (a request without a cap on maxTokens may ask for
	// 2^63-1): they only need to keep any other call out.
	clamp := func(a *account, need int64) int64 {
		if a.budget > 0 {
			return min(need, a.budget)
		}
		return need
	}
	out := make([]release, len(samples))
	for i, s := range samples {
		reserve := clamp(&l.total, needs[i])
		route := l.byRoute[s.route]
		routeReserve := int64(0)
		if route != nil {
			routeReserve = clamp(route, needs[i])
			route.reserved = satAdd(route.reserved, routeReserve)
		}
		l.inFlight++
		l.total.reserved = satAdd(l.total.reserved, reserve)
		l.log.Debug("tokens reserved", "id", s.what, "tokens", reserve, "inputEstimate", needs[i]-max(s.params.MaxTokens, 0))
		out[i] = l.releaser(s, reserve, route, routeReserve)
	}
	return out, nil
}

func (l *limiter) refuseBudget(what, route string, a *account, need int64) *rpcError {
	l.log.Warn("sampling refused: the token budget is spent", "id", what, "route", route, "tokenBudget", a.budget, "spent", a.spent, "reserved", a.reserved, "needed", need)
	d := map[string]any{"limit": "tokenBudget", "tokenBudget": a.budget, "spent": a.spent, "reserved": a.reserved, "needed": need}
	msg := "sampling refused: the proxy's token budget does not cover this request"
	if route != "" {
		d["route"] = route
		msg = "sampling refused: the token budget of the model this request's hints chose does not cover it"
	}
	data, _ := json.Marshal(d)
	return &rpcError{Code: CodeLimit, Message: msg, Data: data}
}

// releaser returns the release of an admitted call.
func (l *limiter) releaser(s sample, reserve int64, route *account, routeReserve int64) release {
	var once sync.Once
	return func(res *mcp.CreateMessageResult, err error) {
		once.Do(func() {
			used, reported := usage(res)
			switch {
			case reported:
			case res == nil && !billed(err):
				used = 0
			default:
				// No report: the call may have been billed (cancelled while the provider
				// worked, timed out, a Sampler that reports no usage): it costs its reservation.
				used = max(reserve, routeReserve)
			}
			l.mu.Lock()
			l.inFlight--
			l.total.reserved -= reserve
			l.total.spent = satAdd(l.total.spent, used)
			if route != nil {
				route.reserved -= routeReserve
				route.spent = satAdd(route.spent, used)
			}
			spent := l.total.spent
			l.mu.Unlock()
			if l.total.budget > 0 || route != nil {
				l.log.Info("tokens spent", "id", s.what, "tokens", used, "reported", reported, "spent", spent, "tokenBudget", l.total.budget)
			}
		})
	}
}

// usage is the tokens a result reports, and whether it reports them.
func usage(res *mcp.CreateMessageResult) (int64, bool) {
	if res == nil {
		return 0, false
	}
	info, err := backfill.Info(res)
	if err != nil || info == nil || info.Usage == nil {
		return 0, false
	}
	u := info.Usage
	used := satAdd(max(u.InputTokens, 0), max(u.OutputTokens, 0))
	if info.Provider == backfill.ProviderAnthropic {
		// Anthropic counts cached input apart; OpenAI's prompt tokens include it.
		used = satAdd(satAdd(used, max(u.CacheReadInputTokens, 0)), max(u.CacheCreationInputTokens, 0))
	}
	return used, true
}

// billed reports whether a call that failed with err may have been billed: anything but a
// request that never reached the provider (it could not be converted, it broke the rules, or it
// was never written: the provider's name did not resolve, the connection was refused) or one
// that the provider refused with an HTTP error status (see [backfill.ProviderError.Billable]).
func billed(err error) bool {
	var ce *backfill.ConversionError
	var ve *mcp.ValidationError
	var pe *backfill.ProviderError
	switch {
	case err == nil:
		return true
	case errors.As(err, &ce), errors.As(err, &ve):
		return false
	case errors.As(err, &pe):
		return pe.Billable
	}
	return true
}
