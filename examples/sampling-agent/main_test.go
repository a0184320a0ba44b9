//lint:file-ignore SA1019 sampling is deprecated as of 2026-07-28 (SEP-2577), and still in it: this tests it

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
	v2026 "github.com/mcpgen/mcpgen/gen/mcp20260728"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The tests build the command with go build, run the binary, and drive it over stdio with the
// official Go SDK's client (v1.8.0), whose model is scripted: at the client's default version
// (the session negotiates 2026-07-28, and the client's middleware answers the server's
// inputRequests and calls again) and at 2025-11-25 (the server sends sampling/createMessage).

// versions are the protocol versions the tests ask for: "" is the client's default.
var versions = []string{"", "2025-11-25"}

func versionName(v string) string {
	if v == "" {
		return "default"
	}
	return v
}

var binary string

// profiling is whether the binary is built to write CPU profiles (-scale.profile).
var profiling bool

func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "sampling-agent-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "sampling-agent")
	build := []string{"build", "-o", binary}
	if *scaleProfile != "" {
		build, profiling = append(build, "-tags", "scaleprofile"), true
	}
	if out, err := exec.Command("go", append(build, ".")...).CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// A turn answers a sampling request (as mcpgen's params) with a result as JSON.
type turn func(ctx context.Context, p *mcp.CreateMessageRequestParams) string

func answer(stop string, blocks ...string) turn {
	return func(context.Context, *mcp.CreateMessageRequestParams) string {
		return fmt.Sprintf(`{"role":"assistant","model":"scripted","stopReason":%q,"content":[%s]}`, stop, strings.Join(blocks, ","))
	}
}

func use(id, name, input string) string {
	return fmt.Sprintf(`{"type":"tool_use","id":%q,"name":%q,"input":%s}`, id, name, input)
}

func text(s string) string {
	b, _ := json.Marshal(s)
	return `{"type":"text","text":` + string(b) + `}`
}

// echo answers with the tool results it got, "id: text" (with "error: " for isError).
func echo(ids ...string) turn {
	return func(ctx context.Context, p *mcp.CreateMessageRequestParams) string {
		results := map[string]*mcp.ToolResultContent{}
		for _, b := range p.Messages[len(p.Messages)-1].Content.List {
			if r, ok := b.(*mcp.ToolResultContent); ok {
				results[r.ToolUseID] = r
			}
		}
		var parts []string
		for _, id := range ids {
			r := results[id]
			if r == nil {
				parts = append(parts, id+": missing")
				continue
			}
			s := id + ": "
			if r.IsError != nil && *r.IsError {
				s += "error: "
			}
			for _, c := range r.Content {
				s += c.(*mcp.TextContent).Text
			}
			parts = append(parts, s)
		}
		return answer("endTurn", text(strings.Join(parts, "; ")))(ctx, p)
	}
}

// process is a running sampling-agent with a go-sdk client; the client's model plays the turns
// of the scenario named by the prompt.
type process struct {
	session *sdk.ClientSession
	version string       // the negotiated protocol version
	stdout  bytes.Buffer // everything the server wrote

	mu       sync.Mutex
	played   map[string]int
	requests []*mcp.CreateMessageRequestParams
}

// start runs the binary and connects at version ("" for the client's default, which must
// negotiate 2026-07-28). capabilities: "tools" (sampling with tools), "basic" (sampling without
// tools), "none".
func start(t *testing.T, version, capabilities string, scenarios map[string][]turn) *process {
	return startWith(t, version, capabilities, scenarios, nil)
}

// startWith is start with a client whose options adjust changes.
func startWith(t *testing.T, version, capabilities string, scenarios map[string][]turn, adjust func(*sdk.ClientOptions)) *process {
	t.Helper()
	return launch(t, exec.Command(binary), version, capabilities, scenarios, adjust)
}

