package proxy

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"
)

// The defaults of an [HTTPServer]'s timeouts.
const (
	DefaultIdleTimeout   = 10 * time.Minute
	DefaultStreamTimeout = 10 * time.Minute
	DefaultBodyTimeout   = 30 * time.Second
)

const (
	// slotWait is how long a new session waits for the slot of a session that is stopping.
	slotWait = 3 * time.Second
	// minEvictIdle is how long another client's session must have been idle before a new
	// session may end it to make room: a client that pauses keeps its session.
	minEvictIdle = time.Minute
)

// slots are the bound of sessions at once, and of one client's.
func (h *HTTPServer) slots() (all, client int) {
	all = h.MaxSessions
	if all <= 0 {
		all = DefaultMaxSessions
	}
	client = h.MaxClientSessions
	if client <= 0 {
		client = max(all-all/4, 1)
	}
	return all, client
}

func orDefault(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

// clientAddr names the client of a request: its remote IP.
func clientAddr(r *http.Request) string {
	if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		return host
	}
	return r.RemoteAddr
}

// newSession starts a session and its upstream, or answers the request with an error. The
// session counts the exchange that starts it as in progress until post calls its release.
func (h *HTTPServer) newSession(w http.ResponseWriter, r *http.Request) *clientSession {
	client := clientAddr(r)
	if !h.takeSlot(w, r, client) {
		return nil
	}
	h.reaper.Do(func() { go h.reap() })
	ctx, cancel := context.WithCancel(context.Background())
	server, stop, err := h.Dial(ctx)
	if err != nil {
		cancel()
		h.releaseSlot(client)
		h.log().Warn("starting the upstream of a client session", "error", err)
		httpError(w, http.StatusBadGateway, "the proxy could not start the server: "+err.Error())
		return nil
	}
	pr, pw := io.Pipe()
	s := &clientSession{id: rand.Text(), client: client, h: h, in: pw, cancel: cancel, done: make(chan struct{}),
		calls: map[string]*clientStream{}, streams: 1, used: time.Now()}
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		cancel()
		server.Close()
		if stop != nil {
			stop()
		}
		h.releaseSlot(client)
		httpError(w, http.StatusServiceUnavailable, "the proxy is stopping")
		return nil
	}
	h.sessions[s.id] = s
	h.wg.Add(1)
	h.mu.Unlock()
	go h.runSession(ctx, s, pr, server, stop)
	return s
}

// runSession serves a session until it ends, then stops its upstream and frees its slot.
func (h *HTTPServer) runSession(ctx context.Context, s *clientSession, pr *io.PipeReader, server Conn, stop func()) {
	defer h.wg.Done()
	log := h.log().With("session", s.id[:8])
	log.Info("client session started", "client", s.client)
	err := h.Proxy.serve(ctx, pr, s, server, nil)
	if err != nil && !errors.Is(err, context.Canceled) {
		log.Warn("client session", "error", err)
	}
	h.mu.Lock()
	if h.sessions[s.id] == s {
		delete(h.sessions, s.id)
	}
	h.mu.Unlock()
	close(s.done)
	pr.CloseWithError(io.EOF)
	s.cancel()
	if stop != nil {
		stop()
	}
	h.releaseSlot(s.client)
	log.Info("client session ended")
}

