package proxy_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/backfill"
	"github.com/mcpgen/mcpgen/backfill/proxy"
	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
	"github.com/mcpgen/mcpgen/sampling"
)

// harness runs a Proxy over pipes; the test plays both the client and the server, raw.
type harness struct {
	t            *testing.T
	client       io.WriteCloser // the test writes as the client
	server       io.WriteCloser // the test writes as the server
	toClient     chan []byte    // lines the proxy sent to the client
	toServer     chan []byte    // lines the proxy sent to the server
	serverEOF    chan struct{}  // closed when the proxy closed the server's input
	clientClosed chan struct{}  // closed by OnClientClosed
	done         chan error     // Serve's result
}

func lines(r io.Reader, out chan<- []byte, eof chan<- struct{}) {
	br := bufio.NewReader(r)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			out <- line
		}
		if err != nil {
			if eof != nil {
				close(eof)
			}
			return
		}
	}
}

func start(t *testing.T, s sampling.Sampler) *harness {
	t.Helper()
	h, _ := startFull(t, &proxy.Proxy{Sampler: s}, true)
	return h
}

// startFull runs p over pipes and returns the harness and the cancellation of Serve's context;
// unless readServer, nothing reads what the proxy writes to the server.
func startFull(t *testing.T, p *proxy.Proxy, readServer bool) (*harness, context.CancelFunc) {
	t.Helper()
	cr, cw := io.Pipe()   // client → proxy
	pcr, pcw := io.Pipe() // proxy → client
	sr, sw := io.Pipe()   // server → proxy
	psr, psw := io.Pipe() // proxy → server
	h := &harness{
		t: t, client: cw, server: sw,
		toClient: make(chan []byte, 1000), toServer: make(chan []byte, 1000),
		serverEOF: make(chan struct{}), clientClosed: make(chan struct{}), done: make(chan error, 1),
	}
	go lines(pcr, h.toClient, nil)
	if readServer {
		go lines(psr, h.toServer, h.serverEOF)
	}
	var once sync.Once
	p.OnClientClosed = func() { once.Do(func() { close(h.clientClosed) }) }
	ctx, cancel := context.WithCancel(context.Background())
	go func() { h.done <- p.Serve(ctx, cr, pcw, sr, psw) }()
	t.Cleanup(func() {
		cancel()
		cw.Close()
		sw.Close()
		psr.Close()
		select {
		case <-h.done:
		case <-time.After(5 * time.Second):
			t.Error("Serve did not return")
		}
	})
	return h, cancel
}

func (h *harness) send(w io.Writer, line string) {
	h.t.Helper()
	if _, err := io.WriteString(w, line); err != nil {
		h.t.Fatal(err)
	}
}

func (h *harness) next(ch chan []byte, who string) []byte {
	h.t.Helper()
	select {
	case line := <-ch:
		return line
	case <-time.After(5 * time.Second):
		h.t.Fatalf("nothing reached the %s", who)
		return nil
	}
}

func (h *harness) nextToServer() []byte { h.t.Helper(); return h.next(h.toServer, "server") }
func (h *harness) nextToClient() []byte { h.t.Helper(); return h.next(h.toClient, "client") }

func (h *harness) expectNothing(ch chan []byte, who string) {
	h.t.Helper()
	select {
	case line := <-ch:
		h.t.Fatalf("unexpected line to the %s: %s", who, line)
	case <-time.After(100 * time.Millisecond):
	}
}

// scripted answers every sampling request with the same text, and records the params.
type scripted struct {
	mu     sync.Mutex
	params []*mcp.CreateMessageRequestParams
}

func (s *scripted) CreateMessage(ctx context.Context, p *mcp.CreateMessageRequestParams) (*mcp.CreateMessageResult, error) {
	s.mu.Lock()
	s.params = append(s.params, p)
	s.mu.Unlock()
	stop := mcp.CreateMessageResultStopReasonEndTurn
	return &mcp.CreateMessageResult{Role: mcp.RoleAssistant, Model: "scripted", StopReason: &stop,
		Content: mcp.NewSamplingMessageContent(&mcp.TextContent{Type: "text", Text: "Paris."})}, nil
}

