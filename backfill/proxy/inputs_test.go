package proxy_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/backfill"
	"github.com/mcpgen/mcpgen/backfill/proxy"
	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
	"github.com/mcpgen/mcpgen/sampling"
)

// startWith runs a configured Proxy over pipes, like start.
func startWith(t *testing.T, p *proxy.Proxy) *harness {
	t.Helper()
	h, _ := startFull(t, p, true)
	return h
}

const meta2026 = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}},"progressToken":"p1"}`

func toolCall(id string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"agent","arguments":{"prompt":"hi","n":[1,{"b":2,"a":1}]},` + meta2026 + `}}` + "\n"
}

const samplingInput = `{"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"What is the capital of France?"}}],"maxTokens":100}}`

func inputRequired(id string, reqs string, state string) string {
	st := ""
	if state != "" {
		st = `,"requestState":"` + state + `"`
	}
	return `{"jsonrpc":"2.0","id":` + id + `,"result":{"resultType":"input_required","inputRequests":{` + reqs + `}` + st + `}}` + "\n"
}

// TestMRTRSamplingRounds: the proxy declares sampling with tools in the request's _meta, answers
// the sampling input requests of two rounds, retries with the answers and the server's state (the
// request otherwise unchanged), and gives the client the final result under its own id.
func TestMRTRSamplingRounds(t *testing.T) {
	s := &scripted{}
	h := startWith(t, &proxy.Proxy{Sampler: s})
	h.send(h.client, toolCall(`"c-1"`))
	first := decode(t, h.nextToServer())
	caps := first["params"].(map[string]any)["_meta"].(map[string]any)["io.modelcontextprotocol/clientCapabilities"]
	if want := map[string]any{"elicitation": map[string]any{"form": map[string]any{}}, "sampling": map[string]any{"tools": map[string]any{}}}; !reflect.DeepEqual(caps, want) {
		t.Errorf("forwarded capabilities %v, want %v", caps, want)
	}
	h.send(h.server, inputRequired(`"c-1"`, `"q1":`+samplingInput, "state-1"))
	retry := decode(t, h.nextToServer())
	params := retry["params"].(map[string]any)
	if params["requestState"] != "state-1" || retry["id"] == "c-1" || retry["method"] != "tools/call" {
		t.Fatalf("retry %v", retry)
	}
	answer := params["inputResponses"].(map[string]any)["q1"].(map[string]any)
	if answer["model"] != "scripted" || answer["role"] != "assistant" {
		t.Errorf("answer %v", answer)
	}
	for _, k := range []string{"name", "arguments", "_meta"} {
		if !reflect.DeepEqual(params[k], first["params"].(map[string]any)[k]) {
			t.Errorf("retry's %s: %v, want %v", k, params[k], first["params"].(map[string]any)[k])
		}
	}
	// A second round, without state this time.
	id2, _ := json.Marshal(retry["id"])
	h.send(h.server, inputRequired(string(id2), `"q2":`+samplingInput, ""))
	retry2 := decode(t, h.nextToServer())
	if _, ok := retry2["params"].(map[string]any)["requestState"]; ok {
		t.Errorf("the second retry carries a requestState: %v", retry2)
	}
	if _, ok := retry2["params"].(map[string]any)["inputResponses"].(map[string]any)["q2"]; !ok {
		t.Errorf("the second retry lacks its answer: %v", retry2)
	}
	id3, _ := json.Marshal(retry2["id"])
	// A progress notification for the client passes while the proxy works.
	progress := `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p1","progress":1}}` + "\n"
	h.send(h.server, progress)
	if got := h.nextToClient(); string(got) != progress {
		t.Errorf("client got %s", got)
	}
	h.send(h.server, `{"jsonrpc":"2.0","id":`+string(id3)+`,"result":{"content":[{"type":"text","text":"done"}],"resultType":"complete"}}`+"\n")
	final := decode(t, h.nextToClient())
	want := map[string]any{"jsonrpc": "2.0", "id": "c-1", "result": map[string]any{"content": []any{map[string]any{"type": "text", "text": "done"}}, "resultType": "complete"}}
	if !reflect.DeepEqual(final, want) {
		t.Errorf("client got %v, want %v", final, want)
	}
	if len(s.params) != 2 {
		t.Errorf("the sampler was asked %d times, want 2", len(s.params))
	}
	h.expectNothing(h.toClient, "client")
}

