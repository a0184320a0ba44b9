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

// messageUnion is what a message union holds: the ir's role.
type messageUnion = ir.Role

const (
	requestUnion      = ir.Requests
	notificationUnion = ir.Notifications
)

// protocolPass finds the protocol layer in the planned declarations (ir.Protocol), and checks
// what the configuration made of its messages.
type protocolPass struct {
	*plan
	sel *selection
}

// planProtocol finds the protocol layer's types, or returns nil for a schema without them, or an
// output that does not generate every one of them (a configuration selects types, or
// substitutes one).
func (pp *protocolPass) planProtocol() *ir.Protocol {
	for _, name := range resultUnions {
		if td := pp.byDecl[name]; td == nil || td.Form != interfaceForm || td.Objects == nil {
			return nil
		}
	}
	id := pp.byDecl[model.RequestIDDecl]
	if id == nil || id.Form != interfaceForm || id.NullVariant == "" {
		return nil
	}
	p := &ir.Protocol{RequestID: id, AnyResult: pp.byDecl[model.AnyResultDecl], Roles: map[*ir.Decl]messageUnion{}}
	for _, names := range [][]string{model.RequestUnions(), model.NotificationUnions()} {
		for _, name := range names {
			td := pp.byDecl[name]
			if td == nil || td.Form != interfaceForm || td.Objects == nil {
				return nil
			}
			p.Unions = append(p.Unions, td)
			p.Roles[td] = requestUnion
			if slices.Contains(model.NotificationUnions(), name) {
				p.Roles[td] = notificationUnion
			}
		}
	}
	for _, td := range pp.types {
		if td.ResultResponse {
			p.ResultResponse = td
		}
		if pp.src(td).decl == nil || td.Form != structForm || !isEnvelope(td) || !strings.HasPrefix(pp.src(td).decl.Name, model.EnvelopePrefix) {
			continue
		}
		if f := fieldByJSON(td, "error"); f != nil && f.Type.Kind == structKind {
			p.ErrorResponse, p.ErrorField, p.ErrorType = td, f, f.Type.Name
		} else if f != nil && f.Type.Kind == pointerKind {
			p.ErrorResponse, p.ErrorField, p.ErrorType, p.ErrorPointer = td, f, f.Type.Elem.Name, true
		}
	}
	// The batch's type and methods are a part (templates/parts/protocol_batch.go), which requires
	// the declaration.
	p.Batch = pp.byDecl[model.JSONRPCBatchRequestDecl] != nil
	if p.ResultResponse == nil || p.ErrorResponse == nil {
		return nil
	}
	p.ErrorID = fieldByJSON(p.ErrorResponse, "id")
	if et := pp.byName[p.ErrorType]; et != nil {
		if f := fieldByJSON(et, "data"); f != nil && f.Type.Kind == rawKind && !f.Pointer {
			p.ErrorData = f.Name
		}
	}
	for _, side := range model.Sides() {
		s := &ir.Side{Name: side.Name, Requests: pp.byDecl[side.Request],
			Notifications: pp.byDecl[side.Notification], Results: pp.byDecl[side.Result]}
		s.Decode, s.NoCopy, s.Internal = sideDecoders(side.Name)
		s.UnmarshalFor = resultFuncNames(ir.Funcs{}, s.Results.Name).UnmarshalFor
		p.Sides = append(p.Sides, s)
	}
	p.Messages, p.IDMethods = pp.messages(p)
	p.Accessors = pp.accessors(p)
	p.Methods = pp.methodEntries(p)
	p.Errors = pp.errorObjects()
	p.Typed = typedErrors(p)
	return p
}

// layerNames are the package-level names of the protocol layer p.
func layerNames(p *ir.Protocol) []string {
	names := slices.Clone(protocolFuncs)
	for _, s := range p.Sides {
		names = append(names, s.Decode, s.NoCopy, s.Internal)
	}
	return names
}

// planResultResponses marks the generic JSON-RPC result response, whose result is the union of
// every result (model.Protocol), and decodes it with a function of the caller.
func (pp *protocolPass) planResultResponses() {
	for _, td := range pp.types {
		if pp.src(td).decl == nil || td.Form != structForm || !isEnvelope(td) || !strings.HasPrefix(pp.src(td).decl.Name, model.EnvelopePrefix) {
			continue
		}
		if f := fieldByJSON(td, "result"); f != nil && f.Type.Kind == unionKind && f.Type.Name == pp.goNameOf(model.AnyResultDecl) {
			td.ResultResponse, f.Result = true, true
			td.ResultUnion = pp.byName[f.Type.Name]
		}
	}
}

