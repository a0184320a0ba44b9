package backfill

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptrace"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	anthropicoption "github.com/anthropics/anthropic-sdk-go/v2/option"
	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
	"github.com/mcpgen/mcpgen/sampling"
	"github.com/openai/openai-go/v3"
	openaioption "github.com/openai/openai-go/v3/option"
)

// A Sampler answers sampling requests with a model provider's API: it converts the params to the
// provider's request, calls the provider (retrying rate limits, overload and timeouts), and
// converts the answer back. It implements [sampling.Sampler], so the tool loop and its helpers
// run on it as they run on an MCP client's model. It is safe for concurrent use.
//
// Requests are sent without streaming; the provider SDK's own retries are switched off so that
// both providers retry the same way, under [RetryPolicy].
type Sampler struct {
	provider string
	model    string
	retry    RetryPolicy
	log      *slog.Logger
	prepare  func(p *mcp.CreateMessageRequestParams) (attempt, error)
}

var (
	_ sampling.Sampler                    = (*Sampler)(nil)
	_ sampling.ClientCapabilitiesProvider = (*Sampler)(nil)
)

// attempt makes one call to the provider. An error of type responseError is final.
type attempt func(ctx context.Context) (*mcp.CreateMessageResult, error)

// responseError is a provider answer that could not be converted; retrying would not help.
type responseError struct{ err error }

func (e responseError) Error() string { return e.err.Error() }
func (e responseError) Unwrap() error { return e.err }

// Options configure a [Sampler]. The zero value is the default.
type Options struct {
	// Retry bounds the retries; zero fields take their defaults.
	Retry RetryPolicy
	// Logger receives a warning for each failed attempt and a debug record for each answer.
	// Nil discards them.
	Logger *slog.Logger
}

// RetryPolicy bounds how a [Sampler] retries a provider call that failed for a reason that may
// pass: no answer (a connection error or the attempt's timeout), or HTTP 408, 409, 429, or 5xx
// (Anthropic's 529 "overloaded" included), unless the provider's x-should-retry header says
// otherwise. The wait before a retry is the provider's Retry-After-Ms or Retry-After when it sends
// one, and otherwise an exponential backoff with jitter.
type RetryPolicy struct {
	// MaxAttempts is the number of calls, the first included. Default 4.
	MaxAttempts int
	// InitialBackoff is the wait before the first retry when the provider names none; it
	// doubles with each retry, up to MaxBackoff. Defaults 500ms and 30s.
	InitialBackoff, MaxBackoff time.Duration
	// MaxRetryAfter is the longest Retry-After the sampler waits for; a provider asking for more
	// ends the retries at once, with the error. Default 60s.
	MaxRetryAfter time.Duration
	// AttemptTimeout bounds each call. Default 10 minutes.
	AttemptTimeout time.Duration
}

func (p RetryPolicy) withDefaults() RetryPolicy {
	if p.MaxAttempts <= 0 {
		p.MaxAttempts = 4
	}
	if p.InitialBackoff <= 0 {
		p.InitialBackoff = 500 * time.Millisecond
	}
	if p.MaxBackoff <= 0 {
		p.MaxBackoff = 30 * time.Second
	}
	if p.MaxRetryAfter <= 0 {
		p.MaxRetryAfter = 60 * time.Second
	}
	if p.AttemptTimeout <= 0 {
		p.AttemptTimeout = 10 * time.Minute
	}
	return p
}

