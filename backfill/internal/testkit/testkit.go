// Package testkit holds what the backfill's end-to-end tests share: a fake model provider that
// replays recorded responses over HTTP, and an MCP server (on the official Go SDK) whose tool runs
// a tool loop with sampling with tools. It is used by tests only.
package testkit

//lint:file-ignore SA1019 sampling is deprecated from protocol version 2026-07-28; this tests the 2025-11-25 sampling flow, which it remains in.

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestdataDir returns the backfill module's testdata directory.
func TestdataDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata")
}

// A Reply is one scripted answer of a [Provider].
type Reply struct {
	Status int               // 0 means 200
	Header map[string]string // e.g. Retry-After
	Body   string
	Delay  time.Duration // wait before answering (or until the request is cancelled)
}

// RecordedReply returns a 200 reply with the body of a testdata file.
func RecordedReply(path string) Reply {
	data, err := os.ReadFile(filepath.Join(TestdataDir(), path))
	if err != nil {
		panic(err)
	}
	return Reply{Body: string(data)}
}

// A Provider is a fake model provider's HTTP API: it answers the n-th request with Replies[n]
// (the last reply repeats), and records every request. Serve it with httptest and point the
// official SDK client at it with its base URL option.
type Provider struct {
	// Path is the request path to answer: "/v1/messages" or "/chat/completions".
	Path    string
	Replies []Reply

	mu       sync.Mutex
	requests []Request
}

// A Request is what the provider received.
type Request struct {
	Body   []byte
	Header http.Header
	Time   time.Time
}

// Requests returns the requests received so far.
func (p *Provider) Requests() []Request {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Request(nil), p.requests...)
}

func (p *Provider) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, p.Path) {
		http.Error(w, fmt.Sprintf(`{"error":{"message":"fake provider: no route %s %s"}}`, r.Method, r.URL.Path), http.StatusNotFound)
		return
	}
	p.mu.Lock()
	n := len(p.requests)
	p.requests = append(p.requests, Request{Body: body, Header: r.Header.Clone(), Time: time.Now()})
	p.mu.Unlock()
	if len(p.Replies) == 0 {
		http.Error(w, `{"error":{"message":"fake provider: no replies scripted"}}`, http.StatusInternalServerError)
		return
	}
	reply := p.Replies[min(n, len(p.Replies)-1)]
	if reply.Delay > 0 {
		select {
		case <-time.After(reply.Delay):
		case <-r.Context().Done():
			return
		}
	}
	w.Header().Set("Content-Type", "application/json")
	for k, v := range reply.Header {
		w.Header().Set(k, v)
	}
	status := reply.Status
	if status == 0 {
		status = http.StatusOK
	}
	w.WriteHeader(status)
	io.WriteString(w, reply.Body)
}

// Weather is the agent server's get_weather tool: made-up, deterministic weather, the spec's
// example values for Paris and London.
func Weather(city string) string {
	switch city {
	case "Paris":
		return "Weather in Paris: 18°C, partly cloudy"
	case "London":
		return "Weather in London: 15°C, rainy"
	}
	return fmt.Sprintf("Weather in %s: 20°C, sunny", city)
}

// WeatherTool is the tool the agent offers the model, as in the spec's example.
var WeatherTool = &mcp.Tool{
	Name:        "get_weather",
	Description: "Get current weather for a city",
	InputSchema: map[string]any{
		"type":       "object",
		"properties": map[string]any{"city": map[string]any{"type": "string"}},
		"required":   []string{"city"},
	},
}

// AgentInput is the input of the agent tool.
type AgentInput struct {
	Prompt        string `json:"prompt"`
	MaxIterations int    `json:"maxIterations,omitempty"`
}

// NewAgentServer returns an MCP server with one tool, "agent", whose handler runs a tool loop on
// the client's model: it sends sampling/createMessage with the get_weather tool, runs every
// tool_use of the answer, sends the results back, and repeats until the model ends its turn. The
// tool's result is the model's final text, or an error result saying why the loop stopped.
func NewAgentServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "backfill-test-agent", Version: "1.0.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "agent", Description: "Answers a prompt with the client's model and a weather tool"}, agent)
	return s
}

func errorResult(format string, args ...any) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf(format, args...)}}}
}

func agent(ctx context.Context, req *mcp.CallToolRequest, in AgentInput) (*mcp.CallToolResult, any, error) {
	ss := req.Session
	if p := ss.InitializeParams(); p == nil || p.Capabilities == nil || p.Capabilities.Sampling == nil || p.Capabilities.Sampling.Tools == nil {
		return errorResult("the client does not support sampling with tools"), nil, nil
	}
	limit := in.MaxIterations
	if limit <= 0 {
		limit = 5
	}
	msgs := []*mcp.SamplingMessageV2{{Role: "user", Content: []mcp.Content{&mcp.TextContent{Text: in.Prompt}}}}
	for range limit {
		res, err := ss.CreateMessageWithTools(ctx, &mcp.CreateMessageWithToolsParams{
			Messages:  msgs,
			MaxTokens: 1000,
			Tools:     []*mcp.Tool{WeatherTool},
		})
		if err != nil {
			return errorResult("sampling failed: %v", err), nil, nil
		}
		msgs = append(msgs, &mcp.SamplingMessageV2{Role: "assistant", Content: res.Content})
		if res.StopReason != "toolUse" {
			var texts []string
			for _, c := range res.Content {
				if t, ok := c.(*mcp.TextContent); ok {
					texts = append(texts, t.Text)
				}
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Join(texts, "")}}}, nil, nil
		}
		var results []mcp.Content
		for _, c := range res.Content {
			tu, ok := c.(*mcp.ToolUseContent)
			if !ok {
				continue
			}
			r := &mcp.ToolResultContent{ToolUseID: tu.ID}
			city, _ := tu.Input["city"].(string)
			if tu.Name != WeatherTool.Name || city == "" {
				r.IsError = true
				r.Content = []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("unknown tool %q or missing city", tu.Name)}}
			} else {
				r.Content = []mcp.Content{&mcp.TextContent{Text: Weather(city)}}
			}
			results = append(results, r)
		}
		msgs = append(msgs, &mcp.SamplingMessageV2{Role: "user", Content: results})
	}
	return errorResult("the tool loop reached its limit of %d iterations", limit), nil, nil
}
