// Package proxy sits between an MCP client on stdio and an MCP server (a child process on stdio,
// or a remote server over Streamable HTTP) and answers the server's sampling requests itself,
// with a [sampling.Sampler] (a model provider's API, for a backfill), so that a server that needs
// a model works under a client that has none.
//
// It serves both flows of sampling:
//
//   - 2025-11-25 and earlier: the server sends sampling/createMessage while it serves a request.
//     The proxy advertises sampling with tools in the client's initialize request, answers the
//     server's sampling requests with the Sampler (never forwarding them to the client), and
//     cancels the provider call when the server sends notifications/cancelled for one.
//   - 2026-07-28 (multi round-trip requests): the server answers tools/call, prompts/get or
//     resources/read with a result of resultType "input_required" whose inputRequests ask for
//     sampling (and perhaps elicitation or roots). The proxy declares sampling with tools in the
//     per-request client capabilities (_meta "io.modelcontextprotocol/clientCapabilities") of every
//     request it forwards at that version, answers the sampling input requests with the Sampler,
//     and retries the original request with the inputResponses and the requestState, round after
//     round (at most [Proxy.MaxRounds]), so that the client sees one complete result. When a round
//     also asks for what only the client can give (elicitation/create, roots/list), the proxy
//     answers the client with an input_required result holding only those requests, and a
//     requestState of its own that carries the server's requestState and the sampling answers
//     already made, sealed with [mrtr.States] (authenticated, bound to the request, expiring);
//     the client's retry is forwarded with the server's requestState and every answer.
//
// The proxy never changes the protocol version that the client and the server negotiate.
// Everything else is forwarded unchanged, in order: on stdio, byte for byte, one message a line;
// over HTTP, each message's params and results as they were (the JSON-RPC envelope is re-encoded
// by the transport). A message larger than [Proxy.MaxMessageBytes] is dropped, and a request
// among those is answered with a JSON-RPC error (-32600). A message with a member given twice, or
// two whose names differ only in case (outside free-form values such as tool arguments), is
// refused from either side, since peers read it differently. A JSON-RPC batch from the server
// (removed from MCP in 2025-06-18) is handled message by message; the client's are forwarded
// unread but for the responses dropped below. A line from the client that is not JSON, or not a
// message, is answered with the JSON-RPC error for it (-32700, -32600) and not forwarded. A
// client's response is forwarded only when it answers a request the proxy sent that client, once;
// any other (to the server's sampling request, say) is dropped and logged, since JSON-RPC has no
// reply to a response.
//
// [Limits] bound what the server can spend with the operator's key: maxTokens is capped, provider
// calls run at most so many at once, the samples of a round and of a client request are capped,
// and a token budget (the Proxy's, and a [Route]'s own) ends sampling when spent. A request over a
// limit is answered with the JSON-RPC error [CodeLimit]. [Router] picks the provider model from a
// request's model hints. The server's answers carry neither the provider's error text nor the
// proxy's own record in _meta (provider, message id, usage).
package proxy

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpgen/mcpgen/backfill"
	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
	"github.com/mcpgen/mcpgen/sampling"
	"github.com/mcpgen/mcpgen/sampling/mrtr"
)

// DefaultMaxRounds is the number of input_required rounds the proxy answers for one request when
// [Proxy.MaxRounds] is zero (go-sdk's client allows 10).
const DefaultMaxRounds = 10

// A Proxy forwards MCP traffic between a client and a server and answers the server's sampling
// requests with its Sampler. Its fields are read when Serve starts.
type Proxy struct {
	// Sampler answers the server's sampling requests.
	Sampler sampling.Sampler
	// Logger receives what the proxy does; nil discards it.
	Logger *slog.Logger
	// OnClientClosed, when set, is called once the client's stream has ended and the server's
	// input has been closed, so that the caller can give the server a deadline to exit.
	OnClientClosed func()
	// MaxMessageBytes bounds a message in either direction; 0 is [DefaultMaxMessageBytes]. It
	// applies to the client's messages, and to the server's when Serve makes the Conn.
	MaxMessageBytes int
	// Limits bound the provider calls; the zero value sets none.
	Limits Limits
	// MaxRounds bounds the input_required rounds of one request (those the proxy answers and
	// those it forwards to the client); 0 is [DefaultMaxRounds].
	MaxRounds int
	// States seals what the proxy carries through the client when it forwards input requests
	// (the server's requestState and the sampling answers made); nil uses [NewStates]. Share one
	// key between proxies only if a client may retry through another one.
	States *mrtr.States

	// The limits' accounting, shared by every session of the proxy (ServeConn, and the sessions
	// of an [HTTPServer]): made once, from Limits, when the first session starts.
	limiterOnce sync.Once
	limiter     *limiter
}

