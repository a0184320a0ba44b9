package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
)

// The fallback tests run the binary with -fallback anthropic, against a local server that plays
// Anthropic's Messages API with answers in its format (a tool use of get_weather, then the
// answer), in place of the provider: the SDK reads ANTHROPIC_BASE_URL.

// anthropicAPI is a local Messages API that answers the n-th request with replies[n] (the last
// repeats) and records the requests.
type anthropicAPI struct {
	status  int // 0: 200
	replies []string

	mu       sync.Mutex
	requests []string
}

func (p *anthropicAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	p.mu.Lock()
	n := len(p.requests)
	p.requests = append(p.requests, string(body))
	p.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	if r.URL.Path != "/v1/messages" || r.Header.Get("Authorization") != "Bearer test-key" {
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"type":"error","error":{"type":"not_found_error","message":"no such route, or not the key"}}`)
		return
	}
	if p.status != 0 {
		w.WriteHeader(p.status)
	}
	io.WriteString(w, p.replies[min(n, len(p.replies)-1)])
}

func (p *anthropicAPI) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.requests)
}

// withFallback is the binary with -fallback anthropic, on api.
func withFallback(t *testing.T, api *anthropicAPI) *exec.Cmd {
	srv := httptest.NewServer(api)
	t.Cleanup(srv.Close)
	cmd := exec.Command(binary, "-fallback", "anthropic")
	cmd.Env = append(os.Environ(), "ANTHROPIC_API_KEY=test-key", "ANTHROPIC_BASE_URL="+srv.URL, "ANTHROPIC_AUTH_TOKEN=")
	return cmd
}

const (
	toolUseReply = `{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[` +
		`{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city":"Paris"}}],"stop_reason":"tool_use","usage":{"input_tokens":10,"output_tokens":5}}`
	answerReply = `{"id":"msg_2","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[` +
		`{"type":"text","text":"It is 18°C and partly cloudy in Paris."}],"stop_reason":"end_turn","usage":{"input_tokens":20,"output_tokens":9}}`
)

// TestAgentFallback: with -fallback anthropic, a client without sampling.tools (sampling without
// tools, or none) gets the answer of the provider's model, the loop run within the one call
// (nothing sampled on the wire, the tool's result sent back to the provider); a client with
// sampling.tools is still asked itself.
func TestAgentFallback(t *testing.T) {
	for _, v := range versions {
		for _, caps := range []string{"basic", "none", "tools"} {
			t.Run(versionName(v)+"/"+caps, func(t *testing.T) {
				api := &anthropicAPI{replies: []string{toolUseReply, answerReply}}
				a := launch(t, withFallback(t, api), v, caps, map[string][]turn{"Weather in Paris?": {
					answer("toolUse", use("c1", "get_weather", `{"city":"Paris"}`)),
					echo("c1"),
				}}, nil)
				got, isErr := a.call(t, t.Context(), map[string]any{"prompt": "Weather in Paris?"})
				if caps == "tools" {
					if want := "c1: Weather in Paris: 18°C, partly cloudy"; got != want || isErr || api.count() != 0 {
						t.Errorf("result %q (isError %v), want %q; the provider got %d requests", got, isErr, want, api.count())
					}
					a.checkWire(t, 2)
					return
				}
				if want := "It is 18°C and partly cloudy in Paris."; got != want || isErr {
					t.Errorf("result %q (isError %v), want %q", got, isErr, want)
				}
				a.checkWire(t, 0)
				api.mu.Lock()
				defer api.mu.Unlock()
				if len(api.requests) != 2 {
					t.Fatalf("the provider got %d requests, want 2", len(api.requests))
				}
				var second struct {
					Messages []struct {
						Content []struct {
							Type      string `json:"type"`
							ToolUseID string `json:"tool_use_id"`
							Content   []struct {
								Text string `json:"text"`
							} `json:"content"`
						} `json:"content"`
					} `json:"messages"`
				}
				if err := json.Unmarshal([]byte(api.requests[1]), &second); err != nil {
					t.Fatal(err)
				}
				last := second.Messages[len(second.Messages)-1].Content
				if len(last) != 1 || last[0].Type != "tool_result" || last[0].ToolUseID != "toolu_1" ||
					len(last[0].Content) != 1 || last[0].Content[0].Text != "Weather in Paris: 18°C, partly cloudy" {
					t.Errorf("the second request's last message: %+v", last)
				}
			})
		}
	}
}

// TestAgentFallbackError: a provider that refuses the request gives the call an error result
// with the provider's error (without the key), not a protocol error.
func TestAgentFallbackError(t *testing.T) {
	for _, v := range versions {
		t.Run(versionName(v), func(t *testing.T) {
			api := &anthropicAPI{status: http.StatusBadRequest, replies: []string{
				`{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: too large for the model"}}`}}
			a := launch(t, withFallback(t, api), v, "none", nil, nil)
			got, isErr := a.call(t, t.Context(), map[string]any{"prompt": "Weather in Paris?"})
			want := "the tool loop failed on the provider's model: sampling: anthropic: HTTP 400 Bad Request: invalid_request_error: max_tokens: too large for the model"
			if got != want || !isErr || api.count() != 1 {
				t.Errorf("result %q (isError %v), want %q; %d provider requests", got, isErr, want, api.count())
			}
		})
	}
}

// TestAgentFallbackNeedsKey: -fallback without the provider's key stops at once, saying so.
func TestAgentFallbackNeedsKey(t *testing.T) {
	cmd := exec.Command(binary, "-fallback", "anthropic")
	cmd.Env = append(os.Environ(), "ANTHROPIC_API_KEY=")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "-fallback anthropic needs the key in ANTHROPIC_API_KEY") {
		t.Errorf("exit %v, output %q", err, out)
	}
}

// TestAgentFallbackLimit: at 2026-07-28 a call that the provider answers runs within the call, so
// the limit of 9 samples of go-sdk's client does not apply to it: it stops at maxIterations.
func TestAgentFallbackLimit(t *testing.T) {
	var replies []string
	for i := range 12 {
		replies = append(replies, strings.ReplaceAll(toolUseReply, "toolu_1", fmt.Sprintf("toolu_%d", i+1)))
	}
	api := &anthropicAPI{replies: replies}
	a := launch(t, withFallback(t, api), "", "none", nil, nil)
	got, isErr := a.call(t, t.Context(), map[string]any{"prompt": "Weather in Paris?", "maxIterations": 12})
	want := "the tool loop stopped at its limit of 12 sampling requests (maxIterations) with the model still asking for tools (get_weather)"
	if got != want || !isErr || api.count() != 12 {
		t.Errorf("result %q (isError %v), want %q; %d provider requests", got, isErr, want, api.count())
	}
}
