package oauth

import "time"

// SetNow sets the clock by which t counts its authorizations of a minute.
func SetNow(t *Transport, now func() time.Time) {
	t.mu.Lock()
	t.now = now
	t.mu.Unlock()
}
