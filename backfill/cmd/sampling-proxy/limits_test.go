package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestLimitFlags: -max-tokens caps what the provider is asked for, and a spent -token-budget
// refuses sampling with an error the server reads (its tool reports it).
func TestLimitFlags(t *testing.T) {
	p := providers[0]
	t.Run("max-tokens", func(t *testing.T) {
		fake, url := fakeProvider(t, p, recorded(p.replies...))
		var stderr syncBuffer
		cs := connect(t, &mcp.CommandTransport{Command: proxyCommand(t, p, url, &stderr, "-max-tokens", "50")})
		defer cs.Close()
		if text, isError := callAgent(t, cs); isError || text != finalAnswer {
			t.Fatalf("agent answered (isError %v) %q", isError, text)
		}
		for _, r := range fake.Requests() {
			var body struct {
				MaxTokens int `json:"max_tokens"`
			}
			json.Unmarshal(r.Body, &body)
			if body.MaxTokens != 50 {
				t.Errorf("the provider was asked for %d tokens, want the cap 50", body.MaxTokens)
			}
		}
		if !strings.Contains(stderr.String(), "capped maxTokens") {
			t.Errorf("the cap is not logged:\n%s", stderr.String())
		}
	})
	t.Run("token-budget", func(t *testing.T) {
		fake, url := fakeProvider(t, p, recorded(p.replies...))
		var stderr syncBuffer
		// The first call reports 470 tokens of usage: the second (up to 1,000 more) does not fit in 1,400.
		cs := connect(t, &mcp.CommandTransport{Command: proxyCommand(t, p, url, &stderr, "-token-budget", "1400", "-max-tokens", "1000")})
		defer cs.Close()
		text, isError := callAgent(t, cs)
		if !isError || !strings.Contains(text, "token budget") {
			t.Fatalf("agent answered (isError %v) %q, want the budget's refusal", isError, text)
		}
		if n := len(fake.Requests()); n != 1 {
			t.Errorf("the provider got %d requests, want 1", n)
		}
		if !strings.Contains(stderr.String(), "sampling refused: the token budget is spent") {
			t.Errorf("the refusal is not logged:\n%s", stderr.String())
		}
	})
}
