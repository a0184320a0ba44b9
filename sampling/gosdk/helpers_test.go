//lint:file-ignore SA1019 sampling is deprecated as of 2026-07-28 (SEP-2577), and still in it: this tests its helpers

package gosdk_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
	"github.com/mcpgen/mcpgen/sampling"
	"github.com/mcpgen/mcpgen/sampling/gosdk"
	"github.com/mcpgen/mcpgen/sampling/mrtr"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The helper tests run gosdk's SampleTools and SampleStructured in a go-sdk v1.8.0 server, in
// process over go-sdk's in-memory transports, against go-sdk's client and a scripted model, at
// the client's default version (2026-07-28: one round trip per attempt) and at 2025-11-25.

// Forecast is what the structured tool asks the model for.
type Forecast struct {
	City  string `json:"city"`
	TempC int    `json:"tempC"`
}

// helperServer is a go-sdk server with three tools: "pick" asks for a tool call (SampleTools,
// offering get_weather), "forecast" for a Forecast (SampleStructured), and "both" for a Forecast
// with tools in the params, which SampleStructured refuses.
func helperServer(t *testing.T) *handlerServer {
	t.Helper()
	hs := newHandlerServer(t, true)
	weather := must(t)(sampling.NewTypedTool("get_weather", "Current weather of a city", nil, func(_ context.Context, in struct {
		City string `json:"city"`
	}) (string, error) {
		return "", errors.New("not run")
	}))
	runner := &mrtr.Runner{
		Loop:  &sampling.Loop{},
		Key:   []byte("a key of at least thirty-two bytes"),
		Guard: hs.guard,
		Now:   hs.clock.Now,
	}
	params := func(prompt string, tools bool) func() (*mcp.CreateMessageRequestParams, error) {
		return func() (*mcp.CreateMessageRequestParams, error) {
			p := &mcp.CreateMessageRequestParams{
				Messages:  []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewSamplingMessageContent(&mcp.TextContent{Text: prompt})}},
				MaxTokens: 100,
			}
			if tools {
				p.Tools = []mcp.Tool{weather.Definition()}
			}
			return p, nil
		}
	}
	answerOf := func(res *sdk.CallToolResult, err error, value func() string) (*sdk.CallToolResult, any, error) {
		var rerr *sampling.RetryError
		switch {
		case errors.As(err, &rerr):
			return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: rerr.Error()}}}, nil, nil
		case err != nil:
			return nil, nil, gosdk.JSONRPCError(err)
		case res != nil:
			return res, nil, nil
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: value()}}}, nil, nil
	}
	sdk.AddTool(hs.server, &sdk.Tool{Name: "pick"}, func(ctx context.Context, req *sdk.CallToolRequest, in agentInput) (*sdk.CallToolResult, any, error) {
		h := &gosdk.Handler{Runner: runner, Fallback: hs.fallback}
		res, calls, err := h.SampleTools(ctx, req, params(in.Prompt, true), nil)
		return answerOf(res, err, func() string {
			var parts []string
			for _, c := range calls.Calls {
				data, _ := c.MarshalJSON()
				parts = append(parts, string(data))
			}
			return fmt.Sprintf("%d attempts: %s", calls.Attempts, strings.Join(parts, ", "))
		})
	})
	structured := func(tools bool) sdk.ToolHandlerFor[agentInput, any] {
		return func(ctx context.Context, req *sdk.CallToolRequest, in agentInput) (*sdk.CallToolResult, any, error) {
			h := &gosdk.Handler{Runner: runner, Fallback: hs.fallback}
			res, a, err := gosdk.SampleStructured[Forecast](ctx, h, req, params(in.Prompt, tools), nil)
			return answerOf(res, err, func() string {
				return fmt.Sprintf("%d attempts: %+v", a.Attempts, a.Value)
			})
		}
	}
	sdk.AddTool(hs.server, &sdk.Tool{Name: "forecast"}, structured(false))
	sdk.AddTool(hs.server, &sdk.Tool{Name: "both"}, structured(true))
	return hs
}

// helperCase is a call of a helper's tool against a scripted model: the result's text and
// isError that the client receives.
type helperCase struct {
	name, tool string
	turns      []turn
	want       string
	isError    bool
}

