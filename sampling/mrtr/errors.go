package mrtr

import (
	"encoding/json"
	"errors"
	"fmt"

	mcp "github.com/mcpgen/mcpgen/gen/mcp20260728"
	"github.com/mcpgen/mcpgen/gen/mcpdraft"
	"github.com/mcpgen/mcpgen/sampling"
)

// Why a requestState was refused; a *StateError wraps one of them (errors.Is).
var (
	// ErrMalformedState: not a requestState of this package's format.
	ErrMalformedState = errors.New("malformed requestState")
	// ErrTamperedState: the MAC does not match: the state was edited, or issued under another
	// key.
	ErrTamperedState = errors.New("tampered requestState")
	// ErrExpiredState: presented after its expiry (Runner.TTL after it was issued).
	ErrExpiredState = errors.New("expired requestState")
	// ErrOtherRequest: issued for another request: another method, tool or arguments.
	ErrOtherRequest = errors.New("requestState of another request")
	// ErrOtherPrincipal: issued to another principal.
	ErrOtherPrincipal = errors.New("requestState of another principal")
	// ErrReplayedState: presented before (only with a ReplayGuard).
	ErrReplayedState = errors.New("replayed requestState")
	// ErrStateTooLarge: larger than Runner.MaxStateBytes: presented by the client (refused
	// unread), or the conversation outgrew it (the loop cannot go on).
	ErrStateTooLarge = errors.New("requestState too large")
	// ErrRetiredKey: issued under a key of the KeyRing's Retired keys.
	ErrRetiredKey = errors.New("requestState of a retired key")
	// ErrGuardUnavailable: the ReplayGuard could not answer (Redis unreachable, a deadline), so
	// the state was refused (a guard fails closed). The error is the server's (-32603), and
	// transient: the client retries the same request later.
	ErrGuardUnavailable = errors.New("replay guard unavailable")
)

// reasons name the refusals in the error's data: {"reason": "expired"}.
var reasons = map[error]string{
	ErrMalformedState: "malformed",
	ErrTamperedState:  "tampered",
	ErrExpiredState:   "expired",
	ErrOtherRequest:   "otherRequest",
	ErrOtherPrincipal: "otherPrincipal",
	ErrReplayedState:  "replayed",
	ErrStateTooLarge:  "tooLarge",
	ErrRetiredKey:     "retiredKey",
	// guardUnavailable is the one reason of a -32603 that a client retries as it is.
	ErrGuardUnavailable: "guardUnavailable",
}

const (
	codeInvalidParams = mcp.CodeInvalidParams // -32602
	codeInternal      = mcp.CodeInternalError // -32603
)

// A StateError is a requestState that the server refuses, or cannot issue. Its JSON-RPC error is
// -32602 (invalid params: the client sent a state the server does not accept), or -32603 (internal
// error) when the server's own conversation outgrew MaxStateBytes, with data {"reason": ...}
// naming the refusal: NewErrorResponse(id, err) of gen/mcp20260728 or gen/mcpdraft answers with
// it (errors.As finds an *Error of either package in it).
type StateError struct {
	// Reason is one of the Err...State variables.
	Reason error
	// Code is the JSON-RPC error code.
	Code int64
	// Message says what is wrong, for a person.
	Message string
	// Cause is the error behind the refusal, for the server's logs (not sent to the client):
	// the ReplayGuard's failure for ErrGuardUnavailable; nil otherwise.
	Cause error
}

func stateErr(reason error, code int64, format string, args ...any) *StateError {
	return &StateError{Reason: reason, Code: code, Message: fmt.Sprintf(format, args...)}
}

func (e *StateError) Error() string {
	if e.Cause != nil {
		return "mrtr: " + e.Message + ": " + e.Cause.Error()
	}
	return "mrtr: " + e.Message
}

// Unwrap returns the reason, and the cause if there is one.
func (e *StateError) Unwrap() []error {
	if e.Cause != nil {
		return []error{e.Reason, e.Cause}
	}
	return []error{e.Reason}
}

// As gives the JSON-RPC error of e as an *Error of gen/mcp20260728 or gen/mcpdraft.
func (e *StateError) As(target any) bool {
	data, _ := json.Marshal(map[string]string{"reason": reasons[e.Reason]})
	return asRPC(target, e.Code, e.Message, data)
}

// rpcError is an error of the loop with the JSON-RPC error that answers it.
type rpcError struct {
	err error
	// The JSON-RPC error.
	code    int64
	message string
	data    json.RawMessage
}

func (e *rpcError) Error() string { return e.err.Error() }

func (e *rpcError) Unwrap() error { return e.err }

// As gives the JSON-RPC error of e as an *Error, or a *MissingRequiredClientCapabilityErrorObject
// for -32021, of gen/mcp20260728 or gen/mcpdraft.
func (e *rpcError) As(target any) bool { return asRPC(target, e.code, e.message, e.data) }

// asRPC sets target, a pointer to a JSON-RPC error type of 2026-07-28 or of the draft, to the
// error of code, message and data.
func asRPC(target any, code int64, message string, data json.RawMessage) bool {
	switch t := target.(type) {
	case **mcp.Error:
		*t = &mcp.Error{Code: code, Message: message, Data: data}
	case **mcpdraft.Error:
		*t = &mcpdraft.Error{Code: code, Message: message, Data: data}
	case **mcp.MissingRequiredClientCapabilityErrorObject:
		var d mcp.MissingRequiredClientCapabilityErrorObjectData
		if code != mcp.CodeMissingRequiredClientCapability || d.UnmarshalJSON(data) != nil {
			return false
		}
		*t = &mcp.MissingRequiredClientCapabilityErrorObject{Code: code, Message: message, Data: d}
	case **mcpdraft.MissingRequiredClientCapabilityErrorObject:
		var d mcpdraft.MissingRequiredClientCapabilityErrorObjectData
		if code != mcpdraft.CodeMissingRequiredClientCapability || d.UnmarshalJSON(data) != nil {
			return false
		}
		*t = &mcpdraft.MissingRequiredClientCapabilityErrorObject{Code: code, Message: message, Data: d}
	default:
		return false
	}
	return true
}

func withCode(err error, code int64, message string) error {
	return &rpcError{err: err, code: code, message: message}
}

// invalidAnswer is the error of an inputResponse that the loop refuses: -32602, with the JSON
// pointers of the problems from the retried request's params.
func invalidAnswer(key string, err error) error {
	var rerr *sampling.ResultError
	if !errors.As(err, &rerr) {
		rerr = &sampling.ResultError{Err: err}
	}
	return &answerError{message: prefixed("/inputResponses/"+key, err), result: rerr}
}

// An answerError is an inputResponse that the loop refuses. errors.As finds its
// *sampling.ResultError, and its JSON-RPC error (-32602, the problems under
// /inputResponses/<key>), but not the ResultError's cause: that may be a *ValidationError of
// gen/mcp20260728 or gen/mcpdraft whose pointers are from the answer, not from the request's
// params, and NewErrorResponse, which looks for one before an *Error, would answer with it.
type answerError struct {
	message string
	result  *sampling.ResultError
}

func (e *answerError) Error() string { return "mrtr: " + e.message }

// As gives the *sampling.ResultError, or the JSON-RPC error as an *Error of gen/mcp20260728 or
// gen/mcpdraft. There is no Unwrap (see answerError).
func (e *answerError) As(target any) bool {
	if t, ok := target.(**sampling.ResultError); ok {
		*t = e.result
		return true
	}
	return asRPC(target, codeInvalidParams, e.message, nil)
}
