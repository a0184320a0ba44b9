package backfill

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/openai/openai-go/v3"
)

// A ProviderError is a provider call that failed after the retries the [RetryPolicy] allows, or
// an answer that could not be converted to a sampling result.
//
// Its Error text, and the fields other than Err, are safe to send to the MCP server that asked
// for the sample and to write to logs: they hold no credentials of the base URL, no API key and
// none of the provider's raw response beyond its error type and message. Err is not: the SDKs'
// errors can hold the request URL with the base URL's user:password@ and the raw response body.
type ProviderError struct {
	// Provider is "anthropic" or "openai".
	Provider string
	// StatusCode is the HTTP status of the last attempt, 0 when there was no HTTP answer.
	StatusCode int
	// Attempts is the number of calls made.
	Attempts int
	// Type is the provider's error type when its answer names one, such as
	// "rate_limit_error", "overloaded_error" (Anthropic) or "invalid_request_error" (both).
	Type string
	// Message says what failed, sanitised: the provider's error message, what happened when
	// no answer came ("the attempt timed out", "connection refused"), or why an answer could
	// not be used. Credentials, API keys and bearer tokens in it are replaced by [REDACTED], and
	// it is cut to MaxErrorMessageBytes.
	Message string
	// Billable is whether the provider may have billed one of the attempts: one answered with a
	// success status whose answer could not be used, or one whose request was written and that
	// got no answer (it timed out, the connection was lost). An attempt answered with an HTTP
	// error status is not billed, nor one whose request was never written (the provider's name
	// did not resolve, the connection was refused).
	Billable bool
	// Err is the last attempt's error as the SDK returned it, for errors.As (to
	// *anthropic.Error or *openai.Error) and for debugging. It can hold secrets: never send
	// its text to a peer or log it.
	Err error
}

// MaxErrorMessageBytes bounds [ProviderError.Message].
const MaxErrorMessageBytes = 500

// Error describes the failure without secrets: provider, HTTP status, attempts, the provider's
// error type and the sanitised message.
func (e *ProviderError) Error() string {
	s := e.Summary()
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// Summary describes the failure without the provider's text: provider, HTTP status, attempts and
// the provider's error type, e.g. "anthropic: HTTP 529 after 3 attempts: overloaded_error". It is
// what a party that must not read the provider's message (it may quote the operator's key or
// account in a form no filter recognises) is told.
func (e *ProviderError) Summary() string {
	var b strings.Builder
	b.WriteString(e.Provider)
	if e.StatusCode != 0 {
		fmt.Fprintf(&b, ": HTTP %d", e.StatusCode)
		if text := http.StatusText(e.StatusCode); text != "" { // none for Anthropic's 529, say
			b.WriteString(" " + text)
		}
	}
	if e.Attempts > 1 {
		fmt.Fprintf(&b, " after %d attempts", e.Attempts)
	}
	if e.Type != "" {
		fmt.Fprintf(&b, ": %s", e.Type)
	}
	return b.String()
}

// Unwrap returns Err, which can hold secrets (see [ProviderError]).
func (e *ProviderError) Unwrap() error { return e.Err }

// failure makes the ProviderError of attempt n, which failed with err; billed is whether an
// attempt may have been billed.
func (s *Sampler) failure(n int, err error, billed bool) *ProviderError {
	pe := &ProviderError{Provider: s.provider, Attempts: n, Err: err, Billable: billed}
	var secrets []string
	var ae *anthropic.Error
	var oe *openai.Error
	var ue *url.Error
	switch {
	case errors.As(err, &ae):
		pe.StatusCode, pe.Type, pe.Message = ae.StatusCode, string(ae.Type()), ae.Message
		secrets = requestSecrets(ae.Request)
	case errors.As(err, &oe):
		pe.StatusCode, pe.Type, pe.Message = oe.StatusCode, oe.Type, oe.Message
		secrets = requestSecrets(oe.Request)
	case errors.As(err, &ue):
		// No HTTP answer. The url.Error's text starts with the method and URL; what follows is
		// what went wrong.
		if u, perr := url.Parse(ue.URL); perr == nil {
			secrets = userinfoSecrets(u)
		}
		pe.Message = noAnswer(ue.Err)
	default:
		pe.Message = noAnswer(err)
	}
	if pe.Message == "" && pe.StatusCode == 0 {
		pe.Message = "the call failed"
	}
	pe.Type = sanitize(pe.Type, secrets)
	pe.Message = sanitize(pe.Message, secrets)
	return pe
}

// noAnswer describes a failure without an HTTP answer.
func noAnswer(err error) string {
	if errors.Is(err, context.DeadlineExceeded) {
		return "the attempt timed out"
	}
	return err.Error()
}

// requestSecrets returns what a request carried that must not be shown: its API key or bearer
// token, and the user information of its URL.
func requestSecrets(r *http.Request) []string {
	if r == nil {
		return nil
	}
	var out []string
	for _, h := range []string{"Authorization", "X-Api-Key", "Api-Key", "Proxy-Authorization"} {
		for _, v := range r.Header.Values(h) {
			if scheme, tok, ok := strings.Cut(v, " "); ok && (strings.EqualFold(scheme, "bearer") || strings.EqualFold(scheme, "basic")) {
				v = tok
			}
			out = append(out, v)
		}
	}
	return append(out, userinfoSecrets(r.URL)...)
}

func userinfoSecrets(u *url.URL) []string {
	if u == nil || u.User == nil {
		return nil
	}
	out := []string{u.User.Username(), url.QueryEscape(u.User.Username())}
	if p, ok := u.User.Password(); ok {
		out = append(out, p, url.QueryEscape(p))
	}
	return out
}

var (
	// A URL's user information: scheme://user:password@.
	urlUserinfo = regexp.MustCompile(`(?i)([a-z][a-z0-9+.-]*://)[^/?#\s@"']*@`)
	// Bearer and basic credentials.
	authValue = regexp.MustCompile(`(?i)\b(bearer|basic)\s+[a-z0-9._~+/=-]{8,}`)
	// API keys of the shapes the providers issue: sk-..., sk-ant-..., sk-proj-....
	apiKey = regexp.MustCompile(`\bsk-[A-Za-z0-9_-]{6,}`)
)

// sanitize removes secrets from s: the exact values given (at least 4 bytes long), URLs' user
// information, bearer and basic credentials, and provider API keys; and cuts it to
// MaxErrorMessageBytes.
func sanitize(s string, secrets []string) string {
	if s == "" {
		return s
	}
	for _, sec := range secrets {
		if len(sec) >= 4 {
			s = strings.ReplaceAll(s, sec, "[REDACTED]")
		}
	}
	s = urlUserinfo.ReplaceAllString(s, "${1}[REDACTED]@")
	s = authValue.ReplaceAllString(s, "$1 [REDACTED]")
	s = apiKey.ReplaceAllString(s, "[REDACTED]")
	s = strings.Map(func(r rune) rune {
		if r < ' ' && r != '\t' || r == 0x7f {
			return ' '
		}
		return r
	}, s)
	if len(s) > MaxErrorMessageBytes {
		cut := MaxErrorMessageBytes
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}
