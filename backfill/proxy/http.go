package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPOptions configure [NewHTTPConn].
type HTTPOptions struct {
	// Header is added to every HTTP request (e.g. Authorization). It is never logged.
	Header http.Header
	// Client sends the requests; nil uses http.DefaultTransport.
	Client *http.Client
	// MaxMessageBytes bounds a message (a JSON response, or a server-sent event); 0 is
	// [DefaultMaxMessageBytes]. A JSON response over it is answered with a JSON-RPC error to its
	// request (-32603); a larger event ends the connection (go-sdk's transport).
	MaxMessageBytes int
	// Logger receives the failures of messages that have no response to carry them.
	Logger *slog.Logger
}

// HTTPConn is a [Conn] to a remote MCP server over Streamable HTTP, on go-sdk's client transport.
// Each message's params, result or error travel as they were; the JSON-RPC envelope is decoded
// and encoded again. A request the server cannot be reached for (a refused connection, an HTTP
// error status) is answered with a JSON-RPC error (-32603) from the proxy, as if by the server.
//
// The Mcp-Protocol-Version header is the request's _meta protocol version (2026-07-28), or the
// version the server answered initialize with. go-sdk's standalone GET stream is not opened:
// the server's messages arrive on the responses to the requests they relate to.
type HTTPConn struct {
	conn    mcp.Connection
	log     *slog.Logger
	ctx     context.Context
	cancel  context.CancelFunc
	version *atomic.Value  // the negotiated protocol version, for the header
	initID  atomic.Value   // the id of the initialize request, as JSON
	notify  chan struct{}  // a message was queued, or reading ended
	sends   sync.WaitGroup // requests being sent
	closer  sync.Once

	mu      sync.Mutex
	queue   [][]byte        // messages for Read
	readErr error           // how reading ended
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
		return nil, fmt.Errorf("the remote server's URL %q is not an http or https URL", redactURL(endpoint))
	}
	version := &atomic.Value{}
	client.Transport = &headerTransport{origin: origin, base: base, header: opts.Header.Clone(), version: version, maxBytes: maxBytes, log: log}
	t := &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: &client, MaxEventSize: maxBytes, DisableStandaloneSSE: true}
	conn, err := t.Connect(ctx)
	if err != nil {
		return nil, err
	}
	cctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	c := &HTTPConn{conn: conn, log: log, ctx: cctx, cancel: cancel, version: version, notify: make(chan struct{}, 1), pending: map[string]bool{}, reading: true}
	go c.readLoop()
	return c, nil
}

// headerTransport adds the operator's headers, and the protocol version when go-sdk's transport
// has none to give (it learns it only from a client session, which the proxy is not).
type headerTransport struct {
	origin   *url.URL
	base     http.RoundTripper
	header   http.Header
	version  *atomic.Value
	maxBytes int
	log      *slog.Logger
}

func (h *headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	// The operator's headers go to the endpoint's origin only, not to where it redirects.
	if r.URL.Scheme == h.origin.Scheme && r.URL.Host == h.origin.Host {
		for k, vs := range h.header {
			r.Header.Del(k)
			for _, v := range vs {
				r.Header.Add(k, v)
			}
		}
	}
	if v, _ := h.version.Load().(string); v != "" && r.Header.Get("Mcp-Protocol-Version") == "" {
		r.Header.Set("Mcp-Protocol-Version", v)
	}
	resp, err := h.base.RoundTrip(r)
	if err != nil || resp.StatusCode != http.StatusOK || mediaType(resp.Header.Get("Content-Type")) != "application/json" {
		return resp, err
	}
	// go-sdk reads a JSON response whole: it is read here up to the bound, and one over it is
	// replaced by an error response to the request, so that the session goes on.
	body, err := io.ReadAll(io.LimitReader(resp.Body, int64(h.maxBytes)+1))
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	if len(body) > h.maxBytes {
		id := json.RawMessage("null")
		if r.GetBody != nil {
			if rb, err := r.GetBody(); err == nil {
				data, _ := io.ReadAll(io.LimitReader(rb, headBytes))
				if got, _ := envelope(data); got != nil {
					id = got
				}
			}
		}
		h.log.Warn("dropped a response from the remote server over the size limit", "limit", h.maxBytes, "id", string(id))
		body = rawError(id, -32603, fmt.Sprintf("the server's message is larger than the proxy's limit of %d bytes", h.maxBytes), nil)
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	resp.Header.Del("Content-Length")
	return resp, nil
}

func mediaType(contentType string) string {
	t, _, _ := strings.Cut(contentType, ";")
	return strings.ToLower(strings.TrimSpace(t))
}

// Read implements [Conn]: the server's messages, and the proxy's answers to requests that could
// not be sent, in the order they came.
func (c *HTTPConn) Read(ctx context.Context) ([]byte, error) {
	for {
		c.mu.Lock()
		if len(c.queue) > 0 {
			msg := c.queue[0]
			c.queue = c.queue[1:]
			c.mu.Unlock()
			c.answered(msg)
			return msg, nil
		}
		err := c.readErr
		c.mu.Unlock()
		if err != nil {
			return nil, err
		}
		select {
		case <-c.notify:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// push queues a message for Read.
func (c *HTTPConn) push(msg []byte) {
	c.mu.Lock()
	c.queue = append(c.queue, msg)
	c.mu.Unlock()
	select {
	case c.notify <- struct{}{}:
	default:
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
			c.sends.Wait()
			if c.ctx.Err() != nil || errors.Is(err, io.EOF) {
				err = io.EOF
			}
			c.mu.Lock()
			c.readErr = err
			c.mu.Unlock()
			select {
			case c.notify <- struct{}{}:
			default:
			}
			return
		}
		if resp, ok := msg.(*jsonrpc.Response); ok && resp.Result != nil {
			c.noteInitialize(resp)
		}
		c.push(mustEncode(msg))
	}
}

func mustEncode(msg jsonrpc.Message) []byte {
	b, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return rawError(json.RawMessage("null"), -32603, "the server's message does not encode: "+err.Error(), nil)
	}
	return b
}

// noteInitialize learns the protocol version from the answer to initialize.
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
	if json.Unmarshal(resp.Result, &res) == nil && res.ProtocolVersion != "" {
		c.version.Store(res.ProtocolVersion)
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
			c.log.Warn("sending a message to the remote server", "error", err)
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
		if err := c.conn.Write(c.ctx, req); err != nil && c.ctx.Err() == nil {
			c.log.Warn("sending a request to the remote server", "method", req.Method, "id", string(id), "error", err)
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

// redactURL hides the password of a URL's user info.
func redactURL(s string) string {
	if u, err := url.Parse(s); err == nil {
		return u.Redacted()
	}
	return "(a URL that does not parse)"
}
