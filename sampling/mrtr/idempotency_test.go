//lint:file-ignore SA1019 sampling is deprecated as of 2026-07-28 (SEP-2577), and still in it: these tests run it

package mrtr_test

import (
	"context"
	"testing"

	mcp "github.com/mcpgen/mcpgen/gen/mcp20260728"
	"github.com/mcpgen/mcpgen/sampling"
	"github.com/mcpgen/mcpgen/sampling/mrtr"
)

// TestIdempotencyKeyOfAnotherAnswer: one state answered twice (no guard) with the same tool use
// id but another tool or another input: the runs are different tool uses, with different keys;
// the same tool use, its input respaced and reordered, keeps its key.
func TestIdempotencyKeyOfAnotherAnswer(t *testing.T) {
	type amount struct {
		Amount map[string]float64 `json:"amount"`
	}
	var keys []string
	record := func(ctx context.Context, _ amount) (string, error) {
		c, _ := sampling.CallFromContext(ctx)
		keys = append(keys, c.IdempotencyKey)
		return "done", nil
	}
	charge, err := sampling.NewTypedTool("charge", "", nil, record)
	if err != nil {
		t.Fatal(err)
	}
	refund, err := sampling.NewTypedTool("refund", "", nil, record)
	if err != nil {
		t.Fatal(err)
	}
	f, c, p := pendingRetry(t, func(r *mrtr.Runner) { r.Loop = &sampling.Loop{Tools: []*sampling.Tool{charge, refund}} })
	for _, answer := range []string{
		use("pay", "charge", `{"amount":{"eur":1,"usd":2}}`),
		use("pay", "charge", `{"amount":{"eur":1,"usd":3}}`),
		use("pay", "refund", `{"amount":{"eur":1,"usd":2}}`),
		use("pay", "charge", `{ "amount" : { "usd":2, "eur":1 } }`),
	} {
		p.InputResponses = mcp.InputResponses{"sampling-1": mustResult(t, result("toolUse", answer))}
		if _, rpcErr := c.send(f.ctx, f.server, p); rpcErr != nil {
			t.Fatal(rpcErr)
		}
	}
	if len(keys) != 4 || keys[0] == keys[1] || keys[0] == keys[2] || keys[1] == keys[2] || keys[0] != keys[3] {
		t.Errorf("keys %q: want three different, the fourth the first", keys)
	}
}
