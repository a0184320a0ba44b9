package proxy

import (
	"bytes"
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// DefaultMaxSessions is the number of client sessions an [HTTPServer] serves at once when
// MaxSessions is zero.
const DefaultMaxSessions = 16

// An HTTPServer is the proxy's client side over Streamable HTTP: it serves MCP at its endpoint
// (POST, GET and DELETE, sessions named by Mcp-Session-Id, each request answered on an SSE stream
// or, for a client that accepts only JSON, with a JSON response), and gives each client session an
// upstream of its own (from Dial) and a session of Proxy between them. A request whose client
// goes away before its answer is cancelled (notifications/cancelled), and its answer dropped. A
// request outside a session
// (protocol version 2026-07-28 and later have no initialize) gets a session of its own, ended once
// it is answered; Proxy.States, made when nil, is shared by all sessions, so that a client may
// retry an input_required request in another. A session ends when the
// client deletes it (DELETE), when its upstream ends, or when the server is closed; its upstream
// is closed with it. Proxy's limits (tokens, concurrent provider calls) are the proxy's, shared
// by all its sessions.
//
// Memory is bounded per session: a client's message is read up to Proxy.MaxMessageBytes, and
// messages for the client wait in streams of a few, which a client that does not read keeps
// full, slowing the server behind it as on stdio.
//
// Messages from the server that answer no request (its requests and notifications) go to the
// stream of the request they relate to when the proxy can tell (a progress notification, by its
// token), else to the stream of the client's latest request still in progress (where they are
// ordered with its answer; a client reads them there as on the GET stream), else to the session's
// GET stream when the client has one open; else they are dropped and logged.
//
// go-sdk's server side (StreamableHTTPHandler, StreamableServerTransport) is not used: the
// handler serves an *mcp.Server, and the transport routes a message to the stream of the request
// it relates to only through a context value of its own, which a proxy forwarding raw messages
// cannot set.
//
// Requests are checked against DNS rebinding: on a loopback address (Public false) the Host and
// Origin headers must name a loopback host; with Token set, every request must carry it as
// "Authorization: Bearer TOKEN".
type HTTPServer struct {
	// Proxy serves each session.
	Proxy *Proxy
	// Dial opens the upstream of a new session: the Conn to the server, and a function that
	// stops it (a child process, say) once its session has ended. ctx ends with the session.
	Dial func(ctx context.Context) (Conn, func(), error)
	// MaxSessions bounds the sessions at once, those ending included: a session holds its slot
	// until its upstream has stopped (Dial's stop has returned), so there are never more
	// upstreams than that; 0 is [DefaultMaxSessions]. A new session beyond it ends an idle
	// session (no request in progress, no GET stream open) to make room: the client's own idle
	// longest, else another client's idle for a minute or more. It waits a few seconds for the
	// slot to be free, and is refused with HTTP 503 when none is.
	MaxSessions int
	// MaxClientSessions bounds the sessions of one client address (the remote IP) at once, so
	// that one client cannot hold every slot; 0 is MaxSessions less a quarter (at least 1).
	MaxClientSessions int
	// IdleTimeout ends a session that has had no HTTP exchange in progress for so long; 0 is
	// [DefaultIdleTimeout].
	IdleTimeout time.Duration
	// StreamTimeout is the longest a GET stream stays open (a client opens another); 0 is
	// [DefaultStreamTimeout].
	StreamTimeout time.Duration
	// BodyTimeout is how long a client has to send a POST's body; 0 is [DefaultBodyTimeout].
	BodyTimeout time.Duration
	// Token, when set, is the bearer token every request must carry.
	Token string
	// Public allows clients by any Host and Origin (a non-loopback listener, behind Token).
	Public bool
	// Grace is how long an ended session waits for the answers to the requests in progress
	// before its upstream is cut off; 0 is 10 seconds.
	Grace time.Duration
	// Logger receives what the server does; nil is the Proxy's.
	Logger *slog.Logger

	mu        sync.Mutex
	sessions  map[string]*clientSession // the sessions clients can name
	live      int                       // the sessions whose upstream has not stopped
	perClient map[string]int            // live, by client address
	freed     chan struct{}             // closed when a live session's upstream has stopped
	closed    bool
	reaper    sync.Once
	wg        sync.WaitGroup
}

func (h *HTTPServer) log() *slog.Logger {
	switch {
	case h.Logger != nil:
		return h.Logger
	case h.Proxy.Logger != nil:
		return h.Proxy.Logger
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

func (h *HTTPServer) maxBytes() int {
	if h.Proxy.MaxMessageBytes > 0 {
		return h.Proxy.MaxMessageBytes
	}
	return DefaultMaxMessageBytes
}

// Close ends every session, and waits for their upstreams to be stopped.
func (h *HTTPServer) Close() {
	h.mu.Lock()
	h.closed = true
	var all []*clientSession
	for _, s := range h.sessions {
		all = append(all, s)
	}
	h.mu.Unlock()
	for _, s := range all {
		s.end()
	}
	h.wg.Wait()
}

// ServeHTTP implements http.Handler.
func (h *HTTPServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if msg, status := h.admit(r); status != 0 {
		if status == http.StatusUnauthorized {
			w.Header().Set("WWW-Authenticate", `Bearer realm="sampling-proxy"`)
		}
		httpError(w, status, msg)
		return
	}
	switch r.Method {
	case http.MethodPost:
		h.post(w, r)
	case http.MethodGet:
		h.get(w, r)
	case http.MethodDelete:
		s := h.session(w, r)
		if s == nil {
			return
		}
		s.end()
		w.WriteHeader(http.StatusNoContent)
	default:
		w.Header().Set("Allow", "GET, POST, DELETE")
		httpError(w, http.StatusMethodNotAllowed, "method not allowed")
	}
}

// admit checks a request's Host, Origin and token; it returns the HTTP status refusing it, or 0.
func (h *HTTPServer) admit(r *http.Request) (string, int) {
	if !h.Public {
		if !loopbackHost(r.Host) {
			return "the Host header does not name a loopback address", http.StatusForbidden
		}
		if o := r.Header.Get("Origin"); o != "" {
			u, err := url.Parse(o)
			if err != nil || !loopbackHost(u.Host) {
				return "the Origin header does not name a loopback address", http.StatusForbidden
			}
		}
	}
	if h.Token != "" {
		got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || subtle.ConstantTimeCompare([]byte(got), []byte(h.Token)) != 1 {
			return "a bearer token is required", http.StatusUnauthorized
		}
	}
	return "", 0
}

// loopbackHost reports whether a Host header (host and optional port) names a loopback address.
func loopbackHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func httpError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(rawError(json.RawMessage("null"), -32600, msg, nil))
}

// session is the session a request names, or nil after answering the request with an error.
func (h *HTTPServer) session(w http.ResponseWriter, r *http.Request) *clientSession {
	id := r.Header.Get("Mcp-Session-Id")
	if id == "" {
		httpError(w, http.StatusBadRequest, "the Mcp-Session-Id header is missing")
		return nil
	}
	h.mu.Lock()
	s := h.sessions[id]
	h.mu.Unlock()
	if s == nil {
		httpError(w, http.StatusNotFound, "no such session")
		return nil
	}
	return s
}

// post takes one message from the client.
func (h *HTTPServer) post(w http.ResponseWriter, r *http.Request) {
	if mediaType(r.Header.Get("Content-Type")) != "application/json" {
		httpError(w, http.StatusUnsupportedMediaType, "the body must be application/json")
		return
	}
	body, ok := h.readBody(w, r)
	if !ok {
		return
	}
	msg, err := jsonrpc.DecodeMessage(body)
	if err != nil {
		// Batches were removed from MCP in 2025-06-18; the proxy takes one message a request.
		httpError(w, http.StatusBadRequest, "the body is not one JSON-RPC message: "+err.Error())
		return
	}
	req, isRequest := msg.(*jsonrpc.Request)
	isCall := isRequest && req.IsCall()
	s := h.postSession(w, r, isCall && req.Method == "initialize", isCall)
	if s == nil {
		return
	}
	if !isCall {
		h.postOneWay(w, s, body, !isRequest)
		return
	}
	id, _ := json.Marshal(req.ID.Raw())
	st := s.open(w, rawKey(id), acceptsSSE(r), progressToken(req.Params))
	if st == nil {
		httpError(w, http.StatusBadRequest, "a request with this id is in progress")
		return
	}
	defer s.closeStream(st)
	if !s.send(body) {
		httpError(w, http.StatusNotFound, "the session has ended")
		return
	}
	if !st.serve(r.Context(), s.done) && r.Context().Err() != nil {
		// The client went away before the answer: the request is cancelled, as the client would.
		// The stream is closed first, so that nothing waits on it meanwhile.
		s.closeStream(st)
		s.send(mustMarshal(map[string]any{"jsonrpc": "2.0", "method": "notifications/cancelled",
			"params": map[string]any{"requestId": json.RawMessage(id), "reason": "the client's HTTP request ended"}}))
	}
}

// readBody reads a POST's body, within BodyTimeout and the message bound, and checks that it is
// one JSON value; or it answers the request with an error and reports false. The body comes
// back compacted: the proxy's session reads one message a line, so newlines between a body's
// tokens would split it into lines the proxy neither reads nor checks. Compact keeps every
// member and value as sent, duplicates included, so they are still checked.
func (h *HTTPServer) readBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Now().Add(orDefault(h.BodyTimeout, DefaultBodyTimeout)))
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, int64(h.maxBytes())))
	if err == nil {
		// The connection is read on while the answer streams (to see the client go away):
		// without a deadline. After an error the deadline stays, and the connection is closed.
		rc.SetReadDeadline(time.Time{})
	}
	var tooLarge *http.MaxBytesError
	var netErr net.Error
	switch {
	case errors.As(err, &tooLarge):
		httpError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("the message is larger than the proxy's limit of %d bytes", h.maxBytes()))
		return nil, false
	case errors.As(err, &netErr) && netErr.Timeout():
		httpError(w, http.StatusRequestTimeout, "the body did not come in time")
		return nil, false
	case err != nil:
		httpError(w, http.StatusBadRequest, "reading the body: "+err.Error())
		return nil, false
	}
	// A body of two messages, or of one and more, would be taken for its first message.
	var compact bytes.Buffer
	if err := json.Compact(&compact, body); err != nil {
		httpError(w, http.StatusBadRequest, "the body is not one JSON-RPC message: "+err.Error())
		return nil, false
	}
	return compact.Bytes(), true
}

