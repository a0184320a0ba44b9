package mrtr_test

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	mcp "github.com/mcpgen/mcpgen/gen/mcp20260728"
	"github.com/mcpgen/mcpgen/sampling/mrtr"
)

func ringKey(c byte) []byte { return []byte(strings.Repeat(string(c), 32)) }

// TestKeyRotation walks the operations procedure: add a key, promote it, retire the old one. No
// step refuses a state in flight that is still within its TTL, and a state of the retired key is
// refused as such.
func TestKeyRotation(t *testing.T) {
	clk := &clock{now: time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)}
	b := mrtr.Binding{Principal: "alice", Method: "tools/call", Request: "agent"}
	old, next := ringKey('o'), ringKey('n')
	states := func(ring *mrtr.KeyRing) *mrtr.States {
		return &mrtr.States{Keys: ring, TTL: time.Minute, Now: clk.Now}
	}
	issue := func(s *mrtr.States) string {
		t.Helper()
		state, err := s.Issue(b, []byte(`{}`))
		if err != nil {
			t.Fatal(err)
		}
		return state
	}
	opens := func(s *mrtr.States, state string) error {
		_, err := s.Open(state, b)
		return err
	}

	before := issue(states(&mrtr.KeyRing{Keys: [][]byte{old}}))
	// add: the old key still issues, and the new one opens nothing yet but is known.
	added := states(&mrtr.KeyRing{Keys: [][]byte{old, next}})
	duringAdd := issue(added)
	if err := opens(&mrtr.States{Key: old, Now: clk.Now}, duringAdd); err != nil {
		t.Errorf("an instance not yet given the new key refuses a state issued after the add: %v", err)
	}
	// promote: the new key issues; the old key's states are still opened.
	promoted := states(&mrtr.KeyRing{Keys: [][]byte{next, old}})
	afterPromote := issue(promoted)
	for name, state := range map[string]string{"before": before, "during the add": duringAdd, "after the promotion": afterPromote} {
		if err := opens(promoted, state); err != nil {
			t.Errorf("the promoted ring refuses a state issued %s: %v", name, err)
		}
		if err := opens(added, state); err != nil {
			t.Errorf("an instance still at the add refuses a state issued %s: %v", name, err)
		}
	}
	// An instance that never got the new key refuses the new key's states: that is why the add
	// reaches every instance before the promotion.
	if err := opens(&mrtr.States{Key: old, Now: clk.Now}, afterPromote); stateReason(t, err, mcp.CodeInvalidParams) != "tampered" {
		t.Errorf("a state of an unknown key: %v", err)
	}

	// retire, after the TTL: the old key's states have expired anyway; dropped, they read as
	// another server's; listed as retired, they are refused as such.
	clk.advance(30 * time.Second)
	afterPromote = issue(promoted)
	retired := states(&mrtr.KeyRing{Keys: [][]byte{next}, Retired: [][]byte{old}})
	if err := opens(retired, before); stateReason(t, err, mcp.CodeInvalidParams) != "retiredKey" {
		t.Errorf("a state of the retired key: %v", err)
	} else if !errors.Is(err, mrtr.ErrRetiredKey) || !strings.Contains(err.Error(), "retired") {
		t.Errorf("a state of the retired key: %v", err)
	}
	if err := opens(states(&mrtr.KeyRing{Keys: [][]byte{next}}), before); stateReason(t, err, mcp.CodeInvalidParams) != "tampered" {
		t.Errorf("a state of a dropped key: %v", err)
	}
	if err := opens(retired, afterPromote); err != nil {
		t.Errorf("the retired ring refuses the new key's state: %v", err)
	}
	// The new key's state is bound as the old key's were.
	if _, err := retired.Open(afterPromote, mrtr.Binding{Principal: "bob", Method: b.Method, Request: b.Request}); stateReason(t, err, mcp.CodeInvalidParams) != "otherPrincipal" {
		t.Errorf("another principal: %v", err)
	}
}

