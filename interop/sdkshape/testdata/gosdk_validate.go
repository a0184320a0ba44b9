package mcp

// run.sh -validate adds this file to go-sdk's mcp package as zz_sdkshape_validate.go: it
// declares connect again (go-sdk v1.8.0's, transport.go, which strip then removes), the one
// function that wires every transport of every client and server session to its JSON-RPC
// connection, with the connection's reader and writer wrapped so that every message a session
// sends or receives is decoded into the params or result type of its method (go-sdk's method
// tables, whose types are mcpgen's) and checked by its generated Validate. Each message checked
// is a line "mcpgen-checked: DIRECTION METHOD TYPE" on the standard error (examples compare the
// standard output), each problem a line "mcpgen-validate: DIRECTION METHOD TYPE: POINTER:
// MESSAGE", which run.sh attributes to the test running (go test -v -parallel 1). The messages
// pass on as they are.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/internal/jsonrpc2"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// connect wires a transport to a binder, as go-sdk v1.8.0's does, with the connection's reader
// and writer checking every message. logger must be non-nil; it receives the JSON-RPC
// connection's internal errors.
func connect[H handler, State any](ctx context.Context, t Transport, b binder[H, State], s State, onClose func(), logger *slog.Logger) (H, error) {
	var zero H
	mcpConn, err := t.Connect(ctx)
	if err != nil {
		return zero, err
	}
	reader, writer := jsonrpc2.Reader(mcpConn), jsonrpc2.Writer(mcpConn)
	checked := &sdkshapeConn{sent: map[jsonrpc.ID]string{}, received: map[jsonrpc.ID]string{}}
	reader, writer = sdkshapeReader{reader, checked}, sdkshapeWriter{writer, checked}
	var (
		h         H
		preempter canceller
	)
	bind := func(conn *jsonrpc2.Connection) jsonrpc2.Handler {
		h = b.bind(mcpConn, conn, s, onClose)
		preempter.conn = conn
		return jsonrpc2.HandlerFunc(h.handle)
	}
	var propagateCancellation bool
	if cp, ok := mcpConn.(cancellationPropagator); ok {
		propagateCancellation = cp.propagateCancellation()
	}
	_ = jsonrpc2.NewConnection(ctx, jsonrpc2.ConnectionConfig{
		Reader:    reader,
		Writer:    writer,
		Closer:    mcpConn,
		Bind:      bind,
		Preempter: &preempter,
		OnDone: func() {
			b.disconnect(h)
		},
		OnInternalError: func(err error) {
			logger.Error("jsonrpc2 internal error", "error", err)
		},
		PropagateCancellation: propagateCancellation,
	})
	assert(preempter.conn != nil, "unbound preempter")
	return h, nil
}

// sdkshapeConn holds the methods of the requests a session sent and received, by id, so that
// their responses are checked as their results.
type sdkshapeConn struct {
	mu             sync.Mutex
	sent, received map[jsonrpc.ID]string
}

type sdkshapeReader struct {
	r jsonrpc2.Reader
	c *sdkshapeConn
}

func (r sdkshapeReader) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := r.r.Read(ctx)
	if err == nil {
		r.c.check("received", msg, r.c.received, r.c.sent)
	}
	return msg, err
}

type sdkshapeWriter struct {
	w jsonrpc2.Writer
	c *sdkshapeConn
}

func (w sdkshapeWriter) Write(ctx context.Context, msg jsonrpc.Message) error {
	w.c.check("sent", msg, w.c.sent, w.c.received)
	return w.w.Write(ctx, msg)
}

// check validates msg: a request's or notification's params, or a response's result, by the
// method of the request it answers (asked: the requests of the other direction).
func (c *sdkshapeConn) check(dir string, msg jsonrpc.Message, requests, asked map[jsonrpc.ID]string) {
	var method string
	var raw json.RawMessage
	var value any
	c.mu.Lock()
	switch m := msg.(type) {
	case *jsonrpc.Request:
		method, raw = m.Method, m.Params
		if m.ID.IsValid() {
			requests[m.ID] = m.Method
		}
	case *jsonrpc.Response:
		method = asked[m.ID]
		delete(asked, m.ID)
		if m.Error != nil || method == "" {
			c.mu.Unlock()
			return
		}
		raw = m.Result
	}
	c.mu.Unlock()
	info, ok := serverMethodInfos[method]
	if !ok {
		info, ok = clientMethodInfos[method]
	}
	if !ok {
		return
	}
	var err error
	switch msg.(type) {
	case *jsonrpc.Request:
		if len(raw) == 0 {
			return
		}
		value, err = info.unmarshalParams(raw)
	case *jsonrpc.Response:
		value = info.newResult()
		err = json.Unmarshal(raw, value)
	}
	if err == nil {
		v, ok := value.(interface{ Validate() error })
		if !ok {
			return // a type of go-sdk's own, without validators
		}
		err = v.Validate()
	}
	sdkshapeReport(dir, method, fmt.Sprintf("%T", value), err)
}

// sdkshapeReport prints that a message was checked, then the problems of err, one a line.
func sdkshapeReport(dir, method, typ string, err error) {
	fmt.Fprintf(os.Stderr, "mcpgen-checked: %s %s %s\n", dir, method, typ)
	var ve *ValidationError
	switch {
	case err == nil:
	case errors.As(err, &ve):
		for _, p := range ve.Problems {
			fmt.Fprintf(os.Stderr, "mcpgen-validate: %s %s %s: %s: %s\n", dir, method, typ, p.Pointer, p.Message)
		}
	default:
		fmt.Fprintf(os.Stderr, "mcpgen-validate: %s %s %s: (decoding): %v\n", dir, method, typ, err)
	}
}
