package emit

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/emit/internal/ir"
	"github.com/mcpgen/mcpgen/model"
)

// Planning the protocol layer: which declarations make the JSON-RPC messages, their responses and
// error objects, the accessors of the messages and the entries of the method table, found in the
// planned types before anything is written (emit/internal/render writes them as they are, from the ir).

// The roles of the protocol layer are model's (model.Sides, model.RequestIDDecl,
// model.EnvelopePrefix, ...).

// protocolPlan is the protocol layer, found in the planned types.
type protocolPlan struct {
	// sides are the client's and the server's messages, in that order.
	sides []*protocolSide
	// unions are the message unions, requests first, and union tells whether a union is one
	// of them.
	unions []*typeDecl
	union  map[*typeDecl]messageUnion
	// requestID is the union of request ids, anyResult the union of every result.
	requestID, anyResult *typeDecl
	// resultResponse and errorResponse are the generic responses (JSONRPCResultResponse and
	// JSONRPCErrorResponse, or JSONRPCResponse and JSONRPCError before 2025-11-25); errorType is
	// the type of the error object of an error response.
	resultResponse, errorResponse *typeDecl
	// errorID and errorField are the error response's fields of its id and its error object,
	// which NewErrorResponse sets under whatever names the configuration gave them.
	errorID, errorField *field
	errorType           string
	// errorPointer is set when the error response holds its error object by pointer
	// (Config.Objects).
	errorPointer bool
	// errorData is the Go name of the error object's data field, "" when it has none that holds
	// the raw JSON (json.RawMessage) which the runtime's protocolError returns.
	errorData string
	// batch is set in the versions with JSON-RPC batches (2025-03-26).
	batch bool
	// messages are the types that implement Message, in order; idMethods those of them whose
	// GetID and GetMethod are written with Message (the responses), not with the accessors,
	// each with the field of its id.
	messages  []string
	idMethods []*accessor
	// accessors are the GetMethod, GetID and GetParams of the variants of the message unions.
	accessors []*accessor
	// methods are the entries of the method table, sorted by method.
	methods []*methodEntry
	// errors are the error objects (errorObjects); typed, those Typed converts to, by code.
	errors []*errorObject
	typed  []*errorObject
	// typedDoc, errorResponseDoc and messageDoc are the docs of Typed, NewErrorResponse and
	// Message (planDocs).
	typedDoc, errorResponseDoc, messageDoc string
	// requestDocs and notificationDocs are the docs of the accessors of the request and
	// notification unions' interfaces (planDocs).
	requestDocs, notificationDocs ir.AccessorDocs
}

// methodEntry is an entry of the method table: the ir's flags, and the planned types that
// lowering makes its Message, Params and Results.
type methodEntry struct {
	*ir.MethodEntry
	message *typeDecl
	params  *goType
	results []*goType
}

// errorObject is a struct that is a JSON-RPC error object, and its code's and message's fields.
type errorObject struct {
	td            *typeDecl
	code, message *field
}

// messageUnion is what a message union holds: the ir's role.
type messageUnion = ir.Role

const (
	requestUnion      = ir.Requests
	notificationUnion = ir.Notifications
)

// protocolSide is what one side sends: its message unions and the functions that decode them.
type protocolSide struct {
	name                             string // "Client"
	requests, notifications, results *typeDecl
	decode, noCopy, internal         string // DecodeClientMessage, its NoCopy form, decodeClientMessage
	// unmarshalFor is the typed decode of the side's results that the doc of decode names.
	unmarshalFor string
	// decodeDoc and noCopyDoc are the docs of decode and noCopy (planDocs).
	decodeDoc, noCopyDoc string
}

// accessor is a type given the accessors of a message: a variant of a message union (vt), or
// the Unknown variant of one (unknown).
type accessor struct {
	vt      *typeDecl
	unknown string
	// method is the variant's method; id the field of its id, nil for none (noID says whether
	// GetID is written then: for a request or a JSON-RPC message); params the field of its
	// params, nil for none.
	method     string
	id, params *field
	noID       bool
}

