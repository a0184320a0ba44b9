package emit

import (
	"maps"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/model"
)

// This file writes protocol.go: the JSON-RPC layer an SDK is built on. The message unions
// (model.Protocol makes them the same set in every version) get accessors, every JSON-RPC message
// type implements Message, DecodeClientMessage and DecodeServerMessage decode any message in one
// call with typed params and results, Methods describes every method, and the error objects are
// Go errors. What it writes is found first, in plan_protocol.go; the hand-written helpers it
// calls are templates/parts/wire_protocol.go and protocol_helpers.go.

// messageMethods are the methods a message union's interface adds to its marker and Validate.
func (r *renderer) messageMethods(td *typeDecl) []jen.Code {
	if td.decl == nil || r.proto == nil {
		return nil
	}
	switch {
	case slices.Contains(requestUnions, td.decl.Name):
		return []jen.Code{
			docComment("GetMethod returns the method of the request."),
			jen.Id("GetMethod").Params().String(),
			docComment("GetID returns the id of the request (nil inside an InputRequiredResult)."),
			jen.Id("GetID").Params().Id(r.goNameOf("RequestId")),
			docComment("GetParams returns the params of the request, or nil when it has none."),
			jen.Id("GetParams").Params().Id("Params"),
		}
	case slices.Contains(notificationUnions, td.decl.Name):
		return []jen.Code{
			docComment("GetMethod returns the method of the notification."),
			jen.Id("GetMethod").Params().String(),
			docComment("GetParams returns the params of the notification, or nil when it has none."),
			jen.Id("GetParams").Params().Id("Params"),
		}
	}
	return nil
}

// protocol writes protocol.go.
func (r *renderer) protocol() {
	p := r.proto
	if p == nil {
		return
	}
	f := r.protocolGo
	r.messageInterface(f, p)
	r.accessors(f, p)
	r.decodeMessages(f, p)
	r.methodTable(f, p)
	r.errors(f, p)
}

// messages lists the types that implement Message: the JSON-RPC envelopes among the variants of
// the message unions (and the Unknown variants of those unions), and the generic responses.
func (r *renderer) messages(p *protocolPlan) []string {
	var names []string
	add := func(name string) {
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	for _, union := range append(slices.Clone(requestUnions), notificationUnions...) {
		td := r.byDecl[union]
		envelopes := false
		for _, v := range td.objects.variants {
			if vt := r.byName[v.typ.name]; vt != nil && isEnvelope(vt) {
				add(v.typ.name)
				envelopes = true
			}
		}
		if envelopes && td.unknown != "" {
			add(td.unknown)
		}
	}
	add(p.resultResponse.name)
	add(p.errorResponse.name)
	return names
}

// messageInterface writes Message, its markers and the GetID of each message type.
func (r *renderer) messageInterface(f *jen.File, p *protocolPlan) {
	f.Add(docComment("Message is a JSON-RPC message of this version, decoded with its params or result typed " +
		"(see [DecodeClientMessage] and [DecodeServerMessage]): a request ([" + r.goNameOf("ClientRequest") + "], [" +
		r.goNameOf("ServerRequest") + "]), a notification ([" + r.goNameOf("ClientNotification") + "], [" +
		r.goNameOf("ServerNotification") + "]), a *[" + p.resultResponse.name + "] holding " +
		"the typed result, or a *[" + p.errorResponse.name + "]. A message built in Go is sent with json.Marshal" +
		r.ifValidate(" (or [Marshal], which validates it first)") + ", members in the spec's order."))
	f.Type().Id("Message").Interface(append(r.unionMethods("isMessage"),
		jen.Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()),
		docComment("GetID returns the id of a request or response, or nil for a notification."),
		jen.Id("GetID").Params().Id(r.goNameOf("RequestId")),
		docComment("GetMethod returns the method of a request or notification, or \"\" for a response."),
		jen.Id("GetMethod").Params().String(),
	)...)
	f.Line()
	for _, name := range r.messages(p) {
		f.Func().Params(jen.Op("*").Id(name)).Id("isMessage").Params().Block()
	}
	f.Line()
	accessors := map[string]bool{} // the types whose accessors (below) write their GetID
	for _, union := range append(slices.Clone(requestUnions), notificationUnions...) {
		for _, v := range r.byDecl[union].variants {
			accessors[v.typ.name] = true
		}
	}
	for _, name := range r.messages(p) {
		td := r.byName[name]
		if td.form == unknownForm || accessors[name] {
			continue
		}
		f.Add(docComment("GetID returns the id of the message."))
		f.Func().Params(jen.Id("v").Op("*").Id(name)).Id("GetID").Params().Id(r.goNameOf("RequestId")).Block(jen.Return(jen.Id("v").Dot("ID")))
		f.Line()
		f.Add(docComment("GetMethod returns \"\": a response has no method."))
		f.Func().Params(jen.Op("*").Id(name)).Id("GetMethod").Params().String().Block(jen.Return(jen.Lit("")))
		f.Line()
	}
}

