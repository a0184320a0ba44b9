//lint:file-ignore SA1019 sampling is deprecated as of 2026-07-28 (SEP-2577), and still in it: this tests it

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
)

// These tests drive the binary (built by TestMain) with the official TypeScript MCP SDK's client,
// @modelcontextprotocol/sdk at the version that tsclient/package-lock.json pins, through the
// script tsclient/client.mjs run by node. That SDK speaks protocol versions up to 2025-11-25 and
// knows nothing of 2026-07-28's input_required results, so the session negotiates 2025-11-25
// and the server sends its sampling requests within the call.
//
// They need node and tsclient/node_modules (npm ci in tsclient/): without them they are skipped,
// except under CI (CI=true), where they fail.

// tsClientDir is the directory of the TypeScript client.
const tsClientDir = "tsclient"

// tsRun is what client.mjs prints.
type tsRun struct {
	SDKVersion       string            `json:"sdkVersion"`
	RequestedVersion string            `json:"requestedVersion"`
	ProtocolVersion  string            `json:"protocolVersion"`
	Requests         []json.RawMessage `json:"requests"`
	Received         []json.RawMessage `json:"received"`
	Sent             []json.RawMessage `json:"sent"`
	Results          []json.RawMessage `json:"results"`
	Progress         []struct {
		Progress float64 `json:"progress"`
		Message  string  `json:"message"`
	} `json:"progress"`
}

// tsConfig is client.mjs's configuration: see its doc.
type tsConfig struct {
	Capabilities string           `json:"capabilities"`
	Progress     bool             `json:"progress,omitempty"`
	Calls        []map[string]any `json:"calls"`
	Turns        []any            `json:"turns,omitempty"`
}

// nodeForTSClient returns node's path, or skips the test (fails it under CI) when node or the
// installed SDK is missing.
func nodeForTSClient(t *testing.T) string {
	t.Helper()
	unavailable := t.Skipf
	if os.Getenv("CI") == "true" {
		unavailable = func(format string, args ...any) {
			t.Fatalf("under CI (CI=true) the TypeScript SDK client tests must run: "+format, args...)
		}
	}
	node, err := exec.LookPath("node")
	if err != nil {
		unavailable("node is not installed (%v): the TypeScript SDK client tests need Node.js 18 or later", err)
	}
	if _, err := os.Stat(filepath.Join(tsClientDir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		unavailable("the TypeScript MCP SDK is not installed (%v): run npm ci in examples/sampling-agent/tsclient", err)
	}
	return node
}

// runTSClient runs client.mjs against the binary and decodes what it printed.
func runTSClient(t *testing.T, config tsConfig) *tsRun {
	t.Helper()
	node := nodeForTSClient(t)
	configJSON, err := json.Marshal(config)
	if err != nil {
		t.Fatal(err)
	}
	// Not a timing assertion: a guard so that a hung client fails with its stderr.
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "client.mjs", binary, string(configJSON))
	cmd.Dir = tsClientDir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node client.mjs: %v\nstderr (the client's and the server's):\n%s", err, stderr.String())
	}
	var run tsRun
	if err := json.Unmarshal(stdout.Bytes(), &run); err != nil {
		t.Fatalf("client.mjs printed %q: %v\nstderr:\n%s", stdout.String(), err, stderr.String())
	}
	// The installed SDK is the one the lockfile pins.
	lock, err := os.ReadFile(filepath.Join(tsClientDir, "package-lock.json"))
	if err != nil {
		t.Fatal(err)
	}
	var locked struct {
		Packages map[string]struct{ Version string } `json:"packages"`
	}
	if err := json.Unmarshal(lock, &locked); err != nil {
		t.Fatalf("package-lock.json: %v", err)
	}
	if want := locked.Packages["node_modules/@modelcontextprotocol/sdk"].Version; run.SDKVersion != want {
		t.Fatalf("the installed @modelcontextprotocol/sdk is %s, package-lock.json pins %s: run npm ci in examples/sampling-agent/tsclient", run.SDKVersion, want)
	}
	// The SDK's latest version, which it asks for, is 2025-11-25, and the server agrees to it.
	if run.RequestedVersion != mcp.LatestProtocolVersion || run.ProtocolVersion != mcp.LatestProtocolVersion {
		t.Fatalf("the client asked for %s and the server answered %s, want %s both", run.RequestedVersion, run.ProtocolVersion, mcp.LatestProtocolVersion)
	}
	t.Logf("@modelcontextprotocol/sdk %s negotiated %s", run.SDKVersion, run.ProtocolVersion)
	return &run
}

