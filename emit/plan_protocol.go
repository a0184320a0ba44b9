package emit

import (
	"slices"
	"strings"
)

// Planning the protocol layer: which declarations make the JSON-RPC messages, their responses and
// error objects, found in the planned types before anything is written.

// The message unions: requests, and notifications.
var (
	requestUnions      = []string{"ClientRequest", "ServerRequest"}
	notificationUnions = []string{"ClientNotification", "ServerNotification"}
)

// protocolPlan is what the protocol layer is built from, found in the planned types.
type protocolPlan struct {
	// requests and notifications are the message unions by name.
	requests, notifications map[string]*typeDecl
	// resultResponse and errorResponse are the generic responses (JSONRPCResultResponse and
	// JSONRPCErrorResponse, or JSONRPCResponse and JSONRPCError before 2025-11-25); errorType is
	// the type of the error object of an error response.
	resultResponse, errorResponse *typeDecl
	errorType                     string
	// errorPointer is set when the error response holds its error object by pointer
	// (Config.Objects).
	errorPointer bool
	// batch is set in the versions with JSON-RPC batches (2025-03-26).
	batch bool
}

// planProtocol finds the protocol layer's types, or returns nil for a schema without them, or an
// output that does not generate every one of them (a configuration selects types, or
// substitutes one).
func (g *generator) planProtocol() *protocolPlan {
	for _, name := range []string{"ClientResult", "ServerResult", "AnyResult"} {
		if td := g.byDecl[name]; td == nil || td.form != interfaceForm || td.objects == nil {
			return nil
		}
	}
	if id := g.byDecl["RequestId"]; id == nil || id.form != interfaceForm || id.nullVariant == "" {
		return nil
	}
	p := &protocolPlan{requests: map[string]*typeDecl{}, notifications: map[string]*typeDecl{}}
	for _, names := range [][]string{requestUnions, notificationUnions} {
		for _, name := range names {
			td := g.byDecl[name]
			if td == nil || td.form != interfaceForm || td.objects == nil {
				return nil
			}
			if slices.Contains(requestUnions, name) {
				p.requests[name] = td
			} else {
				p.notifications[name] = td
			}
		}
	}
	for _, td := range g.types {
		if td.decl == nil || td.form != structForm || !isEnvelope(td) || !strings.HasPrefix(td.decl.Name, "JSONRPC") {
			continue
		}
		if f := fieldByJSON(td, "result"); f != nil && f.typ.kind == unionKind && f.typ.name == g.goNameOf("AnyResult") {
			p.resultResponse = td
		}
		if f := fieldByJSON(td, "error"); f != nil && f.typ.kind == structKind {
			p.errorResponse, p.errorType = td, f.typ.name
		} else if f != nil && f.typ.kind == pointerKind {
			p.errorResponse, p.errorType, p.errorPointer = td, f.typ.elem.name, true
		}
	}
	// The batch's type and methods are a part (templates/parts/protocol_batch.go), which requires
	// the declaration.
	p.batch = g.byDecl["JSONRPCBatchRequest"] != nil
	if p.resultResponse == nil || p.errorResponse == nil || g.byDecl["AnyResult"] == nil {
		return nil
	}
	return p
}

// fieldByJSON returns the field of a struct for the member with the given JSON name, or nil.
func fieldByJSON(td *typeDecl, name string) *field {
	for _, f := range td.fields {
		if f.member.Name == name {
			return f
		}
	}
	return nil
}

// errorObjects are the structs of the schema that are JSON-RPC error objects: a code and a
// message (and no field named Error), in declaration order.
func (p *plan) errorObjects() []*typeDecl {
	var out []*typeDecl
	for _, td := range p.types {
		if td.form != structForm {
			continue
		}
		code, message := fieldByJSON(td, "code"), fieldByJSON(td, "message")
		if code == nil || message == nil || code.typ.kind != builtinKind || code.typ.name != "int64" ||
			message.typ.kind != builtinKind || message.typ.name != "string" || code.pointer || message.pointer ||
			slices.ContainsFunc(td.fields, func(f *field) bool { return f.name == "Error" }) {
			continue
		}
		out = append(out, td)
	}
	return out
}

// isEnvelope reports whether a struct is a JSON-RPC message: it has a "jsonrpc" member.
func isEnvelope(td *typeDecl) bool {
	return slices.ContainsFunc(td.fields, func(f *field) bool { return f.member.Name == "jsonrpc" })
}