// postSession is the session a POST goes to: a new one for initialize, and for a request outside
// a session (from 2026-07-28 on, requests carry their protocol version and capabilities, and
// there is no initialize; its session ends once it is answered); else the one it names. It
// answers the request with an error and returns nil when there is none.
func (h *HTTPServer) postSession(w http.ResponseWriter, r *http.Request, initialize, isCall bool) *clientSession {
	if r.Header.Get("Mcp-Session-Id") != "" || !isCall {
		return h.session(w, r)
	}
	s := h.newSession(w, r)
	if s == nil {
		return nil
	}
	if initialize {
		w.Header().Set("Mcp-Session-Id", s.id)
		context.AfterFunc(r.Context(), s.release)
	} else {
		context.AfterFunc(r.Context(), func() { s.release(); s.end() })
	}
	return s
}

// postOneWay forwards a notification, or a response to a request the proxy sent this client
// (any other response would answer what the client was never asked: the proxy's own sampling
// requests to the server, say).
func (h *HTTPServer) postOneWay(w http.ResponseWriter, s *clientSession, body []byte, response bool) {
	if response && !s.issued.answer(parseMessage(body)["id"]) {
		httpError(w, http.StatusBadRequest, "no request sent to this client awaits an answer with this id")
		return
	}
	if !s.send(body) {
		httpError(w, http.StatusNotFound, "the session has ended")
		return
	}
	w.WriteHeader(http.StatusAccepted)
}

