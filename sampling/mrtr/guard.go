package mrtr

import (
	"context"
	"sync"
	"time"
)

// A ReplayGuard makes requestStates single-use: the server-side record that the spec requires of
// a server whose state must be consumed at most once (replay protection in the state itself only
// bounds the window). Use records that the state id was presented, and reports whether it was the
// first time; it may forget an id once expires has passed (the state is refused as expired
// then). A server of several instances needs a guard they share (a database, Redis SET NX with an
// expiry, ...); [MemoryGuard] serves one process.
type ReplayGuard interface {
	Use(ctx context.Context, id string, expires time.Time) (first bool, err error)
}

// A MemoryGuard is a [ReplayGuard] in memory, for a server of one process. It holds the ids of
// the states presented until they expire.
type MemoryGuard struct {
	// Now returns the time; nil means time.Now.
	Now func() time.Time

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
		for k, exp := range g.used {
			if now.After(exp) {
				delete(g.used, k)
			}
		}
		g.sweepAt = max(64, 2*len(g.used))
	}
	g.used[id] = expires
	return true, nil
}

// Len returns the number of ids the guard holds.
func (g *MemoryGuard) Len() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.used)
}
