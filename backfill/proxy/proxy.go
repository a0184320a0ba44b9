// Package proxy sits between an MCP client and an MCP server on stdio and answers the server's
// sampling requests itself, with a [sampling.Sampler] (a model provider's API, for a backfill),
// so that a server that needs a model works under a client that has none.
//
// It forwards every message in both directions unchanged, byte for byte and in order, with three
// exceptions:
//   - the client's initialize request is rewritten to advertise the sampling capability with
//     tools (and without context inclusion or task-augmented sampling, which it does not do);
//   - the server's sampling/createMessage requests are answered by the Sampler and are not
//     forwarded to the client;
//   - the server's notifications/cancelled for such a request cancel it and are not forwarded.
//
// This is the 2025-11-25 flow, where the server sends sampling/createMessage itself. In
// 2026-07-28 a server asks for sampling inside its results (multi round-trip requests), which
// the proxy passes through untouched; it logs a warning when a session negotiates such a version.
//
// Messages are newline-delimited JSON, as on the stdio transport. JSON-RPC batches (removed from
// MCP in 2025-06-18) are forwarded unread.
package proxy

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/backfill"
	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
	"github.com/mcpgen/mcpgen/sampling"
)

// A Proxy forwards MCP traffic between a client and a server and answers the server's sampling
// requests with its Sampler.
type Proxy struct {
	// Sampler answers the server's sampling/createMessage requests.
	Sampler sampling.Sampler
	// Logger receives what the proxy does; nil discards it.
	Logger *slog.Logger
	// OnClientClosed, when set, is called once the client's stream has ended and the server's
	// input has been closed, so that the caller can give the server a deadline to exit.
	OnClientClosed func()
}

// Serve forwards messages from fromClient to toServer and from fromServer to toClient until the
// server's output ends, and returns nil then. When the client's stream ends first, Serve closes
// toServer, so that the server sees the end of its input and exits, and keeps forwarding the
// server's last messages. When ctx ends, Serve returns ctx's error; the caller stops the server.
// Serve waits for the sampling requests it started; the goroutine reading fromClient may outlive
// it, until that stream ends.
func (p *Proxy) Serve(ctx context.Context, fromClient io.Reader, toClient io.Writer, fromServer io.Reader, toServer io.WriteCloser) error {
	log := p.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s := &session{
		p:        p,
		log:      log,
		ctx:      ctx,
		toServer: toServer,
		toClient: toClient,
		inFlight: map[string]context.CancelFunc{},
	}

	go s.pumpClient(fromClient)

	serverDone := make(chan error, 1)
	go func() { serverDone <- s.pumpServer(fromServer) }()

	var err error
	select {
	case err = <-serverDone:
	case <-ctx.Done():
		err = ctx.Err()
	}
	cancel()
	s.mu.Lock()
	s.closing = true
	s.mu.Unlock()
	s.wg.Wait()
	return err
}

type session struct {
	p   *Proxy
	log *slog.Logger
	ctx context.Context

	serverMu     sync.Mutex // serializes writes to the server
	toServer     io.WriteCloser
	serverClosed bool

	toClient io.Writer // written only by pumpServer

	mu       sync.Mutex
	initID   string                        // the key of the client's initialize request
	inFlight map[string]context.CancelFunc // sampling requests being answered, by request id key
	closing  bool                          // Serve is returning: no new sampling starts
	wg       sync.WaitGroup
}

