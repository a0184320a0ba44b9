package proxy

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// The standalone GET stream's reconnection: after the server's retry delay (or these), and at
// most so many times in a row without an event.
const (
	streamRetryDelay    = time.Second
	streamMaxRetryDelay = 5 * time.Minute
	streamMaxRetries    = 5
)

// listen reads the standalone GET stream of the session until the connection ends, reopening it
// when it ends: after the delay of the server's last retry field (else 1 s, doubling while
// reopening fails), with the id of the last event read as Last-Event-ID.
func (c *HTTPConn) listen() {
	defer c.sends.Done()
	ready := func() { c.readyOnce.Do(func() { close(c.listenReady) }) }
	defer ready()
	var lastID string
	delay := time.Duration(0)
	failures := 0
	for {
		if delay > 0 {
			select {
			case <-time.After(delay):
			case <-c.listenCtx.Done():
				return
			}
		}
		if c.listenCtx.Err() != nil {
			return
		}
		req, err := http.NewRequestWithContext(c.listenCtx, http.MethodGet, c.endpoint, nil)
		if err != nil {
			return
		}
		req.Header.Set("Accept", "text/event-stream")
		if s, ok := c.conn.(interface{ SessionID() string }); ok && s.SessionID() != "" {
			req.Header.Set("Mcp-Session-Id", s.SessionID())
		}
		if lastID != "" {
			req.Header.Set("Last-Event-ID", lastID)
		}
		resp, err := c.client.Do(req)
		ready()
		if err == nil && resp.StatusCode == http.StatusMethodNotAllowed {
			resp.Body.Close()
			c.log.Debug("the remote server has no standalone stream (HTTP 405)")
			return
		}
		if err == nil && (resp.StatusCode != http.StatusOK || mediaType(resp.Header.Get("Content-Type")) != "text/event-stream") {
			resp.Body.Close()
			c.log.Warn("the remote server refused the standalone stream", "status", resp.StatusCode, "contentType", resp.Header.Get("Content-Type"))
			return
		}
		progressed := false
		var retry time.Duration
		if err == nil {
			progressed, retry = c.readEvents(resp.Body, &lastID)
			resp.Body.Close()
		}
		if c.listenCtx.Err() != nil {
			return
		}
		if progressed {
			failures = 0
		} else if failures++; failures > streamMaxRetries {
			c.log.Warn("the remote server's standalone stream ended; not reopened", "attempts", failures, "error", redactedErr(err))
			return
		}
		switch {
		case retry > 0:
			delay = min(retry, streamMaxRetryDelay)
		case failures > 0:
			delay = min(streamRetryDelay<<(failures-1), streamMaxRetryDelay)
		default:
			delay = streamRetryDelay
		}
	}
}

// readEvents queues the messages of an event stream for Read, one at a time: it does not read on
// while the queue is full. An event over the bound is dropped. It reports whether any event came
// and the last retry field.
func (c *HTTPConn) readEvents(body io.Reader, lastID *string) (progressed bool, retry time.Duration) {
	lr := newLineReader(body, c.maxBytes)
	var data []byte
	hasData, tooLarge := false, false
	event := ""
	for {
		line, err := lr.next()
		var large *MessageTooLargeError
		if errors.As(err, &large) {
			tooLarge = true
			continue
		}
		if err != nil {
			return progressed, retry
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) == 0 {
			switch {
			case tooLarge:
				c.log.Warn("dropped an event of the remote server's standalone stream over the size limit", "limit", c.maxBytes)
			case hasData && (event == "" || event == "message"):
				msg, err := jsonrpc.DecodeMessage(data)
				if err != nil {
					c.log.Warn("an event of the remote server's standalone stream is not JSON-RPC; dropped", "error", err)
				} else if !c.push(mustEncode(msg)) {
					return progressed, retry
				}
				progressed = true
			}
			data, hasData, tooLarge, event = data[:0], false, false, ""
			continue
		}
		if line[0] == ':' {
			continue
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		switch string(field) {
		case "data":
			if tooLarge || len(data)+len(value)+1 > c.maxBytes {
				tooLarge, data = true, data[:0]
				continue
			}
			if hasData {
				data = append(data, '\n')
			}
			data, hasData = append(data, value...), true
		case "event":
			event = string(value)
		case "id":
			*lastID = string(value)
			progressed = true
		case "retry":
			if ms, err := strconv.Atoi(string(value)); err == nil && ms >= 0 {
				retry = time.Duration(ms) * time.Millisecond
			}
		}
	}
}
