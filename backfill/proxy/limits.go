package proxy

import (
	"encoding/json"
	"log/slog"
	"sync"

	"github.com/mcpgen/mcpgen/backfill"
	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
)

// CodeLimit is the JSON-RPC error code of a sampling request that a [Limits] refused (in the
// range JSON-RPC leaves to implementations). Its data says which limit:
//
//	{"limit": "maxConcurrent", "maxConcurrent": 4}
//	{"limit": "tokenBudget", "tokenBudget": 100000, "spent": 99500, "reserved": 0, "maxTokens": 1000}
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
	// providers' usage reports (input, cache and output tokens; for a Sampler that reports no
	// usage, the request's maxTokens). A call starts only while the tokens spent, the maxTokens
	// of the calls in progress and its own maxTokens fit in the budget, so output never
	// overshoots it; the input tokens of calls in progress may, once.
	TokenBudget int64
	// MaxConcurrent bounds the provider calls in progress; a request beyond it is refused at
	// once (not queued), so that a flooding server gets errors rather than a growing backlog.
	// The sampling requests of one input_required round take turns instead.
	MaxConcurrent int
}

type limiter struct {
	l   Limits
	log *slog.Logger

	mu       sync.Mutex
	inFlight int
	spent    int64
	reserved int64
}

func newLimiter(l Limits, log *slog.Logger) *limiter { return &limiter{l: l, log: log} }

// admit applies the limits to a request about to go to the provider: it caps params.MaxTokens,
// and returns the function to call with the call's result (nil on failure), or the error to
// answer with.
func (l *limiter) admit(what string, params *mcp.CreateMessageRequestParams) (func(*mcp.CreateMessageResult), *rpcError) {
	if l.l.MaxTokens > 0 && params.MaxTokens > l.l.MaxTokens {
		l.log.Info("capped maxTokens", "id", what, "asked", params.MaxTokens, "cap", l.l.MaxTokens)
		params.MaxTokens = l.l.MaxTokens
	}
	reserve := max(params.MaxTokens, 0)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.l.MaxConcurrent > 0 && l.inFlight >= l.l.MaxConcurrent {
		l.log.Warn("sampling refused: too many provider calls in progress", "id", what, "maxConcurrent", l.l.MaxConcurrent)
		data, _ := json.Marshal(map[string]any{"limit": "maxConcurrent", "maxConcurrent": l.l.MaxConcurrent})
		return nil, &rpcError{Code: CodeLimit, Message: "sampling refused: the proxy's limit of concurrent provider calls is reached; retry later", Data: data}
	}
	if l.l.TokenBudget > 0 && l.spent+l.reserved+reserve > l.l.TokenBudget {
		l.log.Warn("sampling refused: the token budget is spent", "id", what, "tokenBudget", l.l.TokenBudget, "spent", l.spent, "reserved", l.reserved, "maxTokens", reserve)
		data, _ := json.Marshal(map[string]any{"limit": "tokenBudget", "tokenBudget": l.l.TokenBudget, "spent": l.spent, "reserved": l.reserved, "maxTokens": reserve})
		return nil, &rpcError{Code: CodeLimit, Message: "sampling refused: the proxy's token budget does not cover this request", Data: data}
	}
	l.inFlight++
	l.reserved += reserve
	var once sync.Once
	return func(res *mcp.CreateMessageResult) {
		once.Do(func() {
			used := int64(0)
			if res != nil {
				used = reserve
				if info, err := backfill.Info(res); err == nil && info != nil && info.Usage != nil {
					u := info.Usage
					used = u.InputTokens + u.OutputTokens
					if info.Provider == backfill.ProviderAnthropic {
						// Anthropic counts cached input apart; OpenAI's prompt tokens include it.
						used += u.CacheReadInputTokens + u.CacheCreationInputTokens
					}
				}
			}
			l.mu.Lock()
			l.inFlight--
			l.reserved -= reserve
			l.spent += used
			spent := l.spent
			l.mu.Unlock()
			if res != nil && l.l.TokenBudget > 0 {
				l.log.Info("tokens spent", "id", what, "tokens", used, "spent", spent, "tokenBudget", l.l.TokenBudget)
			}
		})
	}, nil
}