// messages lists the types that implement Message: the JSON-RPC envelopes among the variants of
// the message unions (and the Unknown variants of those unions), and the generic responses; and
// those of them that the accessors do not give GetID.
func (pp *protocolPass) messages(p *ir.Protocol) (names []string, idMethods []*ir.Accessor) {
	add := func(name string) {
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	accessors := map[string]bool{}
	for _, td := range p.Unions {
		envelopes := false
		for _, v := range td.Objects.Variants {
			if vt := pp.byName[v.Type.Name]; vt != nil && isEnvelope(vt) {
				add(v.Type.Name)
				envelopes = true
			}
		}
		if envelopes && td.Unknown != "" {
			add(td.Unknown)
		}
		for _, v := range td.Variants {
			accessors[v.Type.Name] = true
		}
	}
	add(p.ResultResponse.Name)
	add(p.ErrorResponse.Name)
	for _, name := range names {
		if vt := pp.byName[name]; vt.Form != unknownForm && !accessors[name] {
			idMethods = append(idMethods, &ir.Accessor{Decl: vt, ID: fieldByJSON(vt, "id")})
		}
	}
	return names, idMethods
}

// checkMessageIDs refuses the entries of the configuration that left out a response's id, or
// gave a message's id another type than the request id union: GetID returns it as that union,
// and NewErrorResponse sets it.
func (pp *protocolPass) checkMessageIDs() error {
	p := pp.proto
	if p == nil {
		return nil
	}
	responses := append([]*ir.Accessor{{Decl: p.ErrorResponse, ID: p.ErrorID}}, p.IDMethods...)
	for i, a := range append(responses, p.Accessors...) {
		f := a.ID
		if a.Decl == nil || f != nil && f.Type.Kind == unionKind && f.Type.Name == p.RequestID.Name && !f.Pointer {
			continue
		}
		if f == nil && i < len(responses) {
			pos := pp.src(a.Decl).pos
			for _, o := range pp.src(a.Decl).omitted {
				if o.JSONName == "id" {
					pos = pp.fsrc(o).shaped
				}
			}
			return pos.Errorf("omit: %s.id: the protocol layer's GetID returns the id of a response, and NewErrorResponse sets it", pp.src(a.Decl).decl.Name)
		}
		if f != nil {
			return cmp.Or(pp.fsrc(f).shaped, pp.fsrc(f).member.Pos).Errorf("%s.%s: the protocol layer's GetID returns a message's id as %s: keep the member's type, or leave the message unions out of types",
				pp.src(a.Decl).decl.Name, f.JSONName, p.RequestID.Name)
		}
	}
	return nil
}

// accessors lists the types given GetMethod, GetID and GetParams: every variant of the message
// unions, and their Unknown variants, once each.
func (pp *protocolPass) accessors(p *ir.Protocol) []*ir.Accessor {
	var out []*ir.Accessor
	seen := map[string]bool{}
	for _, td := range p.Unions {
		for _, v := range td.Objects.Variants {
			vt := pp.byName[v.Type.Name]
			if vt == nil || seen[vt.Name] {
				continue
			}
			seen[vt.Name] = true
			a := &ir.Accessor{Decl: vt, ID: fieldByJSON(vt, "id"), Params: fieldByJSON(vt, "params")}
			a.Method, _ = pp.methodOf(vt)
			a.NoID = a.ID == nil && (p.Roles[td] == requestUnion || isEnvelope(vt))
			out = append(out, a)
		}
		if td.Unknown != "" && !seen[td.Unknown] {
			seen[td.Unknown] = true
			out = append(out, &ir.Accessor{Unknown: td.Unknown})
		}
	}
	return out
}

// methodEntries are the entries of the method table: every method of the message unions, who
// sends it, its types and its results (from the typed result decodes of the answering side).
func (pp *protocolPass) methodEntries(p *ir.Protocol) []*ir.MethodEntry {
	entries := map[string]*ir.MethodEntry{}
	for _, td := range p.Unions {
		client := td == p.Sides[0].Requests || td == p.Sides[0].Notifications
		answers := p.Sides[0].Results
		if client {
			answers = p.Sides[1].Results
		}
		for _, v := range td.Objects.Variants {
			vt := pp.byName[v.Type.Name]
			method, ok := pp.methodOf(vt)
			if !ok {
				continue
			}
			e := entries[method]
			if e == nil {
				e = pp.methodEntry(vt, method, p.Roles[td] == notificationUnion)
				entries[method] = e
			}
			e.FromClient = e.FromClient || client
			e.FromServer = e.FromServer || !client
			pp.addResults(e, answers)
		}
	}
	var out []*ir.MethodEntry
	for _, method := range slices.Sorted(maps.Keys(entries)) {
		out = append(out, entries[method])
	}
	return out
}

// methodEntry is the entry of the method of the message vt, before its senders and results.
func (pp *protocolPass) methodEntry(vt *ir.Decl, method string, notification bool) *ir.MethodEntry {
	e := &ir.MethodEntry{Method: method, Notification: notification, Message: vt}
	if params := fieldByJSON(vt, "params"); params != nil && (params.Type.Kind == unionKind || params.Type.Kind == structKind) {
		e.Params, e.ParamsPointer = params.Type, params.Type.Kind == structKind
	}
	e.TaskAugmented = pp.src(vt).decl != nil && pp.s.TaskAugmented(pp.src(vt).decl)
	return e
}

// addResults adds the results that the result union answers can have for the entry's method.
func (pp *protocolPass) addResults(e *ir.MethodEntry, answers *ir.Decl) {
	for _, rc := range answers.Results {
		if rc.Value != e.Method {
			continue
		}
		for _, c := range rc.Candidates {
			res := answers.Objects.Variants[c]
			if !slices.ContainsFunc(e.Results, func(t *ir.Type) bool { return t.Written() == res.Type.Written() }) {
				e.Results = append(e.Results, res.Type)
			}
			if m := pp.variantModel[res]; m.Type.Kind == model.Ref && m.Type.Ref == model.InputRequiredResultDecl {
				e.InputOnly = true
			}
		}
	}
}

// fieldByJSON returns the field of a struct for the member with the given JSON name, or nil.
func fieldByJSON(td *ir.Decl, name string) *ir.Field {
	for _, f := range td.Fields {
		if f.JSONName == name {
			return f
		}
	}
	return nil
}

// errorObjects are the structs of the schema that are JSON-RPC error objects: a code and a
// message (and no field named Error), in declaration order.
func (pp *protocolPass) errorObjects() []*ir.ErrorObject {
	var out []*ir.ErrorObject
	for _, td := range pp.types {
		if td.Form != structForm {
			continue
		}
		code, message := fieldByJSON(td, "code"), fieldByJSON(td, "message")
		if code == nil || message == nil || code.Type.Kind != builtinKind || code.Type.Name != "int64" ||
			message.Type.Kind != builtinKind || message.Type.Name != "string" || code.Pointer || message.Pointer ||
			slices.ContainsFunc(td.Fields, func(f *ir.Field) bool { return f.Name == "Error" }) {
			continue
		}
		out = append(out, &ir.ErrorObject{Decl: td, Code: code, Message: message})
	}
	return out
}

// checkErrorType refuses a protocol layer whose error response holds a type that is not an
// error object (errorObjects: an integer code and a string message): NewErrorResponse and the
// error methods of the runtime could not be written for it.
func (pp *protocolPass) checkErrorType() error {
	p := pp.proto
	if p == nil || slices.ContainsFunc(p.Errors, func(o *ir.ErrorObject) bool { return o.Decl.Name == p.ErrorType }) {
		return nil
	}
	what, pos := "member error of "+pp.src(p.ErrorResponse).decl.Name, pp.src(p.ErrorResponse).pos
	if td := pp.byName[p.ErrorType]; td != nil && pp.src(td).decl != nil {
		what, pos = "declaration "+pp.src(td).decl.Name+", the error of "+pp.src(p.ErrorResponse).decl.Name, pp.src(td).pos
		if at := pp.errorObjectEntry(td); at.Line > 0 {
			pos = at
		}
	}
	return pos.Errorf("%s: a JSON-RPC error response holds an error object, with a required integer code and "+
		"string message and no member named Error", what)
}

// checkMessageCodecs refuses a message of the protocol layer coded by encoding/json from its
// tags (Config.TagCodecs) without a hand-written MarshalJSON: the Message interface asks for
// one.
func (pp *protocolPass) checkMessageCodecs() error {
	if pp.proto == nil {
		return nil
	}
	for _, e := range pp.opts.Config.TagCodecs {
		td := pp.sel.tagCoded[e.Name]
		if td != nil && slices.Contains(pp.proto.Messages, td.Name) && !pp.opts.Config.Methods[td.Name+".MarshalJSON"] {
			return e.Pos.Errorf("tagCodecs: %s is a message of the protocol layer, whose Message interface asks for a MarshalJSON: "+
				"declare %s.MarshalJSON in a hand-written file", e.Name, td.Name)
		}
	}
	return nil
}

// errorObjectEntry is the position of the configuration's entry that made the struct td no
// error object (errorObjects): one that left out, shaped or substituted its code or message,
// or named a field Error; zero for none.
func (p *plan) errorObjectEntry(td *ir.Decl) model.Pos {
	for _, f := range append(slices.Clone(td.Fields), p.src(td).omitted...) {
		switch src := p.fsrc(f); {
		case f.Name == "Error" && src.namedAt.Line > 0:
			return src.namedAt
		case (f.JSONName == "code" || f.JSONName == "message") && src.shaped.Line > 0:
			return src.shaped
		}
	}
	return model.Pos{}
}

// typedErrors are the error objects with a constant code other than the error response's own
// type, the first of each code: Typed converts an error to them.
func typedErrors(p *ir.Protocol) []*ir.ErrorObject {
	var out []*ir.ErrorObject
	seen := map[string]bool{}
	for _, e := range p.Errors {
		c := e.Code
		if c.Literal == nil || e.Decl.Name == p.ErrorType || seen[c.Literal.Num] {
			continue
		}
		seen[c.Literal.Num] = true
		out = append(out, e)
	}
	return out
}

// isEnvelope reports whether a struct is a JSON-RPC message: it has a "jsonrpc" member.
func isEnvelope(td *ir.Decl) bool {
	return slices.ContainsFunc(td.Fields, func(f *ir.Field) bool { return f.JSONName == "jsonrpc" })
}