// TestMRTRCapabilitiesKeepTheClients: the client's capabilities stay as they are but for
// sampling, which the proxy does, and task-augmented sampling, which it does not.
func TestMRTRCapabilitiesKeepTheClients(t *testing.T) {
	h := startWith(t, &proxy.Proxy{Sampler: &scripted{}})
	h.send(h.client, `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",`+
		`"io.modelcontextprotocol/clientCapabilities":{"roots":{},"sampling":{"context":{}},"tasks":{"requests":{"sampling":{"createMessage":{}},"elicitation":{"create":{}}}},"x":{"y":1}}}}}`+"\n")
	got := decode(t, h.nextToServer())
	caps := got["params"].(map[string]any)["_meta"].(map[string]any)["io.modelcontextprotocol/clientCapabilities"]
	var want any
	json.Unmarshal([]byte(`{"roots":{},"sampling":{"tools":{}},"tasks":{"requests":{"elicitation":{"create":{}}}},"x":{"y":1}}`), &want)
	if !reflect.DeepEqual(caps, want) {
		t.Errorf("capabilities %v, want %v", caps, want)
	}
	// A request of an older version passes byte for byte.
	old := `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"progressToken":1}}}` + "\n"
	h.send(h.client, old)
	if got := h.nextToServer(); string(got) != old {
		t.Errorf("server got %s", got)
	}
}

// TestMRTRMaxRounds: a server that asks again and again gets an error to the client after
// MaxRounds.
func TestMRTRMaxRounds(t *testing.T) {
	s := &scripted{}
	h := startWith(t, &proxy.Proxy{Sampler: s, MaxRounds: 3})
	h.send(h.client, toolCall("1"))
	id := "1"
	for range 3 {
		h.nextToServer()
		h.send(h.server, inputRequired(id, `"q":`+samplingInput, "again"))
		id = ""
		select {
		case line := <-h.toServer:
			m := decode(t, line)
			b, _ := json.Marshal(m["id"])
			id = string(b)
			h.toServer <- line // put back for the next loop's nextToServer
		case line := <-h.toClient:
			t.Fatalf("client got %s before the limit", line)
		case <-time.After(5 * time.Second):
			t.Fatal("no retry")
		}
	}
	h.nextToServer()
	h.send(h.server, inputRequired(id, `"q":`+samplingInput, "again"))
	resp := decode(t, h.nextToClient())
	e, _ := resp["error"].(map[string]any)
	if resp["id"] != float64(1) || e == nil || !strings.Contains(e["message"].(string), "more than 3 times") {
		t.Errorf("client got %v", resp)
	}
}