func newSampler(provider, model string, opts *Options) *Sampler {
	s := &Sampler{provider: provider, model: model}
	if opts != nil {
		s.retry, s.log = opts.Retry, opts.Logger
	}
	s.retry = s.retry.withDefaults()
	if s.log == nil {
		s.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return s
}

// NewAnthropicSampler returns a Sampler on the Anthropic Messages API with the given client (see
// anthropic.NewClient, which reads ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL) and model.
func NewAnthropicSampler(client anthropic.Client, model string, opts *Options) *Sampler {
	s := newSampler(ProviderAnthropic, model, opts)
	s.prepare = func(p *mcp.CreateMessageRequestParams) (attempt, error) {
		req, err := ToAnthropicRequest(p, model)
		if err != nil {
			return nil, err
		}
		return func(ctx context.Context) (*mcp.CreateMessageResult, error) {
			msg, err := client.Messages.New(ctx, req,
				anthropicoption.WithMaxRetries(0), anthropicoption.WithRequestTimeout(s.retry.AttemptTimeout))
			if err != nil {
				return nil, err
			}
			r, err := FromAnthropicMessage(msg)
			if err != nil {
				return nil, responseError{err}
			}
			return r, nil
		}, nil
	}
	return s
}

// NewOpenAISampler returns a Sampler on the OpenAI Chat Completions API with the given client
// (see openai.NewClient, which reads OPENAI_API_KEY and OPENAI_BASE_URL) and model.
func NewOpenAISampler(client openai.Client, model string, opts *Options) *Sampler {
	s := newSampler(ProviderOpenAI, model, opts)
	s.prepare = func(p *mcp.CreateMessageRequestParams) (attempt, error) {
		req, err := ToOpenAIRequest(p, model)
		if err != nil {
			return nil, err
		}
		return func(ctx context.Context) (*mcp.CreateMessageResult, error) {
			c, err := client.Chat.Completions.New(ctx, req,
				openaioption.WithMaxRetries(0), openaioption.WithRequestTimeout(s.retry.AttemptTimeout))
			if err != nil {
				return nil, err
			}
			r, err := FromOpenAICompletion(c)
			if err != nil {
				return nil, responseError{err}
			}
			return r, nil
		}, nil
	}
	return s
}

// Provider returns "anthropic" or "openai".
func (s *Sampler) Provider() string { return s.provider }

// Model returns the model the sampler asks for.
func (s *Sampler) Model() string { return s.model }

// ClientCapabilities reports what a provider-backed Sampler takes: sampling with tools
// (sampling.tools), without includeContext. It makes the Sampler a
// sampling.ClientCapabilitiesProvider, so that the tool loop runs on it as it is.
func (s *Sampler) ClientCapabilities() *mcp.ClientCapabilities {
	return &mcp.ClientCapabilities{Sampling: &mcp.ClientCapabilitiesSampling{Tools: map[string]json.RawMessage{}}}
}

// CreateMessage asks the provider's model for the next message. Params that break a rule of the
// schema or of sampling with tools are a *mcp.ValidationError, and params the provider cannot
// take a [*ConversionError]: neither is sent. A call that still fails after the retries, or an
// answer that is not a valid sampling result, is a [*ProviderError]; when ctx ends first, the
// error is ctx's.
func (s *Sampler) CreateMessage(ctx context.Context, params *mcp.CreateMessageRequestParams) (*mcp.CreateMessageResult, error) {
	// What an MCP client would reject (a value rule, a rule of sampling with tools), the
	// provider does not see: the error is the *mcp.ValidationError.
	if err := params.Validate(); err != nil {
		return nil, err
	}
	call, err := s.prepare(params)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	billed := false // whether an attempt may have been billed
	for n := 1; ; n++ {
		var wrote atomic.Bool
		trace := &httptrace.ClientTrace{WroteHeaders: func() { wrote.Store(true) }}
		r, err := call(httptrace.WithClientTrace(ctx, trace))
		if err == nil {
			if verr := r.Validate(); verr != nil {
				return nil, s.failure(n, fmt.Errorf("the answer is not a valid sampling result: %w", verr), true)
			}
			info, _ := Info(r)
			attrs := []any{"provider", s.provider, "model", r.Model, "attempts", n, "duration", time.Since(start).Round(time.Millisecond)}
			if r.StopReason != nil {
				attrs = append(attrs, "stopReason", string(*r.StopReason))
			}
			if info != nil && info.Usage != nil {
				attrs = append(attrs, "inputTokens", info.Usage.InputTokens, "outputTokens", info.Usage.OutputTokens)
			}
			s.log.Debug("sampled", attrs...)
			return r, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		status, header := httpFailure(err)
		var re responseError
		if errors.As(err, &re) {
			return nil, s.failure(n, fmt.Errorf("converting the answer: %w", re.err), true)
		}
		billed = billed || status < http.StatusBadRequest && !unsent(err, wrote.Load())
		wait, retry := s.retryDelay(n, status, header, err)
		if !retry {
			return nil, s.failure(n, err, billed)
		}
		// The SDK's error may carry the base URL's credentials and the raw body: the log gets
		// the sanitised form.
		s.log.Warn("provider call failed; retrying", "provider", s.provider, "attempt", n, "status", status, "wait", wait.Round(time.Millisecond), "error", s.failure(n, err, billed))
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
	}
}

// unsent reports whether a failed attempt's request was never written, so that the provider
// cannot have billed it: no header went out, and the attempt failed while connecting (the
// provider's name did not resolve, or the connection was refused or could not be made).
func unsent(err error, wroteHeaders bool) bool {
	if wroteHeaders {
		return false
	}
	var dns *net.DNSError
	var op *net.OpError
	return errors.As(err, &dns) || errors.As(err, &op) && op.Op == "dial"
}

// httpFailure returns the HTTP status and headers of a failed provider call, or 0 and nil when
// there was no HTTP answer.
func httpFailure(err error) (int, http.Header) {
	var ae *anthropic.Error
	if errors.As(err, &ae) && ae.Response != nil {
		return ae.StatusCode, ae.Response.Header
	}
	var oe *openai.Error
	if errors.As(err, &oe) && oe.Response != nil {
		return oe.StatusCode, oe.Response.Header
	}
	return 0, nil
}

// retryDelay decides whether attempt n, which failed with err (HTTP status and header when the
// provider answered), is retried, and after how long.
func (s *Sampler) retryDelay(n, status int, header http.Header, err error) (time.Duration, bool) {
	if n >= s.retry.MaxAttempts {
		return 0, false
	}
	if status == 0 {
		// No answer: a timeout of the attempt or a network failure may pass; anything else (a
		// request the SDK could not even build) will not.
		var ne net.Error
		if !errors.Is(err, context.DeadlineExceeded) && !errors.As(err, &ne) && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
			return 0, false
		}
		return s.backoff(n), true
	}
	switch header.Get("x-should-retry") {
	case "false":
		return 0, false
	case "true":
	default:
		if status != http.StatusRequestTimeout && status != http.StatusConflict && status != http.StatusTooManyRequests && status < 500 {
			return 0, false
		}
	}
	if d, ok := retryAfter(header, time.Now()); ok {
		if d > s.retry.MaxRetryAfter {
			return 0, false
		}
		return d, true
	}
	return s.backoff(n), true
}

// backoff is the wait after attempt n when the provider names none: InitialBackoff doubled for
// each earlier retry, capped at MaxBackoff, and drawn at random from its upper half.
func (s *Sampler) backoff(n int) time.Duration {
	d := s.retry.InitialBackoff << (n - 1)
	if d > s.retry.MaxBackoff || d <= 0 {
		d = s.retry.MaxBackoff
	}
	return d/2 + rand.N(d/2+1)
}

// retryAfter reads the wait a provider asks for: Retry-After-Ms (milliseconds), or Retry-After
// (seconds, or an HTTP date).
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	if v := h.Get("Retry-After"); v != "" {
		if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
			return time.Duration(s * float64(time.Second)), true
		}
		if t, err := http.ParseTime(v); err == nil {
			return max(t.Sub(now), 0), true
		}
	}
	return 0, false
}