// accessors writes GetMethod, GetID and GetParams of every variant of the message unions.
func (r *renderer) accessors(f *jen.File, p *protocolPlan) {
	for _, union := range append(slices.Clone(requestUnions), notificationUnions...) {
		td := r.byDecl[union]
		request := slices.Contains(requestUnions, union)
		for _, v := range td.objects.variants {
			vt := r.byName[v.typ.name]
			if vt == nil || r.accessorTypes[vt.name] {
				continue
			}
			r.accessorTypes[vt.name] = true
			method, _ := methodOf(vt)
			f.Add(docComment("GetMethod returns " + quote(method) + "."))
			f.Func().Params(jen.Id("v").Op("*").Id(vt.name)).Id("GetMethod").Params().String().Block(jen.Return(jen.Lit(method)))
			f.Line()
			if id := fieldByJSON(vt, "id"); id != nil {
				f.Add(docComment("GetID returns the id of the message."))
				f.Func().Params(jen.Id("v").Op("*").Id(vt.name)).Id("GetID").Params().Id(r.goNameOf("RequestId")).Block(jen.Return(jen.Id("v").Dot(id.name)))
				f.Line()
			} else if request || isEnvelope(vt) {
				f.Add(docComment("GetID returns nil: the message has no id."))
				f.Func().Params(jen.Op("*").Id(vt.name)).Id("GetID").Params().Id(r.goNameOf("RequestId")).Block(jen.Return(jen.Nil()))
				f.Line()
			}
			r.getParams(f, vt)
		}
		if td.unknown != "" && !r.accessorTypes[td.unknown] {
			r.accessorTypes[td.unknown] = true
			u := td.unknown
			f.Add(docComment("GetMethod returns the method of the message, as received."))
			f.Func().Params(jen.Id("v").Op("*").Id(u)).Id("GetMethod").Params().String().Block(
				jen.List(jen.Id("method"), jen.Id("_"), jen.Id("_")).Op(":=").Id("lookupTag").Call(jen.Id("newDecoder").Call(jen.Id("v").Dot("Raw")), jen.Lit("method")),
				jen.Return(jen.Id("method")),
			)
			f.Line()
			f.Add(docComment("GetID returns the id of the message, as received, or nil."))
			f.Func().Params(jen.Id("v").Op("*").Id(u)).Id("GetID").Params().Id(r.goNameOf("RequestId")).Block(
				jen.List(jen.Id("raw"), jen.Id("ok"), jen.Err()).Op(":=").Id("newDecoder").Call(jen.Id("v").Dot("Raw")).Dot("lookup").Call(jen.Lit("id")),
				jen.If(jen.Err().Op("!=").Nil().Op("||").Op("!").Id("ok")).Block(jen.Return(jen.Nil())),
				jen.List(jen.Id("id"), jen.Id("_")).Op(":=").Id("Unmarshal"+r.goNameOf("RequestId")).Call(jen.Id("raw")),
				jen.Return(jen.Id("id")),
			)
			f.Line()
			f.Add(docComment("GetParams returns the params of the message, as received, or nil."))
			f.Func().Params(jen.Id("v").Op("*").Id(u)).Id("GetParams").Params().Id("Params").Block(
				jen.List(jen.Id("raw"), jen.Id("ok"), jen.Err()).Op(":=").Id("newDecoder").Call(jen.Id("v").Dot("Raw")).Dot("lookup").Call(jen.Lit("params")),
				jen.If(jen.Err().Op("!=").Nil().Op("||").Op("!").Id("ok")).Block(jen.Return(jen.Nil())),
				jen.Return(jen.Id("RawParams").Call(jen.Id("raw"))),
			)
			f.Line()
		}
	}
}