// TestMRTRCancelled: the client's cancellation of a request whose input the proxy answers
// cancels the provider call; the client gets nothing more for it.
func TestMRTRCancelled(t *testing.T) {
	b := &blocking{cancelled: make(chan struct{}), entered: make(chan struct{})}
	h := startWith(t, &proxy.Proxy{Sampler: b})
	h.send(h.client, toolCall("5"))
	h.nextToServer()
	h.send(h.server, inputRequired("5", `"q":{"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"block"}}],"maxTokens":10}}`, "st"))
	<-b.entered
	h.send(h.client, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5,"reason":"user"}}`+"\n")
	select {
	case <-b.cancelled:
	case <-time.After(5 * time.Second):
		t.Fatal("the provider call was not cancelled")
	}
	h.expectNothing(h.toClient, "client")
	h.expectNothing(h.toServer, "server") // the server already answered id 5; no retry went out
}

// TestMRTRForwardsElicitation: a round that mixes an elicitation with a sampling request goes to
// the client with the elicitation only and the proxy's state; the client's retry reaches the
// server with both answers and the server's state; a changed state is refused.
func TestMRTRForwardsElicitation(t *testing.T) {
	s := &scripted{}
	h := startWith(t, &proxy.Proxy{Sampler: s})
	h.send(h.client, toolCall("1"))
	h.nextToServer()
	elicit := `{"method":"elicitation/create","params":{"mode":"form","message":"OK?","requestedSchema":{"type":"object","properties":{}}}}`
	h.send(h.server, inputRequired("1", `"ask":`+elicit+`,"model":`+samplingInput, "server-state"))
	fwd := decode(t, h.nextToClient())
	res := fwd["result"].(map[string]any)
	var wantReqs map[string]any
	json.Unmarshal([]byte(`{"ask":`+elicit+`}`), &wantReqs)
	if fwd["id"] != float64(1) || res["resultType"] != "input_required" || !reflect.DeepEqual(res["inputRequests"], wantReqs) {
		t.Fatalf("client got %v", fwd)
	}
	state, _ := res["requestState"].(string)
	if state == "" || strings.Contains(state, "server-state") {
		t.Fatalf("requestState %q", state)
	}
	h.expectNothing(h.toServer, "server")

	retry := func(id, state, args string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"agent","arguments":` + args + `,` + meta2026 +
			`,"inputResponses":{"ask":{"action":"accept","content":{}}},"requestState":"` + state + `"}}` + "\n"
	}
	// Another request's arguments, or a changed state: refused.
	for _, tt := range []struct{ state, args string }{
		{state, `{"prompt":"something else"}`},
		{state[:len(state)-2] + "xx", `{"prompt":"hi","n":[1,{"b":2,"a":1}]}`},
	} {
		h.send(h.client, retry("2", tt.state, tt.args))
		resp := decode(t, h.nextToClient())
		if e, _ := resp["error"].(map[string]any); e == nil || e["code"] != float64(-32602) {
			t.Errorf("a foreign or changed state: %v", resp)
		}
	}
	h.expectNothing(h.toServer, "server")

	// The state as issued, the arguments' members reordered.
	h.send(h.client, retry("3", state, `{"n":[1,{"a":1,"b":2}],"prompt":"hi"}`))
	got := decode(t, h.nextToServer())
	params := got["params"].(map[string]any)
	responses := params["inputResponses"].(map[string]any)
	if got["id"] != float64(3) || params["requestState"] != "server-state" || responses["ask"] == nil || responses["model"] == nil {
		t.Fatalf("server got %v", got)
	}
	if len(s.params) != 1 {
		t.Errorf("the sampler was asked %d times, want 1", len(s.params))
	}
	h.send(h.server, `{"jsonrpc":"2.0","id":3,"result":{"content":[]}}`+"\n")
	if final := decode(t, h.nextToClient()); final["id"] != float64(3) || final["result"] == nil {
		t.Errorf("client got %v", final)
	}
}

// TestMRTRClientLacksCapability: an input request the client did not declare is an error to the
// client; the provider is not called.
func TestMRTRClientLacksCapability(t *testing.T) {
	s := &scripted{}
	h := startWith(t, &proxy.Proxy{Sampler: s})
	h.send(h.client, toolCall("1"))
	h.nextToServer()
	h.send(h.server, inputRequired("1", `"roots":{"method":"roots/list"},"model":`+samplingInput, ""))
	resp := decode(t, h.nextToClient())
	if e, _ := resp["error"].(map[string]any); e == nil || !strings.Contains(e["message"].(string), "roots/list") {
		t.Errorf("client got %v", resp)
	}
	// The client declared form elicitation, not URL elicitation.
	h.send(h.client, toolCall("2"))
	h.nextToServer()
	h.send(h.server, inputRequired("2", `"go":{"method":"elicitation/create","params":{"mode":"url","message":"m","url":"https://x","elicitationId":"e"}}`, ""))
	resp = decode(t, h.nextToClient())
	if e, _ := resp["error"].(map[string]any); e == nil || !strings.Contains(e["message"].(string), "elicitation/create") {
		t.Errorf("client got %v", resp)
	}
	if len(s.params) != 0 {
		t.Errorf("the sampler was asked %d times", len(s.params))
	}
}

// counting answers at once, or holds every call until release is closed; it records the
// maxTokens asked and the most calls in progress at once.
type counting struct {
	release   chan struct{}
	usage     *backfill.Usage
	mu        sync.Mutex
	calls     int
	now, most int
	maxTokens []int64
}