// wire is the traffic of a run decoded with mcpgen's types of 2025-11-25, each message validated:
// the server's sampling requests, the client's answers to them and the tools/call results.
type wire struct {
	sampling []*mcp.CreateMessageRequest
	answers  []mcp.Message // each a *mcp.JSONRPCResultResponse or *mcp.JSONRPCErrorResponse
	calls    []*mcp.CallToolResult
}

func decodeWire(t *testing.T, run *tsRun) *wire {
	t.Helper()
	// The methods of the requests each side sent, by id, so that the responses decode as the
	// results of their methods.
	pending := func(msgs []json.RawMessage) *mcp.Pending {
		p := &mcp.Pending{}
		for _, m := range msgs {
			var probe struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			if err := json.Unmarshal(m, &probe); err != nil {
				t.Fatalf("%s: %v", m, err)
			}
			if probe.ID == nil || probe.Method == "" {
				continue
			}
			id, err := mcp.UnmarshalRequestID(probe.ID)
			if err != nil {
				t.Fatalf("the request id of %s: %v", m, err)
			}
			p.Add(id, probe.Method)
		}
		return p
	}
	fromClient, fromServer := pending(run.Sent), pending(run.Received)
	var w wire
	for _, data := range run.Received {
		msg, err := mcp.DecodeServerMessage(data, fromClient.Take)
		if err != nil {
			t.Fatalf("a message from the server does not decode: %v\n%s", err, data)
		}
		if err := msg.Validate(); err != nil {
			t.Errorf("a message from the server is invalid: %v\n%s", err, data)
		}
		if bytes.Contains(data, []byte(`"inputRequests"`)) || bytes.Contains(data, []byte(`"input_required"`)) {
			t.Errorf("2026-07-28's input_required in a session of 2025-11-25: %s", data)
		}
		switch m := msg.(type) {
		case *mcp.CreateMessageRequest:
			w.sampling = append(w.sampling, m)
		case *mcp.JSONRPCResultResponse:
			if r, ok := m.Result.(*mcp.CallToolResult); ok {
				w.calls = append(w.calls, r)
			}
		case *mcp.JSONRPCErrorResponse:
			t.Errorf("the server answered with an error: %s", data)
		default:
			if msg.GetMethod() != "" && !strings.HasPrefix(msg.GetMethod(), "notifications/") {
				t.Errorf("an unexpected request from the server: %s", data)
			}
		}
	}
	for _, data := range run.Sent {
		msg, err := mcp.DecodeClientMessage(data, fromServer.Take)
		if err != nil {
			t.Fatalf("a message from the client does not decode: %v\n%s", err, data)
		}
		if err := msg.Validate(); err != nil {
			t.Errorf("a message from the client is invalid: %v\n%s", err, data)
		}
		switch m := msg.(type) {
		case *mcp.JSONRPCResultResponse:
			if _, ok := m.Result.(*mcp.CreateMessageResult); !ok {
				t.Errorf("the client answered with a %T: %s", m.Result, data)
			}
			w.answers = append(w.answers, m)
		case *mcp.JSONRPCErrorResponse:
			w.answers = append(w.answers, m)
		}
	}
	if fromClient.Len() != 0 || fromServer.Len() != 0 {
		t.Errorf("requests left unanswered: %d of the client's, %d of the server's", fromClient.Len(), fromServer.Len())
	}
	if len(w.answers) != len(w.sampling) {
		t.Errorf("the client answered %d of %d sampling requests", len(w.answers), len(w.sampling))
	}
	return &w
}

// sameJSON reports whether a and b are the same JSON value.
func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatalf("%s: %v", a, err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return reflect.DeepEqual(x, y)
}

