package main

import (
	"strings"
	"testing"
)

// TestRedisURLErrorHidesThePassword: a -redis URL that does not parse is refused with an error
// that does not quote it, since it may hold the password of Redis (redis://:PASSWORD@host).
func TestRedisURLErrorHidesThePassword(t *testing.T) {
	for _, u := range []string{"redis://:s3cret-of-redis%zz@localhost:6379/0", "redis://u:s3cret-of-redis@local host:6379/0"} {
		_, err := newAgent(config{redisURL: u})
		if err == nil || strings.Contains(err.Error(), "s3cret-of-redis") || !strings.Contains(err.Error(), "-redis") {
			t.Errorf("%q: error %v", u, err)
		}
	}
}
