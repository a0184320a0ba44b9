package backfill_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	anthropicoption "github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/mcpgen/mcpgen/backfill"
	"github.com/mcpgen/mcpgen/backfill/internal/testkit"
	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
	"github.com/openai/openai-go/v3"
	openaioption "github.com/openai/openai-go/v3/option"
)

// fast retries, so that the tests do not wait.
var fastRetry = backfill.RetryPolicy{MaxAttempts: 3, InitialBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond, MaxRetryAfter: time.Second, AttemptTimeout: 5 * time.Second}

type fixture struct {
	name     string
	path     string
	response string // a recorded response in testdata
	request  string // the request case in testdata/requests
	sampler  func(baseURL string, retry backfill.RetryPolicy) *backfill.Sampler
	model    string
}

var fixtures = []fixture{
	{
		name: "anthropic", path: "/v1/messages", response: "responses/anthropic/end_turn.json", request: "tools", model: "claude-sonnet-4-5",
		sampler: func(baseURL string, retry backfill.RetryPolicy) *backfill.Sampler {
			c := anthropic.NewClient(anthropicoption.WithAPIKey("test-key"), anthropicoption.WithBaseURL(baseURL))
			return backfill.NewAnthropicSampler(c, "claude-sonnet-4-5", &backfill.Options{Retry: retry})
		},
	},
	{
		name: "openai", path: "/chat/completions", response: "responses/openai/stop.json", request: "tools", model: "gpt-4.1",
		sampler: func(baseURL string, retry backfill.RetryPolicy) *backfill.Sampler {
			c := openai.NewClient(openaioption.WithAPIKey("test-key"), openaioption.WithBaseURL(baseURL))
			return backfill.NewOpenAISampler(c, "gpt-4.1", &backfill.Options{Retry: retry})
		},
	},
}

func params(t *testing.T, name string) *mcp.CreateMessageRequestParams {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "requests", name, "mcp.json"))
	if err != nil {
		t.Fatal(err)
	}
	var p mcp.CreateMessageRequestParams
	if err := json.Unmarshal(data, &p); err != nil {
		t.Fatal(err)
	}
	return &p
}

func jsonValue(t *testing.T, data []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("%v: %s", err, data)
	}
	return v
}

func serve(t *testing.T, p *testkit.Provider) string {
	t.Helper()
	srv := httptest.NewServer(p)
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestSamplerRoundTrip sends sampling params through the official SDK to a local server that
// answers with a recorded response: the request on the wire must be the provider request of the
// testdata, and the result the converted response.
func TestSamplerRoundTrip(t *testing.T) {
	for _, f := range fixtures {
		t.Run(f.name, func(t *testing.T) {
			p := &testkit.Provider{Path: f.path, Replies: []testkit.Reply{testkit.RecordedReply(f.response)}}
			s := f.sampler(serve(t, p), fastRetry)
			res, err := s.CreateMessage(context.Background(), params(t, f.request))
			if err != nil {
				t.Fatal(err)
			}
			reqs := p.Requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests", len(reqs))
			}
			want, _ := os.ReadFile(filepath.Join("testdata", "requests", f.request, f.name+".json"))
			if got := jsonValue(t, reqs[0].Body); !reflect.DeepEqual(got, jsonValue(t, want)) {
				t.Errorf("request on the wire:\n%s\nwant:\n%s", reqs[0].Body, want)
			}
			// Both SDKs send the key as a bearer token (Anthropic's from API version
			// 2026-10-21 on, which its SDK v2 sends).
			if reqs[0].Header.Get("Authorization") != "Bearer test-key" {
				t.Errorf("authorization header %q", reqs[0].Header.Get("Authorization"))
			}
			if f.name == "anthropic" && reqs[0].Header.Get("Anthropic-Version") != "2026-10-21" {
				t.Errorf("anthropic-version header %q", reqs[0].Header.Get("Anthropic-Version"))
			}
			got, _ := json.Marshal(res)
			wantRes, _ := os.ReadFile(filepath.Join("testdata", strings.TrimSuffix(f.response, ".json")+".mcp.json"))
			if !reflect.DeepEqual(jsonValue(t, got), jsonValue(t, wantRes)) {
				t.Errorf("result:\n%s\nwant:\n%s", got, wantRes)
			}
		})
	}
}