// planProtocol finds the protocol layer's types, or returns nil for a schema without them, or an
// output that does not generate every one of them (a configuration selects types, or
// substitutes one).
func (g *generator) planProtocol() *protocolPlan {
	for _, name := range resultUnions {
		if td := g.byDecl[name]; td == nil || td.form != interfaceForm || td.objects == nil {
			return nil
		}
	}
	id := g.byDecl[model.RequestIDDecl]
	if id == nil || id.form != interfaceForm || id.nullVariant == "" {
		return nil
	}
	p := &protocolPlan{requestID: id, anyResult: g.byDecl[model.AnyResultDecl], union: map[*typeDecl]messageUnion{}}
	for _, names := range [][]string{model.RequestUnions(), model.NotificationUnions()} {
		for _, name := range names {
			td := g.byDecl[name]
			if td == nil || td.form != interfaceForm || td.objects == nil {
				return nil
			}
			p.unions = append(p.unions, td)
			p.union[td] = requestUnion
			if slices.Contains(model.NotificationUnions(), name) {
				p.union[td] = notificationUnion
			}
		}
	}
	for _, td := range g.types {
		if td.resultResponse {
			p.resultResponse = td
		}
		if td.decl == nil || td.form != structForm || !isEnvelope(td) || !strings.HasPrefix(td.decl.Name, model.EnvelopePrefix) {
			continue
		}
		if f := fieldByJSON(td, "error"); f != nil && f.typ.kind == structKind {
			p.errorResponse, p.errorField, p.errorType = td, f, f.typ.name
		} else if f != nil && f.typ.kind == pointerKind {
			p.errorResponse, p.errorField, p.errorType, p.errorPointer = td, f, f.typ.elem.name, true
		}
	}
	// The batch's type and methods are a part (templates/parts/protocol_batch.go), which requires
	// the declaration.
	p.batch = g.byDecl[model.JSONRPCBatchRequestDecl] != nil
	if p.resultResponse == nil || p.errorResponse == nil {
		return nil
	}
	p.errorID = fieldByJSON(p.errorResponse, "id")
	if et := g.byName[p.errorType]; et != nil {
		if f := fieldByJSON(et, "data"); f != nil && f.typ.kind == rawKind && !f.pointer {
			p.errorData = f.name
		}
	}
	for _, side := range model.Sides() {
		s := &protocolSide{name: side.Name, requests: g.byDecl[side.Request],
			notifications: g.byDecl[side.Notification], results: g.byDecl[side.Result]}
		s.decode, s.noCopy, s.internal = sideDecoders(side.Name)
		s.unmarshalFor = resultFuncNames(ir.Funcs{}, s.results.name).UnmarshalFor
		p.sides = append(p.sides, s)
	}
	p.messages, p.idMethods = g.messages(p)
	p.accessors = g.accessors(p)
	p.methods = g.methodEntries(p)
	p.errors = g.errorObjects()
	p.typed = typedErrors(p)
	return p
}

// names are the package-level names of the protocol layer.
func (p *protocolPlan) names() []string {
	names := slices.Clone(protocolFuncs)
	for _, s := range p.sides {
		names = append(names, s.decode, s.noCopy, s.internal)
	}
	return names
}

// planResultResponses marks the generic JSON-RPC result response, whose result is the union of
// every result (model.Protocol), and decodes it with a function of the caller.
func (g *generator) planResultResponses() {
	for _, td := range g.types {
		if td.decl == nil || td.form != structForm || !isEnvelope(td) || !strings.HasPrefix(td.decl.Name, model.EnvelopePrefix) {
			continue
		}
		if f := fieldByJSON(td, "result"); f != nil && f.typ.kind == unionKind && f.typ.name == g.goNameOf(model.AnyResultDecl) {
			td.resultResponse, f.result = true, true
			td.resultUnion = g.byName[f.typ.name]
		}
	}
}