// launch is startWith on a command of the binary (with flags or an environment of its own).
func launch(t *testing.T, cmd *exec.Cmd, version, capabilities string, scenarios map[string][]turn, adjust func(*sdk.ClientOptions)) *process {
	t.Helper()
	a := &process{played: map[string]int{}}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitOnCleanup(t, cmd, stdin, &stderr)
	var mu sync.Mutex
	out := readCloser{io.TeeReader(stdout, writerFunc(func(b []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return a.stdout.Write(b)
	})), stdout}
	model := a.model(t, scenarios)
	opts := &sdk.ClientOptions{}
	switch capabilities {
	case "tools":
		opts.CreateMessageWithToolsHandler = func(ctx context.Context, req *sdk.CreateMessageWithToolsRequest) (*sdk.CreateMessageWithToolsResult, error) {
			return model(ctx, req.Params)
		}
	case "basic":
		opts.CreateMessageHandler = func(context.Context, *sdk.CreateMessageRequest) (*sdk.CreateMessageResult, error) {
			return nil, errors.New("not expected")
		}
	}
	if adjust != nil {
		adjust(opts)
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "test-client", Version: "0"}, opts)
	a.session, err = client.Connect(t.Context(), &sdk.IOTransport{Reader: out, Writer: stdin}, &sdk.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	t.Cleanup(func() { a.session.Close() })
	a.version = a.session.InitializeResult().ProtocolVersion
	want := version
	if want == "" {
		want = v2026.LatestProtocolVersion
	}
	if a.version != want {
		t.Fatalf("the session negotiated %s, want %s", a.version, want)
	}
	return a
}

// waitOnCleanup has the end of the test close the agent's stdin and wait for cmd, the agent, to
// exit (reporting an exit in error, with its stderr), killing it after 10 s.
func waitOnCleanup(t *testing.T, cmd *exec.Cmd, stdin io.Closer, stderr *bytes.Buffer) {
	t.Cleanup(func() {
		stdin.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("sampling-agent: %v\n%s", err, stderr.String())
			}
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			t.Error("sampling-agent did not exit when its stdin closed")
		}
	})
}

// model is the client's model for the agent a: the next turn of the scenario of the sampling
// request's prompt, each request recorded in a.
func (a *process) model(t *testing.T, scenarios map[string][]turn) func(context.Context, *sdk.CreateMessageWithToolsParams) (*sdk.CreateMessageWithToolsResult, error) {
	return func(ctx context.Context, params *sdk.CreateMessageWithToolsParams) (*sdk.CreateMessageWithToolsResult, error) {
		data, err := json.Marshal(params)
		if err != nil {
			return nil, err
		}
		var p mcp.CreateMessageRequestParams
		if err := mcp.Unmarshal(data, &p); err != nil {
			t.Errorf("the sampling request, as the client's SDK decoded it, is invalid: %v", err)
			return nil, err
		}
		prompt := p.Messages[0].Content.List[0].(*mcp.TextContent).Text
		a.mu.Lock()
		n := a.played[prompt]
		a.played[prompt]++
		a.requests = append(a.requests, &p)
		a.mu.Unlock()
		turns := scenarios[prompt]
		if n >= len(turns) {
			return nil, fmt.Errorf("scenario %q has no turn %d", prompt, n+1)
		}
		var res sdk.CreateMessageWithToolsResult
		if err := json.Unmarshal([]byte(turns[n](ctx, &p)), &res); err != nil {
			return nil, err
		}
		return &res, nil
	}
}

type readCloser struct {
	io.Reader
	io.Closer
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }

func (a *process) call(t *testing.T, ctx context.Context, args map[string]any) (string, bool) {
	t.Helper()
	res, err := a.session.CallTool(ctx, &sdk.CallToolParams{Name: "agent", Arguments: args})
	if err != nil {
		t.Fatalf("tools/call: %v", err)
	}
	var parts []string
	for _, c := range res.Content {
		parts = append(parts, c.(*sdk.TextContent).Text)
	}
	return strings.Join(parts, "\n"), res.IsError
}

