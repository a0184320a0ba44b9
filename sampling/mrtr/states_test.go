package mrtr_test

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	mcp "github.com/mcpgen/mcpgen/gen/mcp20260728"
	"github.com/mcpgen/mcpgen/sampling/mrtr"
)

// stateReason returns the reason of a *StateError, and checks its JSON-RPC code.
func stateReason(t *testing.T, err error, code int64) string {
	t.Helper()
	var serr *mrtr.StateError
	if !errors.As(err, &serr) {
		t.Fatalf("error %v, want a *StateError", err)
	}
	var rpc *mcp.Error
	if !errors.As(err, &rpc) || rpc.Code != code {
		t.Fatalf("error %v: JSON-RPC %+v, want code %d", err, rpc, code)
	}
	var data struct{ Reason string }
	json.Unmarshal(rpc.Data, &data)
	return data.Reason
}

// TestStates: a state carries its body to the request it is bound to, and to no other.
func TestStates(t *testing.T) {
	clk := &clock{now: time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)}
	s := &mrtr.States{Key: testKey, TTL: time.Minute, Now: clk.Now}
	b := mrtr.Binding{Principal: "alice", Method: "sampling/createMessage", Request: `{"a":1}`}
	body := `{"pending": "x", "n": [1, 2]}`
	state, err := s.Issue(b, []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	o, err := s.Open(state, b)
	if err != nil {
		t.Fatal(err)
	}
	if string(o.Body) != `{"pending":"x","n":[1,2]}` || len(o.ID) != 32 || !o.Expires.Equal(clk.now.Add(time.Minute)) {
		t.Errorf("opened %s, id %q, expires %v", o.Body, o.ID, o.Expires)
	}
	again, _ := s.Issue(b, []byte(body))
	if o2, _ := s.Open(again, b); o2 == nil || o2.ID == o.ID {
		t.Error("two states with one id")
	}
	for name, tc := range map[string]struct {
		state  string
		b      mrtr.Binding
		reason string
	}{
		"another principal": {state, mrtr.Binding{Principal: "bob", Method: b.Method, Request: b.Request}, "otherPrincipal"},
		"another method":    {state, mrtr.Binding{Principal: "alice", Method: "tools/call", Request: b.Request}, "otherRequest"},
		"another request":   {state, mrtr.Binding{Principal: "alice", Method: b.Method, Request: `{"a":2}`}, "otherRequest"},
		// The parts are length-prefixed: moving text from one to the next is another binding.
		"parts shifted": {state, mrtr.Binding{Principal: "alice", Method: "sampling/createMessage{", Request: `"a":1}`}, "otherRequest"},
		"another key": {func() string {
			s, _ := (&mrtr.States{Key: []byte(strings.Repeat("x", 32))}).Issue(b, []byte(body))
			return s
		}(), b, "tampered"},
		"a version 1":    {"v1" + state[2:], b, "malformed"},
		"larger":         {strings.Repeat("A", mrtr.DefaultMaxStateBytes+1), b, "tooLarge"},
		"the empty text": {"", b, "malformed"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := s.Open(tc.state, tc.b)
			if got := stateReason(t, err, mcp.CodeInvalidParams); got != tc.reason {
				t.Errorf("reason %q, want %q (%v)", got, tc.reason, err)
			}
		})
	}

	// Use checks the expiry again, and without a guard accepts a state more than once.
	if err := s.Use(t.Context(), o); err != nil {
		t.Fatal(err)
	}
	if err := s.Use(t.Context(), o); err != nil {
		t.Fatal(err)
	}
	clk.advance(time.Minute + time.Millisecond)
	if got := stateReason(t, s.Use(t.Context(), o), mcp.CodeInvalidParams); got != "expired" {
		t.Errorf("Use after the expiry: %q", got)
	}
	if _, err := s.Open(state, b); stateReason(t, err, mcp.CodeInvalidParams) != "expired" {
		t.Errorf("Open after the expiry: %v", err)
	}

	// With a guard, Use accepts each state once.
	g := &mrtr.States{Key: testKey, Guard: &mrtr.MemoryGuard{Now: clk.Now}, Now: clk.Now}
	state, _ = g.Issue(b, []byte(body))
	o, err = g.Open(state, b)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Use(t.Context(), o); err != nil {
		t.Fatal(err)
	}
	if got := stateReason(t, g.Use(t.Context(), o), mcp.CodeInvalidParams); got != "replayed" {
		t.Errorf("second Use: %q", got)
	}
}