const samplingRequest = `{"jsonrpc":"2.0","id":7,"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"What is the capital of France?"}}],"maxTokens":100}}` + "\n"

func decode(t *testing.T, line []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(line, &m); err != nil {
		t.Fatalf("%v: %s", err, line)
	}
	return m
}

// TestForwardsEverythingElseUnchanged checks that every message but the sampling traffic reaches
// the other side byte for byte and in order, whatever its formatting, and that the sampling
// request is answered by the Sampler and not forwarded.
func TestForwardsEverythingElseUnchanged(t *testing.T) {
	s := &scripted{}
	h := start(t, s)
	// The client answers only what it was asked.
	rootsList := `{"jsonrpc":"2.0","id":99,"method":"roots/list"}` + "\n"
	h.send(h.server, rootsList)
	if got := h.nextToClient(); string(got) != rootsList {
		t.Fatalf("client got %q, want %q", got, rootsList)
	}
	fromClient := []string{
		`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n",
		`{ "jsonrpc" : "2.0", "id" : "a-1", "method" : "tools/list", "params" : { "cursor":"x", "zzz": [1, 2.50, 3] } }` + "\n",
		`{"jsonrpc":"2.0","id":99,"result":{"roots":[]},"extra":true}` + "\n",
		`{"jsonrpc":"2.0","id":5,"method":"sampling/createMessage","params":{}}` + "\n", // a client's request: not ours
	}
	for _, line := range fromClient {
		h.send(h.client, line)
	}
	for _, want := range fromClient {
		if got := h.nextToServer(); string(got) != want {
			t.Errorf("server got %q, want %q", got, want)
		}
	}

	fromServer := []string{
		`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"A"}}` + "\n",
		samplingRequest,
		`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"B"}}` + "\n",
		`{"jsonrpc":"2.0","id":"s1","method":"roots/list"}` + "\n",
		`[{"jsonrpc":"2.0","method":"notifications/progress"}]` + "\n",
		`{"jsonrpc":"2.0","id":"a-1","result":{"tools":[]}}` + "\n",
	}
	for _, line := range fromServer {
		h.send(h.server, line)
	}
	for i, want := range fromServer {
		if i == 1 {
			continue // the sampling request
		}
		if got := h.nextToClient(); string(got) != want {
			t.Errorf("client got %q, want %q", got, want)
		}
	}
	h.expectNothing(h.toClient, "client")

	resp := decode(t, h.nextToServer())
	want := map[string]any{"jsonrpc": "2.0", "id": float64(7), "result": map[string]any{
		"role": "assistant", "model": "scripted", "stopReason": "endTurn",
		"content": map[string]any{"type": "text", "text": "Paris."}}}
	if !reflect.DeepEqual(resp, want) {
		t.Errorf("sampling response %v, want %v", resp, want)
	}
	if len(s.params) != 1 || s.params[0].MaxTokens != 100 || len(s.params[0].Messages) != 1 {
		t.Errorf("sampler got %+v", s.params)
	}
}

// TestRefusesLinesThatAreNotMessages: a line from the client that does not parse, or is JSON but
// no message, is answered with the JSON-RPC error for it and not forwarded (the server would read
// it otherwise than the proxy); a blank line is dropped, a batch goes on unread.
func TestRefusesLinesThatAreNotMessages(t *testing.T) {
	h := start(t, &scripted{})
	batch := `[{"jsonrpc":"2.0","method":"notifications/initialized"}]` + "\n"
	for _, line := range []string{"this is not JSON\n", `{"jsonrpc":"2.0","id":1,"method":"ping"} xx` + "\n", "\n", `"a string"` + "\n", batch} {
		h.send(h.client, line)
	}
	if got := h.nextToServer(); string(got) != batch {
		t.Errorf("the server got %q, want only the batch", got)
	}
	h.expectNothing(h.toServer, "server")
	for _, code := range []float64{-32700, -32700, -32600} {
		m := decode(t, h.nextToClient())
		if e, _ := m["error"].(map[string]any); e == nil || e["code"] != code || m["id"] != nil {
			t.Errorf("the client got %v, want error %v with id null", m, code)
		}
	}
}

func TestRewritesInitialize(t *testing.T) {
	h := start(t, &scripted{})
	h.send(h.client, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",`+
		`"capabilities":{"roots":{"listChanged":true},"sampling":{"context":{},"x-vendor":{}},"elicitation":{"form":{}},`+
		`"tasks":{"list":{},"requests":{"sampling":{"createMessage":{}},"elicitation":{"create":{}}}},"experimental":{"mine":{"on":true}}},`+
		`"clientInfo":{"name":"test-client","version":"1.2.3"},"zz":1}}`+"\n")
	got := decode(t, h.nextToServer())
	want := decode(t, []byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",`+
		`"capabilities":{"roots":{"listChanged":true},"sampling":{"tools":{}},"elicitation":{"form":{}},`+
		`"tasks":{"list":{},"requests":{"elicitation":{"create":{}}}},"experimental":{"mine":{"on":true}}},`+
		`"clientInfo":{"name":"test-client","version":"1.2.3"},"zz":1}}`))
	if !reflect.DeepEqual(got, want) {
		t.Errorf("initialize forwarded as\n%v\nwant\n%v", got, want)
	}

	// A client without sampling gets it too; the server's answer passes unchanged.
	h.send(h.client, `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`+"\n")
	got = decode(t, h.nextToServer())
	caps := got["params"].(map[string]any)["capabilities"]
	if !reflect.DeepEqual(caps, map[string]any{"sampling": map[string]any{"tools": map[string]any{}}}) {
		t.Errorf("capabilities %v", caps)
	}
	answer := `{"jsonrpc":"2.0","id":"init","result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}` + "\n"
	h.send(h.server, answer)
	if got := h.nextToClient(); string(got) != answer {
		t.Errorf("client got %q", got)
	}
}

