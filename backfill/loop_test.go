package backfill_test

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	anthropicoption "github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/mcpgen/mcpgen/backfill"
	"github.com/mcpgen/mcpgen/backfill/internal/testkit"
	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
	"github.com/mcpgen/mcpgen/sampling"
	"github.com/openai/openai-go/v3"
	openaioption "github.com/openai/openai-go/v3/option"
)

// loopProviderCase is a provider of TestLoopOnProvider: its recorded answers, its Sampler on a
// base URL, and how to read the tool results out of its second request.
type loopProviderCase struct {
	name, path, first, last, text string
	paris, london                 string // the recorded tool use ids
	sampler                       func(baseURL string) *backfill.Sampler
	results                       func(t *testing.T, body []byte) map[string]string // tool results by id
}

// loopProviderCases are the providers TestLoopOnProvider runs the tool loop on.
var loopProviderCases = []loopProviderCase{
	{
		name: "anthropic", path: "/v1/messages", first: "responses/anthropic/parallel_tool_use.json", last: "responses/anthropic/end_turn.json",
		text: "Hi! My name is Claude.", paris: "toolu_01Paris0000000000000001", london: "toolu_01London000000000000002",
		sampler: func(baseURL string) *backfill.Sampler {
			c := anthropic.NewClient(anthropicoption.WithAPIKey("test-key"), anthropicoption.WithBaseURL(baseURL))
			return backfill.NewAnthropicSampler(c, "claude-sonnet-4-5", &backfill.Options{Retry: fastRetry})
		},
		results: anthropicToolResults,
	},
	{
		name: "openai", path: "/chat/completions", first: "responses/openai/parallel_tool_calls.json", last: "responses/openai/stop.json",
		text: "\n\nHello there, how may I assist you today?", paris: "call_Paris00000000000000001", london: "call_London0000000000000002",
		sampler: func(baseURL string) *backfill.Sampler {
			c := openai.NewClient(openaioption.WithAPIKey("test-key"), openaioption.WithBaseURL(baseURL))
			return backfill.NewOpenAISampler(c, "gpt-4.1", &backfill.Options{Retry: fastRetry})
		},
		results: openAIToolResults,
	},
}