// getParams writes GetParams of a request or notification struct.
func (r *renderer) getParams(f *jen.File, td *typeDecl) {
	params := fieldByJSON(td, "params")
	f.Add(docComment("GetParams returns the params of the message, or nil when it has none."))
	recv := jen.Id("v").Op("*").Id(td.name)
	switch {
	case params == nil:
		f.Func().Params(jen.Op("*").Id(td.name)).Id("GetParams").Params().Id("Params").Block(jen.Return(jen.Nil()))
	case params.typ.kind == unionKind:
		f.Func().Params(recv).Id("GetParams").Params().Id("Params").Block(
			jen.If(jen.Id("v").Dot(params.name).Op("==").Nil()).Block(jen.Return(jen.Nil())),
			jen.Return(jen.Id("v").Dot(params.name)),
		)
	case params.pointer:
		f.Func().Params(recv).Id("GetParams").Params().Id("Params").Block(
			jen.If(jen.Id("v").Dot(params.name).Op("==").Nil()).Block(jen.Return(jen.Nil())),
			jen.Return(jen.Id("v").Dot(params.name)),
		)
	case params.typ.kind == structKind:
		f.Func().Params(recv).Id("GetParams").Params().Id("Params").Block(jen.Return(jen.Op("&").Id("v").Dot(params.name)))
	default: // free-form params: their JSON
		f.Func().Params(recv).Id("GetParams").Params().Id("Params").Block(
			jen.If(jen.Id("v").Dot(params.name).Op("==").Nil()).Block(jen.Return(jen.Nil())),
			jen.List(jen.Id("raw"), jen.Id("_")).Op(":=").Qual("encoding/json", "Marshal").Call(jen.Id("v").Dot(params.name)),
			jen.Return(jen.Id("RawParams").Call(jen.Id("raw"))),
		)
	}
	f.Line()
}