func callText(t *testing.T, r *mcp.CallToolResult) (string, bool) {
	t.Helper()
	var parts []string
	for _, c := range r.Content {
		tc, ok := c.(*mcp.TextContent)
		if !ok {
			t.Fatalf("the result holds a %T", c)
		}
		parts = append(parts, tc.Text)
	}
	return strings.Join(parts, "\n"), r.IsError != nil && *r.IsError
}

func toolUse(id, name string, input any) map[string]any {
	return map[string]any{"type": "tool_use", "id": id, "name": name, "input": input}
}

func modelTurn(stop string, content ...any) map[string]any {
	return map[string]any{"role": "assistant", "model": "scripted", "stopReason": stop, "content": content}
}

const agentPrompt = "How is the weather in Paris, and what are 18+15 and 1+2+3?"

// agentScenario is a client that declares sampling with tools, whose model asks for get_weather,
// then for add twice at once (answered in one user message), then ends with a text that says
// the two sums it read in the last request.
func agentScenario(progress bool) tsConfig {
	return tsConfig{
		Capabilities: "tools",
		Progress:     progress,
		Calls:        []map[string]any{{"prompt": agentPrompt}},
		Turns: []any{
			modelTurn("toolUse", toolUse("w", "get_weather", map[string]any{"city": "Paris"})),
			modelTurn("toolUse", toolUse("a", "add", map[string]any{"numbers": []int{18, 15}}), toolUse("b", "add", map[string]any{"numbers": []int{1, 2, 3}})),
			map[string]any{"echo": []string{"a", "b"}},
		},
	}
}

// The TypeScript client's model plays agentScenario.
func TestTSClientAgent(t *testing.T) {
	run := runTSClient(t, agentScenario(false))
	w := decodeWire(t, run)

	// The messages of each sampling request the client got: the conversation so far, with the
	// tool results in the user message after each assistant message that asked for tools (both
	// of the parallel ones in one message), in the order of the uses.
	user := `{"role":"user","content":{"type":"text","text":` + jsonString(agentPrompt) + `}}`
	weather := `{"role":"assistant","content":[{"type":"tool_use","id":"w","name":"get_weather","input":{"city":"Paris"}}]},` +
		`{"role":"user","content":{"type":"tool_result","toolUseId":"w","content":[{"type":"text","text":"Weather in Paris: 18°C, partly cloudy"}]}}`
	sums := `{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"add","input":{"numbers":[18,15]}},{"type":"tool_use","id":"b","name":"add","input":{"numbers":[1,2,3]}}]},` +
		`{"role":"user","content":[{"type":"tool_result","toolUseId":"a","content":[{"type":"text","text":"33"}]},{"type":"tool_result","toolUseId":"b","content":[{"type":"text","text":"6"}]}]}`
	want := []string{"[" + user + "]", "[" + user + "," + weather + "]", "[" + user + "," + weather + "," + sums + "]"}

	if len(run.Requests) != len(want) || len(w.sampling) != len(want) {
		t.Fatalf("the client's model got %d sampling requests (%d on the wire), want %d", len(run.Requests), len(w.sampling), len(want))
	}
	for i, raw := range run.Requests {
		var p struct {
			Messages     []json.RawMessage `json:"messages"`
			SystemPrompt string            `json:"systemPrompt"`
			MaxTokens    int               `json:"maxTokens"`
			Tools        []struct{ Name string }
			ToolChoice   json.RawMessage `json:"toolChoice"`
		}
		if err := json.Unmarshal(raw, &p); err != nil {
			t.Fatal(err)
		}
		got, err := json.Marshal(p.Messages)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(messages(t, got), messages(t, []byte(want[i]))) {
			t.Errorf("sampling request %d's messages:\n got %s\nwant %s", i+1, got, want[i])
		}
		if p.MaxTokens != 1024 || !strings.Contains(p.SystemPrompt, "get_weather") || len(p.Tools) != 2 || p.Tools[0].Name != "get_weather" || p.Tools[1].Name != "add" || p.ToolChoice != nil {
			t.Errorf("sampling request %d: maxTokens %d, systemPrompt %q, tools %v, toolChoice %s; want 1024, the prompt that names the tools, get_weather and add, none",
				i+1, p.MaxTokens, p.SystemPrompt, p.Tools, p.ToolChoice)
		}
		// The SDK hands its handler the request as the server wrote it.
		onWire, err := json.Marshal(w.sampling[i].Params)
		if err != nil {
			t.Fatal(err)
		}
		if !sameJSON(t, raw, onWire) {
			t.Errorf("sampling request %d: the handler got\n%s\nthe server wrote\n%s", i+1, raw, onWire)
		}
	}

	if len(run.Results) != 1 || len(w.calls) != 1 {
		t.Fatalf("%d tools/call results (%d on the wire), want 1", len(run.Results), len(w.calls))
	}
	text, isError := callText(t, w.calls[0])
	if isError || text != "a: 33; b: 6" {
		t.Errorf("the agent's result: %q (isError %v), want the model's final text %q", text, isError, "a: 33; b: 6")
	}
	onWire, err := json.Marshal(w.calls[0])
	if err != nil {
		t.Fatal(err)
	}
	if !sameJSON(t, run.Results[0], onWire) {
		t.Errorf("the client's callTool returned\n%s\nthe server wrote\n%s", run.Results[0], onWire)
	}
}

