package proxy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPOptions configure [NewHTTPConn].
type HTTPOptions struct {
	// Header is added to every HTTP request to the endpoint's origin (e.g. Authorization). It is
	// never logged.
	Header http.Header
	// Client sends the requests; nil is a client on http.DefaultTransport. Its Transport is where
	// authorization plugs in (one that adds OAuth tokens and handles 401s, say): the proxy's own
	// handling (the headers, the bounds, HTTP errors as JSON-RPC errors) wraps it.
	Client *http.Client
	// MaxMessageBytes bounds a message (a response body of any status and content type, or a
	// server-sent event); 0 is [DefaultMaxMessageBytes]. A response or event over it is dropped
	// unread beyond the bound, and its request answered with a JSON-RPC error (-32603).
	MaxMessageBytes int
	// Logger receives the failures of messages that have no response to carry them.
	Logger *slog.Logger
}

// queueLength is how many of the server's messages an [HTTPConn] holds for Read. Beyond it the
// streams they come on are not read: a client that reads slowly slows the server, as on stdio.
const queueLength = 16

// HTTPConn is a [Conn] to a remote MCP server over Streamable HTTP, on go-sdk's client transport.
// Each message's params, result or error travel as they were; the JSON-RPC envelope is decoded
// and encoded again. A request the server cannot be reached for, or answers with an HTTP error
// status, is answered with a JSON-RPC error (-32603) from the proxy, as if by the server; the
// session goes on.
//
// The Mcp-Protocol-Version header is the request's _meta protocol version (2026-07-28), or the
// version the server answered initialize with. Below 2026-07-28 the standalone GET stream is
// opened once initialize is answered, and reopened when it ends (with Last-Event-ID, after the
// server's retry delay): the requests and notifications the server sends there, unrelated to a
// request of the client, are read like the others. A server that answers the GET with 405 has
// no such stream.
//
// Memory is bounded: at most [HTTPOptions.MaxMessageBytes] of any response body or event is
// read, and the messages read wait for Read in a queue of a few; when it is full, the HTTP
// streams are not read further.
type HTTPConn struct {
	conn     mcp.Connection
	endpoint string
	client   *http.Client // with the proxy's transport
	maxBytes int
	log      *slog.Logger
	ctx      context.Context
	cancel   context.CancelFunc
	version  *atomic.Value  // the negotiated protocol version, for the header
	initID   atomic.Value   // the id of the initialize request, as JSON
	queue    chan []byte    // messages for Read
	ended    chan struct{}  // closed once reading ended, with readErr set
	readErr  error          // how reading ended
	sends    sync.WaitGroup // requests being sent, and the GET stream
	listenOn sync.Once      // the GET stream is opened once
	// listenCtx ends the GET stream, with the connection or when reading from it failed.
	listenCtx    context.Context
	listenCancel context.CancelFunc
	listening    atomic.Bool   // the GET stream was started
	listenReady  chan struct{} // closed once its first GET was answered (or failed)
	readyOnce    sync.Once
	closer       sync.Once

	mu      sync.Mutex
	reading bool            // the connection is read: requests may be sent
	pending map[string]bool // requests sent whose response has not come
	closing bool            // Close was called: abort once nothing is pending
}

// NewHTTPConn returns a Conn to the Streamable HTTP endpoint. The headers of opts go to the
// endpoint's origin only (not to another one it redirects to).
func NewHTTPConn(ctx context.Context, endpoint string, opts *HTTPOptions) (*HTTPConn, error) {
	if opts == nil {
		opts = &HTTPOptions{}
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	base := http.DefaultTransport
	var client http.Client
	if opts.Client != nil {
		client = *opts.Client
		if client.Transport != nil {
			base = client.Transport
		}
	}
	maxBytes := opts.MaxMessageBytes
	if maxBytes <= 0 {
		maxBytes = DefaultMaxMessageBytes
	}
	origin, err := url.Parse(endpoint)
	if err != nil || (origin.Scheme != "http" && origin.Scheme != "https") || origin.Host == "" {
		return nil, fmt.Errorf("the remote server's URL %q is not an http or https URL", RedactURL(endpoint))
	}
	version := &atomic.Value{}
	client.Transport = &headerTransport{origin: origin, base: base, header: opts.Header.Clone(), version: version, maxBytes: maxBytes, log: log}
	// go-sdk's own GET stream is opened only from a client session of its own, which the proxy
	// is not: HTTPConn opens it (listen).
	t := &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: &client, MaxEventSize: maxBytes + headBytes, DisableStandaloneSSE: true}
	conn, err := t.Connect(ctx)
	if err != nil {
		return nil, err
	}
	cctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	c := &HTTPConn{
		conn: conn, endpoint: endpoint, client: &client, maxBytes: maxBytes, log: log, ctx: cctx, cancel: cancel, version: version,
		queue: make(chan []byte, queueLength), ended: make(chan struct{}), listenReady: make(chan struct{}), pending: map[string]bool{}, reading: true,
	}
	c.listenCtx, c.listenCancel = context.WithCancel(cctx)
	go c.readLoop()
	return c, nil
}

