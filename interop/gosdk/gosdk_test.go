//lint:file-ignore SA1019 sampling (with tools) is what these tests exercise; the SDK deprecates it as of 2026-07-28 (SEP-2577)

package gosdk

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
	"github.com/mcpgen/mcpgen/interop/internal/jsonvalue"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// peerEnv tells the test binary, run again as a subprocess, which stdio server to be.
const peerEnv = "MCPGEN_GOSDK_PEER"

func TestMain(m *testing.M) {
	switch os.Getenv(peerEnv) {
	case "":
		os.Exit(m.Run())
	case "ours":
		err := Serve(context.Background(), os.Stdin, os.Stdout)
		exit(err)
	case "gosdk":
		err := goSDKServer().Run(context.Background(), &sdk.StdioTransport{})
		exit(err)
	default:
		exit(fmt.Errorf("unknown %s=%q", peerEnv, os.Getenv(peerEnv)))
	}
}

func exit(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "server:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// subprocess starts the test binary as the stdio server named by role; its stdin and stdout
// are the returned pipes, every byte of them copied to the transcript.
type subprocess struct {
	cmd        *exec.Cmd
	stdin      io.WriteCloser
	stdout     io.ReadCloser
	stderr     bytes.Buffer
	transcript transcript
}

func startServer(t *testing.T, role string) *subprocess {
	t.Helper()
	p := &subprocess{cmd: exec.Command(os.Args[0], "-test.run=^$")}
	p.cmd.Env = append(os.Environ(), peerEnv+"="+role)
	p.cmd.Stderr = &p.stderr
	in, err := p.cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p.stdin = writeCloser{io.MultiWriter(p.transcript.writer("client"), in), in} // recorded before it is sent
	p.stdout = readCloser{io.TeeReader(out, p.transcript.writer("server")), out}
	t.Cleanup(func() {
		p.stdin.Close()
		done := make(chan error, 1)
		go func() { done <- p.cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("server %s: %v; stderr:\n%s", role, err, p.stderr.String())
			}
		case <-time.After(10 * time.Second):
			p.cmd.Process.Kill()
			t.Errorf("server %s did not exit when its stdin closed", role)
		}
		if t.Failed() {
			t.Logf("transcript:\n%s", p.transcript.String())
		}
	})
	return p
}

type writeCloser struct {
	io.Writer
	io.Closer
}

type readCloser struct {
	io.Reader
	io.Closer
}

// transcript records the lines written by each side, in order.
type transcript struct {
	mu    sync.Mutex
	lines []string // "client: {...}"
	part  map[string]*bytes.Buffer
}

func (tr *transcript) writer(who string) io.Writer {
	return writerFunc(func(b []byte) (int, error) {
		tr.mu.Lock()
		defer tr.mu.Unlock()
		if tr.part == nil {
			tr.part = map[string]*bytes.Buffer{}
		}
		buf := tr.part[who]
		if buf == nil {
			buf = new(bytes.Buffer)
			tr.part[who] = buf
		}
		buf.Write(b)
		for {
			line, err := buf.ReadBytes('\n')
			if err != nil {
				buf.Write(line) // an incomplete line waits for the rest
				break
			}
			tr.lines = append(tr.lines, who+": "+strings.TrimSuffix(string(line), "\n"))
		}
		return len(b), nil
	})
}

func (tr *transcript) String() string {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return strings.Join(tr.lines, "\n")
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }

// TestGoSDKClientWithOurServer runs the official Go SDK's client against Serve, in a subprocess
// over stdio: the client's connect (server/discover, which the 2025-11-25 server does not know,
// then initialize), tools/list, tools/call of a plain tool, and tools/call of a tool that samples
// with tools: the server sends sampling/createMessage with a tool, the SDK client's model answers
// with a tool_use, the server runs the tool and sends its result in a second sampling request,
// the model answers with text.
func TestGoSDKClientWithOurServer(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	p := startServer(t, "ours")

	var mu sync.Mutex
	var sampled []*sdk.CreateMessageWithToolsParams
	client := sdk.NewClient(&sdk.Implementation{Name: "go-sdk-client", Version: "test"}, &sdk.ClientOptions{
		CreateMessageWithToolsHandler: func(_ context.Context, req *sdk.CreateMessageWithToolsRequest) (*sdk.CreateMessageWithToolsResult, error) {
			mu.Lock()
			sampled = append(sampled, req.Params)
			mu.Unlock()
			return goSDKModel(req.Params)
		},
	})
	session, err := client.Connect(ctx, &sdk.IOTransport{Reader: p.stdout, Writer: p.stdin}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer session.Close()
	if got := session.InitializeResult().ProtocolVersion; got != "2025-11-25" {
		t.Errorf("negotiated protocol version %q, want 2025-11-25", got)
	}
	if got := session.InitializeResult().ServerInfo.Name; got != "mcpgen-example-server" {
		t.Errorf("server name %q", got)
	}

	callOurTools(ctx, t, session)

	// What the SDK client's model saw: two sampling requests offering get_weather, the second
	// with the tool_use and the tool_result appended.
	mu.Lock()
	defer mu.Unlock()
	checkSampled(t, sampled)

	// On the wire: the SDK client tried server/discover first and fell back to initialize when
	// the server answered that it does not know the method.
	wire := p.transcript.String()
	for _, want := range []string{`"method":"server/discover"`, `"code":-32601`, `"method":"initialize"`} {
		if !strings.Contains(wire, want) {
			t.Errorf("transcript lacks %s", want)
		}
	}
	checkTranscript(t, &p.transcript)
}

// callOurTools lists the tools of the server of session and calls each, checking their
// results.
func callOurTools(ctx context.Context, t *testing.T, session *sdk.ClientSession) {
	t.Helper()
	tools, err := session.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	if got := strings.Join(names, ","); got != "add,weather_report" {
		t.Errorf("tools %s, want add,weather_report", got)
	}

	res, err := session.CallTool(ctx, &sdk.CallToolParams{Name: "add", Arguments: map[string]any{"a": 2, "b": 40}})
	if err != nil {
		t.Fatalf("tools/call add: %v", err)
	}
	if got := sdkText(res.Content); got != "42" || res.IsError {
		t.Errorf("add: %q (isError %v), want 42", got, res.IsError)
	}
	if got, _ := json.Marshal(res.StructuredContent); string(got) != `{"sum":42}` {
		t.Errorf("add: structuredContent %s, want {\"sum\":42}", got)
	}

	res, err = session.CallTool(ctx, &sdk.CallToolParams{Name: "weather_report", Arguments: map[string]any{"city": "Paris"}})
	if err != nil {
		t.Fatalf("tools/call weather_report: %v", err)
	}
	if got, want := sdkText(res.Content), "Weather report: Paris: sunny, 21°C"; got != want || res.IsError {
		t.Errorf("weather_report: %q (isError %v), want %q", got, res.IsError, want)
	}
}

// checkSampled checks sampled, the sampling requests that the SDK client's model saw.
func checkSampled(t *testing.T, sampled []*sdk.CreateMessageWithToolsParams) {
	t.Helper()
	if len(sampled) != 2 {
		t.Fatalf("%d sampling requests, want 2", len(sampled))
	}
	for i, p := range sampled {
		if len(p.Tools) != 1 || p.Tools[0].Name != "get_weather" {
			t.Errorf("sampling request %d: tools %v, want get_weather", i, p.Tools)
		}
	}
	if n := len(sampled[1].Messages); n != 3 {
		t.Fatalf("second sampling request: %d messages, want 3", n)
	}
	use, ok := sampled[1].Messages[1].Content[0].(*sdk.ToolUseContent)
	if !ok || sampled[1].Messages[1].Role != "assistant" || use.ID != "call-1" {
		t.Errorf("second sampling request: message 1 is not the assistant's tool_use call-1: %+v", sampled[1].Messages[1])
	}
	result, ok := sampled[1].Messages[2].Content[0].(*sdk.ToolResultContent)
	if !ok || result.ToolUseID != "call-1" || sdkText(result.Content) != "Paris: sunny, 21°C" {
		t.Errorf("second sampling request: message 2 is not the tool_result of call-1: %+v", sampled[1].Messages[2])
	}
}

// goSDKModel is the model of the SDK client: it asks for get_weather of the city named in the
// first message, then reports the tool's result.
func goSDKModel(p *sdk.CreateMessageWithToolsParams) (*sdk.CreateMessageWithToolsResult, error) {
	last := p.Messages[len(p.Messages)-1]
	for _, c := range last.Content {
		if r, ok := c.(*sdk.ToolResultContent); ok {
			return &sdk.CreateMessageWithToolsResult{Role: "assistant", Model: "scripted", StopReason: "endTurn",
				Content: []sdk.Content{&sdk.TextContent{Text: "Weather report: " + sdkText(r.Content)}}}, nil
		}
	}
	city := strings.TrimSuffix(strings.TrimPrefix(sdkText(p.Messages[0].Content), "Write a one-line weather report for "), ".")
	return &sdk.CreateMessageWithToolsResult{Role: "assistant", Model: "scripted", StopReason: "toolUse",
		Content: []sdk.Content{&sdk.ToolUseContent{ID: "call-1", Name: "get_weather", Input: map[string]any{"city": city}}}}, nil
}

func sdkText(content []sdk.Content) string {
	var parts []string
	for _, c := range content {
		if t, ok := c.(*sdk.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, " ")
}

// goSDKServer is the official SDK's server with the same two tools as Serve: "add", and
// "weather_report", which samples with tools through the client.
func goSDKServer() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "go-sdk-server", Version: "test"}, nil)
	type addIn struct {
		A int `json:"a"`
		B int `json:"b"`
	}
	type addOut struct {
		Sum int `json:"sum"`
	}
	sdk.AddTool(s, &sdk.Tool{Name: "add", Description: "Adds two integers."},
		func(_ context.Context, _ *sdk.CallToolRequest, in addIn) (*sdk.CallToolResult, addOut, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: fmt.Sprint(in.A + in.B)}}}, addOut{in.A + in.B}, nil
		})
	type reportIn struct {
		City string `json:"city"`
	}
	sdk.AddTool(s, &sdk.Tool{Name: "weather_report", Description: "Writes a weather report, with the client's model."},
		func(ctx context.Context, req *sdk.CallToolRequest, in reportIn) (*sdk.CallToolResult, any, error) {
			params := &sdk.CreateMessageWithToolsParams{
				MaxTokens: 400,
				Messages: []*sdk.SamplingMessageV2{{Role: "user",
					Content: []sdk.Content{&sdk.TextContent{Text: "Write a one-line weather report for " + in.City + "."}}}},
				Tools: []*sdk.Tool{{Name: "get_weather", Description: "Current weather of a city.", InputSchema: map[string]any{
					"type": "object", "required": []string{"city"},
					"properties": map[string]any{"city": map[string]any{"type": "string"}},
				}}},
			}
			for range 5 {
				res, err := req.Session.CreateMessageWithTools(ctx, params)
				if err != nil {
					return nil, nil, err
				}
				var results []sdk.Content
				for _, c := range res.Content {
					if use, ok := c.(*sdk.ToolUseContent); ok {
						results = append(results, &sdk.ToolResultContent{ToolUseID: use.ID,
							Content: []sdk.Content{&sdk.TextContent{Text: fmt.Sprint(use.Input["city"]) + ": sunny, 21°C"}}})
					}
				}
				if len(results) == 0 {
					return &sdk.CallToolResult{Content: res.Content}, nil, nil
				}
				params.Messages = append(params.Messages,
					&sdk.SamplingMessageV2{Role: "assistant", Content: res.Content},
					&sdk.SamplingMessageV2{Role: "user", Content: results})
			}
			return nil, nil, fmt.Errorf("the model kept asking for tools")
		})
	return s
}

