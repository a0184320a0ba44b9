//lint:file-ignore SA1019 sampling is deprecated as of 2026-07-28 (SEP-2577), and still in it: the demo shows the example serving it

// Command demo shows the tool loop of the sampling-agent example at work, with nothing to set
// up: it builds the example, starts it, connects to it as an MCP client (the official Go SDK's)
// whose model is a script, calls the agent tool, and prints each round: what the server asks the
// model, the model's tool calls, the tools' results as the server sends them back, and the final
// answer. No provider, no key and no network: the server runs on this process's pipes.
//
//	go run ./examples/sampling-agent/demo                     # from the repository's root
//	go run ./examples/sampling-agent/demo -protocol 2025-11-25
//
// At protocol version 2026-07-28 (the default of go-sdk's client) each request to the model is a
// round trip: the server answers the tool call with input_required and the sampling request, and
// the client calls again with the model's answer. At 2025-11-25 the server sends
// sampling/createMessage requests within the call.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// prompt is what the demo asks the agent.
const prompt = "What is the weather in Paris and in London, and what do their temperatures add up to?"

func main() {
	protocol := flag.String("protocol", "", "the protocol version the client asks for (default: go-sdk's, 2026-07-28), e.g. 2025-11-25")
	flag.Parse()
	if err := run(context.Background(), *protocol, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(1)
	}
}

// printer writes the demo's lines; the model's handler and the reader of the server's output
// print from goroutines of their own.
type printer struct {
	mu sync.Mutex
	w  io.Writer
}

func (p *printer) printf(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.w, format, args...)
}

func run(ctx context.Context, protocol string, w io.Writer) error {
	out := &printer{w: w}
	out.printf("sampling-agent demo: the example server and a go-sdk client whose model is scripted:\n" +
		"no provider, no API key, no network (the server speaks MCP on this process's pipes).\n\n")
	dir, err := os.MkdirTemp("", "sampling-agent-demo")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	binary := filepath.Join(dir, "sampling-agent")
	// The build takes what the go command takes (seconds once its cache holds the packages); the
	// conversation itself has 2 minutes.
	build := exec.CommandContext(ctx, "go", "build", "-o", binary, "github.com/mcpgen/mcpgen/examples/sampling-agent")
	if msg, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("building the example: %v\n%s", err, msg)
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	server := exec.CommandContext(ctx, binary)
	server.Env = withoutKeys(os.Environ())
	var stderr strings.Builder
	server.Stderr = &stderr
	stdin, err := server.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := server.StdoutPipe()
	if err != nil {
		return err
	}
	if err := server.Start(); err != nil {
		return err
	}
	defer func() {
		stdin.Close()
		server.Wait()
	}()

	m := &model{out: out}
	client := sdk.NewClient(&sdk.Implementation{Name: "sampling-agent-demo", Version: "0"}, &sdk.ClientOptions{
		CreateMessageWithToolsHandler: m.answer,
	})
	transport := &sdk.IOTransport{Reader: readCloser{io.TeeReader(stdout, &wireWatcher{out: out}), stdout}, Writer: stdin}
	session, err := client.Connect(ctx, transport, &sdk.ClientSessionOptions{ProtocolVersion: protocol})
	if err != nil {
		return fmt.Errorf("connecting: %v\n%s", err, stderr.String())
	}
	defer session.Close()
	version := session.InitializeResult().ProtocolVersion
	out.printf("connected at protocol version %s: %s\n\n", version, flow(version))
	out.printf("client: tools/call agent {\"prompt\": %q}\n", prompt)
	res, err := session.CallTool(ctx, &sdk.CallToolParams{Name: "agent", Arguments: map[string]any{"prompt": prompt}})
	if err != nil {
		return fmt.Errorf("tools/call: %v\n%s", err, stderr.String())
	}
	var text []string
	for _, c := range res.Content {
		if t, ok := c.(*sdk.TextContent); ok {
			text = append(text, t.Text)
		}
	}
	if res.IsError {
		return fmt.Errorf("the agent tool failed: %s", strings.Join(text, "\n"))
	}
	out.printf("\nthe agent tool's result, after %d rounds: %s\n", m.rounds, strings.Join(text, "\n"))
	return nil
}

// flow says how the server reaches the client's model at a protocol version.
func flow(version string) string {
	if version >= "2026-07-28" {
		return "each request to the model is a round trip\n(the server answers the call with input_required, and the client calls again with the model's answer)"
	}
	return "the server sends sampling/createMessage requests within the call"
}

// withoutKeys is env without the providers' variables, which the demo does not use.
func withoutKeys(env []string) []string {
	var kept []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, "ANTHROPIC_") && !strings.HasPrefix(kv, "OPENAI_") {
			kept = append(kept, kv)
		}
	}
	return kept
}

type readCloser struct {
	io.Reader
	io.Closer
}

// wireWatcher reads the server's messages as they pass to the client, and says which of them
// ask for the model: an input_required result (2026-07-28) or a sampling/createMessage request.
type wireWatcher struct {
	out  *printer
	line []byte
}