// readLines calls f with each line of r, newline included (the last line may lack one).
func readLines(r io.Reader, f func(line []byte) error) error {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			if ferr := f(line); ferr != nil {
				return ferr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func (s *session) pumpClient(fromClient io.Reader) {
	err := readLines(fromClient, func(line []byte) error {
		return s.writeServer(s.fromClient(line))
	})
	if err != nil && s.ctx.Err() == nil {
		s.log.Warn("client stream", "error", err)
	}
	s.serverMu.Lock()
	if !s.serverClosed {
		s.serverClosed = true
		s.toServer.Close()
	}
	s.serverMu.Unlock()
	if s.ctx.Err() == nil {
		s.log.Info("client closed its stream; closed the server's input")
		if s.p.OnClientClosed != nil {
			s.p.OnClientClosed()
		}
	}
}

func (s *session) writeServer(line []byte) error {
	s.serverMu.Lock()
	defer s.serverMu.Unlock()
	if s.serverClosed {
		return errors.New("the server's input is closed")
	}
	_, err := s.toServer.Write(line)
	return err
}

// fromClient returns the line to send to the server for a line from the client.
func (s *session) fromClient(line []byte) []byte {
	msg, err := mcp.UnmarshalJSONRPCMessage(line)
	if err != nil {
		return line
	}
	req, ok := msg.(*mcp.JSONRPCRequest)
	if ok && req.Method == "server/discover" {
		s.log.Warn("the client speaks protocol 2026-07-28 or later (server/discover), where servers ask for sampling inside their results; the proxy answers sampling only in the 2025-11-25 flow")
	}
	if !ok || req.Method != mcp.MethodInitialize {
		return line
	}
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
	return append(out, '\n')
}

func (s *session) pumpServer(fromServer io.Reader) error {
	err := readLines(fromServer, func(line []byte) error {
		if s.fromServer(line) {
			return nil
		}
		_, err := s.toClient.Write(line)
		if err != nil {
			return fmt.Errorf("writing to the client: %w", err)
		}
		return nil
	})
	if err == nil {
		s.log.Info("server closed its stream")
	}
	return err
}

// fromServer handles a line from the server and reports whether it was consumed (not to be
// forwarded to the client).
func (s *session) fromServer(line []byte) bool {
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
			s.reply(errorResponse(id, mcp.InvalidRequest, "invalid sampling request: "+err.Error(), nil))
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
	case *mcp.JSONRPCResultResponse:
		s.mu.Lock()
		isInit := s.initID != "" && idKey(m.ID) == s.initID
		s.mu.Unlock()
		if isInit {
			var res mcp.InitializeResult
			if b, err := json.Marshal(&m.Result); err == nil && json.Unmarshal(b, &res) == nil {
				s.log.Info("server initialized", "protocolVersion", res.ProtocolVersion, "server", res.ServerInfo.Name)
				if res.ProtocolVersion > mcp.LatestProtocolVersion {
					s.log.Warn("this protocol version asks for sampling inside results (multi round-trip requests), which the proxy does not answer", "protocolVersion", res.ProtocolVersion)
				}
			}
		}
	}
	return false
}

// sample answers a sampling/createMessage request in the background.
func (s *session) sample(id mcp.RequestID, line []byte) {
	key := idKey(id)
	ctx, cancel := context.WithCancel(s.ctx)
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		cancel()
		return
	}
	s.inFlight[key] = cancel
	s.wg.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.wg.Done()
		defer func() {
			s.mu.Lock()
			delete(s.inFlight, key)
			s.mu.Unlock()
			cancel()
		}()
		start := time.Now()
		resp := s.answer(ctx, id, line)
		if resp == nil {
			return // cancelled: no answer is sent
		}
		if s.reply(resp) {
			s.log.Info("answered sampling request", "id", idText(id), "duration", time.Since(start).Round(time.Millisecond))
		}
	}()
}

// reply sends a response to the server and reports whether it could.
func (s *session) reply(resp []byte) bool {
	if err := s.writeServer(append(resp, '\n')); err != nil {
		s.log.Warn("could not answer the server", "error", err)
		return false
	}
	return true
}

// answer returns the JSON-RPC response to a sampling request, or nil when ctx was cancelled.
func (s *session) answer(ctx context.Context, id mcp.RequestID, line []byte) []byte {
	// Decoded and validated, with the sampling rules of the spec (tool results alone in their
	// message, every tool use answered, unique ids): what the client would reject, the proxy
	// rejects too, before the provider sees it.
	var req mcp.CreateMessageRequest
	if err := mcp.Unmarshal(line, &req); err != nil {
		s.log.Warn("invalid sampling request", "id", idText(id), "error", err)
		resp, _ := json.Marshal(mcp.NewErrorResponse(id, err))
		return resp
	}
	s.log.Info("sampling request", "id", idText(id), "messages", len(req.Params.Messages), "tools", len(req.Params.Tools))
	res, err := s.p.Sampler.CreateMessage(ctx, &req.Params)
	if err != nil {
		if ctx.Err() != nil {
			return nil // the server cancelled it, or the proxy is stopping
		}
		s.log.Warn("sampling failed", "id", idText(id), "error", err)
		return samplingError(id, err)
	}
	if err := res.Validate(); err != nil {
		s.log.Warn("the provider's answer breaks the rules of a sampling result", "id", idText(id), "error", err)
		return errorResponse(id, mcp.InternalError, "the provider's answer is not a valid sampling result: "+err.Error(), nil)
	}
	attrs := []any{"id", idText(id), "model", res.Model}
	if res.StopReason != nil {
		attrs = append(attrs, "stopReason", string(*res.StopReason))
	}
	s.log.Info("model answered", attrs...)
	out, err := json.Marshal(&mcp.JSONRPCResultResponse{ID: id, Result: res})
	if err != nil {
		return errorResponse(id, mcp.InternalError, "encoding the sampling result: "+err.Error(), nil)
	}
	return out
}

// samplingError maps a Sampler's error to a JSON-RPC error: params the provider cannot take are
// invalid params (-32602), as the spec asks of a client; a provider failure is an internal error
// (-32603) whose data names the provider, the HTTP status and the attempts made.
func samplingError(id mcp.RequestID, err error) []byte {
	var ce *backfill.ConversionError
	var pe *backfill.ProviderError
	var ve *mcp.ValidationError
	switch {
	case errors.As(err, &ve):
		resp, _ := json.Marshal(mcp.NewErrorResponse(id, err))
		return resp
	case errors.As(err, &pe):
		data, _ := json.Marshal(map[string]any{"provider": pe.Provider, "status": pe.StatusCode, "attempts": pe.Attempts})
		return errorResponse(id, mcp.InternalError, "sampling failed: "+err.Error(), data)
	case errors.As(err, &ce):
		return errorResponse(id, mcp.InvalidParams, "sampling request cannot be sent to the provider: "+err.Error(), nil)
	default:
		return errorResponse(id, mcp.InternalError, "sampling failed: "+err.Error(), nil)
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