// limits is the proxy's limiter, made on first use.
func (p *Proxy) limits(log *slog.Logger) *limiter {
	p.limiterOnce.Do(func() { p.limiter = newLimiter(p.Limits, routeBudgets(p.Sampler), log) })
	return p.limiter
}

// Serve forwards messages from fromClient to toServer and from fromServer to toClient, one a
// line (a server on stdio); see [Proxy.ServeConn].
func (p *Proxy) Serve(ctx context.Context, fromClient io.Reader, toClient io.Writer, fromServer io.Reader, toServer io.WriteCloser) error {
	return p.ServeConn(ctx, fromClient, toClient, NewStreamConn(fromServer, toServer, p.MaxMessageBytes))
}

// ServeConn forwards messages from fromClient (one a line) to server and from server to toClient
// until the server's output ends, and returns nil then. When the client's stream ends first,
// ServeConn closes server, so that the server sees the end of its input and exits, and keeps
// forwarding the server's last messages. When ctx ends, ServeConn closes server (which unblocks a
// write the server does not read) and returns ctx's error; the caller stops the server. ServeConn
// waits for the provider calls it started, which it cancels as it returns; the goroutine reading
// fromClient may outlive it, until that stream ends.
func (p *Proxy) ServeConn(ctx context.Context, fromClient io.Reader, toClient io.Writer, server Conn) error {
	return p.serve(ctx, fromClient, toClient, server, p.OnClientClosed)
}

