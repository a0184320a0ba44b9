package proxy

import (
	"encoding/json"
	"sync"
)

// issuedIDs are the ids of the requests sent to a client and not yet answered. A response from
// the client is forwarded only when it answers one of them, and only once: any other would
// answer what the client was never asked, such as the server's sampling requests, which the
// proxy answers itself.
type issuedIDs struct {
	mu  sync.Mutex
	ids map[string]bool
}

// issue records the id of a request sent to the client.
func (s *issuedIDs) issue(id json.RawMessage) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ids == nil {
		s.ids = map[string]bool{}
	}
	s.ids[rawKey(id)] = true
}

// answer reports whether id is that of a request sent to the client and not yet answered; it is
// answered now.
func (s *issuedIDs) answer(id json.RawMessage) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := rawKey(id)
	ok := id != nil && s.ids[key]
	delete(s.ids, key)
	return ok
}