type failing struct{ err error }

func (f failing) CreateMessage(context.Context, *mcp.CreateMessageRequestParams) (*mcp.CreateMessageResult, error) {
	return nil, f.err
}

func TestSamplingErrors(t *testing.T) {
	tests := []struct {
		name     string
		sampler  sampling.Sampler
		request  string
		wantCode float64
		wantMsg  string
		wantData map[string]any
	}{
		{"provider failure", failing{&backfill.ProviderError{Provider: "anthropic", StatusCode: 529, Attempts: 4, Err: errors.New("overloaded")}},
			samplingRequest, -32603, "sampling failed: anthropic: HTTP 529", map[string]any{"provider": "anthropic", "status": float64(529), "attempts": float64(4)}},
		{"params the provider cannot take", failing{&backfill.ConversionError{Provider: "anthropic", Pointer: "/messages/0/content", Reason: "the Messages API does not accept audio"}},
			samplingRequest, -32602, "sampling request cannot be sent to the provider: anthropic: /messages/0/content: the Messages API does not accept audio", nil},
		{"other failure", failing{errors.New("boom")}, samplingRequest, -32603, "sampling failed (the proxy's log says why)", nil},
		{"missing messages", &scripted{}, `{"jsonrpc":"2.0","id":7,"method":"sampling/createMessage","params":{"maxTokens":100}}` + "\n",
			-32602, `invalid params: /params: missing required member "messages"`, nil},
		{"breaks a sampling rule", &scripted{}, `{"jsonrpc":"2.0","id":7,"method":"sampling/createMessage","params":{"maxTokens":100,"messages":[` +
			`{"role":"user","content":[{"type":"text","text":"here"},{"type":"tool_result","toolUseId":"a","content":[]}]}]}}` + "\n",
			-32602, `invalid params: /params/messages/0: a message with tool results must hold only tool results`, nil},
		{"not even a valid message", &scripted{}, `{"jsonrpc":"2.0","id":7,"id":8,"method":"sampling/createMessage","params":{}}` + "\n",
			-32600, `the proxy refuses an ambiguous message: the message: member "id" appears twice`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := start(t, tt.sampler)
			h.send(h.server, tt.request)
			resp := decode(t, h.nextToServer())
			e, _ := resp["error"].(map[string]any)
			if e == nil || e["code"] != tt.wantCode || !strings.Contains(e["message"].(string), tt.wantMsg) {
				t.Fatalf("response %v, want code %v and a message containing %q", resp, tt.wantCode, tt.wantMsg)
			}
			if tt.wantData != nil && !reflect.DeepEqual(e["data"], tt.wantData) {
				t.Errorf("data %v, want %v", e["data"], tt.wantData)
			}
			if id, ok := resp["id"]; !ok || (id != float64(7) && id != float64(8)) {
				t.Errorf("id %v", resp["id"])
			}
			h.expectNothing(h.toClient, "client")
		})
	}
}