// serve is ServeConn with the function to call once the client's stream has ended.
func (p *Proxy) serve(ctx context.Context, fromClient io.Reader, toClient io.Writer, server Conn, onClientClosed func()) error {
	log := p.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	states := p.States
	if states == nil {
		var err error
		if states, err = NewStates(); err != nil {
			return err
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var prefix [6]byte
	rand.Read(prefix[:])
	s := &session{
		p:        p,
		log:      log,
		ctx:      ctx,
		server:   server,
		toClient: toClient,
		limiter:  p.limits(log),
		states:   states,
		idPrefix: "sampling-proxy-" + hex.EncodeToString(prefix[:]) + "-",
		inFlight: map[string]context.CancelFunc{},
		calls:    map[string]*call{},
		waiting:  map[string]chan []byte{},

		onClientClosed: onClientClosed,
	}

	go s.pumpClient(fromClient)

	serverDone := make(chan error, 1)
	go func() { serverDone <- s.pumpServer() }()

	var err error
	select {
	case err = <-serverDone:
	case <-ctx.Done():
		err = ctx.Err()
		if a, ok := server.(interface{ Abort() error }); ok {
			a.Abort()
		} else {
			server.Close()
		}
	}
	cancel()
	s.mu.Lock()
	s.closing = true
	s.mu.Unlock()
	s.wg.Wait()
	return err
}

type session struct {
	p        *Proxy
	log      *slog.Logger
	ctx      context.Context
	server   Conn
	limiter  *limiter
	states   *mrtr.States
	idPrefix string
	nextID   atomic.Int64

	clientMu sync.Mutex // serializes writes to the client
	toClient io.Writer

	mu       sync.Mutex
	initID   string                        // the key of the client's initialize request
	inFlight map[string]context.CancelFunc // server-sent sampling requests being answered, by id key
	calls    map[string]*call              // client requests that may need input, by the client's id
	waiting  map[string]chan []byte        // the proxy's own retries awaiting their response, by id
	issued   issuedIDs                     // the requests sent to the client, unanswered
	closing  bool                          // Serve is returning: nothing new starts
	wg       sync.WaitGroup

	onClientClosed func() // called once the client's stream has ended
}

func (s *session) maxBytes() int {
	if s.p.MaxMessageBytes > 0 {
		return s.p.MaxMessageBytes
	}
	return DefaultMaxMessageBytes
}

// start runs f in the background unless Serve is returning; Serve waits for it.
func (s *session) start(f func()) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing {
		return false
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		f()
	}()
	return true
}

func (s *session) pumpClient(fromClient io.Reader) {
	lr := newLineReader(fromClient, s.maxBytes())
	var err error
	for {
		var line []byte
		line, err = lr.next()
		var tooLarge *MessageTooLargeError
		if errors.As(err, &tooLarge) {
			s.clientTooLarge(tooLarge)
			continue
		}
		if err != nil {
			break
		}
		if out := s.fromClient(line); out != nil {
			if err = s.server.Write(s.ctx, out); err != nil {
				break
			}
		}
	}
	if err != nil && err != io.EOF && s.ctx.Err() == nil {
		s.log.Warn("client stream", "error", err)
	}
	if s.ctx.Err() != nil {
		s.server.Close()
		return
	}
	s.log.Info("client closed its stream; closing the server's input")
	s.server.Close()
	if s.onClientClosed != nil {
		s.onClientClosed()
	}
}

// clientTooLarge answers a client's request that was too large to read, and drops anything else.
func (s *session) clientTooLarge(e *MessageTooLargeError) {
	id, method := envelope(e.Head)
	s.log.Warn("dropped a message from the client over the size limit", "limit", e.Limit, "method", method, "id", string(id))
	if id != nil && method != "" {
		s.writeClient(rawError(id, mcp.CodeInvalidRequest, fmt.Sprintf("the message is larger than the proxy's limit of %d bytes", e.Limit), nil))
	}
}

// writeClient sends one message to the client and reports whether it could.
func (s *session) writeClient(msg []byte) bool {
	s.clientMu.Lock()
	defer s.clientMu.Unlock()
	buf := make([]byte, 0, len(msg)+1)
	if _, err := s.toClient.Write(append(append(buf, msg...), '\n')); err != nil {
		s.log.Warn("writing to the client", "error", err)
		return false
	}
	return true
}

// reply sends a message to the server and reports whether it could.
func (s *session) reply(msg []byte) bool {
	if err := s.server.Write(s.ctx, msg); err != nil {
		s.log.Warn("could not answer the server", "error", err)
		return false
	}
	return true
}

// message is the envelope of a JSON-RPC message, its members kept raw.
type message map[string]json.RawMessage

func parseMessage(line []byte) message {
	var m message
	if len(line) == 0 || line[0] != '{' && !bytes.HasPrefix(bytes.TrimSpace(line), []byte("{")) {
		return nil
	}
	if json.Unmarshal(line, &m) != nil {
		return nil
	}
	return m
}

func (m message) method() string {
	var s string
	json.Unmarshal(m["method"], &s)
	return s
}

func (m message) isRequest() bool  { return m["method"] != nil && m["id"] != nil }
func (m message) isResponse() bool { return m["method"] == nil && m["id"] != nil }

// rawKey is a comparable key of a raw JSON-RPC id.
func rawKey(id json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, id) != nil {
		return string(id)
	}
	return b.String()
}

// mrtrMethods are the requests a server may answer with input_required.
var mrtrMethods = map[string]bool{"tools/call": true, "prompts/get": true, "resources/read": true}

// fromClient returns the message to send to the server for a line from the client, or nil when
// the proxy consumed it.
func (s *session) fromClient(line []byte) []byte {
	m := parseMessage(line)
	if m == nil {
		return s.clientNotAMessage(line)
	}
	if s.foreignResponse(m) {
		return nil
	}
	if err := checkStrict(line); err != nil {
		s.log.Warn("refused a message from the client with ambiguous members", "method", m.method(), "id", string(m["id"]), "error", err)
		switch {
		case m.isRequest():
			s.writeClient(rawError(m["id"], mcp.CodeInvalidRequest, "the proxy refuses an ambiguous message: "+err.Error(), nil))
		case m.isResponse():
			// The server waits for an answer: it gets an error instead.
			return rawError(m["id"], mcp.CodeInternalError, "the client's answer is ambiguous: "+err.Error(), nil)
		}
		return nil
	}
	method := m.method()
	switch {
	case m.isRequest() && method == mcp.MethodInitialize:
		return s.initialize(line)
	case m.isRequest():
		return s.clientRequest(line, m, method)
	case method == mcp.MethodCancelled && m["id"] == nil:
		if s.clientCancelled(m) {
			return nil
		}
	}
	return line
}