// checkWire decodes the server's sampling requests, as it wrote them, with mcpgen's types of the
// negotiated version: at 2025-11-25, requests sampling/createMessage; at 2026-07-28, the
// inputRequests of input_required results, and no request from the server at all.
func (a *process) checkWire(t *testing.T, want int) {
	t.Helper()
	a.mu.Lock()
	defer a.mu.Unlock()
	sc := bufio.NewScanner(bytes.NewReader(a.stdout.Bytes()))
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		var probe struct {
			Method string `json:"method"`
			Result *struct {
				ResultType    string                     `json:"resultType"`
				InputRequests map[string]json.RawMessage `json:"inputRequests"`
				RequestState  string                     `json:"requestState"`
			} `json:"result"`
		}
		if err := json.Unmarshal(sc.Bytes(), &probe); err != nil {
			t.Fatalf("the server wrote %q: %v", sc.Bytes(), err)
		}
		if a.version == "2025-11-25" {
			if probe.Result != nil && probe.Result.InputRequests != nil {
				t.Errorf("inputRequests in a session of 2025-11-25: %s", sc.Bytes())
			}
			if probe.Method != "sampling/createMessage" {
				continue
			}
			msg, err := mcp.DecodeServerMessage(sc.Bytes(), nil)
			if err != nil {
				t.Fatalf("a sampling request does not decode: %v\n%s", err, sc.Bytes())
			}
			if err := msg.(*mcp.CreateMessageRequest).Validate(); err != nil {
				t.Errorf("a sampling request is invalid: %v", err)
			}
			n++
			continue
		}
		if probe.Method != "" && !strings.HasPrefix(probe.Method, "notifications/") {
			t.Errorf("a request from the server at %s: %s", a.version, sc.Bytes())
		}
		if probe.Result == nil || probe.Result.InputRequests == nil {
			continue
		}
		if probe.Result.ResultType != "input_required" || probe.Result.RequestState == "" {
			t.Errorf("an input request without resultType input_required and a requestState: %s", sc.Bytes())
		}
		var whole struct{ Result json.RawMessage }
		json.Unmarshal(sc.Bytes(), &whole)
		var r v2026.InputRequiredResult
		if err := v2026.Unmarshal(whole.Result, &r); err != nil {
			t.Fatalf("not a valid InputRequiredResult of 2026-07-28: %v\n%s", err, whole.Result)
		}
		for key, req := range r.InputRequests {
			if _, ok := req.(*v2026.CreateMessageRequest); !ok {
				t.Errorf("input request %s is a %T", key, req)
			}
			n++
		}
	}
	if n != want {
		t.Errorf("%d sampling requests on the wire, want %d", n, want)
	}
}

func TestAgent(t *testing.T) {
	for _, v := range versions {
		t.Run(versionName(v), func(t *testing.T) { testAgent(t, v) })
	}
}

// testAgent runs the calls of agentCases through the agent at protocol version, and checks the
// sampling requests it sent.
func testAgent(t *testing.T, version string) {
	a := start(t, version, "tools", agentScenarios)
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	for _, tc := range agentCases {
		t.Run(tc.prompt, func(t *testing.T) {
			a.mu.Lock()
			before := len(a.requests)
			a.mu.Unlock()
			args := map[string]any{"prompt": tc.prompt}
			if tc.max > 0 {
				args["maxIterations"] = tc.max
			}
			got, isErr := a.call(t, ctx, args)
			if got != tc.want || isErr != tc.isError {
				t.Errorf("result %q (isError %v)\nwant   %q (%v)", got, isErr, tc.want, tc.isError)
			}
			a.mu.Lock()
			n := len(a.requests) - before
			a.mu.Unlock()
			if n != tc.requests {
				t.Errorf("%d sampling requests, want %d", n, tc.requests)
			}
		})
	}
	a.checkWire(t, 16)
	checkParallelResults(t, a)
	// Every request offered the two tools.
	for i, p := range a.requests {
		if len(p.Tools) != 2 || p.Tools[0].Name != "get_weather" || p.Tools[1].Name != "add" {
			t.Errorf("request %d: tools %v", i, p.Tools)
		}
	}
	// maxIterations out of bounds.
	if got, isErr := a.call(t, ctx, map[string]any{"prompt": "plain", "maxIterations": 0}); !isErr || !strings.Contains(got, "maxIterations must be between 1 and 50") {
		t.Errorf("maxIterations 0: %q", got)
	}
}