// TestOurClientWithGoSDKServer runs Connect against the official Go SDK's server in a
// subprocess over stdio: initialize, tools/list, tools/call, and a tool call during which the SDK
// server samples with tools through our client twice (a tool_use, then text).
func TestOurClientWithGoSDKServer(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	p := startServer(t, "gosdk")

	var mu sync.Mutex
	var sampled []*mcp.CreateMessageRequestParams
	client, err := Connect(ctx, p.stdout, p.stdin, func(_ context.Context, params *mcp.CreateMessageRequestParams) (*mcp.CreateMessageResult, error) {
		mu.Lock()
		sampled = append(sampled, params)
		mu.Unlock()
		return ourModel(params)
	})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	if got := client.Server.ProtocolVersion; got != mcp.LatestProtocolVersion {
		t.Errorf("negotiated protocol version %q, want %s", got, mcp.LatestProtocolVersion)
	}
	if client.Server.ServerInfo.Name != "go-sdk-server" || client.Server.Capabilities.Tools == nil {
		t.Errorf("initialize result: %+v", client.Server)
	}

	tools, err := client.ListTools(ctx)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	var names []string
	for _, tool := range tools {
		names = append(names, tool.Name)
	}
	if got := strings.Join(names, ","); got != "add,weather_report" {
		t.Errorf("tools %s, want add,weather_report", got)
	}
	if props := tools[0].InputSchema.Properties; props["a"] == nil || string(props["a"]["type"]) != `"integer"` {
		t.Errorf("add: input schema properties %v, want a of type integer", props)
	}

	res, err := client.CallTool(ctx, "add", map[string]int{"a": 2, "b": 40})
	if err != nil {
		t.Fatalf("tools/call add: %v", err)
	}
	if got := ourText(res.Content); got != "42" || res.IsError != nil && *res.IsError {
		t.Errorf("add: %q, want 42", got)
	}
	var out struct{ Sum int }
	if err := mcp.DecodeObject(res.StructuredContent, &out); err != nil || out.Sum != 42 {
		t.Errorf("add: structuredContent %v (%v), want sum 42", res.StructuredContent, err)
	}

	res, err = client.CallTool(ctx, "weather_report", map[string]string{"city": "Paris"})
	if err != nil {
		t.Fatalf("tools/call weather_report: %v", err)
	}
	if got, want := ourText(res.Content), "Weather report: Paris: sunny, 21°C"; got != want {
		t.Errorf("weather_report: %q, want %q", got, want)
	}

	mu.Lock()
	defer mu.Unlock()
	if len(sampled) != 2 {
		t.Fatalf("%d sampling requests, want 2", len(sampled))
	}
	for i, p := range sampled {
		if len(p.Tools) != 1 || p.Tools[0].Name != "get_weather" || p.Tools[0].InputSchema.Properties["city"] == nil {
			t.Errorf("sampling request %d: tools %+v, want get_weather(city)", i, p.Tools)
		}
	}
	if n := len(sampled[1].Messages); n != 3 {
		t.Fatalf("second sampling request: %d messages, want 3", n)
	}
	if use, ok := sampled[1].Messages[1].Content.List[0].(*mcp.ToolUseContent); !ok || use.ID != "call-1" {
		t.Errorf("second sampling request: message 1 is not the tool_use call-1")
	}
	if r, ok := sampled[1].Messages[2].Content.List[0].(*mcp.ToolResultContent); !ok || r.ToolUseID != "call-1" || ourText(r.Content) != "Paris: sunny, 21°C" {
		t.Errorf("second sampling request: message 2 is not the tool_result of call-1")
	}
	checkTranscript(t, &p.transcript)
}

