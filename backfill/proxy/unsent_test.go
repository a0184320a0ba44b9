package proxy_test

import (
	"testing"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	anthropicoption "github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/mcpgen/mcpgen/backfill"
	"github.com/mcpgen/mcpgen/backfill/internal/testkit"
	"github.com/mcpgen/mcpgen/backfill/proxy"
)

// TestUnsentCallsCostNothing: a provider call whose request was never written (the port is
// closed, the name does not resolve) releases its reservation, so that the next request is
// admitted on a budget that holds one reservation; a call whose request the provider read before
// the connection closed may have been billed, and keeps it, so the next is refused for the
// budget (it used to be the same for all three: four failed connects kept 2,773 tokens).
func TestUnsentCallsCostNothing(t *testing.T) {
	retry := backfill.RetryPolicy{MaxAttempts: 4, InitialBackoff: time.Millisecond, MaxBackoff: 2 * time.Millisecond, AttemptTimeout: 2 * time.Second}
	for _, tc := range []struct {
		name, url string
		kept      bool
	}{
		{"connection refused", "http://" + testkit.ClosedPort(t), false},
		{"unresolvable host", "http://provider.invalid", false},
		{"connection closed after the request", "http://" + testkit.HangUp(t), true},
	} {
		client := anthropic.NewClient(anthropicoption.WithAPIKey("test-key"), anthropicoption.WithBaseURL(tc.url))
		sampler := backfill.NewAnthropicSampler(client, "claude-sonnet-4-5", &backfill.Options{Retry: retry})
		h := startWith(t, &proxy.Proxy{Sampler: sampler, Limits: proxy.Limits{TokenBudget: 3000}})
		var codes []float64
		for i := range 3 {
			h.send(h.server, samplingAsk(i, "hi", 1000))
			e, _ := decode(t, h.nextToServer())["error"].(map[string]any)
			if e == nil {
				t.Fatalf("%s: request %d was answered", tc.name, i)
			}
			codes = append(codes, e["code"].(float64))
			if d, _ := e["data"].(map[string]any); d["limit"] == "tokenBudget" {
				t.Logf("%s: request %d refused with %v spent", tc.name, i, d["spent"])
			}
		}
		want := []float64{-32603, -32603, -32603} // each reached the budget's check and failed
		if tc.kept {
			want = []float64{-32603, proxy.CodeLimit, proxy.CodeLimit}
		}
		if codes[0] != want[0] || codes[1] != want[1] || codes[2] != want[2] {
			t.Errorf("%s: the server got errors %v, want %v", tc.name, codes, want)
		}
	}
}
