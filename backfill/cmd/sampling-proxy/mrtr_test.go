package main

//lint:file-ignore SA1019 sampling is deprecated from protocol version 2026-07-28, where this test server asks for it in the multi round-trip style.

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/backfill/internal/testkit"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mrtrState is what the test server keeps in requestState: the conversation so far. (A test
// server: a real one authenticates its state, as package sampling/mrtr does.)
type mrtrState struct {
	Messages []*mcp.SamplingMessageV2 `json:"messages"`
	Round    int                      `json:"round"`
	Confirm  bool                     `json:"confirm,omitempty"`
	Answer   string                   `json:"answer,omitempty"` // the user's answer to the confirmation
}

func encodeState(st *mrtrState) string {
	b, err := json.Marshal(st)
	if err != nil {
		panic(err)
	}
	return base64.StdEncoding.EncodeToString(b)
}

func decodeState(s string) (*mrtrState, error) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, err
	}
	var st mrtrState
	if err := json.Unmarshal(b, &st); err != nil {
		return nil, err
	}
	return &st, nil
}

func textResult(isError bool, format string, args ...any) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: isError, Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf(format, args...)}}}
}

// addMRTRTools adds to s the tools that ask for the model in the multi round-trip style of
// 2026-07-28: "agent-mrtr" runs the tool loop of testkit's agent, one sampling input request per
// round; "confirm-agent" asks, in its first round, for an elicitation and a sampling request at
// once. Both report what they were told about the client's capabilities.
func addMRTRTools(s *mcp.Server) {
	addSpendingTools(s)
	mcp.AddTool(s, &mcp.Tool{Name: "agent-mrtr", Description: "Answers a prompt with the model, in multi round-trip requests"},
		func(ctx context.Context, req *mcp.CallToolRequest, in agentInput) (*mcp.CallToolResult, any, error) {
			return agentRound(req, in, false)
		})
	mcp.AddTool(s, &mcp.Tool{Name: "confirm-agent", Description: "Asks the user to confirm, and the model, in one round"},
		func(ctx context.Context, req *mcp.CallToolRequest, in agentInput) (*mcp.CallToolResult, any, error) {
			return agentRound(req, in, true)
		})
	mcp.AddTool(s, &mcp.Tool{Name: "big", Description: "Answers with a text of the given size"},
		func(ctx context.Context, req *mcp.CallToolRequest, in struct {
			Bytes int `json:"bytes"`
		}) (*mcp.CallToolResult, any, error) {
			return textResult(false, "%s", strings.Repeat("b", in.Bytes)), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "parent-env", Description: "Says whether the server can read its parent's environment, and whether it holds the named variable"},
		func(ctx context.Context, req *mcp.CallToolRequest, in struct {
			Name string `json:"name"`
		}) (*mcp.CallToolResult, any, error) {
			data, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", os.Getppid()))
			if err != nil {
				return textResult(false, "unreadable"), nil, nil
			}
			return textResult(false, "readable, holds %s: %v", in.Name, strings.Contains(string(data), in.Name+"=")), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "env", Description: "Says which of the named environment variables the server has"},
		func(ctx context.Context, req *mcp.CallToolRequest, in struct {
			Names []string `json:"names"`
		}) (*mcp.CallToolResult, any, error) {
			var set []string
			for _, n := range in.Names {
				if _, ok := os.LookupEnv(n); ok {
					set = append(set, n)
				}
			}
			return textResult(false, "set: [%s]", strings.Join(set, " ")), nil, nil
		})
}

// agentInput is testkit's agent input and a model hint.
type agentInput struct {
	testkit.AgentInput
	Hint string `json:"hint,omitempty"`
}

