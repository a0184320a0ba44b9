package redisguard_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	mcp "github.com/mcpgen/mcpgen/gen/mcp20260728"
	"github.com/mcpgen/mcpgen/sampling/mrtr"
	"github.com/mcpgen/mcpgen/sampling/mrtr/redisguard"
	"github.com/mcpgen/mcpgen/sampling/mrtr/redisguard/redistest"
	"github.com/redis/go-redis/v9"
)

func client(t *testing.T, addr string) redis.UniversalClient {
	c := redis.NewUniversalClient(&redis.UniversalOptions{Addrs: []string{addr}, ContextTimeoutEnabled: true, MaxRetries: -1})
	t.Cleanup(func() { c.Close() })
	return c
}

// TestGuard: Use records an id once, until its expiry plus the grace (SET NX PXAT), under the
// prefix; Used asks without recording.
func TestGuard(t *testing.T) {
	srv := redistest.Start(t)
	c := client(t, srv.Addr())
	g := &redisguard.Guard{Client: c, Prefix: "test:", Grace: 30 * time.Second}
	ctx := t.Context()
	expires := time.Now().Add(time.Minute).Truncate(time.Millisecond)

	if used, err := g.Used(ctx, "a"); err != nil || used {
		t.Fatalf("Used before Use: %v %v", used, err)
	}
	if n, _ := c.Exists(ctx, "test:a").Result(); n != 0 {
		t.Fatal("Used recorded the id")
	}
	if first, err := g.Use(ctx, "a", expires); err != nil || !first {
		t.Fatalf("first Use: %v %v", first, err)
	}
	if first, err := g.Use(ctx, "a", expires); err != nil || first {
		t.Fatalf("second Use: %v %v", first, err)
	}
	if used, err := g.Used(ctx, "a"); err != nil || !used {
		t.Fatalf("Used after Use: %v %v", used, err)
	}
	at, err := c.PExpireTime(ctx, "test:a").Result()
	if err != nil {
		t.Fatal(err)
	}
	if want := expires.Add(30 * time.Second).UnixMilli(); at.Milliseconds() != want {
		t.Errorf("the key expires at %d, want %d (the expiry plus the grace)", at.Milliseconds(), want)
	}
	// Another prefix is another guard.
	if first, err := (&redisguard.Guard{Client: c, Prefix: "other:"}).Use(ctx, "a", expires); err != nil || !first {
		t.Errorf("another prefix: %v %v", first, err)
	}
	if first, err := (&redisguard.Guard{Client: c}).Use(ctx, "a", expires); err != nil || !first {
		t.Errorf("the default prefix: %v %v", first, err)
	}
	if n, _ := c.Exists(ctx, redisguard.DefaultPrefix+"a").Result(); n != 1 {
		t.Error("the default prefix is not used")
	}

	// An id lapses with its key; an expiry a grace in the past is not recorded, and refused.
	short := &redisguard.Guard{Client: c, Prefix: "test:", Grace: 50 * time.Millisecond}
	if first, err := short.Use(ctx, "b", time.Now().Add(50*time.Millisecond)); err != nil || !first {
		t.Fatalf("%v %v", first, err)
	}
	time.Sleep(250 * time.Millisecond)
	if used, err := short.Used(ctx, "b"); err != nil || used {
		t.Errorf("an id kept after its expiry and grace: %v %v", used, err)
	}
	if first, err := short.Use(ctx, "c", time.Now().Add(-time.Second)); err != nil || first {
		t.Errorf("a long expired state accepted: %v %v", first, err)
	}
	if _, err := g.Use(ctx, "", expires); err == nil {
		t.Error("an empty id")
	}
	if _, err := (&redisguard.Guard{}).Used(ctx, "a"); err == nil {
		t.Error("a guard without a client")
	}
}

