package proxy_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/backfill"
	"github.com/mcpgen/mcpgen/backfill/proxy"
	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
)

// billing is a provider that reports usage: input tokens, and as many output tokens as the
// request's maxTokens. A request whose text is "block" waits until it is cancelled (and reports
// nothing) or until release is closed.
type billing struct {
	input   int64
	release chan struct{}

	mu      sync.Mutex
	calls   int
	spent   int64     // the usage reported
	started chan bool // a call started (true) or ended (false)
}

func (b *billing) CreateMessage(ctx context.Context, p *mcp.CreateMessageRequestParams) (*mcp.CreateMessageResult, error) {
	b.mu.Lock()
	b.calls++
	b.mu.Unlock()
	if b.started != nil {
		b.started <- true
		defer func() { b.started <- false }()
	}
	raw, _ := json.Marshal(p.Messages[0].Content)
	if strings.Contains(string(raw), "block") {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-b.release:
		}
	}
	u := &backfill.Usage{InputTokens: b.input, OutputTokens: p.MaxTokens}
	b.mu.Lock()
	b.spent += u.InputTokens + u.OutputTokens
	b.mu.Unlock()
	info, _ := json.Marshal(backfill.ResultInfo{Provider: backfill.ProviderAnthropic, ID: "msg_01", Usage: u})
	return &mcp.CreateMessageResult{Role: mcp.RoleAssistant, Model: "m",
		Content: mcp.NewSamplingMessageContent(&mcp.TextContent{Type: "text", Text: "ok"}),
		Meta:    &mcp.MetaObject{Extra: map[string]json.RawMessage{backfill.MetaKey: info}}}, nil
}

func (b *billing) stats() (int, int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.calls, b.spent
}

func samplingAsk(id int, text string, maxTokens int64) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":%q}}],"maxTokens":%d}}`+"\n", id, text, maxTokens)
}

// TestBudgetArithmeticCannotOverflow: without a cap on maxTokens, a request for 2^63-1 tokens
// while another call is in progress must not overflow the budget's check (it used to, and let the
// next requests of 100,000 tokens through a budget of 5,000).
func TestBudgetArithmeticCannotOverflow(t *testing.T) {
	b := &billing{input: 31, release: make(chan struct{})}
	h := startWith(t, &proxy.Proxy{Sampler: b, Limits: proxy.Limits{TokenBudget: 5000}})
	h.send(h.server, samplingAsk(1, "block", 10))
	time.Sleep(50 * time.Millisecond)
	h.send(h.server, samplingAsk(2, "block", math.MaxInt64))
	time.Sleep(50 * time.Millisecond)
	h.send(h.server, samplingAsk(3, "hi", 100000))
	h.send(h.server, samplingAsk(4, "hi", 100000))
	got := collect(t, h, 3)
	for id, m := range got {
		e, _ := m["error"].(map[string]any)
		if e == nil || e["code"] != float64(proxy.CodeLimit) {
			t.Errorf("request %v: %v, want the budget's refusal", id, m)
		}
	}
	close(b.release)
	collect(t, h, 1)
	calls, spent := b.stats()
	t.Logf("%d provider calls, %d tokens spent of a budget of 5,000", calls, spent)
	if calls != 1 || spent > 5000 {
		t.Errorf("%d provider calls, %d tokens spent of a budget of 5,000", calls, spent)
	}
}

// TestBudgetCoversInput: calls whose input is not small (400 tokens, and 1,000 of output) end
// within the budget: the reservation holds an estimate of the input, not only maxTokens (the last
// call used to overshoot, 50,400 of 50,000).
func TestBudgetCoversInput(t *testing.T) {
	b := &billing{input: 400}
	h := startWith(t, &proxy.Proxy{Sampler: b, Limits: proxy.Limits{TokenBudget: 50000, MaxTokens: 1000}})
	for i := range 100 {
		h.send(h.server, samplingAsk(i, "hi", 1000))
		m := decode(t, h.nextToServer())
		if m["error"] != nil {
			break
		}
	}
	calls, spent := b.stats()
	t.Logf("%d calls spent %d tokens of a budget of 50,000", calls, spent)
	if spent > 50000 || calls < 20 {
		t.Errorf("%d calls spent %d tokens of a budget of 50,000", calls, spent)
	}
}