func agentRound(req *mcp.CallToolRequest, in agentInput, confirm bool) (*mcp.CallToolResult, any, error) {
	caps := req.ClientCapabilities()
	if caps == nil || caps.Sampling == nil || caps.Sampling.Tools == nil {
		return textResult(true, "the client does not support sampling with tools"), nil, nil
	}
	p := req.Params
	st := &mrtrState{Messages: []*mcp.SamplingMessageV2{{Role: "user", Content: []mcp.Content{&mcp.TextContent{Text: in.Prompt}}}}, Confirm: confirm}
	if p.RequestState != "" {
		var err error
		if st, err = decodeState(p.RequestState); err != nil {
			return nil, nil, fmt.Errorf("bad requestState: %v", err)
		}
		key := fmt.Sprintf("model-%d", st.Round)
		res, ok := p.InputResponses[key].(*mcp.CreateMessageWithToolsResult)
		if !ok {
			return textResult(true, "no answer to %s", key), nil, nil
		}
		if st.Confirm {
			e, ok := p.InputResponses["confirm"].(*mcp.ElicitResult)
			if !ok {
				return textResult(true, "no answer to confirm"), nil, nil
			}
			st.Answer = fmt.Sprintf("confirmed=%s ", e.Action)
			st.Confirm = false
		}
		st.Messages = append(st.Messages, &mcp.SamplingMessageV2{Role: "assistant", Content: res.Content})
		if res.StopReason != "toolUse" {
			var texts []string
			for _, c := range res.Content {
				if t, ok := c.(*mcp.TextContent); ok {
					texts = append(texts, t.Text)
				}
			}
			return textResult(false, "%s%s", st.Answer, strings.Join(texts, "")), nil, nil
		}
		var results []mcp.Content
		for _, c := range res.Content {
			if tu, ok := c.(*mcp.ToolUseContent); ok {
				city, _ := tu.Input["city"].(string)
				results = append(results, &mcp.ToolResultContent{ToolUseID: tu.ID, Content: []mcp.Content{&mcp.TextContent{Text: testkit.Weather(city)}}})
			}
		}
		st.Messages = append(st.Messages, &mcp.SamplingMessageV2{Role: "user", Content: results})
		st.Round++
	}
	limit := in.MaxIterations
	if limit <= 0 {
		limit = 5
	}
	if st.Round >= limit {
		return textResult(true, "the tool loop reached its limit of %d iterations", limit), nil, nil
	}
	params := &mcp.CreateMessageWithToolsParams{Messages: st.Messages, MaxTokens: 1000, Tools: []*mcp.Tool{testkit.WeatherTool}}
	if in.Hint != "" {
		params.ModelPreferences = &mcp.ModelPreferences{Hints: []*mcp.ModelHint{{Name: "gpt-9"}, {Name: in.Hint}}, SpeedPriority: 1}
	}
	reqs := mcp.InputRequestMap{fmt.Sprintf("model-%d", st.Round): params}
	if st.Confirm {
		reqs["confirm"] = &mcp.ElicitParams{Message: "Ask the model?", RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{}}}
	}
	return &mcp.CallToolResult{InputRequests: reqs, RequestState: encodeState(st)}, nil, nil
}

// checkSecondRequest checks that the provider's second request carries the tool loop's history
// (the tool result), as the provider takes it.
func checkSecondRequest(t *testing.T, p provider, fake *testkit.Provider) {
	t.Helper()
	reqs := fake.Requests()
	if len(reqs) != 2 {
		t.Fatalf("the provider got %d requests, want 2", len(reqs))
	}
	want, err := os.ReadFile(filepath.Join(testkit.TestdataDir(), "requests", "tool_results", p.name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var got, wantV any
	json.Unmarshal(reqs[1].Body, &got)
	json.Unmarshal(want, &wantV)
	if !reflect.DeepEqual(got, wantV) {
		t.Errorf("second provider request:\n%s\nwant:\n%s", reqs[1].Body, want)
	}
}

// TestProxyMRTR: go-sdk's client at its default version (2026-07-28) → the proxy as a process →
// a go-sdk server whose tool asks for the model with input_required results: the session stays
// at 2026-07-28, the proxy answers the sampling rounds through the provider, and the client sees
// one complete result.
func TestProxyMRTR(t *testing.T) {
	for _, p := range providers {
		t.Run(p.name, func(t *testing.T) {
			fake, url := fakeProvider(t, p, recorded(p.replies...))
			var stderr syncBuffer
			cmd := proxyCommand(t, p, url, &stderr)
			cs := connectAt(t, &mcp.CommandTransport{Command: cmd}, "", nil)
			if v := cs.InitializeResult().ProtocolVersion; v != "2026-07-28" {
				t.Fatalf("negotiated %s, want 2026-07-28", v)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "agent-mrtr", Arguments: map[string]any{"prompt": prompt}})
			if err != nil {
				t.Fatalf("calling agent-mrtr: %v\nstderr:\n%s", err, stderr.String())
			}
			if text := res.Content[0].(*mcp.TextContent).Text; res.IsError || text != finalAnswer {
				t.Fatalf("agent-mrtr answered (isError %v) %q\nstderr:\n%s", res.IsError, text, stderr.String())
			}
			checkSecondRequest(t, p, fake)
			if err := cs.Close(); err != nil {
				t.Errorf("closing: %v", err)
			}
			log := stderr.String()
			for _, want := range []string{"the server asks for input", "retried the request with the answers"} {
				if !strings.Contains(log, want) {
					t.Errorf("stderr lacks %q:\n%s", want, log)
				}
			}
		})
	}
}

// TestProxyMRTRElicitation: a round that asks for an elicitation and a sampling request at once.
// The proxy answers the sampling request, forwards the elicitation to the client (with a
// requestState of its own), and on the client's retry gives the server both answers and its
// requestState.
func TestProxyMRTRElicitation(t *testing.T) {
	p := providers[0]
	fake, url := fakeProvider(t, p, recorded(p.replies...))
	var stderr syncBuffer
	cmd := proxyCommand(t, p, url, &stderr)
	var asked atomic.Int32
	opts := &mcp.ClientOptions{ElicitationHandler: func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		asked.Add(1)
		if req.Params.Message != "Ask the model?" {
			return nil, fmt.Errorf("unexpected elicitation %q", req.Params.Message)
		}
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{}}, nil
	}}
	cs := connectAt(t, &mcp.CommandTransport{Command: cmd}, "", opts)
	defer cs.Close()
	if v := cs.InitializeResult().ProtocolVersion; v != "2026-07-28" {
		t.Fatalf("negotiated %s, want 2026-07-28", v)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "confirm-agent", Arguments: map[string]any{"prompt": prompt}})
	if err != nil {
		t.Fatalf("calling confirm-agent: %v\nstderr:\n%s", err, stderr.String())
	}
	if text := res.Content[0].(*mcp.TextContent).Text; res.IsError || text != "confirmed=accept "+finalAnswer {
		t.Fatalf("confirm-agent answered (isError %v) %q\nstderr:\n%s", res.IsError, text, stderr.String())
	}
	if n := asked.Load(); n != 1 {
		t.Errorf("the client was asked to elicit %d times, want 1", n)
	}
	checkSecondRequest(t, p, fake)
	if !strings.Contains(stderr.String(), "forwarded input requests to the client") {
		t.Errorf("stderr:\n%s", stderr.String())
	}

	// A client without elicitation gets an error, not a request it cannot answer.
	cs2 := connectAt(t, &mcp.CommandTransport{Command: proxyCommand(t, p, url, &stderr)}, "", nil)
	defer cs2.Close()
	_, err = cs2.CallTool(ctx, &mcp.CallToolParams{Name: "confirm-agent", Arguments: map[string]any{"prompt": prompt}})
	if err == nil || !strings.Contains(err.Error(), "which the client does not support") {
		t.Errorf("a client without elicitation: %v", err)
	}
}