// TestKeyRingRunners: a Runner (and mrtrdraft's, which shares its step) takes a ring; a
// conversation begun under the old key goes on after the promotion.
func TestKeyRingRunner(t *testing.T) {
	ring := &mrtr.KeyRing{Keys: [][]byte{ringKey('o')}}
	f, c, p := pendingRetry(t, func(r *mrtr.Runner) { r.Key, r.Keys = nil, ring })
	ring.Keys = [][]byte{ringKey('n'), ringKey('o')} // promoted (rings are not changed in place in a server: this is a test)
	res, rpcErr := c.send(f.ctx, f.server, p)
	if rpcErr != nil {
		t.Fatalf("the promoted ring refuses the conversation's state: %v", rpcErr)
	}
	if _, ok := res.(*mcp.InputRequiredResult); !ok {
		t.Fatalf("answered with a %T", res)
	}
	ring.Keys, ring.Retired = [][]byte{ringKey('n')}, [][]byte{ringKey('o')}
	refused(t, f, c, p, "retiredKey")
}

func TestKeyRingConfiguration(t *testing.T) {
	b := mrtr.Binding{}
	for name, s := range map[string]*mrtr.States{
		"both":      {Key: testKey, Keys: &mrtr.KeyRing{Keys: [][]byte{testKey}}},
		"empty":     {Keys: &mrtr.KeyRing{}},
		"short":     {Keys: &mrtr.KeyRing{Keys: [][]byte{testKey, []byte("short")}}},
		"twice":     {Keys: &mrtr.KeyRing{Keys: [][]byte{testKey}, Retired: [][]byte{testKey}}},
		"only old":  {Keys: &mrtr.KeyRing{Retired: [][]byte{testKey}}},
		"short old": {Keys: &mrtr.KeyRing{Keys: [][]byte{testKey}, Retired: [][]byte{[]byte("x")}}},
	} {
		if _, err := s.Issue(b, []byte(`{}`)); err == nil {
			t.Errorf("%s: a state issued", name)
		} else if got := stateCode(t, err); got != mcp.CodeInternalError {
			t.Errorf("%s: code %d", name, got)
		}
	}
	if _, err := (&mrtr.Runner{Loop: nil, Keys: &mrtr.KeyRing{Keys: [][]byte{testKey}}}).Step(t.Context(), mrtr.Request{}, nil); err == nil {
		t.Error("a Runner without a loop ran")
	}
}

func stateCode(t *testing.T, err error) int64 {
	t.Helper()
	var rpc *mcp.Error
	if !errors.As(err, &rpc) {
		t.Fatalf("error %v has no JSON-RPC error", err)
	}
	return rpc.Code
}