// decodeMessages writes DecodeClientMessage and DecodeServerMessage.
func (r *renderer) decodeMessages(f *jen.File, p *protocolPlan) {
	for _, side := range []struct{ name, other string }{{"Client", "Server"}, {"Server", "Client"}} {
		fn, internal := "Decode"+side.name+"Message", "decode"+side.name+"Message"
		requests, notifications := r.byDecl[side.name+"Request"], r.byDecl[side.name+"Notification"]
		results := r.byDecl[side.name+"Result"]
		reader := strings.ToLower(side.other)
		doc := fn + " decodes a JSON-RPC message that a " + strings.ToLower(side.name) + " sends (what a " + reader +
			" reads) in one pass: a request as its [" + requests.name + "] type, a notification as its [" +
			notifications.name + "] type (a method this version does not define as the Unknown variant, which keeps " +
			"the JSON), a result response as a *[" + p.resultResponse.name + "] whose Result has the type of the " +
			"answered method's result (a [" + results.name + "] variant, decoded as Unmarshal" + results.name + "For does), " +
			"an error response as a *[" + p.errorResponse.name + "]. pending gives the method of the request a " +
			"response answers, from its id ([Pending.Take] does; nil or an unknown id decodes the result as " +
			"Unmarshal" + results.name + " does); it is called for an error response too, so that Pending.Take " +
			"forgets every answered request. Decoding is strict (see the package doc)" +
			r.ifValidate("; validating the message is the caller's choice (Validate)") + ". An error is a *[MessageError] with the message's id, if it could be " +
			"read: [NewErrorResponse] answers it."
		if p.batch {
			doc += " A batch (an array) is a [MessageBatch] of such messages."
		}
		noCopyDoc := fn + "NoCopy is " + fn + " without the copy of data that it makes, for a message the caller " +
			"hands over (see [UnmarshalNoCopy]): the message keeps data, which must not change after the call."
		for _, v := range []struct{ name, doc, decoder string }{{fn, doc, "topDecoder"}, {fn + "NoCopy", noCopyDoc, "noCopyDecoder"}} {
			f.Add(docComment(v.doc))
			f.Func().Id(v.name).Params(jen.Id("data").Index().Byte(), jen.Id("pending").Func().Params(jen.Id(r.goNameOf("RequestId"))).Params(jen.String(), jen.Bool())).Params(jen.Id("Message"), jen.Error()).Block(
				jen.Id("d").Op(":=").Id(v.decoder).Call(jen.Id("data")),
				jen.List(jen.Id("m"), jen.Err()).Op(":=").Id(internal).Call(jen.Id("d"), jen.Id("pending")),
				jen.If(jen.Err().Op("==").Nil()).Block(jen.Err().Op("=").Id("d").Dot("end").Call()),
				jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Id("messageError").Call(jen.Id("d"), jen.Err()))),
				jen.Return(jen.Id("m"), jen.Nil()),
			)
			f.Line()
		}

		var body []jen.Code
		if p.batch {
			body = append(body, jen.If(jen.Id("d").Dot("peek").Call().Op("==").LitRune('[')).Block(
				jen.Id("batch").Op(":=").Id("MessageBatch").Values(),
				jen.Err().Op(":=").Id("d").Dot("array").Call(jen.Func().Params(jen.Id("int")).Error().Block(
					jen.List(jen.Id("m"), jen.Err()).Op(":=").Id(internal).Call(jen.Id("d"), jen.Id("pending")),
					jen.Id("batch").Op("=").Append(jen.Id("batch"), jen.Id("m")),
					jen.Return(jen.Err()),
				)),
				jen.Return(jen.Id("batch"), jen.Err()),
			))
		}
		asMessage := func(decode string, what string) []jen.Code {
			return []jen.Code{
				jen.List(jen.Id("v"), jen.Err()).Op(":=").Id(decode).Call(jen.Id("d")),
				jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
				jen.List(jen.Id("m"), jen.Id("ok")).Op(":=").Id("v").Assert(jen.Id("Message")),
				jen.If(jen.Op("!").Id("ok")).Block(jen.Return(jen.Nil(), jen.Id("d").Dot("errorf").Call(
					jen.Lit("a "+strings.ToLower(side.name)+" sends no JSON-RPC "+what+" %s in this version"), jen.Id("quoteValue").Call(jen.Id("v").Dot("GetMethod").Call())))),
				jen.Return(jen.Id("m"), jen.Nil()),
			}
		}
		resultDecode := jen.Id("decode" + results.name).Call(jen.Id("d"))
		if len(results.results) > 0 {
			resultDecode = jen.Id("decode"+results.name+"For").Call(jen.Id("d"), jen.Id("method"))
		}
		// A result whose resultType this version does not know is the Unknown variant of the
		// side's result union, which is not an AnyResult: it becomes AnyResult's own.
		toAny := []jen.Code{jen.Return(jen.Id("r").Assert(jen.Id(r.goNameOf("AnyResult"))), jen.Nil())}
		if anyResult := r.byDecl["AnyResult"]; results.unknown != "" && anyResult != nil && anyResult.unknown != "" {
			toAny = []jen.Code{
				jen.If(jen.List(jen.Id("u"), jen.Id("ok")).Op(":=").Id("r").Assert(jen.Op("*").Id(results.unknown)), jen.Id("ok")).Block(
					jen.Return(jen.Op("&").Id(anyResult.unknown).Values(jen.Dict{jen.Id("Raw"): jen.Id("u").Dot("Raw")}), jen.Nil()),
				),
				jen.Return(jen.Id("r").Assert(jen.Id(r.goNameOf("AnyResult"))), jen.Nil()),
			}
		}
		body = append(body,
			jen.List(jen.Id("kind"), jen.Err()).Op(":=").Id("kindOfMessage").Call(jen.Id("d")),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
			jen.Switch(jen.Id("kind")).Block(
				jen.Case(jen.Id("requestMessage")).Block(asMessage("decode"+requests.name, "request")...),
				jen.Case(jen.Id("notificationMessage")).Block(asMessage("decode"+notifications.name, "notification")...),
				jen.Case(jen.Id("resultMessage")).Block(
					jen.List(jen.Id("method"), jen.Err()).Op(":=").Id("responseMethod").Call(jen.Id("d"), jen.Id("pending")),
					jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
					jen.Id("v").Op(":=").New(jen.Id(p.resultResponse.name)),
					jen.Return(jen.Id("v"), jen.Id("v").Dot("decodeFor").Call(jen.Id("d"), jen.Func().Params(jen.Id("d").Op("*").Id("decoder")).Params(jen.Id(r.goNameOf("AnyResult")), jen.Error()).Block(
						append([]jen.Code{
							jen.List(jen.Id("r"), jen.Err()).Op(":=").Add(resultDecode),
							jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
						}, toAny...)...,
					))),
				),
			),
			// An error response answers a pending request too: pending forgets it.
			jen.If(jen.List(jen.Id("_"), jen.Err()).Op(":=").Id("responseMethod").Call(jen.Id("d"), jen.Id("pending")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
			jen.Id("v").Op(":=").New(jen.Id(p.errorResponse.name)),
			jen.Return(jen.Id("v"), jen.Id("v").Dot("decode").Call(jen.Id("d"))),
		)
		f.Func().Id(internal).Params(jen.Id("d").Op("*").Id("decoder"), jen.Id("pending").Func().Params(jen.Id(r.goNameOf("RequestId"))).Params(jen.String(), jen.Bool())).Params(jen.Id("Message"), jen.Error()).Block(body...)
		f.Line()
	}
}