// TestGuardCluster: the guard on a Redis Cluster client.
func TestGuardCluster(t *testing.T) {
	srv := redistest.StartCluster(t)
	c := redis.NewClusterClient(&redis.ClusterOptions{Addrs: []string{srv.Addr()}, ContextTimeoutEnabled: true})
	t.Cleanup(func() { c.Close() })
	g := &redisguard.Guard{Client: c}
	for _, id := range []string{"a", "b", "c", "d"} { // ids in several slots
		if first, err := g.Use(t.Context(), id, time.Now().Add(time.Minute)); err != nil || !first {
			t.Fatalf("%s: %v %v", id, first, err)
		}
		if first, err := g.Use(t.Context(), id, time.Now().Add(time.Minute)); err != nil || first {
			t.Fatalf("%s again: %v %v", id, first, err)
		}
		if used, err := g.Used(t.Context(), id); err != nil || !used {
			t.Fatalf("%s: Used %v %v", id, used, err)
		}
	}
}

// TestGuardDeadline: a Redis that does not answer (CLIENT PAUSE holds its clients) costs a call
// its timeout, or the context's deadline, and no more, with an error.
func TestGuardDeadline(t *testing.T) {
	srv := redistest.Start(t)
	c := client(t, srv.Addr())
	c.Ping(t.Context()) // a connection in the pool: the pause holds its commands, not the dial
	pauser := redis.NewClient(&redis.Options{Addr: srv.Addr()})
	defer pauser.Close()
	if err := pauser.Do(t.Context(), "CLIENT", "PAUSE", "1500", "ALL").Err(); err != nil {
		t.Fatal(err)
	}

	for name, tc := range map[string]struct {
		g   *redisguard.Guard
		ctx func() (context.Context, context.CancelFunc)
	}{
		"Timeout": {&redisguard.Guard{Client: c, Timeout: 200 * time.Millisecond}, func() (context.Context, context.CancelFunc) { return t.Context(), func() {} }},
		"the context's deadline": {&redisguard.Guard{Client: c, Timeout: time.Minute}, func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(t.Context(), 200*time.Millisecond)
		}},
	} {
		ctx, cancel := tc.ctx()
		start := time.Now()
		_, err := tc.g.Use(ctx, "slow-"+name, time.Now().Add(time.Minute))
		took := time.Since(start)
		cancel()
		var gerr *redisguard.Error
		var nerr net.Error
		timeout := errors.Is(err, context.DeadlineExceeded) || errors.As(err, &nerr) && nerr.Timeout()
		if !errors.As(err, &gerr) || !timeout {
			t.Errorf("%s: error %v", name, err)
		}
		if took > time.Second {
			t.Errorf("%s: the call took %v", name, took)
		}
	}
	// The guard does not outlast the deadline even when the client ignores contexts.
	ignoring := redis.NewClient(&redis.Options{Addr: srv.Addr(), ReadTimeout: time.Minute})
	defer ignoring.Close()
	pauser.Do(t.Context(), "CLIENT", "UNPAUSE")
	ignoring.Ping(t.Context())
	if err := pauser.Do(t.Context(), "CLIENT", "PAUSE", "1500", "ALL").Err(); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := (&redisguard.Guard{Client: ignoring, Timeout: 200 * time.Millisecond}).Used(t.Context(), "x"); err == nil || time.Since(start) > time.Second {
		t.Errorf("a client without ContextTimeoutEnabled: %v after %v", err, time.Since(start))
	}
}