// helperCases are the calls of TestHelpers: each helper answering at once, after retries, and
// after running out of attempts.
var helperCases = []helperCase{
	{name: "a tool call at once", tool: "pick", turns: []turn{
		answer("toolUse", use("w", "get_weather", `{"city":"Paris"}`)),
	}, want: `1 attempts: {"type":"tool_use","id":"w","name":"get_weather","input":{"city":"Paris"}}`},
	{name: "tool call retries", tool: "pick", turns: []turn{
		answer("endTurn", text("It is sunny.")),
		answer("toolUse", use("a", "get_weather", `{"town":"Paris"}`)),
		answer("toolUse", use("b", "get_weather", `{"city":"Paris"}`)),
	}, want: `3 attempts: {"type":"tool_use","id":"b","name":"get_weather","input":{"city":"Paris"}}`},
	{name: "tool call exhaustion", tool: "pick", isError: true, turns: []turn{
		answer("endTurn", text("No.")),
		answer("endTurn", text("Still no.")),
		answer("toolUse", use("x", "get_forecast", `{"city":"Paris"}`)),
	}, want: `sampling: SampleTools: no valid answer in 3 attempts; the last: unknown tool "get_forecast": the tools are get_weather`},
	{name: "structured at once", tool: "forecast", turns: []turn{
		answer("toolUse", use("f", "answer", `{"city":"Paris","tempC":18}`)),
	}, want: "1 attempts: {City:Paris TempC:18}"},
	{name: "structured retries", tool: "forecast", turns: []turn{
		answer("toolUse", use("f1", "answer", `{"city":"Paris","tempC":"warm"}`)),
		answer("toolUse", use("f2", "answer", `{"city":"Paris","tempC":18}`)),
	}, want: "2 attempts: {City:Paris TempC:18}"},
	{name: "structured exhaustion", tool: "forecast", isError: true, turns: []turn{
		answer("endTurn", text("18 degrees")),
		answer("toolUse", use("f1", "answer", `{"city":"Paris"}`)),
		answer("toolUse", use("f2", "answer", `{"tempC":18}`)),
	}, want: `sampling: SampleStructured: no valid answer in 3 attempts; the last: invalid input for tool "answer": (root): missing property 'city'`},
}

// TestHelpers runs each of helperCases at each version, then the calls that a helper refuses.
func TestHelpers(t *testing.T) {
	for _, v := range versions {
		for _, tc := range helperCases {
			t.Run(v.name+"/"+tc.name, func(t *testing.T) { runHelperCase(t, v.version, tc) })
		}
		testHelperRefusals(t, v.name, v.version)
	}
}

// runHelperCase calls tc's tool at version and checks its result, the requests the model
// answered, and the round trips the server made.
func runHelperCase(t *testing.T, version string, tc helperCase) {
	hs := helperServer(t)
	m := &model{t: t, turns: tc.turns}
	cs := connectClient(t, hs.server, version, clientOptions(m, "tools", false))
	res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: tc.tool, Arguments: map[string]any{"prompt": "Weather in Paris?"}})
	if err != nil {
		t.Fatalf("tools/call: %v", err)
	}
	if got := callText(t, res); got != tc.want || res.IsError != tc.isError {
		t.Errorf("result %q (isError %v), want %q (%v)", got, res.IsError, tc.want, tc.isError)
	}
	if m.count() != len(tc.turns) {
		t.Errorf("the model answered %d requests, want %d", m.count(), len(tc.turns))
	}
	calls, sampled := hs.counts()
	if version == "" && (calls != len(tc.turns)+1 || sampled != 0) {
		t.Errorf("%d tools/call, %d sampling requests sent by the server; want %d, 0", calls, sampled, len(tc.turns)+1)
	}
	if version != "" && (calls != 1 || sampled != len(tc.turns)) {
		t.Errorf("%d tools/call, %d sampling requests sent by the server; want 1, %d", calls, sampled, len(tc.turns))
	}
	// Each retry told the model what was wrong: the conversation grows by two messages.
	for i, p := range m.seen {
		if len(p.Messages) != 2*i+1 {
			t.Errorf("request %d: %d messages", i+1, len(p.Messages))
		}
		if p.ToolChoice == nil || p.ToolChoice.Mode == nil || *p.ToolChoice.Mode != mcp.ToolChoiceModeRequired {
			t.Errorf("request %d does not force a tool call", i+1)
		}
	}
}