func (c *counting) CreateMessage(ctx context.Context, p *mcp.CreateMessageRequestParams) (*mcp.CreateMessageResult, error) {
	c.mu.Lock()
	c.calls++
	c.now++
	c.most = max(c.most, c.now)
	c.maxTokens = append(c.maxTokens, p.MaxTokens)
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		c.now--
		c.mu.Unlock()
	}()
	if c.release != nil {
		select {
		case <-c.release:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	res := &mcp.CreateMessageResult{Role: mcp.RoleAssistant, Model: "m",
		Content: mcp.NewSamplingMessageContent(&mcp.TextContent{Type: "text", Text: "ok"})}
	if c.usage != nil {
		raw, _ := json.Marshal(backfill.ResultInfo{Provider: backfill.ProviderAnthropic, Usage: c.usage})
		res.Meta = &mcp.MetaObject{Extra: map[string]json.RawMessage{backfill.MetaKey: raw}}
	}
	return res, nil
}

var _ sampling.Sampler = (*counting)(nil)

func floodRequest(i int) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}],"maxTokens":1000000}}`+"\n", i)
}

// collect reads n responses to the server, by id.
func collect(t *testing.T, h *harness, n int) map[float64]map[string]any {
	got := map[float64]map[string]any{}
	for range n {
		m := decode(t, h.nextToServer())
		got[m["id"].(float64)] = m
	}
	return got
}

// TestLimitsFlood: a server floods the proxy with 200 sampling requests asking for 1,000,000
// tokens each. With -max-concurrent 4 only 4 calls reach the provider, each capped to
// -max-tokens; the rest are refused at once with CodeLimit.
func TestLimitsFlood(t *testing.T) {
	c := &counting{release: make(chan struct{})}
	h := startWith(t, &proxy.Proxy{Sampler: c, Limits: proxy.Limits{MaxTokens: 1000, MaxConcurrent: 4}})
	for i := range 200 {
		h.send(h.server, floodRequest(i))
	}
	refused := collect(t, h, 196)
	for _, m := range refused {
		e, _ := m["error"].(map[string]any)
		if e == nil || e["code"] != float64(proxy.CodeLimit) || !reflect.DeepEqual(e["data"], map[string]any{"limit": "maxConcurrent", "maxConcurrent": float64(4)}) {
			t.Fatalf("refusal %v", m)
		}
	}
	close(c.release)
	answered := collect(t, h, 4)
	for id, m := range answered {
		if m["result"] == nil || refused[id] != nil {
			t.Errorf("answer %v", m)
		}
	}
	if c.calls != 4 || c.most != 4 {
		t.Errorf("%d provider calls, %d at once; want 4 and 4", c.calls, c.most)
	}
	for _, mt := range c.maxTokens {
		if mt != 1000 {
			t.Errorf("maxTokens %d sent to the provider, want the cap 1000", mt)
		}
	}
}

// TestLimitsBudget: with a budget of 5,000 tokens and calls that each report 1,000 (and ask for
// at most 1,000), some of 200 flooding requests reach the provider, the others are refused for the
// budget, and the tokens spent stay within it.
func TestLimitsBudget(t *testing.T) {
	c := &counting{usage: &backfill.Usage{InputTokens: 600, OutputTokens: 400}}
	h := startWith(t, &proxy.Proxy{Sampler: c, Limits: proxy.Limits{MaxTokens: 1000, TokenBudget: 5000}})
	for i := range 200 {
		h.send(h.server, floodRequest(i))
	}
	got := collect(t, h, 200)
	ok := 0
	for _, m := range got {
		if m["result"] != nil {
			ok++
			continue
		}
		e := m["error"].(map[string]any)
		if e["code"] != float64(proxy.CodeLimit) || e["data"].(map[string]any)["limit"] != "tokenBudget" {
			t.Fatalf("refusal %v", m)
		}
	}
	if ok == 0 || ok != c.calls || ok*1000 > 5000 {
		t.Errorf("%d answered, %d provider calls: %d tokens of 5,000", ok, c.calls, ok*1000)
	}
}

// TestOversizedMessages: a message over MaxMessageBytes is dropped whole, and a request among
// those is answered with an error; what follows it passes.
func TestOversizedMessages(t *testing.T) {
	h := startWith(t, &proxy.Proxy{Sampler: &scripted{}, MaxMessageBytes: 1 << 20})
	big := strings.Repeat("x", 3<<20)
	// From the client: a request gets an error, a notification is dropped.
	h.send(h.client, `{"jsonrpc":"2.0","id":"big","method":"tools/call","params":{"name":"a","arguments":{"s":"`+big+`"}}}`+"\n")
	h.send(h.client, `{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"`+big+`"}}`+"\n")
	small := `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"
	h.send(h.client, small)
	resp := decode(t, h.nextToClient())
	if e, _ := resp["error"].(map[string]any); resp["id"] != "big" || e == nil || e["code"] != float64(-32600) {
		t.Errorf("client got %v", resp)
	}
	if got := h.nextToServer(); string(got) != small {
		t.Errorf("server got %.100s", got)
	}
	// From the server: a sampling request gets an error; a response becomes an error response.
	h.send(h.server, `{"jsonrpc":"2.0","id":7,"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"`+big+`"}}],"maxTokens":1}}`+"\n")
	if resp := decode(t, h.nextToServer()); resp["id"] != float64(7) || resp["error"] == nil {
		t.Errorf("server got %v", resp)
	}
	h.send(h.server, `{"jsonrpc":"2.0","id":"c9","result":{"content":[{"type":"text","text":"`+big+`"}]}}`+"\n")
	if resp := decode(t, h.nextToClient()); resp["id"] != "c9" || resp["error"] == nil {
		t.Errorf("client got %v", resp)
	}
}

