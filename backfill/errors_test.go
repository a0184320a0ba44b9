package backfill_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	anthropicoption "github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/mcpgen/mcpgen/backfill"
	"github.com/mcpgen/mcpgen/backfill/internal/testkit"
	"github.com/openai/openai-go/v3"
	openaioption "github.com/openai/openai-go/v3/option"
)

// The secrets of TestProviderErrorsAreSanitised: the base URL's user information, the API key,
// and a part of the body that is neither the provider's error type nor its message.
const (
	secretUser  = "operator"
	secretPass  = "pa55-w0rd-in-the-url"
	secretKey   = "test-key-0123456789abcdef"
	bodyMarker  = "RAW-BODY-ONLY"
	anotherKey  = "sk-ant-api03-SomeOtherKeyInTheBody"
	urlInBody   = "https://admin:hunter22@internal.example/"
	echoMessage = "invalid x-api-key " + secretKey + " for " + urlInBody + ", also " + anotherKey + " and " + secretPass
)

// TestProviderErrorsAreSanitised checks that what the Sampler returns (and so what a proxy
// sends the MCP server and logs) holds no credentials: the base URL carries user:password@, and
// the provider's error body echoes the key, another key, a URL with credentials and the
// password, beside members that are neither its type nor its message.
func TestProviderErrorsAreSanitised(t *testing.T) {
	tests := []struct {
		name, path, body, wantType string
		sampler                    func(baseURL string, opts *backfill.Options) *backfill.Sampler
	}{
		{
			name: "anthropic", path: "/v1/messages", wantType: "authentication_error",
			body: `{"type":"error","error":{"type":"authentication_error","message":"` + echoMessage + `"},"request_id":"req_1","debug":"` + bodyMarker + `"}`,
			sampler: func(baseURL string, opts *backfill.Options) *backfill.Sampler {
				c := anthropic.NewClient(anthropicoption.WithAPIKey(secretKey), anthropicoption.WithBaseURL(baseURL))
				return backfill.NewAnthropicSampler(c, "m", opts)
			},
		},
		{
			name: "openai", path: "/chat/completions", wantType: "invalid_request_error",
			body: `{"error":{"type":"invalid_request_error","code":"invalid_api_key","param":null,"message":"` + echoMessage + `","debug":"` + bodyMarker + `"}}`,
			sampler: func(baseURL string, opts *backfill.Options) *backfill.Sampler {
				c := openai.NewClient(openaioption.WithAPIKey(secretKey), openaioption.WithBaseURL(baseURL))
				return backfill.NewOpenAISampler(c, "m", opts)
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// A 429 first (retried, so the retry's log record is checked too), then a 401.
			p := &testkit.Provider{Path: tt.path, Replies: []testkit.Reply{
				{Status: 429, Body: strings.Replace(tt.body, tt.wantType, "rate_limit_error", 1)},
				{Status: 401, Body: tt.body},
			}}
			base := strings.Replace(serve(t, p), "http://", "http://"+secretUser+":"+secretPass+"@", 1) + "/"
			var logs bytes.Buffer
			s := tt.sampler(base, &backfill.Options{Retry: fastRetry, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
			_, err := s.CreateMessage(context.Background(), params(t, "text"))
			var pe *backfill.ProviderError
			if !errors.As(err, &pe) {
				t.Fatalf("got %v, want a *ProviderError", err)
			}
			if pe.Provider != tt.name || pe.StatusCode != 401 || pe.Attempts != 2 || pe.Type != tt.wantType {
				t.Errorf("provider %q, status %d, attempts %d, type %q", pe.Provider, pe.StatusCode, pe.Attempts, pe.Type)
			}
			if !strings.HasPrefix(pe.Message, "invalid x-api-key [REDACTED] for https://[REDACTED]@internal.example/") {
				t.Errorf("message %q", pe.Message)
			}
			if len(p.Requests()) != 2 {
				t.Errorf("%d requests, want 2", len(p.Requests()))
			}
			for what, text := range map[string]string{"Error()": err.Error(), "Message": pe.Message, "the log": logs.String()} {
				for _, secret := range []string{secretPass, secretKey, bodyMarker, anotherKey, "hunter22", secretUser + ":"} {
					if strings.Contains(text, secret) {
						t.Errorf("%s holds %q:\n%s", what, secret, text)
					}
				}
			}
			if !strings.Contains(logs.String(), "rate_limit_error") {
				t.Errorf("the retry's log record does not say why:\n%s", logs.String())
			}
			// The SDK's own error stays reachable for programs, with what it holds.
			if tt.name == "anthropic" {
				var ae *anthropic.Error
				if !errors.As(err, &ae) || ae.StatusCode != 401 {
					t.Errorf("errors.As(*anthropic.Error) = %v", ae)
				}
			}
		})
	}
}

// TestProviderErrorWithoutAnswer checks the error of a call that got no HTTP answer, to a base
// URL with credentials: it says what happened, without them.
func TestProviderErrorWithoutAnswer(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now: connection refused
	for _, f := range fixtures {
		t.Run(f.name, func(t *testing.T) {
			s := f.sampler("http://"+secretUser+":"+secretPass+"@"+addr+"/", backfill.RetryPolicy{MaxAttempts: 1})
			_, err := s.CreateMessage(context.Background(), params(t, "text"))
			var pe *backfill.ProviderError
			if !errors.As(err, &pe) {
				t.Fatalf("got %v, want a *ProviderError", err)
			}
			if pe.StatusCode != 0 || pe.Attempts != 1 || !strings.Contains(pe.Message, "connection refused") {
				t.Errorf("status %d, attempts %d, message %q", pe.StatusCode, pe.Attempts, pe.Message)
			}
			if strings.Contains(err.Error(), secretPass) || strings.Contains(err.Error(), secretUser) {
				t.Errorf("Error() holds a credential: %s", err)
			}
		})
	}
}

// TestProviderErrorWithoutJSON checks the error of an answer that is not the provider's JSON
// (a gateway's HTML page that echoes the key): the status stays, the body does not.
func TestProviderErrorWithoutJSON(t *testing.T) {
	for _, f := range fixtures {
		t.Run(f.name, func(t *testing.T) {
			p := &testkit.Provider{Path: f.path, Replies: []testkit.Reply{{Status: 502, Body: "<html>" + bodyMarker + " " + anotherKey + "</html>"}}}
			_, err := f.sampler(serve(t, p), fastRetry).CreateMessage(context.Background(), params(t, "text"))
			var pe *backfill.ProviderError
			if !errors.As(err, &pe) {
				t.Fatalf("got %v, want a *ProviderError", err)
			}
			if want := f.name + ": HTTP 502 Bad Gateway after 3 attempts"; err.Error() != want {
				t.Errorf("error %q, want %q", err, want)
			}
			if pe.StatusCode != 502 || pe.Attempts != 3 || len(p.Requests()) != 3 {
				t.Errorf("status %d, attempts %d, %d requests", pe.StatusCode, pe.Attempts, len(p.Requests()))
			}
		})
	}
}