func TestSamplerRetries(t *testing.T) {
	overloaded := `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`
	rateLimited := `{"type":"error","error":{"type":"rate_limit_error","message":"Number of requests has exceeded your rate limit"}}`
	tests := []struct {
		name         string
		replies      func(ok testkit.Reply) []testkit.Reply
		wantAttempts int
		wantStatus   int // of the final error; 0: success
	}{
		{"429 then success", func(ok testkit.Reply) []testkit.Reply {
			return []testkit.Reply{{Status: 429, Header: map[string]string{"Retry-After": "0"}, Body: rateLimited}, ok}
		}, 2, 0},
		{"529 twice then success", func(ok testkit.Reply) []testkit.Reply {
			return []testkit.Reply{{Status: 529, Body: overloaded}, {Status: 529, Body: overloaded}, ok}
		}, 3, 0},
		{"503 until the attempts run out", func(testkit.Reply) []testkit.Reply {
			return []testkit.Reply{{Status: 503, Body: overloaded}}
		}, 3, 503},
		{"400 is not retried", func(testkit.Reply) []testkit.Reply {
			return []testkit.Reply{{Status: 400, Body: `{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: must be positive"}}`}}
		}, 1, 400},
		{"x-should-retry: false", func(testkit.Reply) []testkit.Reply {
			return []testkit.Reply{{Status: 500, Header: map[string]string{"x-should-retry": "false"}, Body: overloaded}}
		}, 1, 500},
		{"x-should-retry: true on a 400", func(ok testkit.Reply) []testkit.Reply {
			return []testkit.Reply{{Status: 400, Header: map[string]string{"x-should-retry": "true"}, Body: overloaded}, ok}
		}, 2, 0},
		{"Retry-After longer than allowed", func(ok testkit.Reply) []testkit.Reply {
			return []testkit.Reply{{Status: 429, Header: map[string]string{"Retry-After": "120"}, Body: rateLimited}, ok}
		}, 1, 429},
		{"attempt timeout then success", func(ok testkit.Reply) []testkit.Reply {
			slow := ok
			slow.Delay = 30 * time.Second
			return []testkit.Reply{slow, ok}
		}, 2, 0},
	}
	for _, f := range fixtures {
		for _, tt := range tests {
			t.Run(f.name+"/"+tt.name, func(t *testing.T) {
				p := &testkit.Provider{Path: f.path, Replies: tt.replies(testkit.RecordedReply(f.response))}
				retry := fastRetry
				if strings.Contains(tt.name, "timeout") {
					retry.AttemptTimeout = 500 * time.Millisecond
				}
				s := f.sampler(serve(t, p), retry)
				start := time.Now()
				res, err := s.CreateMessage(context.Background(), params(t, "text"))
				if n := len(p.Requests()); n != tt.wantAttempts {
					t.Errorf("%d requests, want %d", n, tt.wantAttempts)
				}
				if tt.wantStatus == 0 {
					if err != nil {
						t.Fatalf("got error %v", err)
					}
					if res.Model == "" {
						t.Errorf("no model in the result")
					}
					return
				}
				var pe *backfill.ProviderError
				if !errors.As(err, &pe) {
					t.Fatalf("got %v, want a *ProviderError", err)
				}
				if pe.StatusCode != tt.wantStatus || pe.Attempts != tt.wantAttempts || pe.Provider != f.name {
					t.Errorf("got %+v, want status %d after %d attempts", pe, tt.wantStatus, tt.wantAttempts)
				}
				if d := time.Since(start); d > 8*time.Second {
					t.Errorf("took %v: the retries must not wait for long", d)
				}
			})
		}
	}
}

// TestSamplerRespectsRetryAfter checks that the second attempt waits for the provider's
// Retry-After-Ms (and, for the other fixture, Retry-After in seconds).
func TestSamplerRespectsRetryAfter(t *testing.T) {
	for i, f := range fixtures {
		header := map[string]string{"Retry-After-Ms": "300"}
		if i == 1 {
			header = map[string]string{"Retry-After": "0.3"}
		}
		t.Run(f.name, func(t *testing.T) {
			p := &testkit.Provider{Path: f.path, Replies: []testkit.Reply{
				{Status: 429, Header: header, Body: `{"error":{"message":"rate limited"}}`}, testkit.RecordedReply(f.response)}}
			s := f.sampler(serve(t, p), fastRetry)
			if _, err := s.CreateMessage(context.Background(), params(t, "text")); err != nil {
				t.Fatal(err)
			}
			reqs := p.Requests()
			if len(reqs) != 2 {
				t.Fatalf("%d requests", len(reqs))
			}
			if gap := reqs[1].Time.Sub(reqs[0].Time); gap < 300*time.Millisecond {
				t.Errorf("retried after %v, before the 300ms the provider asked for", gap)
			}
		})
	}
}

func TestSamplerTimeoutExhausted(t *testing.T) {
	f := fixtures[0]
	slow := testkit.RecordedReply(f.response)
	slow.Delay = 30 * time.Second
	p := &testkit.Provider{Path: f.path, Replies: []testkit.Reply{slow}}
	retry := fastRetry
	retry.MaxAttempts, retry.AttemptTimeout = 2, 100*time.Millisecond
	s := f.sampler(serve(t, p), retry)
	_, err := s.CreateMessage(context.Background(), params(t, "text"))
	var pe *backfill.ProviderError
	if !errors.As(err, &pe) || pe.Attempts != 2 || pe.StatusCode != 0 || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v (%+v), want a timeout after 2 attempts", err, pe)
	}
}