// ourModel is the model of our client, the same script as goSDKModel.
func ourModel(p *mcp.CreateMessageRequestParams) (*mcp.CreateMessageResult, error) {
	reply := func(stop mcp.CreateMessageResultStopReason, block mcp.SamplingMessageContentBlock) *mcp.CreateMessageResult {
		return &mcp.CreateMessageResult{Role: mcp.RoleAssistant, Model: "scripted", StopReason: &stop,
			Content: mcp.NewSamplingMessageContentList(block)}
	}
	for _, block := range p.Messages[len(p.Messages)-1].Content.List {
		if r, ok := block.(*mcp.ToolResultContent); ok {
			return reply(mcp.CreateMessageResultStopReasonEndTurn, &mcp.TextContent{Text: "Weather report: " + ourText(r.Content)}), nil
		}
	}
	first, _ := p.Messages[0].Content.List[0].(*mcp.TextContent)
	if first == nil {
		return nil, fmt.Errorf("the first message is not text")
	}
	city := strings.TrimSuffix(strings.TrimPrefix(first.Text, "Write a one-line weather report for "), ".")
	input, err := mcp.EncodeObject(map[string]string{"city": city})
	if err != nil {
		return nil, err
	}
	return reply(mcp.CreateMessageResultStopReasonToolUse, &mcp.ToolUseContent{ID: "call-1", Name: "get_weather", Input: input}), nil
}

func ourText(content []mcp.ContentBlock) string {
	var parts []string
	for _, c := range content {
		if t, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, " ")
}

// checkTranscript decodes every message of the transcript with the package (the SDK's as well
// as ours), results typed by the requests of the other side, and checks that each is valid and
// encodes back to the same JSON.
func checkTranscript(t *testing.T, tr *transcript) {
	t.Helper()
	var fromClient, fromServer mcp.Pending
	n := 0
	for _, l := range strings.Split(tr.String(), "\n") {
		who, line, _ := strings.Cut(l, ": ")
		decode, mine, theirs := mcp.DecodeClientMessage, &fromClient, &fromServer
		if who == "server" {
			decode, mine, theirs = mcp.DecodeServerMessage, &fromServer, &fromClient
		}
		msg, err := decode([]byte(line), theirs.Take)
		if err != nil {
			t.Errorf("%s: %v", l, err)
			continue
		}
		n++
		if msg.GetMethod() != "" && msg.GetID() != nil {
			mine.Add(msg.GetID(), msg.GetMethod())
		}
		if _, unknown := msg.(*mcp.UnknownClientRequest); !unknown {
			if err := msg.Validate(); err != nil {
				t.Errorf("%s: %T: %v", l, msg, err)
			}
		}
		again, err := json.Marshal(msg)
		if err == nil {
			err = jsonvalue.Equal([]byte(line), again)
		}
		if err != nil {
			t.Errorf("%s: %T encodes back as %s: %v", l, msg, again, err)
		}
	}
	if fromClient.Len() != 0 || fromServer.Len() > 0 {
		t.Errorf("requests without a response: %d from the client, %d from the server", fromClient.Len(), fromServer.Len())
	}
	t.Logf("%d messages on the wire, each decoded, valid, and encoded back:\n%s", n, tr.String())
}