// checkParallelResults checks that the parallel tool calls of a's scenario "parallel" were
// answered in one user message, their results in the order of the tool uses.
func checkParallelResults(t *testing.T, a *process) {
	found := false
	for _, p := range a.requests {
		if p.Messages[0].Content.List[0].(*mcp.TextContent).Text != "parallel" || len(p.Messages) != 3 {
			continue
		}
		found = true
		last := p.Messages[2]
		var ids []string
		for _, b := range last.Content.List {
			if r, ok := b.(*mcp.ToolResultContent); ok {
				ids = append(ids, r.ToolUseID)
			}
		}
		if last.Role != mcp.RoleUser || len(last.Content.List) != 3 || strings.Join(ids, ",") != "a,b,c" {
			t.Errorf("the results of the parallel tool calls: role %s, %d blocks, ids %v", last.Role, len(last.Content.List), ids)
		}
	}
	if !found {
		t.Error("no second request in the parallel scenario")
	}
}

// An agentCase is a call of testAgent: the agent on prompt (with maxIterations max, unless 0),
// the result it must give, and the sampling requests it must send.
type agentCase struct {
	prompt   string
	max      int
	want     string
	isError  bool
	requests int
}

// agentCases are the calls of testAgent, each a scenario of agentScenarios.
var agentCases = []agentCase{
	{prompt: "single", want: "call-1: Weather in Paris: 18°C, partly cloudy", requests: 2},
	{prompt: "parallel", want: "a: Weather in Paris: 18°C, partly cloudy; b: Weather in London: 15°C, rainy; c: 33", requests: 2},
	{prompt: "failing", want: `a: error: tool "add" failed: no numbers to add; b: error: tool "get_weather" failed: no city given`, requests: 2},
	{prompt: "invalid", want: `a: error: invalid input for tool "add": /numbers: got string, want null or array; ` +
		`b: error: invalid input for tool "get_weather": (root): missing property 'city'; (root): additional properties 'town' not allowed`, requests: 2},
	{prompt: "unknown", want: `a: error: unknown tool "get_forecast": the tools are add, get_weather`, requests: 2},
	{prompt: "limit", max: 3, isError: true, requests: 3,
		want: "the tool loop stopped at its limit of 3 sampling requests (maxIterations) with the model still asking for tools (get_weather)"},
	{prompt: "duplicate", isError: true, requests: 2,
		want: `the tool loop failed: the model's answer was refused: sampling: invalid result: /content/1/id: tool use id "x" is already used in message 1 of the conversation; ids must be unique`},
	{prompt: "plain", want: "Hello.", requests: 1},
}