// TestCancelledCallsAreCharged: a server that cancels each request while the provider works gets
// no answer, but each call costs its reservation: 20 cancelled requests cannot run 20 provider
// calls on a budget that holds 2 (they used to be charged nothing).
func TestCancelledCallsAreCharged(t *testing.T) {
	b := &billing{input: 150000, started: make(chan bool, 2)}
	h := startWith(t, &proxy.Proxy{Sampler: b, Limits: proxy.Limits{TokenBudget: 5000, MaxTokens: 1000}})
	refused := 0
	for i := range 20 {
		h.send(h.server, samplingAsk(i, "block", 1000))
		select {
		case <-b.started:
			h.send(h.server, fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":%d}}`+"\n", i))
			<-b.started
		case line := <-h.toServer:
			if m := decode(t, line); m["error"] == nil {
				t.Fatalf("answer %v", m)
			}
			refused++
		case <-time.After(5 * time.Second):
			t.Fatal("neither a provider call nor a refusal")
		}
	}
	calls, _ := b.stats()
	t.Logf("%d provider calls of 150,000 input tokens each for 20 cancelled requests, %d refused, on a budget of 5,000", calls, refused)
	if calls > 2 || refused != 20-calls {
		t.Errorf("%d provider calls for 20 cancelled requests (%d refused) on a budget of 5,000 tokens", calls, refused)
	}
}

// TestResultCarriesNoProxyMeta: the server's answer does not carry the proxy's own record (the
// provider, its message id, the usage) in _meta.
func TestResultCarriesNoProxyMeta(t *testing.T) {
	h := startWith(t, &proxy.Proxy{Sampler: &billing{input: 3}})
	h.send(h.server, samplingAsk(1, "hi", 10))
	line := h.nextToServer()
	m := decode(t, line)
	if m["result"] == nil || strings.Contains(string(line), backfill.MetaKey) || strings.Contains(string(line), "msg_01") {
		t.Errorf("the server got %s", line)
	}
}

// TestProviderTextNotSentToServer: the server learns the provider, the status, the error type
// and the attempts of a failure, never the provider's own text (which no filter can clean: the
// key base64-encoded, reversed or spaced out).
func TestProviderTextNotSentToServer(t *testing.T) {
	const leak = "c2stYW50LXNlY3JldC1rZXk= yek-terces k s - a n t"
	pe := &backfill.ProviderError{Provider: "anthropic", StatusCode: 400, Attempts: 1, Type: "invalid_request_error", Message: "bad key " + leak}
	h := start(t, failing{pe})
	h.send(h.server, samplingRequest)
	line := h.nextToServer()
	m := decode(t, line)
	e, _ := m["error"].(map[string]any)
	if e == nil || strings.Contains(string(line), "bad key") || strings.Contains(string(line), "c2st") {
		t.Fatalf("the server got %s", line)
	}
	data, _ := e["data"].(map[string]any)
	if data["provider"] != "anthropic" || data["status"] != float64(400) || data["type"] != "invalid_request_error" {
		t.Errorf("data %v", data)
	}
}

// TestMRTRRoundsAreCapped: a server that asks for 100 samples a round, or for 4 a round for 10
// rounds, is refused past the caps on a round and on a client request, before the provider is
// called beyond them.
func TestMRTRRoundsAreCapped(t *testing.T) {
	ask := func(n, from int) string {
		var reqs []string
		for i := range n {
			reqs = append(reqs, fmt.Sprintf(`"q%d":%s`, from+i, samplingInput))
		}
		return strings.Join(reqs, ",")
	}
	limits := proxy.Limits{MaxConcurrent: 4, MaxRoundSamples: 4, MaxRequestSamples: 20}

	c := &counting{}
	h := startWith(t, &proxy.Proxy{Sampler: c, Limits: limits})
	h.send(h.client, toolCall("1"))
	h.nextToServer()
	h.send(h.server, inputRequired("1", ask(100, 0), ""))
	resp := decode(t, h.nextToClient())
	if e, _ := resp["error"].(map[string]any); e == nil || e["data"].(map[string]any)["limit"] != "maxRoundSamples" {
		t.Errorf("100 samples in a round: %v", resp)
	}
	if c.calls != 0 {
		t.Errorf("%d provider calls for a refused round", c.calls)
	}

	h.send(h.client, toolCall("2"))
	h.nextToServer()
	h.send(h.server, inputRequired("2", ask(4, 0), ""))
	for round := 1; ; round++ {
		select {
		case line := <-h.toServer:
			id, _ := json.Marshal(decode(t, line)["id"])
			h.send(h.server, inputRequired(string(id), ask(4, 4*round), ""))
			continue
		case line := <-h.toClient:
			resp := decode(t, line)
			if e, _ := resp["error"].(map[string]any); e == nil || e["data"].(map[string]any)["limit"] != "maxRequestSamples" {
				t.Errorf("round %d: %v", round, resp)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("no answer")
		}
		break
	}
	if c.calls != 20 {
		t.Errorf("%d provider calls for one request, want the cap of 20", c.calls)
	}
}

// TestRouteBudget: a route with a budget of its own is refused once it is spent, while the other
// routes go on within the proxy's budget.
func TestRouteBudget(t *testing.T) {
	opus, sonnet := &billing{input: 100}, &billing{input: 100}
	router := &proxy.Router{Routes: []proxy.Route{
		{Name: "sonnet", Model: "claude-sonnet-4-5", Sampler: sonnet},
		{Name: "opus", Model: "claude-opus-4-1", Sampler: opus, TokenBudget: 5000},
	}, Default: sonnet}
	h := startWith(t, &proxy.Proxy{Sampler: router, Limits: proxy.Limits{TokenBudget: 100000, MaxTokens: 1000}})
	hinted := func(id int, hint string) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}],"maxTokens":1000,"modelPreferences":{"hints":[{"name":%q}]}}}`+"\n", id, hint)
	}
	for i := range 10 {
		h.send(h.server, hinted(i, "opus"))
		h.nextToServer()
	}
	for i := range 10 {
		h.send(h.server, hinted(100+i, "sonnet"))
		if m := decode(t, h.nextToServer()); m["result"] == nil {
			t.Fatalf("sonnet refused: %v", m)
		}
	}
	h.send(h.server, hinted(200, "opus"))
	m := decode(t, h.nextToServer())
	if e, _ := m["error"].(map[string]any); e == nil || e["data"].(map[string]any)["route"] != "opus" {
		t.Errorf("opus past its budget: %v", m)
	}
	if _, spent := opus.stats(); spent > 5000 || spent == 0 {
		t.Errorf("opus spent %d tokens of its 5,000", spent)
	}
}