// blocking waits for the cancellation of requests whose text is "block", and answers others.
type blocking struct {
	scripted
	cancelled chan struct{}
	entered   chan struct{} // closed when a call blocks
	blocked   atomic.Bool
}

func (b *blocking) CreateMessage(ctx context.Context, p *mcp.CreateMessageRequestParams) (*mcp.CreateMessageResult, error) {
	if t, ok := p.Messages[0].Content.List[0].(*mcp.TextContent); ok && t.Text == "block" {
		if !b.blocked.Swap(true) {
			close(b.entered)
		}
		<-ctx.Done()
		close(b.cancelled)
		return nil, ctx.Err()
	}
	return b.scripted.CreateMessage(ctx, p)
}

func TestSamplingCancelled(t *testing.T) {
	b := &blocking{cancelled: make(chan struct{}), entered: make(chan struct{})}
	h := start(t, b)
	h.send(h.server, `{"jsonrpc":"2.0","id":8,"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"block"}}],"maxTokens":10}}`+"\n")
	<-b.entered
	h.send(h.server, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":8,"reason":"done waiting"}}`+"\n")
	select {
	case <-b.cancelled:
	case <-time.After(5 * time.Second):
		t.Fatal("the sampler was not cancelled")
	}
	// A cancellation of a request that is not a sampling request in flight is forwarded.
	other := `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"client-req-3"}}` + "\n"
	h.send(h.server, other)
	if got := h.nextToClient(); string(got) != other {
		t.Errorf("client got %q, want %q", got, other)
	}
	// No answer to request 8: the next thing the server receives answers request 9.
	h.send(h.server, strings.Replace(samplingRequest, `"id":7`, `"id":9`, 1))
	if resp := decode(t, h.nextToServer()); resp["id"] != float64(9) {
		t.Errorf("server got %v, want the answer to request 9", resp)
	}
	h.expectNothing(h.toClient, "client")
}

func TestClientCloses(t *testing.T) {
	h := start(t, &scripted{})
	h.send(h.client, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	h.nextToServer()
	h.client.Close()
	for _, ch := range []chan struct{}{h.serverEOF, h.clientClosed} {
		select {
		case <-ch:
		case <-time.After(5 * time.Second):
			t.Fatal("the server's input was not closed")
		}
	}
	// The server may still say its last words before it exits.
	last := `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"bye"}}` + "\n"
	h.send(h.server, last)
	if got := h.nextToClient(); string(got) != last {
		t.Errorf("client got %q", got)
	}
	h.server.Close()
	select {
	case err := <-h.done:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
		h.done <- err
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return after the server closed its output")
	}
}

func TestServerCloses(t *testing.T) {
	h := start(t, &scripted{})
	h.server.Close()
	select {
	case err := <-h.done:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
		h.done <- err
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return after the server closed its output")
	}
}