// agentScenarios are the scripted models of testAgent, by prompt.
var agentScenarios = map[string][]turn{
	"single": {
		answer("toolUse", use("call-1", "get_weather", `{"city":"Paris"}`)),
		echo("call-1"),
	},
	"parallel": {
		answer("toolUse", use("a", "get_weather", `{"city":"Paris"}`), use("b", "get_weather", `{"city":"London"}`), use("c", "add", `{"numbers":[18,15]}`)),
		echo("a", "b", "c"),
	},
	"failing": {
		answer("toolUse", use("a", "add", `{"numbers":[]}`), use("b", "get_weather", `{"city":" "}`)),
		echo("a", "b"),
	},
	"invalid": {
		answer("toolUse", use("a", "add", `{"numbers":"1,2"}`), use("b", "get_weather", `{"town":"Paris"}`)),
		echo("a", "b"),
	},
	"unknown": {
		answer("toolUse", use("a", "get_forecast", `{"city":"Paris"}`)),
		echo("a"),
	},
	"limit": {
		answer("toolUse", use("a", "add", `{"numbers":[1]}`)),
		answer("toolUse", use("b", "add", `{"numbers":[2]}`)),
		answer("toolUse", use("c", "get_weather", `{"city":"Rome"}`)),
	},
	"duplicate": {
		answer("toolUse", use("x", "add", `{"numbers":[1]}`)),
		answer("toolUse", use("y", "add", `{"numbers":[2]}`), use("x", "add", `{"numbers":[3]}`)),
	},
	"plain": {answer("endTurn", text("Hello."))},
}

// TestAgentRoundTripLimit: a model that always asks for tools gets the agent's own error result
// at the limit, never go-sdk's "exceeded maximum retries": at 2026-07-28 a call takes at most 9
// samples whatever maxIterations says (go-sdk's client makes at most 10 calls for one tool
// call), at 2025-11-25 maxIterations (default 10) holds.
func TestAgentRoundTripLimit(t *testing.T) {
	var endless []turn
	for i := range 12 {
		endless = append(endless, answer("toolUse", use(fmt.Sprint("u", i), "add", `{"numbers":[1]}`)))
	}
	for _, v := range versions {
		t.Run(versionName(v), func(t *testing.T) {
			a := start(t, v, "tools", map[string][]turn{"endless": endless, "endless 12": endless, "endless 5": endless})
			for _, tc := range []struct {
				prompt   string
				max      int
				requests int // at 2025-11-25; at most 9 at 2026-07-28
			}{{"endless", 0, 10}, {"endless 12", 12, 12}, {"endless 5", 5, 5}} {
				args := map[string]any{"prompt": tc.prompt}
				if tc.max > 0 {
					args["maxIterations"] = tc.max
				}
				want := fmt.Sprintf("the tool loop stopped at its limit of %d sampling requests (maxIterations) with the model still asking for tools (add)", tc.requests)
				if v == "" && tc.requests > 9 {
					tc.requests = 9
					want = "the tool loop stopped at its limit of 9 sampling requests (at protocol 2026-07-28 a call takes at most 9, " +
						"as go-sdk's client makes at most 10 calls for one tool call) with the model still asking for tools (add)"
				}
				got, isErr := a.call(t, t.Context(), args)
				a.mu.Lock()
				n := a.played[tc.prompt]
				a.mu.Unlock()
				if got != want || !isErr || n != tc.requests {
					t.Errorf("%s: result %q (isError %v) after %d samples\nwant   %q after %d", tc.prompt, got, isErr, n, want, tc.requests)
				}
			}
		})
	}
}

func TestAgentWithoutSamplingTools(t *testing.T) {
	for _, v := range versions {
		for _, caps := range []string{"basic", "none"} {
			t.Run(versionName(v)+"/"+caps, func(t *testing.T) { testWithoutSamplingTools(t, v, caps) })
		}
	}
}

func testWithoutSamplingTools(t *testing.T, version, caps string) {
	a := start(t, version, caps, nil)
	got, isErr := a.call(t, t.Context(), map[string]any{"prompt": "hi"})
	want := "the client does not declare the sampling.tools capability"
	if caps == "none" {
		want = "the client does not declare the sampling capability"
	}
	if !isErr || !strings.HasPrefix(got, "the client does not support sampling with tools") || !strings.Contains(got, want) {
		t.Errorf("result %q (isError %v)", got, isErr)
	}
	a.checkWire(t, 0)
}