// A call with onprogress (the SDK sends a progressToken) gets the loop's events as
// notifications/progress with the call's token, numbered 1, 2, 3, ..., all written before the
// call's response.
func TestTSClientProgress(t *testing.T) {
	run := runTSClient(t, agentScenario(true))
	decodeWire(t, run)
	var token json.RawMessage
	for _, m := range run.Sent {
		var probe struct {
			Method string
			Params struct {
				Meta struct {
					ProgressToken json.RawMessage `json:"progressToken"`
				} `json:"_meta"`
			}
		}
		json.Unmarshal(m, &probe)
		if probe.Method == "tools/call" {
			token = probe.Params.Meta.ProgressToken
		}
	}
	if token == nil {
		t.Fatal("the client's tools/call has no progressToken")
	}
	var events []string
	responded := false
	for _, m := range run.Received {
		var probe struct {
			Method string
			Params struct {
				ProgressToken json.RawMessage `json:"progressToken"`
				Progress      float64         `json:"progress"`
				Message       string          `json:"message"`
			}
			Result *struct{ Content json.RawMessage }
		}
		json.Unmarshal(m, &probe)
		switch {
		case probe.Method == "notifications/progress":
			if responded {
				t.Errorf("progress after the call's response: %s", m)
			}
			if !bytes.Equal(probe.Params.ProgressToken, token) {
				t.Errorf("progress with token %s, the call's is %s", probe.Params.ProgressToken, token)
			}
			events = append(events, fmt.Sprintf("%g %s", probe.Params.Progress, probe.Params.Message))
		case probe.Result != nil && probe.Result.Content != nil:
			responded = true
		}
	}
	want := []string{
		"1 asking the model (request 1 of at most 10)",
		"2 tool get_weather ran",
		"3 asking the model (request 2 of at most 10)",
		"4 tool add ran",
		"5 tool add ran",
		"6 asking the model (request 3 of at most 10)",
		"7 done after 3 requests",
	}
	if strings.Join(events, "\n") != strings.Join(want, "\n") {
		t.Errorf("progress on the wire:\n%s\nwant:\n%s", strings.Join(events, "\n"), strings.Join(want, "\n"))
	}
	// What the SDK passes to onprogress: the same, except that SDK 1.32.2 can drop the last one.
	// It handles a notification a microtask after reading it, a response at once, and the
	// response retires the call's progress handler: a notification read together with the
	// response (as the last one, written just before it, often is) reaches no handler
	// (modelcontextprotocol/typescript-sdk#2580).
	var got []string
	for _, p := range run.Progress {
		got = append(got, fmt.Sprintf("%g %s", p.Progress, p.Message))
	}
	if n := len(got); n < len(want)-1 || n > len(want) || strings.Join(got, "\n") != strings.Join(want[:n], "\n") {
		t.Errorf("onprogress got:\n%s\nwant:\n%s\n(the last one may be missing)", strings.Join(got, "\n"), strings.Join(want, "\n"))
	} else if n < len(want) {
		t.Logf("the SDK dropped the last progress notification, read with the response (typescript-sdk#2580)")
	}
}

