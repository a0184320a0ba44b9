package model

import "strings"

// The declarations that play a part in a schema's JSON-RPC layer, by the names every version of
// the schema gives them. Protocol brings them into one shape (see its doc); the stages after it
// find them by these names.
const (
	// RequestIDDecl is the id of a request (string or number).
	RequestIDDecl = "RequestId"
	// ResultDecl is the base of every result: any result decodes as it.
	ResultDecl = "Result"
	// EmptyResultDecl is the result of a request that names no result of its own.
	EmptyResultDecl = "EmptyResult"
	// AnyResultDecl is the union of every result, the result of a result response; Protocol
	// declares it.
	AnyResultDecl = "AnyResult"
	// CreateTaskResultDecl is the result of a task-augmented request (2025-11-25).
	CreateTaskResultDecl = "CreateTaskResult"
	// InputRequiredResultDecl is the result by which a server asks the client for input (multi
	// round-trip requests, 2026-07-28).
	InputRequiredResultDecl = "InputRequiredResult"
	// InputRequestDecl and InputResponseDecl are the unions of the requests a server asks inside
	// an InputRequiredResult, and of the client's results for them.
	InputRequestDecl  = "InputRequest"
	InputResponseDecl = "InputResponse"
	// MetaObjectDecl is the type of every `_meta` member.
	MetaObjectDecl = "MetaObject"
	// JSONRPCRequestDecl and JSONRPCNotificationDecl are the envelopes of requests and
	// notifications.
	JSONRPCRequestDecl      = "JSONRPCRequest"
	JSONRPCNotificationDecl = "JSONRPCNotification"
	// EnvelopePrefix starts the name of every JSON-RPC envelope (JSONRPCResultResponse).
	EnvelopePrefix = "JSONRPC"
	// JSONRPCBatchRequestDecl is the batch of requests and notifications of the versions with
	// JSON-RPC batches (2025-03-26).
	JSONRPCBatchRequestDecl = "JSONRPCBatchRequest"
)

// A Side is one end of an MCP connection, with the message unions of what it sends. A side's
// Result union holds its answers to the other side's Request union.
type Side struct {
	Name                          string // "Client" or "Server"
	Request, Notification, Result string // "ClientRequest", "ClientNotification", "ClientResult"
}

// The two sides.
var (
	Client = Side{Name: "Client", Request: "ClientRequest", Notification: "ClientNotification", Result: "ClientResult"}
	Server = Side{Name: "Server", Request: "ServerRequest", Notification: "ServerNotification", Result: "ServerResult"}
)

// Sides returns the client and the server, in that order.
func Sides() []Side { return []Side{Client, Server} }

// Other returns the side at the other end.
func (s Side) Other() Side {
	if s == Client {
		return Server
	}
	return Client
}

// RequestUnions returns the message unions of requests: ClientRequest and ServerRequest.
func RequestUnions() []string { return []string{Client.Request, Server.Request} }

// NotificationUnions returns the message unions of notifications.
func NotificationUnions() []string { return []string{Client.Notification, Server.Notification} }

// ResultUnions returns the unions of results: ClientResult, ServerResult and AnyResult.
func ResultUnions() []string { return []string{Client.Result, Server.Result, AnyResultDecl} }

// ResultOf returns the name the schema gives the result of the request named request
// (CallToolRequest: CallToolResult), and false for a name that is not a request's (FooRequest).
func ResultOf(request string) (string, bool) {
	name, ok := strings.CutSuffix(request, "Request")
	return name + "Result", ok && name != ""
}

// ResponseOf returns the name of the response declaration that carries the result named result
// (CallToolResult: CallToolResultResponse), which 2025-11-25 and later declare for some results.
func ResponseOf(result string) string { return result + "Response" }