// testHelperRefusals runs, as subtests of t named after name, the calls a helper refuses at
// version before asking the model: a schema with tools, and a client without sampling.tools.
func testHelperRefusals(t *testing.T, name, version string) {
	t.Run(name+"/schema and tools", func(t *testing.T) {
		hs := helperServer(t)
		m := &model{t: t}
		cs := connectClient(t, hs.server, version, clientOptions(m, "tools", false))
		_, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "both", Arguments: map[string]any{"prompt": "Weather?"}})
		werr, _ := rpcErr(t, err)
		if werr.Code != -32603 || !strings.Contains(werr.Message, "tools") || m.count() != 0 {
			t.Errorf("error %d %q; %d requests", werr.Code, werr.Message, m.count())
		}
	})
	t.Run(name+"/without sampling.tools", func(t *testing.T) {
		hs := helperServer(t)
		m := &model{t: t}
		cs := connectClient(t, hs.server, version, clientOptions(m, "basic", false))
		_, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "forecast", Arguments: map[string]any{"prompt": "Weather?"}})
		if werr, _ := rpcErr(t, err); werr.Code != -32021 || m.count() != 0 {
			t.Errorf("error %d %q; %d requests", werr.Code, werr.Message, m.count())
		}
	})
}

// TestHelperStates: a helper's state is refused when tampered with, presented to another tool,
// or replayed (go-sdk's client with its multi round-trip middleware disabled).
func TestHelperStates(t *testing.T) {
	args := map[string]any{"prompt": "Weather in Paris?"}
	bad := answer("endTurn", text("no tool"))
	for _, tc := range []struct {
		name, tool, reason string
		tamper             bool
		replay             bool
	}{
		{name: "tampered", tool: "forecast", reason: "tampered", tamper: true},
		{name: "another tool", tool: "pick", reason: "otherRequest"},
		{name: "replayed", tool: "forecast", reason: "replayed", replay: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hs := helperServer(t)
			cs := connectClient(t, hs.server, "", clientOptions(&model{t: t}, "tools", true))
			state, key, p := firstRound(t, cs, "forecast", args, "")
			if key != "sampling-1" || len(p.Tools) != 1 || p.Tools[0].Name != "answer" {
				t.Fatalf("first request %s: %+v", key, p)
			}
			if tc.tamper {
				b := []byte(state)
				b[len(b)-3] ^= 1
				state = string(b)
			}
			present := func() (*sdk.CallToolResult, error) {
				return cs.CallTool(t.Context(), &sdk.CallToolParams{Name: tc.tool, Arguments: args,
					InputResponses: sdk.InputResponseMap{key: sdkAnswer(t, bad)}, RequestState: state})
			}
			if tc.replay {
				res, err := present()
				if err != nil || !res.NeedsInput() || res.InputRequests["sampling-2"] == nil {
					t.Fatalf("the first presentation: %v %+v", err, res)
				}
			}
			_, err := present()
			werr, data := rpcErr(t, err)
			if werr.Code != -32602 || data["reason"] != tc.reason {
				t.Errorf("error %d %q, data %s; want -32602, reason %s", werr.Code, werr.Message, werr.Data, tc.reason)
			}
		})
	}
}

// TestHelperProgress: a helper called with a progressToken reports each attempt once, numbered
// 1, 2, 3, although each round of 2026-07-28 (and each step of an older session) runs the helper
// again over the answers recorded so far.
func TestHelperProgress(t *testing.T) {
	for _, v := range versions {
		t.Run(v.name, func(t *testing.T) {
			hs := helperServer(t)
			m := &model{t: t, turns: []turn{
				answer("endTurn", text("It is sunny.")),
				answer("toolUse", use("a", "get_weather", `{"town":"Paris"}`)),
				answer("toolUse", use("b", "get_weather", `{"city":"Paris"}`)),
			}}
			opts := clientOptions(m, "tools", false)
			events := make(chan string, 100)
			opts.ProgressNotificationHandler = func(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
				events <- fmt.Sprintf("%g %s", req.Params.Progress, req.Params.Message)
			}
			cs := connectClient(t, hs.server, v.version, opts)
			params := &sdk.CallToolParams{Name: "pick", Arguments: map[string]any{"prompt": "Weather in Paris?"}}
			params.SetProgressToken(7)
			if _, err := cs.CallTool(t.Context(), params); err != nil {
				t.Fatal(err)
			}
			cs.Close() // every notification received is handled
			close(events)
			var got []string
			for e := range events {
				got = append(got, e)
			}
			want := []string{
				"1 asking the model (attempt 1 of at most 3)",
				"2 asking the model (attempt 2 of at most 3)",
				"3 asking the model (attempt 3 of at most 3)",
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("progress:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}