// A client that does not declare sampling.tools (sampling without tools, or no sampling at all)
// gets an error result that says so, and no sampling request.
func TestTSClientWithoutSamplingTools(t *testing.T) {
	for _, c := range []struct{ capabilities, reason string }{
		{"basic", "the client does not declare the sampling.tools capability"},
		{"none", "the client does not declare the sampling capability"},
	} {
		t.Run(c.capabilities, func(t *testing.T) {
			run := runTSClient(t, tsConfig{Capabilities: c.capabilities, Calls: []map[string]any{{"prompt": "How is the weather in Paris?"}}})
			w := decodeWire(t, run)
			if len(run.Requests) != 0 || len(w.sampling) != 0 {
				t.Errorf("%d sampling requests reached the client (%d on the wire), want none", len(run.Requests), len(w.sampling))
			}
			if len(w.calls) != 1 {
				t.Fatalf("%d tools/call results, want 1", len(w.calls))
			}
			text, isError := callText(t, w.calls[0])
			if !isError || !strings.Contains(text, "does not support sampling with tools") || !strings.Contains(text, c.reason) {
				t.Errorf("the agent's result: %q (isError %v), want an error result that says the client does not support sampling with tools (%s)", text, isError, c.reason)
			}
		})
	}
}

// The loop stops at maxIterations with the model still asking for tools: an error result that
// says so, after exactly that many sampling requests.
func TestTSClientLimit(t *testing.T) {
	run := runTSClient(t, tsConfig{
		Capabilities: "tools",
		Calls:        []map[string]any{{"prompt": "Add forever.", "maxIterations": 2}},
		Turns: []any{
			modelTurn("toolUse", toolUse("a", "add", map[string]any{"numbers": []int{1}})),
			modelTurn("toolUse", toolUse("b", "add", map[string]any{"numbers": []int{2}})),
			modelTurn("toolUse", toolUse("c", "add", map[string]any{"numbers": []int{3}})),
		},
	})
	w := decodeWire(t, run)
	if len(w.sampling) != 2 || len(w.calls) != 1 {
		t.Fatalf("%d sampling requests and %d tools/call results, want 2 and 1", len(w.sampling), len(w.calls))
	}
	text, isError := callText(t, w.calls[0])
	if !isError || !strings.Contains(text, "limit of 2 sampling requests") || !strings.Contains(text, "(add)") {
		t.Errorf("the agent's result: %q (isError %v), want an error result about the limit of 2 with add pending", text, isError)
	}
}

// The client's model fails: the client answers the sampling request with a JSON-RPC error,
// which ends the call with an error result that carries its message.
func TestTSClientModelError(t *testing.T) {
	run := runTSClient(t, tsConfig{
		Capabilities: "tools",
		Calls:        []map[string]any{{"prompt": "How is the weather in Paris?"}},
		Turns:        []any{map[string]any{"error": "the model is overloaded"}},
	})
	w := decodeWire(t, run)
	if len(w.sampling) != 1 || len(w.answers) != 1 {
		t.Fatalf("%d sampling requests and %d answers, want 1 each", len(w.sampling), len(w.answers))
	}
	var rpcErr *mcp.JSONRPCErrorResponse
	if m, ok := w.answers[0].(*mcp.JSONRPCErrorResponse); ok {
		rpcErr = m
	}
	if rpcErr == nil || !strings.Contains(rpcErr.Error.Message, "the model is overloaded") {
		t.Errorf("the client's answer to the sampling request: %#v, want a JSON-RPC error with the model's message", w.answers[0])
	}
	if len(w.calls) != 1 {
		t.Fatalf("%d tools/call results, want 1", len(w.calls))
	}
	text, isError := callText(t, w.calls[0])
	if !isError || !strings.Contains(text, "the model is overloaded") {
		t.Errorf("the agent's result: %q (isError %v), want an error result with the model's error", text, isError)
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// messages decodes a list of sampling messages as JSON values, a content of one block as a list
// of one (the two forms the spec allows for the same content).
func messages(t *testing.T, data []byte) []map[string]any {
	t.Helper()
	var msgs []map[string]any
	if err := json.Unmarshal(data, &msgs); err != nil {
		t.Fatalf("%s: %v", data, err)
	}
	for _, m := range msgs {
		if _, ok := m["content"].([]any); !ok {
			m["content"] = []any{m["content"]}
		}
	}
	return msgs
}