// foreignResponse reports whether m is a response of the client that answers no request sent to
// it (or one answered already), which is dropped: JSON-RPC has no reply to a response, and the
// server never sees it.
func (s *session) foreignResponse(m message) bool {
	if !m.isResponse() || s.issued.answer(m["id"]) {
		return false
	}
	s.log.Warn("dropped a response from the client that answers no request sent to it", "id", string(m["id"]))
	return true
}

// clientBatch handles a JSON-RPC batch from the client (removed from MCP in 2025-06-18, but a
// client may still send one): it goes on unread, but for its responses that answer no request
// sent to the client, which are dropped as they are alone.
func (s *session) clientBatch(line []byte) []byte {
	var msgs []json.RawMessage
	json.Unmarshal(line, &msgs) // line is a valid JSON array
	var kept []json.RawMessage
	for _, raw := range msgs {
		if m := parseMessage(raw); m == nil || !s.foreignResponse(m) {
			kept = append(kept, raw)
		}
	}
	switch {
	case len(kept) == len(msgs):
		return line
	case len(kept) == 0:
		return nil
	}
	return mustMarshal(kept)
}

// clientNotAMessage handles a line from the client that is not a JSON object: a batch goes on
// (see clientBatch), a blank line is dropped, and anything else is refused (a server would read it
// otherwise than the proxy, which cannot tell what it asks) with the JSON-RPC error for it.
func (s *session) clientNotAMessage(line []byte) []byte {
	t := bytes.TrimSpace(line)
	valid := json.Valid(t)
	switch {
	case valid && len(t) > 0 && t[0] == '[':
		return s.clientBatch(line)
	case len(t) == 0:
		return nil
	case valid:
		s.log.Warn("refused a line from the client that is not a JSON-RPC message")
		s.writeClient(rawError(json.RawMessage("null"), mcp.CodeInvalidRequest, "the proxy refuses a line that is not a JSON-RPC message", nil))
	default:
		s.log.Warn("refused a line from the client that does not parse")
		s.writeClient(rawError(json.RawMessage("null"), mcp.CodeParseError, "the proxy refuses a line that is not JSON", nil))
	}
	return nil
}

// initialize rewrites the client's initialize request to advertise sampling with tools.
func (s *session) initialize(line []byte) []byte {
	var init mcp.InitializeRequest
	if err := json.Unmarshal(line, &init); err != nil {
		s.log.Warn("client's initialize request does not decode; forwarded unchanged", "error", err)
		return line
	}
	caps := &init.Params.Capabilities
	caps.Sampling = &mcp.ClientCapabilitiesSampling{Tools: map[string]json.RawMessage{}}
	if caps.Tasks != nil && caps.Tasks.Requests != nil {
		caps.Tasks.Requests.Sampling = nil
	}
	out, err := json.Marshal(&init)
	if err != nil {
		s.log.Warn("encoding the rewritten initialize request; forwarded unchanged", "error", err)
		return line
	}
	s.mu.Lock()
	s.initID = idKey(init.ID)
	s.mu.Unlock()
	s.log.Info("client initializes; advertising sampling with tools to the server",
		"protocolVersion", init.Params.ProtocolVersion, "client", init.Params.ClientInfo.Name)
	return out
}

// The per-request _meta keys of 2026-07-28.
const (
	metaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	metaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
)

// firstPerRequestVersion is the first protocol version whose requests carry their client's
// capabilities in _meta.
const firstPerRequestVersion = "2026-07-28"