// methodEntry is one method of the method table.
type methodEntry struct {
	method                   string
	fromClient, fromServer   bool
	notification             bool
	message, params          string   // Go types as written in reflect.TypeFor, "" for none
	results                  []string // Go types
	taskAugmented, inputOnly bool
}

// methodTable writes Methods, the table of templates/parts/protocol_helpers.go's MethodInfo.
func (r *renderer) methodTable(f *jen.File, p *protocolPlan) {
	entries := map[string]*methodEntry{}
	for _, union := range append(slices.Clone(requestUnions), notificationUnions...) {
		td := r.byDecl[union]
		notification := slices.Contains(notificationUnions, union)
		client := strings.HasPrefix(union, "Client")
		answers := r.byDecl["ServerResult"]
		if !client {
			answers = r.byDecl["ClientResult"]
		}
		for _, v := range td.objects.variants {
			vt := r.byName[v.typ.name]
			method, ok := methodOf(vt)
			if !ok {
				continue
			}
			e := entries[method]
			if e == nil {
				e = &methodEntry{method: method, notification: notification, message: "*" + vt.name}
				if params := fieldByJSON(vt, "params"); params != nil {
					switch {
					case params.typ.kind == unionKind:
						e.params = params.typ.written()
					case params.typ.kind == structKind:
						e.params = "*" + params.typ.written()
					}
				}
				e.taskAugmented = vt.decl != nil && r.s.TaskAugmented(vt.decl)
				entries[method] = e
			}
			if client {
				e.fromClient = true
			} else {
				e.fromServer = true
			}
			for _, rc := range answers.results {
				if rc.value != method {
					continue
				}
				for _, c := range rc.candidates {
					res := answers.objects.variants[c]
					name := "*" + res.typ.written()
					if !slices.Contains(e.results, name) {
						e.results = append(e.results, name)
					}
					if res.model.Type.Kind == model.Ref && res.model.Type.Ref == "InputRequiredResult" {
						e.inputOnly = true
					}
				}
			}
		}
	}

	var items []jen.Code
	for _, method := range slices.Sorted(maps.Keys(entries)) {
		e := entries[method]
		fields := jen.Dict{
			jen.Id("Method"):  jen.Lit(e.method),
			jen.Id("Message"): typeFor(e.message),
		}
		if e.fromClient {
			fields[jen.Id("FromClient")] = jen.True()
		}
		if e.fromServer {
			fields[jen.Id("FromServer")] = jen.True()
		}
		if e.notification {
			fields[jen.Id("Notification")] = jen.True()
		}
		if e.params != "" {
			fields[jen.Id("Params")] = typeFor(e.params)
		}
		if len(e.results) > 0 {
			var rs []jen.Code
			for _, res := range e.results {
				rs = append(rs, typeFor(res))
			}
			fields[jen.Id("Results")] = jen.Index().Qual("reflect", "Type").Values(rs...)
		}
		if e.taskAugmented {
			fields[jen.Id("TaskAugmented")] = jen.True()
		}
		if e.inputOnly {
			fields[jen.Id("InputRequired")] = jen.True()
		}
		items = append(items, jen.Values(fields))
	}
	f.Add(docComment("Methods describes every method of this version, sorted by name."))
	f.Var().Id("Methods").Op("=").Index().Id("MethodInfo").Values(items...)
	f.Line()
}

