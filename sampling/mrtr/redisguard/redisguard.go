// Package redisguard is an [mrtr.ReplayGuard] on Redis, for a server of many instances: the
// instances share one Redis (or a Redis Cluster), and a requestState presented to any of them is
// accepted once. It is a module of its own, so that package mrtr needs no Redis client.
//
//	client := redis.NewUniversalClient(&redis.UniversalOptions{Addrs: []string{"redis:6379"}, ContextTimeoutEnabled: true})
//	runner := &mrtr.Runner{Loop: loop, Keys: ring, Guard: &redisguard.Guard{Client: client}}
//
// Use records a state's id with SET key 1 NX PXAT <the state's expiry plus Grace, in Unix
// milliseconds>: one round trip, atomic, and the key lapses by itself once the state cannot be
// presented any more (the grace covers the difference between the instances' clocks; Redis
// expires the key on its own clock). Used asks with EXISTS, recording nothing. Each key is
// Prefix + the state's id; every key of the guard holds one small value, and a state is never
// more than one key, so a cluster client (redis.UniversalClient) works as well as one server.
//
// The guard fails closed: when Redis does not answer (down, unreachable, a deadline: each call
// has at most Timeout, or the context's deadline if sooner), Use and Used return the error, and
// mrtr refuses the state with JSON-RPC -32603 and data {"reason": "guardUnavailable"}, a refusal
// that the client retries as it is (the state was not used; were the SET applied and its reply
// lost, the retry is refused as replayed and the client starts the call over). Nothing runs on a
// state the guard did not record.
//
// What Redis must keep: the ids recorded until they lapse. A Redis that restarts empty (no
// persistence) forgets them, and a state used before the restart may be replayed until it
// expires; run it with appendonly yes (or a replica to fail over to) where replays must be
// refused across its restarts.
package redisguard

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mcpgen/mcpgen/sampling/mrtr"
	"github.com/redis/go-redis/v9"
)

// Defaults of a [Guard].
const (
	DefaultPrefix  = "mcpgen:mrtr:used:"
	DefaultTimeout = time.Second
)

// A Guard is an [mrtr.ReplayGuard] on Redis. Its fields are configuration; it is safe for
// concurrent use.
type Guard struct {
	// Client is the Redis client: a *redis.Client, a *redis.ClusterClient, a failover client, ...
	// Build it with ContextTimeoutEnabled, so that the deadlines reach the connection (the guard
	// returns at the deadline either way).
	Client redis.UniversalClient
	// Prefix begins every key of the guard; "" means DefaultPrefix. Give each server (each key
	// ring) its own when they share a Redis.
	Prefix string
	// Grace is how long an id is kept beyond its state's expiry, longer than the instances'
	// clocks may differ; 0 means mrtr.DefaultGuardGrace (a minute).
	Grace time.Duration
	// Timeout bounds each call to Redis, within the context's deadline; 0 means
	// DefaultTimeout.
	Timeout time.Duration
	// Now returns the time; nil means time.Now. The guard reads it only to refuse an expiry
	// already past (a state that cannot be used).
	Now func() time.Time
}

var _ mrtr.ReplayGuard = (*Guard)(nil)

// An Error is a call to Redis that failed: the guard could not answer. Op is "use" or "used".
type Error struct {
	Op  string
	Err error
}

func (e *Error) Error() string { return fmt.Sprintf("redisguard: %s: %v", e.Op, e.Err) }

func (e *Error) Unwrap() error { return e.Err }

// Use implements [mrtr.ReplayGuard]: it records id until expires plus Grace, and reports whether
// it was the first time.
func (g *Guard) Use(ctx context.Context, id string, expires time.Time) (bool, error) {
	if err := g.check(id); err != nil {
		return false, &Error{Op: "use", Err: err}
	}
	until := expires.Add(g.grace())
	if !until.After(g.now()) {
		// The state expired a grace ago: no instance accepts it, and Redis would drop the key
		// at once. It is not recorded, and not accepted.
		return false, nil
	}
	var first bool
	err := g.do(ctx, func(ctx context.Context) error {
		err := g.Client.Do(ctx, "SET", g.key(id), "1", "NX", "PXAT", until.UnixMilli()).Err()
		switch {
		case err == nil:
			first = true
		case errors.Is(err, redis.Nil):
			first, err = false, nil
		}
		return err
	})
	if err != nil {
		return false, &Error{Op: "use", Err: err}
	}
	return first, nil
}

// Used implements [mrtr.ReplayGuard]: it reports whether id was recorded, recording nothing.
func (g *Guard) Used(ctx context.Context, id string) (bool, error) {
	if err := g.check(id); err != nil {
		return false, &Error{Op: "used", Err: err}
	}
	var used bool
	err := g.do(ctx, func(ctx context.Context) error {
		n, err := g.Client.Exists(ctx, g.key(id)).Result()
		used = n > 0
		return err
	})
	if err != nil {
		return false, &Error{Op: "used", Err: err}
	}
	return used, nil
}

func (g *Guard) check(id string) error {
	switch {
	case g == nil || g.Client == nil:
		return errors.New("the guard has no Redis client")
	case id == "":
		return errors.New("an empty state id")
	}
	return nil
}

// do runs a call to Redis within Timeout and ctx's deadline, and returns when either ends, even
// if the client does not watch the context (ContextTimeoutEnabled unset).
func (g *Guard) do(ctx context.Context, call func(context.Context) error) error {
	timeout := g.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if watchesContext(g.Client) {
		// The client returns at the deadline by itself: the call runs here, rather than on a
		// goroutine of its own to wait for, which would cost a hand-off each way at every call.
		if err := call(ctx); err != nil {
			if ctx.Err() != nil {
				return context.Cause(ctx)
			}
			return err
		}
		return nil
	}
	done := make(chan error, 1)
	go func() { done <- call(ctx) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// watchesContext reports whether a client returns at its context's deadline by itself: one of
// go-redis's clients with ContextTimeoutEnabled.
func watchesContext(c redis.UniversalClient) bool {
	switch c := c.(type) {
	case *redis.Client:
		return c.Options().ContextTimeoutEnabled
	case *redis.ClusterClient:
		return c.Options().ContextTimeoutEnabled
	case *redis.Ring:
		return c.Options().ContextTimeoutEnabled
	}
	return false
}

func (g *Guard) key(id string) string {
	if g.Prefix == "" {
		return DefaultPrefix + id
	}
	return g.Prefix + id
}

func (g *Guard) grace() time.Duration {
	if g.Grace > 0 {
		return g.Grace
	}
	return mrtr.DefaultGuardGrace
}

func (g *Guard) now() time.Time {
	if g.Now != nil {
		return g.Now()
	}
	return time.Now()
}