func TestParseKeyRing(t *testing.T) {
	a, b, c := hex.EncodeToString(ringKey('a')), hex.EncodeToString(ringKey('b')), hex.EncodeToString(ringKey('c'))
	ring, err := mrtr.ParseKeyRing("# the key ring\n" + a + "\n\n  " + b + "  # promoted last week\nretired " + c + "\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(ring.Keys) != 2 || string(ring.Keys[0]) != string(ringKey('a')) || string(ring.Keys[1]) != string(ringKey('b')) ||
		len(ring.Retired) != 1 || string(ring.Retired[0]) != string(ringKey('c')) {
		t.Errorf("ring %q", ring)
	}
	if ring, err := mrtr.ParseKeyRing(b + "," + a + ", retired " + c); err != nil || string(ring.Keys[0]) != string(ringKey('b')) || len(ring.Retired) != 1 {
		t.Errorf("commas: %q %v", ring, err)
	}
	for name, text := range map[string]string{
		"empty":        "# nothing\n",
		"not hex":      a + "\nzz" + a[2:],
		"short":        a + "\n" + a[:62],
		"twice":        a + "\n" + a,
		"only retired": "retired " + a,
		"retired bare": "retired",
		"odd length":   a + "0",
	} {
		_, err := mrtr.ParseKeyRing(text)
		if err == nil {
			t.Errorf("%s: no error", name)
			continue
		}
		if strings.Contains(err.Error(), a[:16]) {
			t.Errorf("%s: the error shows the key: %v", name, err)
		}
		t.Logf("%s: %v", name, err)
	}
}

func TestLoadKeyRing(t *testing.T) {
	a, b := hex.EncodeToString(ringKey('a')), hex.EncodeToString(ringKey('b'))
	path := filepath.Join(t.TempDir(), "keys")
	if err := os.WriteFile(path, []byte(a+"\n"+b+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if ring, err := mrtr.LoadKeyRing(path); err != nil || len(ring.Keys) != 2 {
		t.Errorf("%q %v", ring, err)
	}
	if _, err := mrtr.LoadKeyRing(path + ".missing"); err == nil {
		t.Error("a missing file")
	}
	if runtime.GOOS != "windows" {
		// Whoever reads a key can seal states: a file open to its group or others is refused.
		for _, mode := range []os.FileMode{0o644, 0o640, 0o604, 0o620} {
			os.Chmod(path, mode)
			_, err := mrtr.LoadKeyRing(path)
			want := fmt.Sprintf("(mode %#o): chmod 600 %s", mode, path)
			if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), a[:16]) {
				t.Errorf("mode %#o: err = %v, want %q", mode, err, want)
			}
		}
		os.Chmod(path, 0o400)
		if _, err := mrtr.LoadKeyRing(path); err != nil {
			t.Errorf("mode 0400: %v", err)
		}
	}
	if runtime.GOOS == "linux" && os.Geteuid() == 0 {
		// Root reads a file of another user's (mode 0600): that user knows its keys.
		os.Chmod(path, 0o600)
		if err := os.Chown(path, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		_, err := mrtr.LoadKeyRing(path)
		if err == nil || !strings.Contains(err.Error(), "belongs to uid 65534, not to this user (uid 0)") {
			t.Errorf("a key ring of uid 65534: err = %v", err)
		}
	}
	t.Setenv("MRTR_TEST_KEYS", b+","+a)
	if ring, err := mrtr.KeyRingFromEnv("MRTR_TEST_KEYS"); err != nil || string(ring.Keys[0]) != string(ringKey('b')) {
		t.Errorf("%q %v", ring, err)
	}
	if _, err := mrtr.KeyRingFromEnv("MRTR_TEST_KEYS_UNSET"); err == nil {
		t.Error("an unset variable")
	}
	t.Setenv("MRTR_TEST_KEYS", "")
	if _, err := mrtr.KeyRingFromEnv("MRTR_TEST_KEYS"); err == nil {
		t.Error("an empty variable")
	}
}

// failingGuard cannot answer.
type failingGuard struct{ err error }

func (g failingGuard) Use(context.Context, string, time.Time) (bool, error) { return false, g.err }
func (g failingGuard) Used(context.Context, string) (bool, error)           { return false, g.err }

// TestGuardUnavailable: a guard that cannot answer refuses the state (it fails closed), with
// -32603 and reason guardUnavailable, which the client retries; its error stays in the server.
func TestGuardUnavailable(t *testing.T) {
	cause := errors.New("dial tcp 10.0.0.7:6379: connection refused")
	s := &mrtr.States{Key: testKey, Guard: failingGuard{cause}}
	b := mrtr.Binding{Method: "tools/call"}
	state, err := s.Issue(b, []byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	o, err := s.Open(state, b)
	if err != nil {
		t.Fatal(err)
	}
	for name, err := range map[string]error{"Use": s.Use(t.Context(), o), "Check": s.Check(t.Context(), o)} {
		if got := stateReason(t, err, mcp.CodeInternalError); got != "guardUnavailable" {
			t.Errorf("%s: reason %q", name, got)
		}
		if !errors.Is(err, mrtr.ErrGuardUnavailable) || !errors.Is(err, cause) {
			t.Errorf("%s: %v does not wrap the reason and the cause", name, err)
		}
		var rpc *mcp.Error
		errors.As(err, &rpc)
		if strings.Contains(rpc.Message, "10.0.0.7") || !strings.Contains(rpc.Message, "retry") {
			t.Errorf("%s: the client reads %q", name, rpc.Message)
		}
	}
}