// typeFor writes reflect.TypeFor[T]() for a Go type written as "*Name" or "Name".
func typeFor(t string) jen.Code {
	var typ jen.Code = jen.Id(t)
	if name, ok := strings.CutPrefix(t, "*"); ok {
		typ = jen.Op("*").Id(name)
	}
	return jen.Qual("reflect", "TypeFor").Types(typ).Call()
}

// errors makes the error objects Go errors, and writes Typed and NewErrorResponse.
func (r *renderer) errors(f *jen.File, p *protocolPlan) {
	objects := r.errorObjects()
	for _, td := range objects {
		code := jen.Id("e").Dot("Code")
		if c := fieldByJSON(td, "code"); c.implicit {
			code = jen.Add(literalCode(c.literal))
		} else if c.literal != nil {
			code = jen.Qual("cmp", "Or").Call(jen.Id("e").Dot("Code"), literalCode(c.literal))
		}
		f.Add(docComment("Error returns the message and the code of the error, making it a Go error."))
		f.Func().Params(jen.Id("e").Op("*").Id(td.name)).Id("Error").Params().String().Block(
			jen.Return(jen.Id("e").Dot("Message").Op("+").Lit(" (").Op("+").Qual("strconv", "FormatInt").Call(code, jen.Lit(10)).Op("+").Lit(")")),
		)
		f.Line()
	}

	// Typed: the error objects with a constant code, by code.
	var cases []jen.Code
	var links []string
	seen := map[string]bool{}
	for _, td := range objects {
		c := fieldByJSON(td, "code")
		if c.literal == nil || td.name == p.errorType || seen[c.literal.Num] {
			continue
		}
		seen[c.literal.Num] = true
		links = append(links, "*["+td.name+"] ("+c.literal.Num+")")
		cases = append(cases, jen.Case(literalCode(c.literal)).Block(
			jen.Id("t").Op(":=").New(jen.Id(td.name)),
			jen.If(jen.Id("convertError").Call(jen.Id("e"), jen.Id("t")).Op("==").Nil()).Block(jen.Return(jen.Id("t"))),
		))
	}
	doc := "Typed returns the error as the type the schema defines for its code"
	if len(links) > 0 {
		doc += ": " + orList(links)
	}
	doc += ". For another code, or data that does not fit the type, it returns e itself."
	f.Add(docComment(doc))
	body := []jen.Code{}
	if len(cases) > 0 {
		body = append(body, jen.Switch(jen.Id("e").Dot("Code")).Block(cases...))
	}
	body = append(body, jen.Return(jen.Id("e")))
	f.Func().Params(jen.Id("e").Op("*").Id(p.errorType)).Id("Typed").Params().Error().Block(body...)
	f.Line()

	f.Add(docComment("NewErrorResponse returns the error response to the request with the given id for err. " +
		"With a nil id, the id is the one a *[MessageError] carries, or null (JSON-RPC's answer to a message whose " +
		"id could not be read). A *[ValidationError] answers with its code (invalid params or invalid request), " +
		"its first problem as the message and every problem as the data; a *[DecodeError] with -32700 (parse " +
		"error: not JSON), -32600 (invalid request: a bad envelope, in a *[MessageError]) or -32602 (invalid " +
		"params); an error object of this package (" + orList(func() []string {
		var names []string
		for _, td := range objects {
			names = append(names, "*["+td.name+"]")
		}
		return names
	}()) + "), found with errors.As, answers as it is; any other error is an internal error (-32603) with " +
		"err.Error() as the message."))
	// An error object held by pointer (Config.Objects) is a local's address.
	var obj []jen.Code
	errorValue := jen.Id("errorObject").Call(jen.Err())
	if p.errorPointer {
		obj, errorValue = []jen.Code{jen.Id("o").Op(":=").Add(errorValue)}, jen.Op("&").Id("o")
	}
	f.Func().Id("NewErrorResponse").Params(jen.Id("id").Id(r.goNameOf("RequestId")), jen.Err().Error()).Op("*").Id(p.errorResponse.name).Block(
		jen.Var().Id("merr").Op("*").Id("MessageError"),
		jen.If(jen.Id("id").Op("==").Nil().Op("&&").Qual("errors", "As").Call(jen.Err(), jen.Op("&").Id("merr"))).Block(jen.Id("id").Op("=").Id("merr").Dot("ID")),
		jen.If(jen.Id("id").Op("==").Nil()).Block(jen.Id("id").Op("=").Id(r.byDecl["RequestId"].nullVariant).Values()),
		jen.Add(obj...),
		jen.Return(jen.Op("&").Id(p.errorResponse.name).Values(jen.Dict{
			jen.Id("ID"):    jen.Id("id"),
			jen.Id("Error"): errorValue,
		})),
	)
	f.Line()
	var checks []jen.Code
	checks = append(checks,
		jen.If(jen.List(jen.Id("code"), jen.Id("message"), jen.Id("data"), jen.Id("ok")).Op(":=").Id("protocolError").Call(jen.Err()), jen.Id("ok")).Block(
			jen.Return(jen.Id(p.errorType).Values(jen.Dict{
				jen.Id("Code"):    jen.Id("code"),
				jen.Id("Message"): jen.Id("message"),
				jen.Id("Data"):    jen.Id("data"),
			})),
		),
	)
	// Each error object is looked for in its own if statement, with one name, target, in scope
	// only there: if target := (*T)(nil); errors.As(err, &target) { ... }.
	for _, td := range objects {
		target := jen.Id("target")
		check := []jen.Code{jen.Return(jen.Op("*").Add(target))}
		if td.name != p.errorType {
			check = []jen.Code{
				jen.Var().Id("o").Id(p.errorType),
				jen.If(jen.Id("convertError").Call(target, jen.Op("&").Id("o")).Op("==").Nil()).Block(jen.Return(jen.Id("o"))),
			}
		}
		checks = append(checks, jen.If(
			jen.Add(target).Op(":=").Parens(jen.Op("*").Id(td.name)).Call(jen.Nil()),
			jen.Qual("errors", "As").Call(jen.Err(), jen.Op("&").Add(target)),
		).Block(check...))
	}
	checks = append(checks, jen.Return(jen.Id(p.errorType).Values(jen.Dict{
		jen.Id("Code"):    jen.Lit(-32603),
		jen.Id("Message"): jen.Err().Dot("Error").Call(),
	})))
	f.Func().Id("errorObject").Params(jen.Err().Error()).Id(p.errorType).Block(checks...)
	f.Line()
}

// ifValidate returns text, or "" in an output without validators (Config.NoValidate).
func (r *renderer) ifValidate(text string) string {
	if r.opts.Config.NoValidate {
		return ""
	}
	return text
}