// TestProxyModelMap: the server's model hints choose the provider model by -model-map.
func TestProxyModelMap(t *testing.T) {
	p := providers[0]
	fake, url := fakeProvider(t, p, recorded(p.replies...))
	var stderr syncBuffer
	cmd := proxyCommand(t, p, url, &stderr, "-model-map", "sonnet=claude-sonnet-4-5,haiku=claude-haiku-4-5")
	cs := connectAt(t, &mcp.CommandTransport{Command: cmd}, "", nil)
	defer cs.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "agent-mrtr", Arguments: map[string]any{"prompt": prompt, "hint": "haiku"}})
	if err != nil || res.IsError {
		t.Fatalf("agent-mrtr: %v %v\nstderr:\n%s", err, res, stderr.String())
	}
	for _, r := range fake.Requests() {
		var body struct {
			Model string `json:"model"`
		}
		json.Unmarshal(r.Body, &body)
		if body.Model != "claude-haiku-4-5" {
			t.Errorf("the provider was asked for %q, want claude-haiku-4-5", body.Model)
		}
	}
	if !strings.Contains(stderr.String(), `msg="model chosen by hint" src=sampling-proxy hint=haiku route=haiku model=claude-haiku-4-5`) {
		t.Errorf("the choice is not logged:\n%s", stderr.String())
	}
}

// TestProxyMRTRCancel: a go-sdk client at 2026-07-28 that gives up on a call while the proxy
// waits for the provider cancels the provider call.
func TestProxyMRTRCancel(t *testing.T) {
	p := providers[0]
	fake := &testkit.Provider{Path: p.path, Replies: []testkit.Reply{{Delay: time.Hour, Body: "{}"}}}
	started, ended := make(chan struct{}, 1), make(chan struct{}, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		started <- struct{}{}
		fake.ServeHTTP(w, r) // returns before the hour only when the request is cancelled
		ended <- struct{}{}
	}))
	defer srv.Close()
	url := srv.URL
	var stderr syncBuffer
	cmd := proxyCommand(t, p, url, &stderr)
	cs := connectAt(t, &mcp.CommandTransport{Command: cmd}, "", nil)
	defer cs.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "agent-mrtr", Arguments: map[string]any{"prompt": prompt}})
		done <- err
	}()
	select {
	case <-started:
	case <-time.After(20 * time.Second):
		t.Fatalf("the provider was not asked\nstderr:\n%s", stderr.String())
	}
	cancel()
	if err := <-done; err == nil {
		t.Error("the cancelled call succeeded")
	}
	stderr.waitFor(t, "client cancelled a request whose input the proxy answers")
	select {
	case <-ended:
	case <-time.After(20 * time.Second):
		t.Fatalf("the provider call was not cancelled\nstderr:\n%s", stderr.String())
	}
	// The Sampler returns when its provider call ends: a cancelled call is not answered, so
	// the log says nothing of an answer or a failure.
	ctx2, cancel2 := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel2()
	if _, err := cs.ListTools(ctx2, nil); err != nil {
		t.Fatal(err)
	}
	if log := stderr.String(); strings.Contains(log, "sampling failed") || strings.Contains(log, "model answered") {
		t.Errorf("the cancelled call was answered:\n%s", log)
	}
}