// clientRequest handles a request from the client: at 2026-07-28 it declares sampling with tools
// in the request's _meta, and a request that may need input is recorded (and a retry that carries
// the proxy's own requestState gets the server's back, with the answers the proxy made).
func (s *session) clientRequest(line []byte, m message, method string) []byte {
	var params map[string]json.RawMessage
	if p := m["params"]; p != nil && json.Unmarshal(p, &params) != nil {
		return line
	}
	c := &call{clientID: m["id"], method: method}
	changed := false
	if meta := decodeObject(params["_meta"]); meta != nil {
		var version string
		json.Unmarshal(meta[metaProtocolVersion], &version)
		if version >= firstPerRequestVersion {
			c.perRequest = true
			c.clientCaps = decodeObject(meta[metaClientCapabilities])
			caps := decodeObject(meta[metaClientCapabilities])
			if caps == nil {
				caps = map[string]json.RawMessage{}
			}
			caps["sampling"] = json.RawMessage(`{"tools":{}}`)
			// Task-augmented sampling is the client's to do, not the proxy's.
			if tasks := decodeObject(caps["tasks"]); tasks != nil {
				if reqs := decodeObject(tasks["requests"]); reqs != nil && reqs["sampling"] != nil {
					delete(reqs, "sampling")
					tasks["requests"] = mustMarshal(reqs)
					caps["tasks"] = mustMarshal(tasks)
				}
			}
			meta[metaClientCapabilities] = mustMarshal(caps)
			params["_meta"] = mustMarshal(meta)
			changed = true
		}
	}
	if mrtrMethods[method] {
		if st := params["requestState"]; st != nil {
			var state string
			if json.Unmarshal(st, &state) == nil {
				restored, errMsg := s.restore(c, params, state)
				if errMsg != nil {
					s.writeClient(errMsg)
					return nil
				}
				changed = changed || restored
			}
		}
		c.params = params
		s.track(c)
	}
	if !changed {
		return line
	}
	m["params"] = mustMarshal(params)
	return mustMarshal(m)
}

func decodeObject(raw json.RawMessage) map[string]json.RawMessage {
	if raw == nil {
		return nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	return m
}

func mustMarshal(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		// Only raw JSON that was decoded before is marshalled here.
		panic(err)
	}
	return b
}

func (s *session) pumpServer() error {
	for {
		msg, err := s.server.Read(s.ctx)
		var tooLarge *MessageTooLargeError
		if errors.As(err, &tooLarge) {
			s.serverTooLarge(tooLarge)
			continue
		}
		if err == io.EOF {
			s.log.Info("server closed its stream")
			return nil
		}
		if err != nil {
			if s.ctx.Err() != nil {
				return s.ctx.Err()
			}
			return err
		}
		if s.fromServer(msg) {
			continue
		}
		if !s.writeClient(msg) {
			return errors.New("writing to the client failed")
		}
	}
}

// serverTooLarge answers what the server sent that was too large to read: a request gets an
// error, a response is replaced by an error to whoever waits for it, anything else is dropped.
func (s *session) serverTooLarge(e *MessageTooLargeError) {
	id, method := envelope(e.Head)
	s.log.Warn("dropped a message from the server over the size limit", "limit", e.Limit, "method", method, "id", string(id))
	if id == nil {
		return
	}
	text := fmt.Sprintf("the server's message is larger than the proxy's limit of %d bytes", e.Limit)
	if method != "" {
		s.reply(rawError(id, mcp.CodeInvalidRequest, text, nil))
		return
	}
	resp := rawError(id, mcp.CodeInternalError, text, nil)
	if !s.fromServer(resp) {
		s.writeClient(resp)
	}
}

// fromServer handles a message from the server and reports whether it was consumed (not to be
// forwarded to the client).
func (s *session) fromServer(line []byte) bool {
	if t := bytes.TrimSpace(line); len(t) > 0 && t[0] == '[' {
		return s.serverBatch(line)
	}
	if err := checkStrict(line); err != nil {
		s.serverAmbiguous(line, err)
		return true
	}
	m := parseMessage(line)
	if m != nil && m.isResponse() {
		return s.serverResponse(m, line)
	}
	consumed := s.serverMessage(line)
	if !consumed && m != nil && m.isRequest() {
		// Recorded before it is written, so that the client's answer goes on.
		s.issued.issue(m["id"])
	}
	return consumed
}