// anthropicToolResults reads the tool results, by tool use id, out of the last message of a
// Messages API request.
func anthropicToolResults(t *testing.T, body []byte) map[string]string {
	t.Helper()
	var req struct {
		Messages []struct {
			Role    string `json:"role"`
			Content []struct {
				Type      string `json:"type"`
				ToolUseID string `json:"tool_use_id"`
				Content   []struct{ Text string }
			} `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	last := req.Messages[len(req.Messages)-1]
	for _, c := range last.Content {
		if c.Type == "tool_result" && len(c.Content) == 1 {
			out[c.ToolUseID] = c.Content[0].Text
		}
	}
	return out
}

// openAIToolResults reads the tool results, by tool call id, out of the "tool" messages of a
// Chat Completions request, their content a string or text parts.
func openAIToolResults(t *testing.T, body []byte) map[string]string {
	t.Helper()
	var req struct {
		Messages []struct {
			Role       string          `json:"role"`
			ToolCallID string          `json:"tool_call_id"`
			Content    json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, m := range req.Messages {
		if m.Role != "tool" {
			continue
		}
		var s string
		if json.Unmarshal(m.Content, &s) != nil {
			var parts []struct{ Text string }
			json.Unmarshal(m.Content, &parts)
			for _, p := range parts {
				s += p.Text
			}
		}
		out[m.ToolCallID] = s
	}
	return out
}

// TestLoopOnProvider runs the tool loop of package sampling on a provider-backed Sampler, against
// a local server that replays recorded provider answers: parallel tool uses of get_weather, then
// the final text. The second request to the provider must carry the tool results, in the
// provider's own form, answering the recorded tool use ids.
func TestLoopOnProvider(t *testing.T) {
	for _, tc := range loopProviderCases {
		t.Run(tc.name, func(t *testing.T) {
			p := &testkit.Provider{Path: tc.path, Replies: []testkit.Reply{testkit.RecordedReply(tc.first), testkit.RecordedReply(tc.last)}}
			s := tc.sampler(serve(t, p))
			weather, err := sampling.NewTypedTool("get_weather", "Get current weather for a city", nil,
				func(_ context.Context, in struct {
					City string `json:"city"`
				}) (string, error) {
					return testkit.Weather(in.City), nil
				})
			if err != nil {
				t.Fatal(err)
			}
			loop := &sampling.Loop{Tools: []*sampling.Tool{weather}}
			res, err := loop.Run(t.Context(), s, &mcp.CreateMessageRequestParams{
				Messages:  []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewSamplingMessageContent(&mcp.TextContent{Text: "What's the weather like in Paris and London?"})}},
				MaxTokens: 1000,
			})
			if err != nil {
				t.Fatal(err)
			}
			if res.Stop != sampling.StopEndTurn || res.Iterations != 2 {
				t.Errorf("stop %s after %d iterations", res.Stop, res.Iterations)
			}
			if res.Text() != tc.text {
				t.Errorf("text %q, want %q", res.Text(), tc.text)
			}
			reqs := p.Requests()
			if len(reqs) != 2 {
				t.Fatalf("%d provider requests, want 2", len(reqs))
			}
			got := tc.results(t, reqs[1].Body)
			if len(got) != 2 {
				t.Fatalf("tool results in the second provider request: %v\n%s", got, reqs[1].Body)
			}
			if got[tc.paris] != testkit.Weather("Paris") || got[tc.london] != testkit.Weather("London") {
				t.Errorf("tool results %q", got)
			}
		})
	}
}

// TestLoopKeepsThinking runs the tool loop on Anthropic, whose first answer starts with thinking
// blocks (as models that think by default give them): the second request must carry them back
// unmodified, before the blocks they came before, as the Messages API requires when a
// conversation continues after a tool use.
func TestLoopKeepsThinking(t *testing.T) {
	p := &testkit.Provider{Path: "/v1/messages", Replies: []testkit.Reply{
		testkit.RecordedReply("responses/anthropic/thinking_tool_use.json"), testkit.RecordedReply("responses/anthropic/end_turn.json")}}
	c := anthropic.NewClient(anthropicoption.WithAPIKey("test-key"), anthropicoption.WithBaseURL(serve(t, p)))
	weather, err := sampling.NewTypedTool("get_weather", "Get current weather for a city", nil,
		func(_ context.Context, in struct {
			City string `json:"city"`
		}) (string, error) {
			return testkit.Weather(in.City), nil
		})
	if err != nil {
		t.Fatal(err)
	}
	res, err := (&sampling.Loop{Tools: []*sampling.Tool{weather}}).Run(t.Context(),
		backfill.NewAnthropicSampler(c, "claude-sonnet-4-5", &backfill.Options{Retry: fastRetry}),
		&mcp.CreateMessageRequestParams{
			Messages:  []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewSamplingMessageContent(&mcp.TextContent{Type: "text", Text: "What's the weather like in Paris?"})}},
			MaxTokens: 1000,
		})
	if err != nil || res.Stop != sampling.StopEndTurn {
		t.Fatalf("stop %v, %v", res.Stop, err)
	}
	reqs := p.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d provider requests", len(reqs))
	}
	var first struct {
		Content []json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal([]byte(testkit.RecordedReply("responses/anthropic/thinking_tool_use.json").Body), &first); err != nil {
		t.Fatal(err)
	}
	var second struct {
		Messages []struct {
			Role    string            `json:"role"`
			Content []json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(reqs[1].Body, &second); err != nil {
		t.Fatal(err)
	}
	if len(second.Messages) != 3 || second.Messages[1].Role != "assistant" {
		t.Fatalf("second request: %s", reqs[1].Body)
	}
	// The assistant message is the answer's content, block for block, thinking included.
	got, want := second.Messages[1].Content, first.Content
	if len(got) != len(want) {
		t.Fatalf("assistant content %d blocks, want %d:\n%s", len(got), len(want), reqs[1].Body)
	}
	for i := range want {
		if !reflect.DeepEqual(jsonValue(t, got[i]), jsonValue(t, want[i])) {
			t.Errorf("block %d:\n%s\nwant\n%s", i, got[i], want[i])
		}
	}
}