// TestGuardUnavailable: with Redis gone, the states are refused (fail closed) with -32603 and
// reason guardUnavailable; once it is back, the same state is accepted, once. This is a
// conversation's steps on mrtr.States with the guard.
func TestGuardRedisGoesAway(t *testing.T) {
	srv := redistest.Start(t)
	g := &redisguard.Guard{Client: client(t, srv.Addr()), Timeout: 500 * time.Millisecond}
	states := &mrtr.States{Key: []byte(strings.Repeat("k", 32)), Guard: g}
	b := mrtr.Binding{Principal: "alice", Method: "tools/call", Request: "agent"}
	ctx := t.Context()
	step := func(state string) (*mrtr.Opened, error) {
		o, err := states.Open(state, b)
		if err != nil {
			t.Fatal(err)
		}
		return o, states.Use(ctx, o)
	}
	first, _ := states.Issue(b, []byte(`{"round":1}`))
	if _, err := step(first); err != nil {
		t.Fatal(err)
	}
	second, _ := states.Issue(b, []byte(`{"round":2}`))

	srv.Stop()
	o, err := step(second)
	reason, code := rpcReason(t, err)
	if code != mcp.CodeInternalError || reason != "guardUnavailable" || !errors.Is(err, mrtr.ErrGuardUnavailable) {
		t.Fatalf("with Redis gone: %v (code %d, reason %q)", err, code, reason)
	}
	var gerr *redisguard.Error
	if !errors.As(err, &gerr) {
		t.Errorf("the cause is not the guard's: %v", err)
	}
	if reason, _ := rpcReason(t, states.Check(ctx, o)); reason != "guardUnavailable" {
		t.Errorf("Check with Redis gone: %q", reason)
	}

	srv.Restart()
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, err = step(second)
		if err == nil || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond) // the client reconnects
	}
	if err != nil {
		t.Fatalf("the state after Redis came back: %v", err)
	}
	if _, err := step(second); !errors.Is(err, mrtr.ErrReplayedState) {
		t.Errorf("the state presented again: %v", err)
	}
	third, _ := states.Issue(b, []byte(`{"round":3}`))
	if _, err := step(third); err != nil {
		t.Errorf("the next round: %v", err)
	}
}

func rpcReason(t *testing.T, err error) (string, int64) {
	t.Helper()
	var rpc *mcp.Error
	if !errors.As(err, &rpc) {
		t.Fatalf("error %v has no JSON-RPC error", err)
	}
	var data struct{ Reason string }
	json.Unmarshal(rpc.Data, &data)
	return data.Reason, rpc.Code
}

// TestGuardSkewedClocks: two instances whose clocks differ by 4 s share the guard. A state (of a
// TTL of 1 s) used on the one ahead, presented again on the one behind after the first sees it
// expired (the second still accepts it), is refused while the grace (6 s) covers the difference;
// with a grace shorter than the difference (0.5 s), the guard has forgotten it and the replay
// goes through, which is why the grace must exceed the clocks' difference.
func TestGuardSkewedClocks(t *testing.T) {
	srv := redistest.Start(t)
	c := client(t, srv.Addr())
	key := []byte(strings.Repeat("k", 32))
	b := mrtr.Binding{Method: "tools/call", Request: "agent"}
	const skew = 4 * time.Second
	behind := func() time.Time { return time.Now().Add(-skew) }
	results := make(chan string, 2)
	for _, grace := range []time.Duration{6 * time.Second, 500 * time.Millisecond} {
		go func() {
			ahead := &mrtr.States{Key: key, TTL: time.Second, Guard: &redisguard.Guard{Client: c, Grace: grace}}
			late := &mrtr.States{Key: key, TTL: time.Second, Guard: &redisguard.Guard{Client: c, Grace: grace, Now: behind}, Now: behind}
			state, _ := ahead.Issue(b, []byte(`{}`))
			o, err := ahead.Open(state, b)
			if err == nil {
				err = ahead.Use(t.Context(), o)
			}
			if err != nil {
				results <- fmt.Sprintf("grace %v: %v", grace, err)
				return
			}
			time.Sleep(2500 * time.Millisecond)
			if _, err := ahead.Open(state, b); !errors.Is(err, mrtr.ErrExpiredState) {
				results <- fmt.Sprintf("grace %v: the instance ahead still accepts the state: %v", grace, err)
				return
			}
			o, err = late.Open(state, b)
			if err != nil {
				results <- fmt.Sprintf("grace %v: the instance behind refuses the state: %v", grace, err)
				return
			}
			err = late.Use(t.Context(), o)
			switch {
			case grace > skew && !errors.Is(err, mrtr.ErrReplayedState):
				results <- fmt.Sprintf("grace %v: the replay on the instance behind: %v, want replayed", grace, err)
			case grace < skew && err != nil:
				results <- fmt.Sprintf("grace %v: the replay on the instance behind: %v, want it accepted (the guard forgot the id)", grace, err)
			default:
				results <- ""
			}
		}()
	}
	for range 2 {
		if r := <-results; r != "" {
			t.Error(r)
		}
	}
}