// serverMessage handles a message from the server other than a response, and reports whether it
// was consumed.
func (s *session) serverMessage(line []byte) bool {
	msg, err := mcp.UnmarshalJSONRPCMessage(line)
	if err != nil {
		// Not a message the generated types accept. A sampling request among those still must
		// not reach the client: it is answered with the decoding error.
		var env struct {
			Method string          `json:"method"`
			ID     json.RawMessage `json:"id"`
		}
		if json.Unmarshal(line, &env) != nil || env.Method != mcp.MethodCreateMessage {
			return false
		}
		if id, idErr := mcp.UnmarshalRequestID(env.ID); idErr == nil {
			s.log.Warn("invalid sampling request", "error", err)
			s.reply(errorResponse(id, mcp.CodeInvalidRequest, "invalid sampling request: "+err.Error(), nil))
		}
		return true
	}
	switch m := msg.(type) {
	case *mcp.JSONRPCRequest:
		if m.Method == mcp.MethodCreateMessage {
			s.sample(m.ID, line)
			return true
		}
	case *mcp.JSONRPCNotification:
		if m.Method == mcp.MethodCancelled {
			var n mcp.CancelledNotification
			if json.Unmarshal(line, &n) == nil && n.Params.RequestID != nil {
				s.mu.Lock()
				cancel, ok := s.inFlight[idKey(n.Params.RequestID)]
				s.mu.Unlock()
				if ok {
					s.log.Info("server cancelled a sampling request", "id", idText(n.Params.RequestID))
					cancel()
					return true
				}
			}
		}
	}
	return false
}

// serverAmbiguous answers what the server sent with ambiguous members: a request gets an error,
// a response is replaced by an error to whoever waits for it, anything else is dropped.
func (s *session) serverAmbiguous(line []byte, err error) {
	id, method := envelope(line)
	s.log.Warn("refused a message from the server with ambiguous members", "method", method, "id", string(id), "error", err)
	if id == nil {
		return
	}
	text := "the proxy refuses an ambiguous message: " + err.Error()
	if method != "" {
		s.reply(rawError(id, mcp.CodeInvalidRequest, text, nil))
		return
	}
	resp := rawError(id, mcp.CodeInternalError, "the server's answer is ambiguous: "+err.Error(), nil)
	if !s.fromServer(resp) {
		s.writeClient(resp)
	}
}

// serverBatch handles a JSON-RPC batch from the server (removed from MCP in 2025-06-18, but a
// server may still send one): each of its messages is handled as if it came alone (a sampling
// request among them is answered by the proxy, on its own). The batch goes on to the client
// unchanged when the proxy took none of its messages, else the messages it did not take, as a
// batch. A batch that does not parse, or holds a batch, is dropped.
func (s *session) serverBatch(line []byte) bool {
	var msgs []json.RawMessage
	if err := json.Unmarshal(line, &msgs); err != nil || len(msgs) == 0 {
		s.log.Warn("dropped a batch from the server that does not parse, or is empty")
		return true
	}
	var rest []json.RawMessage
	for _, m := range msgs {
		if t := bytes.TrimSpace(m); len(t) > 0 && t[0] == '[' {
			s.log.Warn("dropped a batch from the server that holds a batch")
			return true
		}
	}
	for _, m := range msgs {
		if !s.fromServer(m) {
			rest = append(rest, m)
		}
	}
	switch {
	case len(rest) == len(msgs):
		return false
	case len(rest) > 0:
		s.writeClient(mustMarshal(rest))
	}
	return true
}

// serverResponse routes a response of the server: to the proxy's own retry that waits for it, to
// the multi round-trip handling when it asks for input, or on to the client.
func (s *session) serverResponse(m message, line []byte) bool {
	key := rawKey(m["id"])
	s.mu.Lock()
	if ch, ok := s.waiting[key]; ok {
		delete(s.waiting, key)
		s.mu.Unlock()
		ch <- line
		return true
	}
	c := s.calls[key]
	if c != nil && !c.driving {
		delete(s.calls, key)
	} else {
		c = nil
	}
	isInit := s.initID != "" && key == s.initKey()
	s.mu.Unlock()
	if isInit {
		var res mcp.InitializeResult
		if json.Unmarshal(m["result"], &res) == nil {
			s.log.Info("server initialized", "protocolVersion", res.ProtocolVersion, "server", res.ServerInfo.Name)
		}
	}
	if c == nil || m["result"] == nil {
		return false
	}
	var head struct {
		ResultType string `json:"resultType"`
	}
	if json.Unmarshal(m["result"], &head) != nil || head.ResultType != resultInputRequired {
		return false
	}
	return s.drive(c, m["result"])
}

