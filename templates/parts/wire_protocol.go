//go:build ignore

//mcpgen:requires ClientRequest ServerRequest ClientNotification ServerNotification ClientResult ServerResult RequestId

package parts

import (
	"encoding/json"
	"errors"
	"strconv"
	"sync"
)

// The hand-written helpers of the protocol layer: what a message is, and the requests a peer
// waits for. The generated DecodeClientMessage, DecodeServerMessage and method table use them.

// Params is the params of a request or notification: a pointer to a params struct of this
// package (*CallToolRequestParams), a variant of a union of them, or [RawParams] for a method
// this version does not define. json.Marshal encodes it.
type Params interface {
	Validate() error
}

// RawParams are the params of a request or notification whose method this version does not
// define, exactly as received (nil when the message has none).
type RawParams json.RawMessage

// MarshalJSON writes the params as received, or null when there are none.
func (p RawParams) MarshalJSON() ([]byte, error) {
	if p == nil {
		return []byte("null"), nil
	}
	return p, nil
}

// Validate returns nil: nothing is known of the params of an unknown method.
func (p RawParams) Validate() error { return nil }

// Pending tracks the requests a peer has sent and not yet seen answered, so that their results
// can be decoded as the types of their methods: call Add when sending a request and pass Take to
// DecodeClientMessage or DecodeServerMessage. It is safe for concurrent use; its zero value is
// empty and ready.
type Pending struct {
	mu      sync.Mutex
	methods map[string]string
}

// Add records that a request with the given id and method was sent.
func (p *Pending) Add(id RequestID, method string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.methods == nil {
		p.methods = map[string]string{}
	}
	p.methods[idKey(id)] = method
}

// Take returns the method of the pending request with the given id, and forgets the request.
func (p *Pending) Take(id RequestID) (method string, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	key := idKey(id)
	method, ok = p.methods[key]
	delete(p.methods, key)
	return method, ok
}

// Len returns the number of requests waiting for their response.
func (p *Pending) Len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.methods)
}

// idKey is a request id as a map key: the string id "1" and the number id 1 are different.
func idKey(id RequestID) string {
	switch id := id.(type) {
	case RequestIDString:
		return "s" + string(id)
	case RequestIDNumber:
		return "n" + strconv.FormatInt(int64(id), 10)
	}
	return "-"
}

// messageKind is what a JSON-RPC message is, decided by its members.
type messageKind int

const (
	requestMessage      messageKind = iota // method and id
	notificationMessage                    // method, no id
	resultMessage                          // result
	errorMessage                           // error
)

// kindOfMessage decides what the JSON-RPC message at d is, without consuming it. It reads the
// whole message (a pass that builds nothing): a member after the params or result can change its
// kind.
func kindOfMessage(d *decoder) (messageKind, error) {
	if d.peek() != '{' {
		return 0, d.errorf("expected a JSON-RPC message (an object), found %s", d.found())
	}
	var method, id, result, fault bool
	err := d.scanObject(func(name []byte) {
		switch string(name) {
		case "method":
			method = true
		case "id":
			id = true
		case "result":
			result = true
		case "error":
			fault = true
		}
	})
	if err != nil {
		return 0, err
	}
	switch {
	case method && (result || fault):
		return 0, d.errorf("a JSON-RPC message has a method (a request or notification) or a result or error (a response), not both")
	case result && fault:
		return 0, d.errorf("a JSON-RPC response has a result or an error, not both")
	case method && id:
		return requestMessage, nil
	case method:
		return notificationMessage, nil
	case result:
		return resultMessage, nil
	case fault:
		return errorMessage, nil
	}
	return 0, d.errorf("not a JSON-RPC message: no method, result or error")
}

// responseMethod returns the method of the request that the response at d answers, as pending
// knows it from the response's id ("" when pending is nil or does not know the id). The
// response is not consumed.
func responseMethod(d *decoder, pending func(RequestID) (string, bool)) (string, error) {
	if pending == nil {
		return "", nil
	}
	raw, ok, err := d.lookup("id")
	if err != nil || !ok {
		return "", err
	}
	id, err := UnmarshalRequestID(raw)
	if err != nil {
		return "", nil // the response's own decoding reports it
	}
	method, _ := pending(id)
	return method, nil
}

// MessageError is the error of DecodeClientMessage and DecodeServerMessage: the id of the message,
// when it could be read (to answer a bad request, or to fail the pending request a bad response
// answers), and what is wrong. [NewErrorResponse] answers it with the JSON-RPC code it calls for.
type MessageError struct {
	// ID is the id of the message, or nil when it has none or it could not be read.
	ID RequestID
	// Response is set when the message is a response (it has a result or an error and no
	// method): a peer fails the pending request with ID rather than answering the message.
	Response bool
	// Err is a *DecodeError.
	Err error
}

func (e *MessageError) Error() string { return e.Err.Error() }
func (e *MessageError) Unwrap() error { return e.Err }

// messageError wraps a decoding error of the message at d with the message's id, if it can be
// read: the message is JSON without a duplicate member, and its id is a request id. (For input
// that is not JSON, the id is unknown: JSON-RPC answers a parse error with a null id.)
func messageError(d *decoder, err error) error {
	err = d.fail(err)
	m := &MessageError{Err: err}
	var method, id, result, fault bool
	if newDecoder(d.original()).scanObject(func(name []byte) {
		switch string(name) {
		case "method":
			method = true
		case "id":
			id = true
		case "result":
			result = true
		case "error":
			fault = true
		}
	}) == nil {
		m.Response = !method && (result || fault)
		if raw, ok, lerr := newDecoder(d.original()).lookup("id"); id && lerr == nil && ok {
			m.ID, _ = UnmarshalRequestID(raw)
		}
	}
	return m
}

// protocolError returns the JSON-RPC error code, message and data that answer err, if it is a
// validation or decoding error: a *ValidationError answers with its code, its first problem as
// the message and every problem as the data; a decoding error of input that is not JSON is a
// parse error (-32700); a decoding error in the params of a message, or of params decoded alone,
// is invalid params (-32602); elsewhere in a message it is an invalid request (-32600).
func protocolError(err error) (code int64, message string, data json.RawMessage, ok bool) {
	var verr *ValidationError
	if errors.As(err, &verr) {
		message = "invalid params"
		if verr.Code == -32600 {
			message = "invalid request"
		}
		if len(verr.Problems) > 0 {
			message += ": " + verr.Problems[0].String()
		}
		data, _ = json.Marshal(verr.Problems)
		return int64(verr.Code), message, data, true
	}
	var derr *DecodeError
	if !errors.As(err, &derr) {
		return 0, "", nil, false
	}
	var merr *MessageError
	switch {
	case derr.Syntax:
		return -32700, "parse error: " + derr.Error(), nil, true
	case errors.As(err, &merr) && !inBody(derr.Pointer):
		return -32600, "invalid request: " + derr.Error(), nil, true
	}
	return -32602, "invalid params: " + derr.Error(), nil, true
}