// takeSlot takes a session's slot for client, making room by ending an idle session and waiting
// (a few seconds at most) for its upstream to stop; or it answers the request with HTTP 503 and
// reports false.
func (h *HTTPServer) takeSlot(w http.ResponseWriter, r *http.Request, client string) bool {
	all, share := h.slots()
	wait := time.NewTimer(slotWait)
	defer wait.Stop()
	for {
		h.mu.Lock()
		if h.closed {
			h.mu.Unlock()
			httpError(w, http.StatusServiceUnavailable, "the proxy is stopping")
			return false
		}
		if h.sessions == nil {
			h.sessions, h.perClient = map[string]*clientSession{}, map[string]int{}
		}
		own := h.perClient[client]
		if h.live < all && own < share {
			h.live++
			h.perClient[client]++
			h.mu.Unlock()
			return h.initStates(w, client)
		}
		evicted := h.evictIdle(client, own >= share)
		stopping := h.live > len(h.sessions)
		if h.freed == nil {
			h.freed = make(chan struct{})
		}
		freed := h.freed
		h.mu.Unlock()
		if evicted || stopping {
			select {
			case <-freed:
				continue
			case <-wait.C:
			case <-r.Context().Done():
				return false
			}
		}
		msg := fmt.Sprintf("the proxy serves at most %d sessions at once", all)
		if own >= share {
			msg = fmt.Sprintf("the proxy serves at most %d sessions at once to one client", share)
		}
		h.log().Warn("refused a client session: too many", "client", client, "sessions", own, "maxSessions", all, "maxClientSessions", share)
		w.Header().Set("Retry-After", "1")
		httpError(w, http.StatusServiceUnavailable, msg)
		return false
	}
}

// initStates makes the Proxy's States once, for all sessions (a client may retry an
// input_required request in another), or frees client's slot and answers with an error.
func (h *HTTPServer) initStates(w http.ResponseWriter, client string) bool {
	h.mu.Lock()
	var err error
	if h.Proxy.States == nil {
		h.Proxy.States, err = NewStates()
	}
	h.mu.Unlock()
	if err != nil {
		h.releaseSlot(client)
		httpError(w, http.StatusInternalServerError, err.Error())
		return false
	}
	return true
}

// releaseSlot frees a slot of client, and wakes the sessions waiting for one.
func (h *HTTPServer) releaseSlot(client string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.live--
	if h.perClient[client]--; h.perClient[client] <= 0 {
		delete(h.perClient, client)
	}
	if h.freed != nil {
		close(h.freed)
		h.freed = nil
	}
}

// evictIdle ends an idle session (no HTTP exchange in progress) to make room for one of client:
// client's own idle longest, else (unless ownOnly) another client's idle longest when it has
// been idle for minEvictIdle. It reports whether it ended one. h.mu is held.
func (h *HTTPServer) evictIdle(client string, ownOnly bool) bool {
	var own, other *clientSession
	var ownSince, otherSince time.Time
	for _, s := range h.sessions {
		idle, used := s.idleSince()
		switch {
		case !idle:
		case s.client == client && (own == nil || used.Before(ownSince)):
			own, ownSince = s, used
		case s.client != client && (other == nil || used.Before(otherSince)):
			other, otherSince = s, used
		}
	}
	victim, since := own, ownSince
	if victim == nil && !ownOnly && other != nil && time.Since(otherSince) >= minEvictIdle {
		victim, since = other, otherSince
	}
	if victim == nil {
		return false
	}
	h.log().Info("ending an idle client session, to make room for a new one", "session", victim.id[:8], "idle", time.Since(since).Round(time.Millisecond))
	delete(h.sessions, victim.id)
	victim.endNow()
	return true
}

// reap ends the sessions idle for IdleTimeout, until the server is closed.
func (h *HTTPServer) reap() {
	timeout := orDefault(h.IdleTimeout, DefaultIdleTimeout)
	tick := time.NewTicker(min(max(timeout/4, 10*time.Millisecond), time.Minute))
	defer tick.Stop()
	for range tick.C {
		h.mu.Lock()
		if h.closed {
			h.mu.Unlock()
			return
		}
		for id, s := range h.sessions {
			if idle, used := s.idleSince(); idle && time.Since(used) >= timeout {
				h.log().Info("ending an idle client session", "session", id[:8], "idleTimeout", timeout)
				delete(h.sessions, id)
				s.endNow()
			}
		}
		h.mu.Unlock()
	}
}

// idleSince reports whether the session has no HTTP exchange in progress, and since when.
func (s *clientSession) idleSince() (bool, time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.streams == 0, s.used
}

// release ends the exchange that started the session.
func (s *clientSession) release() {
	s.mu.Lock()
	s.streams--
	s.used = time.Now()
	s.mu.Unlock()
}

// endNow ends an idle session without waiting for answers: none is awaited.
func (s *clientSession) endNow() {
	s.end()
	s.cancel()
}