// TestAgentCancellation: a call cancelled while the model thinks ends its sampling request (at
// 2025-11-25 the server cancels the request it sent; at 2026-07-28 the client's own request
// context ends), and the server goes on serving.
func TestAgentCancellation(t *testing.T) {
	for _, v := range versions {
		t.Run(versionName(v), func(t *testing.T) { testCancellation(t, v) })
	}
}

func testCancellation(t *testing.T, version string) {
	canceled := make(chan struct{})
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	scenarios := map[string][]turn{
		"slow": {func(ctx context.Context, p *mcp.CreateMessageRequestParams) string {
			cancel() // the user gives up while the model thinks
			select {
			case <-ctx.Done(): // the server canceled its sampling request
				close(canceled)
			case <-time.After(5 * time.Second):
			}
			return answer("endTurn", text("too late"))(ctx, p)
		}},
		"after": {answer("endTurn", text("still here"))},
	}
	a := start(t, version, "tools", scenarios)
	if _, err := a.session.CallTool(ctx, &sdk.CallToolParams{Name: "agent", Arguments: map[string]any{"prompt": "slow"}}); !errors.Is(err, context.Canceled) {
		t.Fatalf("tools/call: %v", err)
	}
	select {
	case <-canceled:
	case <-time.After(5 * time.Second):
		t.Fatal("the server did not cancel its sampling request")
	}
	// The server goes on serving.
	if got, isErr := a.call(t, t.Context(), map[string]any{"prompt": "after"}); got != "still here" || isErr {
		t.Errorf("after the cancellation: %q (isError %v)", got, isErr)
	}
}

func TestWeather(t *testing.T) {
	for city, want := range map[string]string{
		"Paris":  "Weather in Paris: 18°C, partly cloudy",
		"London": "Weather in London: 15°C, rainy",
	} {
		if got, err := Weather(city); err != nil || got != want {
			t.Errorf("%s: %q %v", city, got, err)
		}
	}
	a, _ := Weather("Rome")
	b, _ := Weather(" Rome ")
	if a != b || !strings.HasPrefix(a, "Weather in Rome: ") {
		t.Errorf("Rome: %q, %q", a, b)
	}
	if _, err := Weather(""); err == nil {
		t.Error("no error for no city")
	}
}

// TestAgentProgress: a call with a progressToken gets the loop's events as
// notifications/progress, numbered 1, 2, 3, ..., each written before the response to the call
// (at 2026-07-28, before the response to the round that reported it).
func TestAgentProgress(t *testing.T) {
	for _, v := range versions {
		t.Run(versionName(v), func(t *testing.T) {
			a := start(t, v, "tools", map[string][]turn{"single": {
				answer("toolUse", use("call-1", "get_weather", `{"city":"Paris"}`)),
				echo("call-1"),
			}})
			params := &sdk.CallToolParams{Name: "agent", Arguments: map[string]any{"prompt": "single"}}
			params.SetProgressToken("p-1")
			res, err := a.session.CallTool(t.Context(), params)
			if err != nil || res.IsError {
				t.Fatalf("tools/call: %v %+v", err, res)
			}
			a.mu.Lock()
			defer a.mu.Unlock()
			var events []string
			var after []int // the number of events written before each response
			sc := bufio.NewScanner(bytes.NewReader(a.stdout.Bytes()))
			sc.Buffer(nil, 1<<20)
			for sc.Scan() {
				var msg struct {
					Method string `json:"method"`
					Params struct {
						ProgressToken string  `json:"progressToken"`
						Progress      float64 `json:"progress"`
						Message       string  `json:"message"`
					} `json:"params"`
					Result *struct {
						Content []json.RawMessage `json:"content"`
						Inputs  json.RawMessage   `json:"inputRequests"`
					} `json:"result"`
				}
				if err := json.Unmarshal(sc.Bytes(), &msg); err != nil {
					t.Fatal(err)
				}
				switch {
				case msg.Method == "notifications/progress":
					events = append(events, fmt.Sprintf("%s %g %s", msg.Params.ProgressToken, msg.Params.Progress, msg.Params.Message))
				case msg.Result != nil && (msg.Result.Inputs != nil || len(msg.Result.Content) > 0):
					after = append(after, len(events))
				}
			}
			limit := 10 // the default maxIterations; at 2026-07-28, 9 (see TestAgentRoundTripLimit)
			if v == "" {
				limit = 9
			}
			want := []string{
				fmt.Sprintf("p-1 1 asking the model (request 1 of at most %d)", limit),
				"p-1 2 tool get_weather ran",
				fmt.Sprintf("p-1 3 asking the model (request 2 of at most %d)", limit),
				"p-1 4 done after 2 requests",
			}
			if strings.Join(events, "\n") != strings.Join(want, "\n") {
				t.Errorf("progress:\n%s\nwant:\n%s", strings.Join(events, "\n"), strings.Join(want, "\n"))
			}
			wantAfter := "[1 3 4]"
			if v != "" {
				wantAfter = "[4]"
			}
			if fmt.Sprint(after) != wantAfter {
				t.Errorf("tools/call responses after %v events, want %s", after, wantAfter)
			}
		})
	}
}