// acceptsSSE reports whether the client takes an event stream in answer to a POST.
func acceptsSSE(r *http.Request) bool {
	for _, v := range r.Header.Values("Accept") {
		for _, t := range strings.Split(v, ",") {
			switch mediaType(t) {
			case "text/event-stream", "*/*", "text/*":
				return true
			}
		}
	}
	return false
}

// get serves the session's standalone stream.
func (h *HTTPServer) get(w http.ResponseWriter, r *http.Request) {
	if !acceptsSSE(r) {
		httpError(w, http.StatusNotAcceptable, "the GET stream is text/event-stream")
		return
	}
	s := h.session(w, r)
	if s == nil {
		return
	}
	st := s.open(w, "", true, "")
	if st == nil {
		httpError(w, http.StatusConflict, "the session's GET stream is open already")
		return
	}
	defer s.closeStream(st)
	// A stream's life is bounded: the client opens another when it wants one.
	ctx, cancel := context.WithTimeout(r.Context(), orDefault(h.StreamTimeout, DefaultStreamTimeout))
	defer cancel()
	st.serve(ctx, s.done)
}

// A clientSession is one client's session: what the client posts is written to in, which the
// proxy's session reads; what the proxy writes to the client goes to the session's streams.
type clientSession struct {
	id     string
	client string // the client's address
	h      *HTTPServer
	in     *io.PipeWriter
	inMu   sync.Mutex
	cancel context.CancelFunc
	done   chan struct{} // closed once the proxy's session has returned
	ended  sync.Once

	mu      sync.Mutex
	calls   map[string]*clientStream // the streams awaiting a response, by the request's id
	get     *clientStream            // the GET stream, when open
	recent  []*clientStream          // the SSE streams of requests in progress, oldest first
	issued  issuedIDs                // the requests sent to the client, unanswered
	streams int                      // the HTTP exchanges in progress
	used    time.Time                // when the last one ended
}