func TestSamplerCancellation(t *testing.T) {
	for _, f := range fixtures {
		t.Run(f.name, func(t *testing.T) {
			slow := testkit.RecordedReply(f.response)
			slow.Delay = 30 * time.Second
			p := &testkit.Provider{Path: f.path, Replies: []testkit.Reply{slow}}
			s := f.sampler(serve(t, p), fastRetry)
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(100*time.Millisecond, cancel)
			start := time.Now()
			_, err := s.CreateMessage(ctx, params(t, "text"))
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("got %v, want context.Canceled", err)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("returned %v after the cancellation", d)
			}
			if n := len(p.Requests()); n != 1 {
				t.Errorf("%d requests after cancellation, want 1", n)
			}
		})
	}
}

func TestSamplerCancelledDuringBackoff(t *testing.T) {
	f := fixtures[1]
	p := &testkit.Provider{Path: f.path, Replies: []testkit.Reply{{Status: 429, Header: map[string]string{"Retry-After": "30"}, Body: `{}`}}}
	retry := fastRetry
	retry.MaxRetryAfter = time.Minute
	s := f.sampler(serve(t, p), retry)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := s.CreateMessage(ctx, params(t, "text"))
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 5*time.Second {
		t.Fatalf("got %v after %v", err, time.Since(start))
	}
}

// TestSamplerConversionErrors checks that params a provider cannot take are not sent, and that an
// answer that cannot be converted is not retried.
func TestSamplerConversionErrors(t *testing.T) {
	f := fixtures[0]
	p := &testkit.Provider{Path: f.path, Replies: []testkit.Reply{{Body: `{"id":"msg","type":"message","role":"assistant","model":"m","content":[{"type":"tool_use","id":"a","name":"n","input":"not an object"}],"stop_reason":"tool_use"}`}}}
	s := f.sampler(serve(t, p), fastRetry)

	_, err := s.CreateMessage(context.Background(), params(t, "audio"))
	var ce *backfill.ConversionError
	if !errors.As(err, &ce) || ce.Pointer != "/messages/0/content/1" {
		t.Fatalf("got %v, want a conversion error at /messages/0/content/1", err)
	}
	if n := len(p.Requests()); n != 0 {
		t.Fatalf("%d requests for params that cannot be sent", n)
	}

	_, err = s.CreateMessage(context.Background(), params(t, "text"))
	var pe *backfill.ProviderError
	if !errors.As(err, &pe) || !errors.As(err, &ce) || pe.Attempts != 1 {
		t.Fatalf("got %v, want a provider error wrapping a conversion error after 1 attempt", err)
	}
}

func TestSamplerAccessors(t *testing.T) {
	s := fixtures[1].sampler("http://127.0.0.1:1", fastRetry)
	if s.Provider() != "openai" || s.Model() != "gpt-4.1" {
		t.Errorf("Provider %q, Model %q", s.Provider(), s.Model())
	}
}

// TestSamplerNetworkError checks that a provider that cannot be reached is retried, then reported.
func TestSamplerNetworkError(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close() // nothing listens there any more
	s := fixtures[0].sampler(url, fastRetry)
	_, err := s.CreateMessage(context.Background(), params(t, "text"))
	var pe *backfill.ProviderError
	if !errors.As(err, &pe) || pe.Attempts != 3 || pe.StatusCode != 0 {
		t.Fatalf("got %v (%+v), want a connection failure after 3 attempts", err, pe)
	}
}

// TestSamplerValidates checks that params breaking a rule of sampling with tools are refused with
// the generated *ValidationError and never sent, and that an answer breaking the rules of a
// sampling result (two tool uses with one id) is a provider error.
func TestSamplerValidates(t *testing.T) {
	f := fixtures[0]
	p := &testkit.Provider{Path: f.path, Replies: []testkit.Reply{
		{Body: `{"id":"msg","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"hi"}],"stop_reason":"end_turn"}`},
		{Body: `{"id":"msg","type":"message","role":"assistant","model":"m","content":[` +
			`{"type":"tool_use","id":"a","name":"n","input":{}},{"type":"tool_use","id":"a","name":"n","input":{}}],"stop_reason":"tool_use"}`},
	}}
	s := f.sampler(serve(t, p), fastRetry)
	bad := params(t, "text")
	bad.Messages = append(bad.Messages, mcp.SamplingMessage{Role: mcp.RoleAssistant,
		Content: mcp.NewSamplingMessageContent(&mcp.ToolUseContent{ID: "a", Name: "get_weather", Input: map[string]json.RawMessage{}})})
	_, err := s.CreateMessage(context.Background(), bad)
	var ve *mcp.ValidationError
	if !errors.As(err, &ve) || ve.Problems[0].Pointer != "/messages" {
		t.Fatalf("got %v, want a validation error: the tool use is not answered", err)
	}
	if n := len(p.Requests()); n != 0 {
		t.Fatalf("%d requests for invalid params", n)
	}
	if _, err := s.CreateMessage(context.Background(), params(t, "text")); err != nil {
		t.Fatalf("valid params: %v", err)
	}
	_, err = s.CreateMessage(context.Background(), params(t, "text"))
	var pe *backfill.ProviderError
	if !errors.As(err, &pe) || !errors.As(err, &ve) || !strings.Contains(ve.Error(), `tool use id "a" is used twice`) {
		t.Fatalf("got %v, want a provider error wrapping the validation error of the answer", err)
	}
}