// initKey is the raw key of the initialize request's id (s.mu held).
func (s *session) initKey() string {
	switch {
	case len(s.initID) > 2 && s.initID[:2] == "s:":
		return string(mustMarshal(s.initID[2:]))
	case len(s.initID) > 2:
		return s.initID[2:]
	}
	return ""
}

// sample answers a server-sent sampling/createMessage request in the background.
func (s *session) sample(id mcp.RequestID, line []byte) {
	key := idKey(id)
	ctx, cancel := context.WithCancel(s.ctx)
	s.mu.Lock()
	s.inFlight[key] = cancel
	s.mu.Unlock()
	started := s.start(func() {
		defer func() {
			s.mu.Lock()
			delete(s.inFlight, key)
			s.mu.Unlock()
			cancel()
		}()
		start := time.Now()
		res, rerr := s.answer(ctx, idText(id), line)
		var resp []byte
		switch {
		case rerr != nil:
			resp = rerr.response(id)
		case res == nil:
			return // cancelled: no answer is sent
		default:
			out, err := json.Marshal(&mcp.JSONRPCResultResponse{ID: id, Result: res})
			if err != nil {
				resp = errorResponse(id, mcp.CodeInternalError, "encoding the sampling result: "+err.Error(), nil)
			} else {
				resp = out
			}
		}
		if s.reply(resp) && rerr == nil {
			s.log.Info("answered sampling request", "id", idText(id), "duration", time.Since(start).Round(time.Millisecond))
		}
	})
	if !started {
		s.mu.Lock()
		delete(s.inFlight, key)
		s.mu.Unlock()
		cancel()
	}
}

// An rpcError is a JSON-RPC error object.
type rpcError struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *rpcError) response(id mcp.RequestID) []byte {
	return errorResponse(id, e.Code, e.Message, e.Data)
}

// answer answers a sampling request (line is the whole JSON-RPC request): the result, or the
// error to answer with, or neither when ctx was cancelled. what names the request in the log.
func (s *session) answer(ctx context.Context, what string, line []byte) (*mcp.CreateMessageResult, *rpcError) {
	params, rerr := s.decodeSample(what, line)
	if rerr != nil {
		return nil, rerr
	}
	release, lerr := s.limiter.admit([]sample{{what: what, params: params, route: s.route(params)}})
	if lerr != nil {
		return nil, lerr
	}
	return s.call(ctx, what, params, release[0])
}

// decodeSample decodes and validates a sampling request (line is the whole JSON-RPC request),
// with the sampling rules of the spec (tool results alone in their message, every tool use
// answered, unique ids): what the client would reject, the proxy rejects too, before the
// provider sees it.
func (s *session) decodeSample(what string, line []byte) (*mcp.CreateMessageRequestParams, *rpcError) {
	var req mcp.CreateMessageRequest
	if err := mcp.Unmarshal(line, &req); err != nil {
		s.log.Warn("invalid sampling request", "id", what, "error", err)
		e := mcp.NewErrorResponse(nil, err).Error
		return nil, &rpcError{Code: e.Code, Message: e.Message, Data: e.Data}
	}
	params := &req.Params
	s.log.Info("sampling request", "id", what, "messages", len(params.Messages), "tools", len(params.Tools))
	return params, nil
}

// route names the route of params that has a token budget of its own, "" for none.
func (s *session) route(params *mcp.CreateMessageRequestParams) string {
	if r, ok := s.p.Sampler.(*Router); ok {
		if _, rt, _ := r.Pick(params); rt != nil && rt.TokenBudget > 0 {
			return rt.Name
		}
	}
	return ""
}