// send gives the proxy one message from the client; it waits while the proxy reads slower.
func (s *clientSession) send(msg []byte) bool {
	s.inMu.Lock()
	defer s.inMu.Unlock()
	// The pipe's write returns once the proxy has read it, or with an error once the session
	// has ended.
	_, err := s.in.Write(append(append(make([]byte, 0, len(msg)+1), msg...), '\n'))
	return err == nil
}

// end ends the session: the proxy sees the client's stream end, closes the upstream, and, once
// the answers in progress came (or the session is cancelled after a while), returns.
func (s *clientSession) end() {
	s.ended.Do(func() {
		s.in.Close()
		grace := s.h.Grace
		if grace <= 0 {
			grace = 10 * time.Second
		}
		go func() {
			select {
			case <-s.done:
			case <-time.After(grace):
				s.cancel()
			}
		}()
	})
}

// streamLength is how many messages a stream holds for the client before the proxy waits.
const streamLength = 4

// A clientStream is an HTTP response carrying messages to the client: the answer to a POSTed
// request (and what the server sends meanwhile), or the GET stream.
type clientStream struct {
	w        http.ResponseWriter
	key      string // the request's id; "" for the GET stream
	progress string // the request's progress token, if any
	sse      bool
	msgs     chan outMessage
	gone     chan struct{} // closed when the HTTP exchange has ended
	closed   sync.Once
}

// An outMessage is a message for the client; last marks the response that ends a POST's stream.
type outMessage struct {
	data []byte
	last bool
}

// progressToken is the progress token of a request's or a progress notification's params, as a
// key, or "".
func progressToken(params json.RawMessage) string {
	var p struct {
		Token json.RawMessage `json:"progressToken"`
		Meta  struct {
			Token json.RawMessage `json:"progressToken"`
		} `json:"_meta"`
	}
	if json.Unmarshal(params, &p) != nil {
		return ""
	}
	for _, t := range []json.RawMessage{p.Token, p.Meta.Token} {
		if t != nil {
			return rawKey(t)
		}
	}
	return ""
}

// progressStream is the SSE stream of the request in progress with the progress token, or nil.
// s.mu is held.
func (s *clientSession) progressStream(token string) *clientStream {
	for _, st := range s.recent {
		if token != "" && st.progress == token {
			return st
		}
	}
	return nil
}

// open registers a stream, or returns nil when one with the same key is open.
func (s *clientSession) open(w http.ResponseWriter, key string, sse bool, progress string) *clientStream {
	st := &clientStream{w: w, key: key, progress: progress, sse: sse, msgs: make(chan outMessage, streamLength), gone: make(chan struct{})}
	s.mu.Lock()
	defer s.mu.Unlock()
	if key == "" {
		if s.get != nil {
			return nil
		}
		s.get = st
		s.streams++
		return st
	}
	if s.calls[key] != nil {
		return nil
	}
	s.calls[key] = st
	s.streams++
	if sse {
		s.recent = append(s.recent, st)
	}
	return st
}