func TestStatesIssueErrors(t *testing.T) {
	b := mrtr.Binding{}
	if _, err := (&mrtr.States{Key: []byte("short")}).Issue(b, []byte(`{}`)); err == nil {
		t.Error("a short key issued a state")
	}
	if _, err := (&mrtr.States{Key: []byte("short")}).Open("v2.a.b", b); err == nil {
		t.Error("a short key opened a state")
	}
	if _, err := (&mrtr.States{Key: testKey}).Issue(b, []byte(`{"a":`)); err == nil {
		t.Error("a state of invalid JSON")
	}
	s := &mrtr.States{Key: testKey, MaxStateBytes: 300}
	if _, err := s.Issue(b, []byte(`{"ok":1}`)); err != nil {
		t.Fatal(err)
	}
	// 200 random bytes, in hex, do not compress into 300 bytes of state.
	random := make([]byte, 200)
	rand.Read(random)
	big, _ := json.Marshal(hex.EncodeToString(random))
	if _, err := s.Issue(b, big); stateReason(t, err, mcp.CodeInternalError) != "tooLarge" {
		t.Errorf("a state over MaxStateBytes: %v", err)
	}
}

func TestCanonical(t *testing.T) {
	for in, want := range map[string]string{
		` { "b" : [ {"y":1, "x" : {"d":null,"c":true}} ], "a":"\u00e9\"" } `: `{"a":"é\"","b":[{"x":{"c":true,"d":null},"y":1}]}`,
		`[]`:                  `[]`,
		`{}`:                  `{}`,
		`1.50`:                `1.50`,
		`"\u0041"`:            `"A"`,
		`{"é":1,"z":2,"a":3}`: `{"a":3,"z":2,"é":1}`,
	} {
		got, err := mrtr.Canonical([]byte(in))
		if err != nil || got != want {
			t.Errorf("Canonical(%s) = %s, %v; want %s", in, got, err, want)
		}
	}
	for _, in := range []string{``, `{`, `{"a":1,"a":2}`, `[1 2]`, `{"a":1}x`, `{"a":1}{}`, `{1:2}`, strings.Repeat("[", 1002) + strings.Repeat("]", 1002)} {
		if got, err := mrtr.Canonical([]byte(in)); err == nil {
			t.Errorf("Canonical(%.40s) = %s, want an error", in, got)
		}
	}
}

// FuzzCanonical: Canonical's text is a fixed point (canonical again, it is the same), means the
// same JSON value as its input, and never panics.
func FuzzCanonical(f *testing.F) {
	for _, s := range []string{`{"b":[1,{"y":2,"x":"\u00e9"}],"a":null}`, `[]`, `"x"`, `1e5`, `{"a":{"a":{}}}`, `{"a":1,"a":2}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out, err := mrtr.Canonical([]byte(in))
		if err != nil {
			return
		}
		again, err := mrtr.Canonical([]byte(out))
		if err != nil || again != out {
			t.Fatalf("Canonical(%q) = %q, whose canonical form is %q (%v)", in, out, again, err)
		}
		// Numbers compared as written (UseNumber): Canonical keeps them so, 1e700 included.
		decode := func(s string) (any, error) {
			d := json.NewDecoder(strings.NewReader(s))
			d.UseNumber()
			var v any
			return v, d.Decode(&v)
		}
		a, err := decode(in)
		if err != nil {
			t.Fatalf("Canonical accepted %q, which encoding/json refuses: %v", in, err)
		}
		if b, err := decode(out); err != nil || !reflect.DeepEqual(a, b) {
			t.Fatalf("Canonical(%q) = %q: another value (%v)", in, out, err)
		}
	})
}

// BenchmarkStatesIssue: issuing a state of a conversation of a few rounds, as the Runner does at
// every step.
func BenchmarkStatesIssue(b *testing.B) {
	s := &mrtr.States{Key: testKey}
	bind := mrtr.Binding{Principal: "alice", Method: "tools/call", Request: `agent {"prompt":"the weather in Paris, and a sum"}`}
	body := []byte(`{"key":"sampling-3","conv":"0123456789abcdef","n":2,"params":{"messages":[` +
		`{"role":"user","content":[{"type":"text","text":"the weather in Paris, and a sum"}]},` +
		`{"role":"assistant","content":[{"type":"tool_use","id":"w1","name":"get_weather","input":{"city":"Paris"}}]},` +
		`{"role":"user","content":[{"type":"tool_result","toolUseId":"w1","content":[{"type":"text","text":"Weather in Paris: 18°C, partly cloudy"}]}]},` +
		`{"role":"assistant","content":[{"type":"tool_use","id":"a1","name":"add","input":{"numbers":[1,2.5]}}]},` +
		`{"role":"user","content":[{"type":"tool_result","toolUseId":"a1","content":[{"type":"text","text":"3.5"}]}]}],"maxTokens":1024}}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Issue(bind, body); err != nil {
			b.Fatal(err)
		}
	}
}