func (ww *wireWatcher) Write(b []byte) (int, error) {
	ww.line = append(ww.line, b...)
	for {
		i := strings.IndexByte(string(ww.line), '\n')
		if i < 0 {
			return len(b), nil
		}
		ww.message(ww.line[:i])
		ww.line = ww.line[i+1:]
	}
}

func (ww *wireWatcher) message(line []byte) {
	var msg struct {
		Method string `json:"method"`
		Result struct {
			ResultType    string                     `json:"resultType"`
			InputRequests map[string]json.RawMessage `json:"inputRequests"`
		} `json:"result"`
	}
	if json.Unmarshal(line, &msg) != nil {
		return
	}
	switch {
	case msg.Method == "sampling/createMessage":
		ww.out.printf("server: sampling/createMessage\n")
	case msg.Result.ResultType == "input_required":
		var keys []string
		for k := range msg.Result.InputRequests {
			keys = append(keys, k)
		}
		ww.out.printf("server: input_required, asking for %s\n", strings.Join(keys, ", "))
	}
}

// model is the client's scripted model. It asks for the weather of both cities, then for the sum
// of their temperatures, then answers from the tool results it was sent.
type model struct {
	out    *printer
	mu     sync.Mutex
	rounds int
}

var degrees = regexp.MustCompile(`(-?\d+)°C`)

func (m *model) answer(_ context.Context, req *sdk.CreateMessageWithToolsRequest) (*sdk.CreateMessageWithToolsResult, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.rounds++
	// The request as mcpgen's types of 2025-11-25 read it (the server sent it as such).
	data, err := json.Marshal(req.Params)
	if err != nil {
		return nil, err
	}
	var p mcp.CreateMessageRequestParams
	if err := mcp.Unmarshal(data, &p); err != nil {
		return nil, fmt.Errorf("the sampling request is invalid: %w", err)
	}
	var tools []string
	for _, t := range p.Tools {
		tools = append(tools, t.Name)
	}
	m.out.printf("\nround %d: the server asks the model: %d message(s), tools offered: %s\n", m.rounds, len(p.Messages), strings.Join(tools, ", "))
	results := lastResults(p.Messages)
	var temps [][]string
	for _, r := range results {
		m.out.printf("  tool result (%s): %s\n", r.id, r.text)
		temps = append(temps, degrees.FindAllStringSubmatch(r.text, -1)...)
	}
	var blocks []string
	switch m.rounds {
	case 1:
		blocks = []string{use("w1", "get_weather", `{"city":"Paris"}`), use("w2", "get_weather", `{"city":"London"}`)}
	case 2:
		if len(temps) != 2 {
			return nil, errors.New("the scripted model expected two temperatures")
		}
		blocks = []string{use("s1", "add", fmt.Sprintf(`{"numbers":[%s,%s]}`, temps[0][1], temps[1][1]))}
	default:
		all := map[string]string{}
		for _, msg := range p.Messages {
			for _, r := range toolResults(msg) {
				all[r.id] = r.text
			}
		}
		final := fmt.Sprintf("%s. %s. Together: %s°C.", all["w1"], all["w2"], all["s1"])
		m.out.printf("  model (scripted) -> final answer: %s\n", final)
		return result("endTurn", text(final))
	}
	for _, b := range blocks {
		var u struct {
			Name  string          `json:"name"`
			Input json.RawMessage `json:"input"`
		}
		json.Unmarshal([]byte(b), &u)
		m.out.printf("  model (scripted) -> tool call: %s %s\n", u.Name, u.Input)
	}
	return result("toolUse", blocks...)
}

type toolResult struct{ id, text string }

// lastResults are the tool results in the last message of the conversation.
func lastResults(msgs []mcp.SamplingMessage) []toolResult {
	if len(msgs) == 0 {
		return nil
	}
	return toolResults(msgs[len(msgs)-1])
}

// toolResults are the tool results of a message, as text.
func toolResults(msg mcp.SamplingMessage) []toolResult {
	var out []toolResult
	for _, b := range msg.Content.List {
		r, ok := b.(*mcp.ToolResultContent)
		if !ok {
			continue
		}
		var parts []string
		for _, c := range r.Content {
			if t, ok := c.(*mcp.TextContent); ok {
				parts = append(parts, t.Text)
			}
		}
		s := strings.Join(parts, " ")
		if r.IsError != nil && *r.IsError {
			s = "error: " + s
		}
		out = append(out, toolResult{r.ToolUseID, s})
	}
	return out
}

func use(id, name, input string) string {
	return fmt.Sprintf(`{"type":"tool_use","id":%q,"name":%q,"input":%s}`, id, name, input)
}

func text(s string) string {
	b, _ := json.Marshal(s)
	return `{"type":"text","text":` + string(b) + `}`
}

func result(stop string, blocks ...string) (*sdk.CreateMessageWithToolsResult, error) {
	var res sdk.CreateMessageWithToolsResult
	data := fmt.Sprintf(`{"role":"assistant","model":"scripted","stopReason":%q,"content":[%s]}`, stop, strings.Join(blocks, ","))
	if err := json.Unmarshal([]byte(data), &res); err != nil {
		return nil, err
	}
	return &res, nil
}
