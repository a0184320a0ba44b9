package redisguard

import (
	"testing"

	"github.com/redis/go-redis/v9"
)

// TestWatchesContext: the clients that go-redis builds with ContextTimeoutEnabled, of every kind
// that redis.NewUniversalClient returns, are called on the caller's goroutine; without it, or a
// client of another kind, on a goroutine of their own.
func TestWatchesContext(t *testing.T) {
	for _, enabled := range []bool{true, false} {
		clients := map[string]redis.UniversalClient{
			"a client":          redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", ContextTimeoutEnabled: enabled}),
			"a cluster client":  redis.NewClusterClient(&redis.ClusterOptions{Addrs: []string{"127.0.0.1:1"}, ContextTimeoutEnabled: enabled}),
			"a ring":            redis.NewRing(&redis.RingOptions{Addrs: map[string]string{"a": "127.0.0.1:1"}, ContextTimeoutEnabled: enabled}),
			"a failover client": redis.NewFailoverClient(&redis.FailoverOptions{MasterName: "m", SentinelAddrs: []string{"127.0.0.1:1"}, ContextTimeoutEnabled: enabled}),
			"a universal client of several addresses": redis.NewUniversalClient(&redis.UniversalOptions{Addrs: []string{"127.0.0.1:1", "127.0.0.1:2"}, ContextTimeoutEnabled: enabled}),
		}
		for name, c := range clients {
			if got := watchesContext(c); got != enabled {
				t.Errorf("%s with ContextTimeoutEnabled %v: watchesContext %v", name, enabled, got)
			}
			c.Close()
		}
	}
	if watchesContext(other{}) {
		t.Error("a client of another kind: watchesContext true")
	}
}

// other is a client of a kind the guard does not know.
type other struct{ redis.UniversalClient }