// closeStream unregisters a stream, once.
func (s *clientSession) closeStream(st *clientStream) {
	st.closed.Do(func() { s.unregister(st) })
}

func (s *clientSession) unregister(st *clientStream) {
	s.mu.Lock()
	s.streams--
	s.used = time.Now()
	if st.key == "" {
		if s.get == st {
			s.get = nil
		}
	} else if s.calls[st.key] == st {
		delete(s.calls, st.key)
	}
	for i, r := range s.recent {
		if r == st {
			s.recent = append(s.recent[:i], s.recent[i+1:]...)
			break
		}
	}
	s.mu.Unlock()
	close(st.gone)
}

// Write takes one message from the proxy for the client (the proxy writes one a call, with its
// newline) and queues it on the stream it belongs to, waiting while that stream is full.
func (s *clientSession) Write(p []byte) (int, error) {
	msg := append([]byte(nil), p...)
	if n := len(msg); n > 0 && msg[n-1] == '\n' {
		msg = msg[:n-1]
	}
	m := parseMessage(msg)
	s.mu.Lock()
	var st *clientStream
	response := m != nil && m.isResponse()
	switch {
	case response:
		st = s.calls[rawKey(m["id"])]
		if st != nil {
			delete(s.calls, st.key) // later messages with this id go elsewhere
		}
	case m != nil && m.method() == "notifications/progress":
		st = s.progressStream(progressToken(m["params"]))
	}
	switch {
	case st != nil, response:
		// A response goes to its request's stream only; with that gone (the client went away),
		// it is dropped.
	case len(s.recent) > 0:
		// Most likely related to the latest request, and ordered with its answer there.
		st = s.recent[len(s.recent)-1]
	case s.get != nil:
		st = s.get
	}
	// A request is recorded before it is queued, so that the client's answer cannot come first.
	request := st != nil && m != nil && m.isRequest()
	if request {
		s.issued.issue(m["id"])
	}
	s.mu.Unlock()
	if st == nil {
		what := "a message"
		if m != nil {
			what = m.method()
		}
		s.h.log().Warn("a message for the client has no stream to go on; dropped", "session", s.id[:8], "message", what)
		return len(p), nil
	}
	select {
	case st.msgs <- outMessage{msg, response}:
		return len(p), nil
	case <-st.gone:
	case <-s.done:
	}
	if request {
		// Dropped: the client was never sent it, and an answer to it is not its own.
		s.issued.answer(m["id"])
	}
	return len(p), nil
}

// serve writes the stream's messages to the client until its response was written (a POST), the
// client goes away, or the session ends; it reports whether the response was written.
func (st *clientStream) serve(ctx context.Context, sessionDone <-chan struct{}) bool {
	flush := func() { http.NewResponseController(st.w).Flush() }
	if st.sse {
		st.w.Header().Set("Content-Type", "text/event-stream")
		st.w.Header().Set("Cache-Control", "no-cache")
		st.w.WriteHeader(http.StatusOK)
		io.WriteString(st.w, ": ok\n\n")
		flush()
	}
	for {
		select {
		case out := <-st.msgs:
			msg, last := out.data, out.last
			if !st.sse {
				if !last {
					continue // only the response goes in a JSON answer
				}
				st.w.Header().Set("Content-Type", "application/json")
				st.w.Write(msg)
				return true
			}
			if _, err := fmt.Fprintf(st.w, "event: message\ndata: %s\n\n", msg); err != nil {
				return false
			}
			flush()
			if last {
				return true
			}
		case <-ctx.Done():
			return false
		case <-sessionDone:
			if st.key != "" {
				answer := rawError(json.RawMessage(st.key), -32603, "the proxy's session with the server ended before the server answered", nil)
				if st.sse {
					fmt.Fprintf(st.w, "event: message\ndata: %s\n\n", answer)
				} else {
					st.w.Header().Set("Content-Type", "application/json")
					st.w.Write(answer)
				}
			}
			return false
		}
	}
}
