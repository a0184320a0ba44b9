package proxy

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
)

// headerTransport is what the proxy does to every HTTP exchange with the remote server: it adds
// the operator's headers, and the protocol version when go-sdk's transport has none to give (it
// learns it only from a client session, which the proxy is not); it reads no response body beyond
// the message bound, whatever its status and content type; and it turns an HTTP error answering
// one request into a JSON-RPC error to that request, so that go-sdk's transport does not end the
// session for it.
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
	if err != nil {
		return resp, err
	}
	success := resp.StatusCode >= 200 && resp.StatusCode < 300
	contentType := mediaType(resp.Header.Get("Content-Type"))
	var id json.RawMessage // the id of the request posted, if it is one
	if r.Method == http.MethodPost {
		id = postedID(r)
	}
	if success && contentType == "text/event-stream" {
		// Events are read one at a time, each within the bound (sseFilter, and the GET stream's
		// reader).
		if r.Method == http.MethodPost {
			resp.Body = newSSEFilter(resp.Body, h.maxBytes, id, h.log)
		}
		return resp, nil
	}
	body, over, err := readBounded(resp.Body, h.maxBytes)
	if err != nil {
		return nil, err
	}
	switch {
	case r.Method != http.MethodPost || resp.StatusCode >= 300 && resp.StatusCode < 400:
		// GET and DELETE: their callers read the status only; a redirect is followed by the
		// client.
		if over {
			body = nil
		}
		return withBody(resp, resp.StatusCode, body), nil
	case success && over:
		h.log.Warn("dropped a response from the remote server over the size limit", "limit", h.maxBytes, "status", resp.StatusCode, "id", string(id))
		if id == nil {
			return withBody(resp, http.StatusAccepted, nil), nil
		}
		return jsonAnswer(resp, rawError(id, -32603, fmt.Sprintf("the server's message is larger than the proxy's limit of %d bytes", h.maxBytes), nil)), nil
	case success:
		return withBody(resp, resp.StatusCode, body), nil
	case resp.StatusCode == http.StatusNotFound && r.Header.Get("Mcp-Session-Id") != "":
		// The server ended the session: go-sdk's transport ends the connection, and each request
		// in progress is answered with an error.
		return withBody(resp, resp.StatusCode, nil), nil
	}
	status := fmt.Sprintf("HTTP %d %s", resp.StatusCode, http.StatusText(resp.StatusCode))
	if id == nil {
		// A notification or a response the server refused: nothing to answer; the session goes on.
		h.log.Warn("the remote server refused a message", "status", status)
		return withBody(resp, http.StatusAccepted, nil), nil
	}
	h.log.Warn("the remote server refused a request", "status", status, "id", string(id), "body_over_limit", over)
	answer := rawError(id, -32603, "the remote server answered "+status, mustMarshal(map[string]int{"status": resp.StatusCode}))
	if !over {
		// The server's own JSON-RPC error, when it sent one for this request.
		var e struct {
			ID    json.RawMessage `json:"id"`
			Error *rpcError       `json:"error"`
		}
		if json.Unmarshal(body, &e) == nil && e.Error != nil && rawKey(e.ID) == rawKey(id) {
			answer = rawError(id, e.Error.Code, e.Error.Message, e.Error.Data)
		}
	}
	return jsonAnswer(resp, answer), nil
}

// postedID is the id of the JSON-RPC request in a POST's body, or nil for anything else.
func postedID(r *http.Request) json.RawMessage {
	if r.GetBody == nil {
		return nil
	}
	rb, err := r.GetBody()
	if err != nil {
		return nil
	}
	defer rb.Close()
	data, _ := io.ReadAll(io.LimitReader(rb, headBytes))
	id, method := envelope(data)
	if method == "" {
		return nil
	}
	return id
}

// readBounded reads at most max bytes of body, and closes it; over reports that there was more.
func readBounded(body io.ReadCloser, max int) (data []byte, over bool, err error) {
	defer body.Close()
	data, err = io.ReadAll(io.LimitReader(body, int64(max)+1))
	if err != nil {
		return nil, false, err
	}
	if len(data) > max {
		return nil, true, nil
	}
	return data, false, nil
}

// withBody is resp with the given status and body.
func withBody(resp *http.Response, status int, body []byte) *http.Response {
	out := *resp
	out.Header = resp.Header.Clone()
	out.Header.Del("Content-Length")
	if status != resp.StatusCode {
		out.StatusCode = status
		out.Status = strconv.Itoa(status) + " " + http.StatusText(status)
	}
	out.Body = io.NopCloser(bytes.NewReader(body))
	out.ContentLength = int64(len(body))
	return &out
}

// jsonAnswer is resp turned into a 200 response carrying one JSON-RPC message.
func jsonAnswer(resp *http.Response, msg []byte) *http.Response {
	out := withBody(resp, http.StatusOK, msg)
	out.Header.Set("Content-Type", "application/json")
	return out
}

func mediaType(contentType string) string {
	t, _, _ := strings.Cut(contentType, ";")
	return strings.ToLower(strings.TrimSpace(t))
}

// sseFilter passes a POST's event stream through, event by event, and never holds more than the
// bound of one: an event over the bound is dropped and, for a request, replaced by a JSON-RPC
// error answering it (which ends the stream); for anything else the stream ends there.
type sseFilter struct {
	br      *bufio.Reader
	body    io.Closer
	max     int
	id      json.RawMessage
	log     *slog.Logger
	event   []byte // the current event, so far
	out     []byte // what is read next
	size    int    // bytes of the current event so far
	skip    bool
	stopped bool
}

func newSSEFilter(body io.ReadCloser, max int, id json.RawMessage, log *slog.Logger) *sseFilter {
	return &sseFilter{br: bufio.NewReaderSize(body, 64<<10), body: body, max: max, id: id, log: log}
}

func (f *sseFilter) Read(p []byte) (int, error) {
	for len(f.out) == 0 {
		if f.stopped {
			return 0, io.EOF
		}
		// An event is held until its blank line, and read no further than the bound.
		frag, err := f.br.ReadSlice('\n')
		f.size += len(frag)
		if f.size > f.max+headBytes { // headBytes: the event's framing
			f.tooLarge()
			continue
		}
		f.event = append(f.event, frag...)
		switch {
		case err == nil && len(bytes.TrimRight(frag, "\r\n")) == 0:
			f.out, f.event, f.size = f.event, nil, 0
		case err == bufio.ErrBufferFull || err == nil:
		default:
			f.out, f.event, f.stopped = f.event, nil, true
			if len(f.out) == 0 {
				return 0, err
			}
		}
	}
	n := copy(p, f.out)
	f.out = f.out[n:]
	return n, nil
}

// tooLarge ends the stream at an event over the bound, with an error for the request.
func (f *sseFilter) tooLarge() {
	f.log.Warn("dropped an event from the remote server over the size limit", "limit", f.max, "id", string(f.id))
	f.stopped, f.event = true, nil
	f.body.Close()
	if f.id != nil {
		msg := rawError(f.id, -32603, fmt.Sprintf("the server's message is larger than the proxy's limit of %d bytes", f.max), nil)
		f.out = append(append([]byte("event: message\ndata: "), msg...), "\n\n"...)
	}
}

func (f *sseFilter) Close() error { return f.body.Close() }