// call makes an admitted provider call and releases it: the result, or the error to answer with,
// or neither when ctx was cancelled. The result goes to the server without the proxy's own
// record in its _meta (the provider, its message id, the usage).
func (s *session) call(ctx context.Context, what string, params *mcp.CreateMessageRequestParams, release release) (*mcp.CreateMessageResult, *rpcError) {
	res, err := s.p.Sampler.CreateMessage(ctx, params)
	release(res, err)
	if err != nil {
		if ctx.Err() != nil {
			return nil, nil // cancelled, or the proxy is stopping
		}
		s.log.Warn("sampling failed", "id", what, "error", err)
		return nil, samplingError(err)
	}
	if err := res.Validate(); err != nil {
		s.log.Warn("the provider's answer breaks the rules of a sampling result", "id", what, "error", err)
		return nil, &rpcError{Code: mcp.CodeInternalError, Message: "the provider's answer is not a valid sampling result: " + err.Error()}
	}
	attrs := []any{"id", what, "model", res.Model}
	if res.StopReason != nil {
		attrs = append(attrs, "stopReason", string(*res.StopReason))
	}
	if info, _ := backfill.Info(res); info != nil {
		attrs = append(attrs, "provider", info.Provider, "providerID", info.ID)
		if info.Usage != nil {
			attrs = append(attrs, "inputTokens", info.Usage.InputTokens, "outputTokens", info.Usage.OutputTokens)
		}
	}
	s.log.Info("model answered", attrs...)
	withoutProxyMeta(res)
	return res, nil
}

// withoutProxyMeta removes the backfill's record (provider, message id, usage) from a result's
// _meta: it is the operator's, not the server's. The thinking blocks kept in the content's _meta
// stay (the conversation needs them back).
func withoutProxyMeta(res *mcp.CreateMessageResult) {
	if res.Meta == nil {
		return
	}
	delete(res.Meta.Extra, backfill.MetaKey)
	if len(res.Meta.Extra) == 0 {
		res.Meta = nil
	}
}

// samplingError maps a Sampler's error to a JSON-RPC error: params the provider cannot take are
// invalid params (-32602), as the spec asks of a client; a provider failure is an internal error
// (-32603) whose data names the provider, the HTTP status, the provider's error type and the
// attempts made. The provider's own text (its error message) is logged, never sent: the server
// is not trusted with what the provider says about the operator's account and key.
func samplingError(err error) *rpcError {
	var ce *backfill.ConversionError
	var pe *backfill.ProviderError
	var ve *mcp.ValidationError
	switch {
	case errors.As(err, &ve):
		e := mcp.NewErrorResponse(nil, err).Error
		return &rpcError{Code: e.Code, Message: e.Message, Data: e.Data}
	case errors.As(err, &pe):
		d := map[string]any{"provider": pe.Provider, "status": pe.StatusCode, "attempts": pe.Attempts}
		if pe.Type != "" {
			d["type"] = pe.Type
		}
		data, _ := json.Marshal(d)
		msg := "sampling failed: " + pe.Summary()
		if pe.StatusCode == 0 {
			msg += ": no answer from the provider"
		}
		return &rpcError{Code: mcp.CodeInternalError, Message: msg, Data: data}
	case errors.As(err, &ce):
		return &rpcError{Code: mcp.CodeInvalidParams, Message: "sampling request cannot be sent to the provider: " + err.Error()}
	default:
		return &rpcError{Code: mcp.CodeInternalError, Message: "sampling failed (the proxy's log says why)"}
	}
}

func errorResponse(id mcp.RequestID, code int64, msg string, data json.RawMessage) []byte {
	out, err := json.Marshal(&mcp.JSONRPCErrorResponse{
		JSONRPC: mcp.JSONRPCVersion,
		ID:      id,
		Error:   mcp.Error{Code: code, Message: msg, Data: data},
	})
	if err != nil {
		// Only an id that does not encode can fail here, and ids come from decoded requests.
		return []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"internal error"}}`)
	}
	return out
}

// rawError is an error response to a raw id.
func rawError(id json.RawMessage, code int64, msg string, data json.RawMessage) []byte {
	return mustMarshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   rpcError        `json:"error"`
	}{"2.0", id, rpcError{Code: code, Message: msg, Data: data}})
}

// idText is a request id as JSON, for the log.
func idText(id mcp.RequestID) string {
	b, err := json.Marshal(id)
	if err != nil {
		return "?"
	}
	return string(b)
}

// idKey makes a comparable key of a request id: "s:abc" for a string, "n:1" for a number.
func idKey(id mcp.RequestID) string {
	switch id := id.(type) {
	case mcp.RequestIDString:
		return "s:" + string(id)
	case mcp.RequestIDNumber:
		return fmt.Sprintf("n:%d", int64(id))
	}
	return ""
}