// TestServeStopsWhileServerDoesNotRead: when ctx ends while writes to a server that does not read
// its input are blocked (the client's flood and a sampling answer), Serve returns.
func TestServeStopsWhileServerDoesNotRead(t *testing.T) {
	p := &proxy.Proxy{Sampler: &scripted{}}
	h, cancel := startFull(t, p, false)
	go func() {
		for range 100 {
			if _, err := h.client.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"` + strings.Repeat("y", 64<<10) + `"}}` + "\n")); err != nil {
				return
			}
		}
	}()
	h.send(h.server, samplingRequest)
	cancel()
	select {
	case err := <-h.done:
		if err == nil {
			t.Error("Serve returned nil, want ctx's error")
		}
		h.done <- err
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return while the server's input was blocked")
	}
}

// TestMRTRRoundRefusedPastConcurrency: a round of more sampling requests than -max-concurrent is
// refused whole (CodeLimit), not queued: no provider call is made.
func TestMRTRRoundRefusedPastConcurrency(t *testing.T) {
	c := &counting{}
	h := startWith(t, &proxy.Proxy{Sampler: c, Limits: proxy.Limits{MaxConcurrent: 2}})
	h.send(h.client, toolCall("1"))
	h.nextToServer()
	var reqs []string
	for i := range 7 {
		reqs = append(reqs, fmt.Sprintf(`"q%d":%s`, i, samplingInput))
	}
	h.send(h.server, inputRequired("1", strings.Join(reqs, ","), ""))
	resp := decode(t, h.nextToClient())
	e, _ := resp["error"].(map[string]any)
	if e == nil || e["code"] != float64(proxy.CodeLimit) || e["data"].(map[string]any)["limit"] != "maxConcurrent" {
		t.Errorf("client got %v, want the maxConcurrent refusal", resp)
	}
	h.expectNothing(h.toServer, "server")
	if c.calls != 0 {
		t.Errorf("%d provider calls, want 0", c.calls)
	}
}

// TestMRTRPromptsAndResources: prompts/get and resources/read are retried as themselves; other
// requests' results are not read for input.
func TestMRTRPromptsAndResources(t *testing.T) {
	s := &scripted{}
	h := startWith(t, &proxy.Proxy{Sampler: s})
	for _, tt := range []struct{ method, params string }{
		{"prompts/get", `{"name":"p","arguments":{"a":"b"},` + meta2026 + `}`},
		{"resources/read", `{"uri":"file:///x",` + meta2026 + `}`},
	} {
		h.send(h.client, `{"jsonrpc":"2.0","id":"r","method":"`+tt.method+`","params":`+tt.params+`}`+"\n")
		h.nextToServer()
		h.send(h.server, inputRequired(`"r"`, `"q":`+samplingInput, "s"))
		retry := decode(t, h.nextToServer())
		if retry["method"] != tt.method || retry["params"].(map[string]any)["requestState"] != "s" {
			t.Errorf("%s retried as %v", tt.method, retry)
		}
		id, _ := json.Marshal(retry["id"])
		h.send(h.server, `{"jsonrpc":"2.0","id":`+string(id)+`,"result":{"messages":[]}}`+"\n")
		if final := decode(t, h.nextToClient()); final["id"] != "r" {
			t.Errorf("client got %v", final)
		}
	}
	// tools/list is no request that may need input: its result passes as it is.
	h.send(h.client, `{"jsonrpc":"2.0","id":9,"method":"tools/list","params":{`+meta2026+`}}`+"\n")
	h.nextToServer()
	odd := inputRequired("9", `"q":`+samplingInput, "s")
	h.send(h.server, odd)
	if got := h.nextToClient(); string(got) != odd {
		t.Errorf("client got %s", got)
	}
	if len(s.params) != 2 {
		t.Errorf("the sampler was asked %d times, want 2", len(s.params))
	}
}