// TestAgentStates drives the rounds of 2026-07-28 by hand (go-sdk's client with its multi
// round-trip middleware disabled): the server asks for the model with inputRequests and a
// requestState; a tampered state, the state under other arguments and a replayed state are
// refused with -32602 and the reason.
func TestAgentStates(t *testing.T) {
	a := startWith(t, "", "tools", nil, func(o *sdk.ClientOptions) {
		o.MultiRoundTrip = &sdk.MultiRoundTripOptions{Disabled: true}
	})
	args := map[string]any{"prompt": "Weather in Paris?"}
	res, err := a.session.CallTool(t.Context(), &sdk.CallToolParams{Name: "agent", Arguments: args})
	if err != nil || !res.NeedsInput() || res.InputRequests["sampling-1"] == nil || res.RequestState == "" {
		t.Fatalf("first round: %v %+v", err, res)
	}
	state := res.RequestState
	var toolUse sdk.CreateMessageWithToolsResult
	if err := json.Unmarshal([]byte(answer("toolUse", use("w", "get_weather", `{"city":"Paris"}`))(t.Context(), nil)), &toolUse); err != nil {
		t.Fatal(err)
	}
	retry := func(args map[string]any, state string) (*sdk.CallToolResult, error) {
		return a.session.CallTool(t.Context(), &sdk.CallToolParams{Name: "agent", Arguments: args,
			InputResponses: sdk.InputResponseMap{"sampling-1": &toolUse}, RequestState: state})
	}
	refused := func(name string, err error, reason string) {
		t.Helper()
		var werr *jsonrpc.Error
		if !errors.As(err, &werr) {
			t.Fatalf("%s: not a JSON-RPC error: %v", name, err)
		}
		var data struct{ Reason string }
		json.Unmarshal(werr.Data, &data)
		if werr.Code != -32602 || data.Reason != reason {
			t.Errorf("%s: error %d %q, data %s; want -32602, reason %s", name, werr.Code, werr.Message, werr.Data, reason)
		}
	}
	b := []byte(state)
	b[len(b)-2] ^= 1
	_, err = retry(args, string(b))
	refused("tampered", err, "tampered")
	_, err = retry(map[string]any{"prompt": "Weather in Rome?"}, state)
	refused("other arguments", err, "otherRequest")
	res, err = retry(args, state)
	if err != nil || !res.NeedsInput() || res.InputRequests["sampling-2"] == nil {
		t.Fatalf("the answer: %v %+v", err, res)
	}
	_, err = retry(args, state)
	refused("replayed", err, "replayed")
}
