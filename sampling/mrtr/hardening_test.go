//lint:file-ignore SA1019 sampling is deprecated as of 2026-07-28 (SEP-2577), and still in it: these tests run it

package mrtr_test

import (
	"bytes"
	"compress/flate"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	mcp "github.com/mcpgen/mcpgen/gen/mcp20260728"
	"github.com/mcpgen/mcpgen/sampling/mrtr"
)

// exchangeBytes sends p as a tools/call request and returns the bytes of the request and of the
// answer, as they go on the wire.
func exchangeBytes(t *testing.T, f *fixture, p mcp.CallToolRequestParams) (in, out []byte) {
	t.Helper()
	in, err := (&mcp.CallToolRequest{ID: mcp.RequestIDNumber(99), Params: p}).MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return in, f.server.serve(f.ctx, in)
}

// TestAmplification: a client that grows the conversation once with very compressible text
// cannot make the server answer a small retry with a large answer: the JSON a state carries is at
// most a few times the state's own size (and at most MaxStateBytes), so asking again costs the
// client about as many bytes as it gets back.
func TestAmplification(t *testing.T) {
	for _, size := range []int{100 << 10, 200 << 10} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			f := newFixture(t, nil)
			filler := strings.Repeat("a", size)
			m := &model{turns: []func(*mcp.CreateMessageRequestParams) string{
				reply("toolUse", text(filler), use("a", "add", `{"numbers":[1]}`)),
			}}
			c := newClient(t, m)
			p := c.params("go")
			res, rpcErr := c.send(f.ctx, f.server, p)
			if rpcErr != nil {
				t.Fatal(rpcErr)
			}
			p = c.retry(p, res.(*mcp.InputRequiredResult))
			res, rpcErr = c.send(f.ctx, f.server, p)
			if rpcErr != nil {
				t.Fatal(rpcErr)
			}
			// Ask again with the new state, without the answer, as often as the client likes.
			p.RequestState = res.(*mcp.InputRequiredResult).RequestState
			p.InputResponses = nil
			in, out := exchangeBytes(t, f, p)
			if !bytes.Contains(out, []byte(filler)) {
				t.Fatalf("the answer does not ask again: %.300s", out)
			}
			ratio := float64(len(out)) / float64(len(in))
			t.Logf("%d bytes in, %d bytes out: %.1f×", len(in), len(out), ratio)
			if ratio > 10 {
				t.Errorf("%d bytes in, %d bytes out: %.0f×", len(in), len(out), ratio)
			}
		})
	}
	t.Run("beyond MaxStateBytes", func(t *testing.T) {
		// A conversation whose JSON outgrows MaxStateBytes ends, however well it compresses.
		f := newFixture(t, nil)
		m := &model{turns: []func(*mcp.CreateMessageRequestParams) string{
			reply("toolUse", text(strings.Repeat("a", mrtr.DefaultMaxStateBytes+1)), use("a", "add", `{"numbers":[1]}`)),
			reply("endTurn", text("ok")),
		}}
		_, rpcErr := newClient(t, m).call(f.ctx, f.server, "go")
		if rpcErr == nil || rpcErr.Code != mcp.CodeInternalError || errorReason(rpcErr) != "tooLarge" {
			t.Fatalf("error %+v, want -32603 tooLarge", rpcErr)
		}
	})
}

// TestAskAgainConsultsTheGuard: with a guard, a state already used is not answered again, not
// even by asking again; a state not yet used is asked again, and stays usable.
func TestAskAgainConsultsTheGuard(t *testing.T) {
	guard := &mrtr.MemoryGuard{}
	f, c, p := pendingRetry(t, func(r *mrtr.Runner) { r.Guard = guard })
	again := p
	again.InputResponses = nil
	if _, rpcErr := c.send(f.ctx, f.server, again); rpcErr != nil {
		t.Fatalf("asking again with an unused state: %v", rpcErr)
	}
	if _, rpcErr := c.send(f.ctx, f.server, p); rpcErr != nil {
		t.Fatalf("the answer after asking again: %v", rpcErr)
	}
	refused(t, f, c, again, "replayed")
	if n := len(f.effects.runs()); n != 1 {
		t.Errorf("charge ran %d times", n)
	}
}