// Read implements [Conn]: the server's messages, and the proxy's answers to requests that could
// not be sent, in the order they came.
func (c *HTTPConn) Read(ctx context.Context) ([]byte, error) {
	select {
	case msg := <-c.queue:
		c.answered(msg)
		return msg, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.ended:
		select {
		case msg := <-c.queue:
			c.answered(msg)
			return msg, nil
		default:
			return nil, c.readErr
		}
	}
}

// push queues a message for Read, waiting while the queue is full; it reports false when the
// connection ended meanwhile.
func (c *HTTPConn) push(msg []byte) bool {
	select {
	case c.queue <- msg:
		return true
	case <-c.ctx.Done():
		return false
	}
}

// readLoop reads the server's messages until the connection ends. The requests being sent are
// let finish first, so that their failures come before the end.
func (c *HTTPConn) readLoop() {
	for {
		msg, err := c.conn.Read(c.ctx)
		if err != nil {
			c.mu.Lock()
			c.reading = false // no request starts to be sent after this
			c.mu.Unlock()
			if c.ctx.Err() == nil {
				c.log.Warn("the connection to the remote server failed", "error", RedactURLs(err.Error()))
			}
			c.listenCancel()
			c.sends.Wait()
			if c.ctx.Err() != nil || errors.Is(err, io.EOF) {
				err = io.EOF
			} else {
				c.failPending(err)
			}
			c.readErr = err
			close(c.ended)
			return
		}
		if resp, ok := msg.(*jsonrpc.Response); ok && resp.Result != nil {
			c.noteInitialize(resp)
		}
		if !c.push(mustEncode(msg)) {
			// Abort: the read that comes next fails.
			continue
		}
	}
}

// failPending answers every request still waiting for its response with a JSON-RPC error, when
// the connection failed: the client is told, not left waiting.
func (c *HTTPConn) failPending(err error) {
	c.mu.Lock()
	var ids []string
	for id := range c.pending {
		ids = append(ids, id)
	}
	c.mu.Unlock()
	for _, id := range ids {
		if !c.push(rawError(json.RawMessage(id), -32603, "the connection to the remote server failed: "+RedactURLs(err.Error()), nil)) {
			return
		}
	}
}

func mustEncode(msg jsonrpc.Message) []byte {
	b, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return rawError(json.RawMessage("null"), -32603, "the server's message does not encode: "+err.Error(), nil)
	}
	return b
}

// noteInitialize learns the protocol version from the answer to initialize, and opens the GET
// stream for the versions that have one.
func (c *HTTPConn) noteInitialize(resp *jsonrpc.Response) {
	want, _ := c.initID.Load().(string)
	if want == "" {
		return
	}
	id, err := json.Marshal(resp.ID.Raw())
	if err != nil || string(id) != want {
		return
	}
	var res struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if json.Unmarshal(resp.Result, &res) != nil || res.ProtocolVersion == "" {
		return
	}
	c.version.Store(res.ProtocolVersion)
	// From 2026-07-28 on there is no standalone stream (requests carry their own).
	if res.ProtocolVersion < firstPerRequestVersion {
		c.listenOn.Do(func() {
			c.mu.Lock()
			defer c.mu.Unlock()
			if c.reading {
				c.sends.Add(1)
				c.listening.Store(true)
				go c.listen()
			}
		})
	}
}

