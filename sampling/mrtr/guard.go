package mrtr

import (
	"context"
	"sync"
	"time"
)

// DefaultGuardGrace is how long a MemoryGuard keeps an id beyond its state's expiry, by default.
const DefaultGuardGrace = time.Minute

// A ReplayGuard makes requestStates single-use: the server-side record that the spec requires of
// a server whose state must be consumed at most once (replay protection in the state itself only
// bounds the window). A server of several instances needs a guard they share (a database, Redis
// SET NX with an expiry, ...: module github.com/mcpgen/mcpgen/sampling/mrtr/redisguard is one);
// [MemoryGuard] serves one process.
//
// A guard that cannot answer returns an error: the state is refused (ErrGuardUnavailable,
// JSON-RPC -32603 with reason "guardUnavailable", which the client retries), never accepted.
//
// Use records that the state id was used, and reports whether it was the first time. Used reports,
// without recording, whether it was: the Runner asks it before answering a retry without the
// answer (it asks again), so that a state already used is not answered again.
//
// A guard may forget an id once its state has expired, but it must keep it longer than the
// largest difference between the clocks of the instances (the expiry is checked on the clock of
// the instance that presents the state, right before Use): keep it until expires plus a grace
// period of a minute or more (MemoryGuard's Grace), and keep the instances' clocks synchronised
// (NTP) well within that.
type ReplayGuard interface {
	Use(ctx context.Context, id string, expires time.Time) (first bool, err error)
	Used(ctx context.Context, id string) (bool, error)
}

// A MemoryGuard is a [ReplayGuard] in memory, for a server of one process. It holds the ids of
// the states used until Grace after they expire.
type MemoryGuard struct {
	// Now returns the time; nil means time.Now.
	Now func() time.Time
	// Grace is how long an id is kept beyond its state's expiry; 0 means DefaultGuardGrace.
	Grace time.Duration

	mu      sync.Mutex
	used    map[string]time.Time
	sweepAt int // sweep the expired ids when len(used) reaches it
}

// Use implements [ReplayGuard].
func (g *MemoryGuard) Use(_ context.Context, id string, expires time.Time) (bool, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.used == nil {
		g.used = map[string]time.Time{}
	}
	if _, ok := g.used[id]; ok {
		return false, nil
	}
	if len(g.used) >= g.sweepAt {
		now := time.Now()
		if g.Now != nil {
			now = g.Now()
		}
		grace := g.Grace
		if grace <= 0 {
			grace = DefaultGuardGrace
		}
		for k, exp := range g.used {
			if Expired(now, exp.Add(grace)) {
				delete(g.used, k)
			}
		}
		g.sweepAt = max(64, 2*len(g.used))
	}
	g.used[id] = expires
	return true, nil
}

// Used implements [ReplayGuard].
func (g *MemoryGuard) Used(_ context.Context, id string) (bool, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	_, ok := g.used[id]
	return ok, nil
}

// Len returns the number of ids the guard holds.
func (g *MemoryGuard) Len() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.used)
}
