// Package gosdk holds a small MCP server and a small MCP client built only on the generated
// package mcp20251125 and the standard library, and the tests that run them against the official
// Go SDK (github.com/modelcontextprotocol/go-sdk) over the stdio of a subprocess.
//
// peer.go is the JSON-RPC plumbing that the generated package leaves to its user: framing,
// request ids, matching responses to waiting calls, running handlers concurrently, and answering
// with errors. server.go and client.go are the application: what a server or client does with
// the typed messages. TestPlumbingLines counts the lines of peer.go for the README.
package gosdk

import (
	"bufio"
	"context"
	"errors"
	"io"
	"sync"
	"sync/atomic"

	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
)

// Handler answers a request (with a result or an error) or takes a notification (its result is
// ignored). It runs on a goroutine of its own, so it may call the peer back.
type Handler func(ctx context.Context, msg mcp.Message) (mcp.AnyResult, error)

// Conn is one end of an MCP connection over newline-delimited JSON-RPC (the stdio transport).
type Conn struct {
	decode  func([]byte, func(mcp.RequestID) (string, bool)) (mcp.Message, error)
	handle  Handler
	out     io.Writer
	writeMu sync.Mutex
	lastID  atomic.Int64
	pending mcp.Pending // the method of each call, to decode its result
	mu      sync.Mutex
	waiting map[mcp.RequestID]chan mcp.Message
}

// NewServerConn returns the server end: it reads what a client sends.
func NewServerConn(out io.Writer, h Handler) *Conn {
	return &Conn{decode: mcp.DecodeClientMessage, handle: h, out: out, waiting: map[mcp.RequestID]chan mcp.Message{}}
}

// NewClientConn returns the client end: it reads what a server sends.
func NewClientConn(out io.Writer, h Handler) *Conn {
	return &Conn{decode: mcp.DecodeServerMessage, handle: h, out: out, waiting: map[mcp.RequestID]chan mcp.Message{}}
}

// NextID returns a new request id.
func (c *Conn) NextID() mcp.RequestID { return mcp.RequestIDNumber(c.lastID.Add(1)) }

// Run reads and dispatches messages until in ends or fails.
func (c *Conn) Run(ctx context.Context, in io.Reader) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		msg, err := c.decode(sc.Bytes(), c.pending.Take)
		var merr *mcp.MessageError
		switch m := msg.(type) {
		case *mcp.JSONRPCResultResponse, *mcp.JSONRPCErrorResponse:
			c.deliver(m.GetID(), m)
		case nil:
			if errors.As(err, &merr) && merr.ID != nil && merr.Response {
				c.deliver(merr.ID, mcp.NewErrorResponse(merr.ID, err)) // fails the call it answers
				continue
			}
			c.send(mcp.NewErrorResponse(nil, err))
		default:
			go c.serve(ctx, m)
		}
	}
	c.mu.Lock() // the connection is closed: fail the calls still waiting
	for id, ch := range c.waiting {
		ch <- mcp.NewErrorResponse(id, errors.New("connection closed"))
		delete(c.waiting, id)
	}
	c.mu.Unlock()
	return sc.Err()
}

// serve runs the handler on a request or notification and answers a request.
func (c *Conn) serve(ctx context.Context, m mcp.Message) {
	var res mcp.AnyResult
	err := m.Validate()   // an unknown method: method not found
	if m.GetID() == nil { // a notification
		if err == nil {
			c.handle(ctx, m)
		}
		return
	}
	if err == nil {
		res, err = c.handle(ctx, m)
	}
	if err != nil {
		c.send(mcp.NewErrorResponse(m.GetID(), err))
		return
	}
	c.send(&mcp.JSONRPCResultResponse{ID: m.GetID(), Result: res})
}

// Call sends a request (its ID set with NextID) and waits for its result, typed by the method.
func (c *Conn) Call(ctx context.Context, req mcp.Message) (mcp.AnyResult, error) {
	ch := make(chan mcp.Message, 1)
	c.mu.Lock()
	c.waiting[req.GetID()] = ch
	c.mu.Unlock()
	c.pending.Add(req.GetID(), req.GetMethod())
	defer c.forget(req.GetID())
	if err := c.send(req); err != nil {
		return nil, err
	}
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case m := <-ch:
		if e, ok := m.(*mcp.JSONRPCErrorResponse); ok {
			return nil, e.Error.Typed()
		}
		return m.(*mcp.JSONRPCResultResponse).Result, nil
	}
}

// Notify sends a notification.
func (c *Conn) Notify(n mcp.Message) error { return c.send(n) }

// deliver hands a response to the call waiting for it, and says whether there was one.
func (c *Conn) deliver(id mcp.RequestID, m mcp.Message) bool {
	c.mu.Lock()
	ch, ok := c.waiting[id]
	delete(c.waiting, id)
	c.mu.Unlock()
	if ok {
		ch <- m
	}
	return ok
}

func (c *Conn) forget(id mcp.RequestID) {
	c.mu.Lock()
	delete(c.waiting, id)
	c.mu.Unlock()
	c.pending.Take(id) // an error response or a cancelled call leaves it there
}

// send validates and writes one message on its own line.
func (c *Conn) send(m mcp.Message) error {
	b, err := mcp.Marshal(m)
	if err != nil {
		return err
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err = c.out.Write(append(b, '\n'))
	return err
}