// TestReplayAtExpiry: a state used just before its expiry cannot be used again just after it,
// once the guard has swept: the expiry is checked right before the guard, and the guard keeps the
// ids beyond it.
func TestReplayAtExpiry(t *testing.T) {
	clk := &clock{now: time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)}
	guard := &mrtr.MemoryGuard{Now: clk.Now}
	var slow func() // runs once, the next time the Runner reads the clock
	f, c, p := pendingRetry(t, func(r *mrtr.Runner) {
		r.TTL = time.Minute
		r.Guard = guard
		r.Now = func() time.Time {
			now := clk.Now()
			if s := slow; s != nil {
				slow = nil
				s()
			}
			return now
		}
	})
	expiry := clk.Now().Add(time.Minute)
	// Used at the last moment.
	clk.now = expiry.Add(-time.Millisecond)
	if _, rpcErr := c.send(f.ctx, f.server, p); rpcErr != nil {
		t.Fatal(rpcErr)
	}
	// Replayed at the same moment, but the step is slow: while it reads the state, the state
	// expires and other requests make the guard sweep.
	slow = func() {
		clk.advance(2 * time.Millisecond)
		for i := range 200 {
			guard.Use(f.ctx, fmt.Sprint("other-", i), clk.Now().Add(time.Minute))
		}
	}
	_, rpcErr := c.send(f.ctx, f.server, p)
	if rpcErr == nil {
		t.Error("the replay was accepted")
	}
	if n := len(f.effects.runs()); n != 1 {
		t.Errorf("charge ran %d times, want 1", n)
	}

	// The guard's clock is ahead of the Runner's by a few milliseconds (another instance's, say):
	// the guard sweeps the state's id while the Runner still holds the state valid.
	runnerClock := &clock{now: time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)}
	guardClock := &clock{now: runnerClock.now}
	guard = &mrtr.MemoryGuard{Now: guardClock.Now}
	f, c, p = pendingRetry(t, func(r *mrtr.Runner) { r.TTL = time.Minute; r.Guard = guard; r.Now = runnerClock.Now })
	expiry = runnerClock.Now().Add(time.Minute)
	runnerClock.now = expiry.Add(-2 * time.Millisecond)
	guardClock.now = expiry.Add(2 * time.Millisecond)
	if _, rpcErr := c.send(f.ctx, f.server, p); rpcErr != nil {
		t.Fatal(rpcErr)
	}
	for i := range 200 {
		guard.Use(f.ctx, fmt.Sprint("other-", i), guardClock.Now().Add(time.Minute))
	}
	refused(t, f, c, p, "replayed")
	if n := len(f.effects.runs()); n != 1 {
		t.Errorf("skewed clocks: charge ran %d times, want 1", n)
	}

	// The guard keeps an id beyond its expiry.
	g := &mrtr.MemoryGuard{Now: clk.Now}
	exp := clk.Now().Add(time.Minute)
	g.Use(f.ctx, "id", exp)
	clk.now = exp.Add(time.Second)
	for i := range 200 {
		g.Use(f.ctx, fmt.Sprint("other-", i), clk.Now().Add(time.Minute))
	}
	if first, _ := g.Use(f.ctx, "id", exp); first {
		t.Error("the guard forgot an id a second after its expiry")
	}
}

// stateEnvelope decodes what a state carries.
func stateEnvelope(t *testing.T, state string) []byte {
	t.Helper()
	parts := strings.Split(state, ".")
	if len(parts) != 3 {
		t.Fatalf("state %q", state)
	}
	compressed, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(flate.NewReader(bytes.NewReader(compressed)))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestStateHidesTheBinding: a state does not let whoever sees it test guesses of the principal or
// of the request: it holds no plain hash of either.
func TestStateHidesTheBinding(t *testing.T) {
	plain := func(parts ...string) string {
		h := sha256.New()
		for _, p := range parts {
			fmt.Fprintf(h, "%d:", len(p))
			h.Write([]byte(p))
		}
		return base64.RawURLEncoding.EncodeToString(h.Sum(nil))
	}
	s := &mrtr.States{Key: testKey}
	b := mrtr.Binding{Principal: "alice@example.com", Method: "tools/call", Request: "agent\x00{}"}
	state, err := s.Issue(b, []byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	env := string(stateEnvelope(t, state))
	for _, guess := range []string{plain("principal", b.Principal), plain("request", b.Method, b.Request), plain(b.Principal)} {
		if strings.Contains(env, guess) {
			t.Errorf("the state %s holds the plain hash %s", env, guess)
		}
	}
	// A state of another key binds the same principal differently.
	other, _ := (&mrtr.States{Key: []byte(strings.Repeat("o", 32))}).Issue(b, []byte(`{}`))
	var e1, e2 map[string]any
	json.Unmarshal([]byte(env), &e1)
	json.Unmarshal(stateEnvelope(t, other), &e2)
	if e1["sub"] == nil || e1["sub"] == e2["sub"] {
		t.Errorf("the principal's binding %v does not depend on the key (%v)", e1["sub"], e2["sub"])
	}
}

// TestNestedArgumentsReordered: arguments whose nested members are reordered or respaced are the
// same request.
func TestNestedArgumentsReordered(t *testing.T) {
	f := newFixture(t, nil)
	m := &model{turns: []func(*mcp.CreateMessageRequestParams) string{reply("toolUse", use("a", "add", `{"numbers":[1]}`)), reply("endTurn", text("ok"))}}
	c := newClient(t, m)
	p := c.params("go")
	p.Arguments["options"] = json.RawMessage(`{"a":1,"b":{"c":[{"x":1,"y":2}],"d":2}}`)
	res, rpcErr := c.send(f.ctx, f.server, p)
	if rpcErr != nil {
		t.Fatal(rpcErr)
	}
	p = c.retry(p, res.(*mcp.InputRequiredResult))
	q := p
	q.Arguments = map[string]json.RawMessage{"prompt": p.Arguments["prompt"], "options": json.RawMessage(`{"b":{"d":2, "c":[{"y":2,"x":1}]},"a":1}`)}
	if _, rpcErr := c.send(f.ctx, f.server, q); rpcErr != nil {
		t.Fatalf("nested members reordered: %v", rpcErr)
	}
	// A nested value changed is another request.
	q.Arguments = map[string]json.RawMessage{"prompt": p.Arguments["prompt"], "options": json.RawMessage(`{"a":1,"b":{"c":[{"x":1,"y":3}],"d":2}}`)}
	refused(t, f, c, q, "otherRequest")
}