// Write implements [Conn]. A request is posted in the background (its response comes through
// Read); initialize and server/discover are posted before Write returns, so that what follows
// them carries the session they open. A message that does not decode as JSON-RPC is answered, if
// it has an id, with a JSON-RPC error.
func (c *HTTPConn) Write(ctx context.Context, data []byte) error {
	c.mu.Lock()
	closing := c.closing
	c.mu.Unlock()
	if closing || c.ctx.Err() != nil {
		return errClosed
	}
	msg, err := jsonrpc.DecodeMessage(data)
	if err != nil {
		id, _ := envelope(data)
		c.log.Warn("a message for the remote server is not JSON-RPC; dropped", "error", err)
		if id != nil {
			c.push(rawError(id, -32600, "the message is not valid JSON-RPC: "+err.Error(), nil))
		}
		return nil
	}
	req, isCall := msg.(*jsonrpc.Request)
	if !isCall || !req.IsCall() {
		if err := c.conn.Write(c.ctx, msg); err != nil {
			c.log.Warn("sending a message to the remote server", "error", RedactURLs(err.Error()))
		}
		return nil
	}
	id, _ := json.Marshal(req.ID.Raw())
	c.mu.Lock()
	if !c.reading {
		c.mu.Unlock()
		return errClosed
	}
	c.pending[rawKey(id)] = true
	c.sends.Add(1)
	c.mu.Unlock()
	send := func() {
		defer c.sends.Done()
		c.awaitStream()
		if err := c.conn.Write(c.ctx, req); err != nil && c.ctx.Err() == nil {
			c.log.Warn("sending a request to the remote server", "method", req.Method, "id", string(id), "error", RedactURLs(err.Error()))
			c.mu.Lock()
			delete(c.pending, rawKey(id)) // answered here (and not again by failPending)
			c.mu.Unlock()
			c.push(rawError(id, -32603, "the proxy could not reach the remote server: "+RedactURLs(err.Error()), nil))
		}
	}
	if req.Method == "initialize" || req.Method == "server/discover" {
		if req.Method == "initialize" {
			c.initID.Store(string(id))
		}
		send()
		return nil
	}
	go send()
	return nil
}

// streamWait is how long a request waits for the GET stream to open.
const streamWait = 2 * time.Second

// awaitStream waits, once the GET stream was started, until its first GET was answered (at most
// streamWait): a server sends what is unrelated to a request on it, and drops it while there is
// none, so a request that makes the server send such a thing (an elicitation, say) must not come
// before it.
func (c *HTTPConn) awaitStream() {
	if !c.listening.Load() {
		return
	}
	select {
	case <-c.listenReady:
	case <-time.After(streamWait):
	case <-c.ctx.Done():
	}
}

// answered notes that a request's response was read, and ends the session once Close was called
// and nothing is pending.
func (c *HTTPConn) answered(msg []byte) {
	m := parseMessage(msg)
	if m == nil || !m.isResponse() {
		return
	}
	c.mu.Lock()
	delete(c.pending, rawKey(m["id"]))
	done := c.closing && len(c.pending) == 0
	c.mu.Unlock()
	if done {
		c.Abort()
	}
}

// Close implements [Conn]: nothing more is sent, and once every request sent has its response,
// the session ends (go-sdk sends DELETE) and Read returns io.EOF. [HTTPConn.Abort] ends it at
// once.
func (c *HTTPConn) Close() error {
	c.mu.Lock()
	c.closing = true
	done := len(c.pending) == 0
	c.mu.Unlock()
	if done {
		return c.Abort()
	}
	return nil
}

// Abort ends the session at once, and with it the requests in progress.
func (c *HTTPConn) Abort() error {
	var err error
	c.closer.Do(func() {
		err = c.conn.Close()
		c.cancel()
	})
	return err
}

// RedactURL is a URL to log or show: without the password of its user info, and with the values
// of its query (a token in ?api_key=..., say) replaced.
func RedactURL(s string) string {
	if _, err := url.Parse(s); err == nil && urlInText.MatchString(s) {
		return RedactURLs(s)
	}
	return "(a URL that does not parse)"
}