// messages lists the types that implement Message: the JSON-RPC envelopes among the variants of
// the message unions (and the Unknown variants of those unions), and the generic responses; and
// those of them that the accessors do not give GetID.
func (g *generator) messages(p *protocolPlan) (names []string, idMethods []*accessor) {
	add := func(name string) {
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	accessors := map[string]bool{}
	for _, td := range p.unions {
		envelopes := false
		for _, v := range td.objects.variants {
			if vt := g.byName[v.typ.name]; vt != nil && isEnvelope(vt) {
				add(v.typ.name)
				envelopes = true
			}
		}
		if envelopes && td.unknown != "" {
			add(td.unknown)
		}
		for _, v := range td.variants {
			accessors[v.typ.name] = true
		}
	}
	add(p.resultResponse.name)
	add(p.errorResponse.name)
	for _, name := range names {
		if vt := g.byName[name]; vt.form != unknownForm && !accessors[name] {
			idMethods = append(idMethods, &accessor{vt: vt, id: fieldByJSON(vt, "id")})
		}
	}
	return names, idMethods
}

// checkMessageIDs refuses the entries of the configuration that left out a response's id, or
// gave a message's id another type than the request id union: GetID returns it as that union,
// and NewErrorResponse sets it.
func (g *generator) checkMessageIDs() error {
	p := g.proto
	if p == nil {
		return nil
	}
	responses := append([]*accessor{{vt: p.errorResponse, id: p.errorID}}, p.idMethods...)
	for i, a := range append(responses, p.accessors...) {
		f := a.id
		if a.vt == nil || f != nil && f.typ.kind == unionKind && f.typ.name == p.requestID.name && !f.pointer {
			continue
		}
		if f == nil && i < len(responses) {
			pos := a.vt.pos
			for _, o := range a.vt.omitted {
				if o.member.Name == "id" {
					pos = o.shaped
				}
			}
			return pos.Errorf("omit: %s.id: the protocol layer's GetID returns the id of a response, and NewErrorResponse sets it", a.vt.decl.Name)
		}
		if f != nil {
			return cmp.Or(f.shaped, f.member.Pos).Errorf("%s.%s: the protocol layer's GetID returns a message's id as %s: keep the member's type, or leave the message unions out of types",
				a.vt.decl.Name, f.member.Name, p.requestID.name)
		}
	}
	return nil
}

// accessors lists the types given GetMethod, GetID and GetParams: every variant of the message
// unions, and their Unknown variants, once each.
func (g *generator) accessors(p *protocolPlan) []*accessor {
	var out []*accessor
	seen := map[string]bool{}
	for _, td := range p.unions {
		for _, v := range td.objects.variants {
			vt := g.byName[v.typ.name]
			if vt == nil || seen[vt.name] {
				continue
			}
			seen[vt.name] = true
			a := &accessor{vt: vt, id: fieldByJSON(vt, "id"), params: fieldByJSON(vt, "params")}
			a.method, _ = methodOf(vt)
			a.noID = a.id == nil && (p.union[td] == requestUnion || isEnvelope(vt))
			out = append(out, a)
		}
		if td.unknown != "" && !seen[td.unknown] {
			seen[td.unknown] = true
			out = append(out, &accessor{unknown: td.unknown})
		}
	}
	return out
}

// methodEntries are the entries of the method table: every method of the message unions, who
// sends it, its types and its results (from the typed result decodes of the answering side).
func (g *generator) methodEntries(p *protocolPlan) []*methodEntry {
	entries := map[string]*methodEntry{}
	for _, td := range p.unions {
		client := td == p.sides[0].requests || td == p.sides[0].notifications
		answers := p.sides[0].results
		if client {
			answers = p.sides[1].results
		}
		for _, v := range td.objects.variants {
			vt := g.byName[v.typ.name]
			method, ok := methodOf(vt)
			if !ok {
				continue
			}
			e := entries[method]
			if e == nil {
				e = g.methodEntry(vt, method, p.union[td] == notificationUnion)
				entries[method] = e
			}
			e.FromClient = e.FromClient || client
			e.FromServer = e.FromServer || !client
			addResults(e, answers)
		}
	}
	var out []*methodEntry
	for _, method := range slices.Sorted(maps.Keys(entries)) {
		out = append(out, entries[method])
	}
	return out
}

// methodEntry is the entry of the method of the message vt, before its senders and results.
func (g *generator) methodEntry(vt *typeDecl, method string, notification bool) *methodEntry {
	e := &methodEntry{MethodEntry: &ir.MethodEntry{Method: method, Notification: notification}, message: vt}
	if params := fieldByJSON(vt, "params"); params != nil && (params.typ.kind == unionKind || params.typ.kind == structKind) {
		e.params, e.ParamsPointer = params.typ, params.typ.kind == structKind
	}
	e.TaskAugmented = vt.decl != nil && g.s.TaskAugmented(vt.decl)
	return e
}

// addResults adds the results that the result union answers can have for the entry's method.
func addResults(e *methodEntry, answers *typeDecl) {
	for _, rc := range answers.results {
		if rc.value != e.Method {
			continue
		}
		for _, c := range rc.candidates {
			res := answers.objects.variants[c]
			if !slices.ContainsFunc(e.results, func(t *goType) bool { return t.written() == res.typ.written() }) {
				e.results = append(e.results, res.typ)
			}
			if res.model.Type.Kind == model.Ref && res.model.Type.Ref == model.InputRequiredResultDecl {
				e.InputOnly = true
			}
		}
	}
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
func (g *generator) errorObjects() []*errorObject {
	var out []*errorObject
	for _, td := range g.types {
		if td.form != structForm {
			continue
		}
		code, message := fieldByJSON(td, "code"), fieldByJSON(td, "message")
		if code == nil || message == nil || code.typ.kind != builtinKind || code.typ.name != "int64" ||
			message.typ.kind != builtinKind || message.typ.name != "string" || code.pointer || message.pointer ||
			slices.ContainsFunc(td.fields, func(f *field) bool { return f.name == "Error" }) {
			continue
		}
		out = append(out, &errorObject{td, code, message})
	}
	return out
}

// checkErrorType refuses a protocol layer whose error response holds a type that is not an
// error object (errorObjects: an integer code and a string message): NewErrorResponse and the
// error methods of the runtime could not be written for it.
func (g *generator) checkErrorType() error {
	p := g.proto
	if p == nil || slices.ContainsFunc(p.errors, func(o *errorObject) bool { return o.td.name == p.errorType }) {
		return nil
	}
	what, pos := "member error of "+p.errorResponse.decl.Name, p.errorResponse.pos
	if td := g.byName[p.errorType]; td != nil && td.decl != nil {
		what, pos = "declaration "+td.decl.Name+", the error of "+p.errorResponse.decl.Name, td.pos
		if at := errorObjectEntry(td); at.Line > 0 {
			pos = at
		}
	}
	return pos.Errorf("%s: a JSON-RPC error response holds an error object, with a required integer code and "+
		"string message and no member named Error", what)
}

// checkMessageCodecs refuses a message of the protocol layer coded by encoding/json from its
// tags (Config.TagCodecs) without a hand-written MarshalJSON: the Message interface asks for
// one.
func (g *generator) checkMessageCodecs() error {
	if g.proto == nil {
		return nil
	}
	for _, e := range g.opts.Config.TagCodecs {
		td := g.tagCoded[e.Name]
		if td != nil && slices.Contains(g.proto.messages, td.name) && !g.opts.Config.Methods[td.name+".MarshalJSON"] {
			return e.Pos.Errorf("tagCodecs: %s is a message of the protocol layer, whose Message interface asks for a MarshalJSON: "+
				"declare %s.MarshalJSON in a hand-written file", e.Name, td.name)
		}
	}
	return nil
}

// errorObjectEntry is the position of the configuration's entry that made the struct td no
// error object (errorObjects): one that left out, shaped or substituted its code or message,
// or named a field Error; zero for none.
func errorObjectEntry(td *typeDecl) model.Pos {
	for _, f := range append(slices.Clone(td.fields), td.omitted...) {
		switch {
		case f.name == "Error" && f.namedAt.Line > 0:
			return f.namedAt
		case (f.member.Name == "code" || f.member.Name == "message") && f.shaped.Line > 0:
			return f.shaped
		}
	}
	return model.Pos{}
}

// typedErrors are the error objects with a constant code other than the error response's own
// type, the first of each code: Typed converts an error to them.
func typedErrors(p *protocolPlan) []*errorObject {
	var out []*errorObject
	seen := map[string]bool{}
	for _, e := range p.errors {
		c := e.code
		if c.literal == nil || e.td.name == p.errorType || seen[c.literal.Num] {
			continue
		}
		seen[c.literal.Num] = true
		out = append(out, e)
	}
	return out
}

// isEnvelope reports whether a struct is a JSON-RPC message: it has a "jsonrpc" member.
func isEnvelope(td *typeDecl) bool {
	return slices.ContainsFunc(td.fields, func(f *field) bool { return f.member.Name == "jsonrpc" })
}
