package render

import (
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/emit/internal/ir"
)

// This file writes protocol.go: the JSON-RPC layer an SDK is built on. The message unions
// (model.Protocol makes them the same set in every version) get accessors, every JSON-RPC message
// type implements Message, DecodeClientMessage and DecodeServerMessage decode any message in one
// call with typed params and results, Methods describes every method, and the error objects are
// Go errors. What it writes is found first, in plan_protocol.go; the hand-written helpers it
// calls are templates/parts/wire_protocol.go and protocol_helpers.go.

// messageMethods are the methods a message union's interface adds to its marker and Validate.
func (r *renderer) messageMethods(td *ir.Decl) []jen.Code {
	if r.pkg.Protocol == nil {
		return nil
	}
	p := r.pkg.Protocol
	switch p.Roles[td] {
	case ir.Requests:
		return []jen.Code{
			docComment(p.RequestDocs.Method),
			jen.Id(p.Names.GetMethod).Params().String(),
			docComment(p.RequestDocs.ID),
			jen.Id(p.Names.GetID).Params().Id(p.RequestID.Name),
			docComment(p.RequestDocs.Params),
			jen.Id(p.Names.GetParams).Params().Id(p.Names.Params),
		}
	case ir.Notifications:
		return []jen.Code{
			docComment(p.NotificationDocs.Method),
			jen.Id(p.Names.GetMethod).Params().String(),
			docComment(p.NotificationDocs.Params),
			jen.Id(p.Names.GetParams).Params().Id(p.Names.Params),
		}
	}
	return nil
}

// protocol writes protocol.go.
func (r *renderer) protocol() {
	p := r.pkg.Protocol
	if p == nil {
		return
	}
	f := r.protocolGo
	r.messageInterface(f, p)
	accessors(f, p)
	decodeMessages(f, p)
	methodTable(f, p)
	errorMethods(f, p)
}

// messageInterface writes Message, its markers and the GetID of each message type.
func (r *renderer) messageInterface(f *jen.File, p *ir.Protocol) {
	f.Add(docComment(p.MessageDoc))
	f.Type().Id(p.Names.Message).Interface(append(r.unionMethods(p.Names.IsMessage),
		jen.Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()),
		docComment(p.Names.GetID+" returns the id of a request or response, or nil for a notification."),
		jen.Id(p.Names.GetID).Params().Id(p.RequestID.Name),
		docComment(p.Names.GetMethod+" returns the method of a request or notification, or \"\" for a response."),
		jen.Id(p.Names.GetMethod).Params().String(),
	)...)
	f.Line()
	for _, name := range p.Messages {
		f.Func().Params(jen.Op("*").Id(name)).Id(p.Names.IsMessage).Params().Block()
	}
	f.Line()
	for _, a := range p.IDMethods {
		name := a.Decl.Name
		if a.ID != nil {
			f.Add(docComment(p.Names.GetID + " returns the id of the message."))
			f.Func().Params(jen.Id("v").Op("*").Id(name)).Id(p.Names.GetID).Params().Id(p.RequestID.Name).Block(jen.Return(jen.Id("v").Dot(a.ID.Name)))
		} else {
			f.Add(docComment(p.Names.GetID + " returns nil: the message has no id."))
			f.Func().Params(jen.Op("*").Id(name)).Id(p.Names.GetID).Params().Id(p.RequestID.Name).Block(jen.Return(jen.Nil()))
		}
		f.Line()
		f.Add(docComment(p.Names.GetMethod + " returns \"\": a response has no method."))
		f.Func().Params(jen.Op("*").Id(name)).Id(p.Names.GetMethod).Params().String().Block(jen.Return(jen.Lit("")))
		f.Line()
	}
}

// accessors writes GetMethod, GetID and GetParams of every variant of the message unions.
func accessors(f *jen.File, p *ir.Protocol) {
	for _, a := range p.Accessors {
		if a.Unknown != "" {
			unknownAccessors(f, p, a.Unknown)
			continue
		}
		vt := a.Decl
		f.Add(docComment(p.Names.GetMethod + " returns " + quote(a.Method) + "."))
		f.Func().Params(jen.Id("v").Op("*").Id(vt.Name)).Id(p.Names.GetMethod).Params().String().Block(jen.Return(jen.Lit(a.Method)))
		f.Line()
		if a.ID != nil {
			f.Add(docComment(p.Names.GetID + " returns the id of the message."))
			f.Func().Params(jen.Id("v").Op("*").Id(vt.Name)).Id(p.Names.GetID).Params().Id(p.RequestID.Name).Block(jen.Return(jen.Id("v").Dot(a.ID.Name)))
			f.Line()
		} else if a.NoID {
			f.Add(docComment(p.Names.GetID + " returns nil: the message has no id."))
			f.Func().Params(jen.Op("*").Id(vt.Name)).Id(p.Names.GetID).Params().Id(p.RequestID.Name).Block(jen.Return(jen.Nil()))
			f.Line()
		}
		getParams(f, p, vt, a.Params)
	}
}

// unknownAccessors writes the accessors of the Unknown variant u of a message union, which read
// the JSON it keeps.
func unknownAccessors(f *jen.File, p *ir.Protocol, u string) {
	f.Add(docComment(p.Names.GetMethod + " returns the method of the message, as received."))
	f.Func().Params(jen.Id("v").Op("*").Id(u)).Id(p.Names.GetMethod).Params().String().Block(
		jen.List(jen.Id("method"), jen.Id("_"), jen.Id("_")).Op(":=").Id("lookupTag").Call(jen.Id("newDecoder").Call(jen.Id("v").Dot("Raw")), jen.Lit("method")),
		jen.Return(jen.Id("method")),
	)
	f.Line()
	f.Add(docComment(p.Names.GetID + " returns the id of the message, as received, or nil."))
	f.Func().Params(jen.Id("v").Op("*").Id(u)).Id(p.Names.GetID).Params().Id(p.RequestID.Name).Block(
		jen.List(jen.Id("raw"), jen.Id("ok"), jen.Err()).Op(":=").Id("newDecoder").Call(jen.Id("v").Dot("Raw")).Dot("lookup").Call(jen.Lit("id")),
		jen.If(jen.Err().Op("!=").Nil().Op("||").Op("!").Id("ok")).Block(jen.Return(jen.Nil())),
		jen.List(jen.Id("id"), jen.Id("_")).Op(":=").Id(p.RequestID.Funcs.Unmarshal).Call(jen.Id("raw")),
		jen.Return(jen.Id("id")),
	)
	f.Line()
	f.Add(docComment(p.Names.GetParams + " returns the params of the message, as received, or nil."))
	f.Func().Params(jen.Id("v").Op("*").Id(u)).Id(p.Names.GetParams).Params().Id(p.Names.Params).Block(
		jen.List(jen.Id("raw"), jen.Id("ok"), jen.Err()).Op(":=").Id("newDecoder").Call(jen.Id("v").Dot("Raw")).Dot("lookup").Call(jen.Lit("params")),
		jen.If(jen.Err().Op("!=").Nil().Op("||").Op("!").Id("ok")).Block(jen.Return(jen.Nil())),
		jen.Return(jen.Id(p.Names.RawParams).Call(jen.Id("raw"))),
	)
	f.Line()
}

// getParams writes GetParams of a request or notification struct.
func getParams(f *jen.File, p *ir.Protocol, td *ir.Decl, params *ir.Field) {
	f.Add(docComment(p.Names.GetParams + " returns the params of the message, or nil when it has none."))
	recv := jen.Id("v").Op("*").Id(td.Name)
	switch {
	case params == nil:
		f.Func().Params(jen.Op("*").Id(td.Name)).Id(p.Names.GetParams).Params().Id(p.Names.Params).Block(jen.Return(jen.Nil()))
	case params.Type.Kind == ir.UnionKind:
		f.Func().Params(recv).Id(p.Names.GetParams).Params().Id(p.Names.Params).Block(
			jen.If(jen.Id("v").Dot(params.Name).Op("==").Nil()).Block(jen.Return(jen.Nil())),
			jen.Return(jen.Id("v").Dot(params.Name)),
		)
	case params.Pointer:
		f.Func().Params(recv).Id(p.Names.GetParams).Params().Id(p.Names.Params).Block(
			jen.If(jen.Id("v").Dot(params.Name).Op("==").Nil()).Block(jen.Return(jen.Nil())),
			jen.Return(jen.Id("v").Dot(params.Name)),
		)
	case params.Type.Kind == ir.StructKind:
		f.Func().Params(recv).Id(p.Names.GetParams).Params().Id(p.Names.Params).Block(jen.Return(jen.Op("&").Id("v").Dot(params.Name)))
	default: // free-form params, or a substitute's: their JSON
		var body []jen.Code
		if params.Type.HasNil {
			body = append(body, jen.If(jen.Id("v").Dot(params.Name).Op("==").Nil()).Block(jen.Return(jen.Nil())))
		}
		f.Func().Params(recv).Id(p.Names.GetParams).Params().Id(p.Names.Params).Block(append(body,
			jen.List(jen.Id("raw"), jen.Id("_")).Op(":=").Qual("encoding/json", "Marshal").Call(jen.Id("v").Dot(params.Name)),
			jen.Return(jen.Id(p.Names.RawParams).Call(jen.Id("raw"))),
		)...)
	}
	f.Line()
}

// decodeMessages writes DecodeClientMessage and DecodeServerMessage.
func decodeMessages(f *jen.File, p *ir.Protocol) {
	for _, side := range p.Sides {
		decodeMessage(f, p, side)
	}
}

// decodeMessage writes the functions that decode any message a side sends.
func decodeMessage(f *jen.File, p *ir.Protocol, side *ir.Side) {
	pending := jen.Id("pending").Func().Params(jen.Id(p.RequestID.Name)).Params(jen.String(), jen.Bool())
	for _, v := range []struct{ Name, doc, decoder string }{{side.Decode, side.DecodeDoc, "topDecoder"}, {side.NoCopy, side.NoCopyDoc, "noCopyDecoder"}} {
		f.Add(docComment(v.doc))
		f.Func().Id(v.Name).Params(jen.Id("data").Index().Byte(), pending).Params(jen.Id(p.Names.Message), jen.Error()).Block(
			jen.Id("d").Op(":=").Id(v.decoder).Call(jen.Id("data")),
			jen.List(jen.Id("m"), jen.Err()).Op(":=").Id(side.Internal).Call(jen.Id("d"), jen.Id("pending")),
			jen.If(jen.Err().Op("==").Nil()).Block(jen.Err().Op("=").Id("d").Dot("end").Call()),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Id("messageError").Call(jen.Id("d"), jen.Err()))),
			jen.Return(jen.Id("m"), jen.Nil()),
		)
		f.Line()
	}
	f.Func().Id(side.Internal).Params(jen.Id("d").Op("*").Id("decoder"), pending).Params(jen.Id(p.Names.Message), jen.Error()).Block(decodeMessageBody(p, side)...)
	f.Line()
}

// decodeMessageBody is the body of decodeClientMessage or decodeServerMessage: a batch, or one
// message by its kind.
func decodeMessageBody(p *ir.Protocol, side *ir.Side) []jen.Code {
	var body []jen.Code
	if p.Batch {
		body = append(body, jen.If(jen.Id("d").Dot("peek").Call().Op("==").LitRune('[')).Block(
			jen.Id("batch").Op(":=").Id("MessageBatch").Values(),
			jen.Err().Op(":=").Id("d").Dot("array").Call(jen.Func().Params(jen.Id("int")).Error().Block(
				jen.List(jen.Id("m"), jen.Err()).Op(":=").Id(side.Internal).Call(jen.Id("d"), jen.Id("pending")),
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
			jen.List(jen.Id("m"), jen.Id("ok")).Op(":=").Id("v").Assert(jen.Id(p.Names.Message)),
			jen.If(jen.Op("!").Id("ok")).Block(jen.Return(jen.Nil(), jen.Id("d").Dot("errorf").Call(
				jen.Lit("a "+strings.ToLower(side.Name)+" sends no JSON-RPC "+what+" %s in this version"), jen.Id("quoteValue").Call(jen.Id("v").Dot(p.Names.GetMethod).Call())))),
			jen.Return(jen.Id("m"), jen.Nil()),
		}
	}
	return append(body,
		jen.List(jen.Id("kind"), jen.Err()).Op(":=").Id("kindOfMessage").Call(jen.Id("d")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Switch(jen.Id("kind")).Block(
			jen.Case(jen.Id("requestMessage")).Block(asMessage(side.Requests.Funcs.Decode, "request")...),
			jen.Case(jen.Id("notificationMessage")).Block(asMessage(side.Notifications.Funcs.Decode, "notification")...),
			jen.Case(jen.Id("resultMessage")).Block(decodeResultMessage(p, side)...),
		),
		// An error response answers a pending request too: pending forgets it.
		jen.If(jen.List(jen.Id("_"), jen.Err()).Op(":=").Id("responseMethod").Call(jen.Id("d"), jen.Id("pending")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Id("v").Op(":=").New(jen.Id(p.ErrorResponse.Name)),
		jen.Return(jen.Id("v"), jen.Id("v").Dot("decode").Call(jen.Id("d"))),
	)
}

// decodeResultMessage decodes a result response, its result typed by the method of the request
// it answers.
func decodeResultMessage(p *ir.Protocol, side *ir.Side) []jen.Code {
	results, anyResult := side.Results, p.AnyResult
	resultDecode := jen.Id(results.Funcs.Decode).Call(jen.Id("d"))
	if len(results.Results) > 0 {
		resultDecode = jen.Id(results.Funcs.DecodeFor).Call(jen.Id("d"), jen.Id("method"))
	}
	// A result whose resultType this version does not know is the Unknown variant of the
	// side's result union, which is not an AnyResult: it becomes AnyResult's own.
	toAny := []jen.Code{jen.Return(jen.Id("r").Assert(jen.Id(anyResult.Name)), jen.Nil())}
	if results.Unknown != "" && anyResult.Unknown != "" {
		toAny = []jen.Code{
			jen.If(jen.List(jen.Id("u"), jen.Id("ok")).Op(":=").Id("r").Assert(jen.Op("*").Id(results.Unknown)), jen.Id("ok")).Block(
				jen.Return(jen.Op("&").Id(anyResult.Unknown).Values(jen.Dict{jen.Id("Raw"): jen.Id("u").Dot("Raw")}), jen.Nil()),
			),
			jen.Return(jen.Id("r").Assert(jen.Id(anyResult.Name)), jen.Nil()),
		}
	}
	return []jen.Code{
		jen.List(jen.Id("method"), jen.Err()).Op(":=").Id("responseMethod").Call(jen.Id("d"), jen.Id("pending")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Id("v").Op(":=").New(jen.Id(p.ResultResponse.Name)),
		jen.Return(jen.Id("v"), jen.Id("v").Dot("decodeFor").Call(jen.Id("d"), jen.Func().Params(jen.Id("d").Op("*").Id("decoder")).Params(jen.Id(anyResult.Name), jen.Error()).Block(
			append([]jen.Code{
				jen.List(jen.Id("r"), jen.Err()).Op(":=").Add(resultDecode),
				jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
			}, toAny...)...,
		))),
	}
}

// methodTable writes Methods, the table of templates/parts/protocol_helpers.go's MethodInfo.
func methodTable(f *jen.File, p *ir.Protocol) {
	info := p.Names.MethodInfo
	var items []jen.Code
	for _, e := range p.Methods {
		fields := jen.Dict{
			jen.Id(info.Method):  jen.Lit(e.Method),
			jen.Id(info.Message): typeFor(jen.Op("*").Id(e.Message.Name)),
		}
		for _, flag := range []struct {
			set  bool
			name string
		}{{e.FromClient, info.FromClient}, {e.FromServer, info.FromServer}, {e.Notification, info.Notification},
			{e.TaskAugmented, info.TaskAugmented}, {e.InputOnly, info.InputRequired}} {
			if flag.set {
				fields[jen.Id(flag.name)] = jen.True()
			}
		}
		if e.Params != nil {
			params := code(e.Params)
			if e.ParamsPointer {
				params = jen.Op("*").Add(params)
			}
			fields[jen.Id(info.Params)] = typeFor(params)
		}
		if len(e.Results) > 0 {
			var rs []jen.Code
			for _, res := range e.Results {
				rs = append(rs, typeFor(jen.Op("*").Add(code(res))))
			}
			fields[jen.Id(info.Results)] = jen.Index().Qual("reflect", "Type").Values(rs...)
		}
		items = append(items, jen.Values(fields))
	}
	f.Add(docComment(p.Names.Methods + " describes every method of this version, sorted by name."))
	f.Var().Id(p.Names.Methods).Op("=").Index().Id(info.Name).Values(items...)
	f.Line()
}

// typeFor writes reflect.TypeFor[T]() for the Go type t.
func typeFor(t jen.Code) jen.Code {
	return jen.Qual("reflect", "TypeFor").Types(t).Call()
}

// errorMethods makes the error objects Go errors, and writes Typed and NewErrorResponse.
func errorMethods(f *jen.File, p *ir.Protocol) {
	for _, o := range p.Errors {
		td := o.Decl
		code := jen.Id("e").Dot(o.Code.Name)
		if c := o.Code; c.Implicit {
			code = jen.Add(literalCode(c.Literal))
		} else if c.Literal != nil {
			code = jen.Qual("cmp", "Or").Call(jen.Id("e").Dot(o.Code.Name), literalCode(c.Literal))
		}
		f.Add(docComment("Error returns the message and the code of the error, making it a Go error."))
		f.Func().Params(jen.Id("e").Op("*").Id(td.Name)).Id("Error").Params().String().Block(
			jen.Return(jen.Id("e").Dot(o.Message.Name).Op("+").Lit(" (").Op("+").Qual("strconv", "FormatInt").Call(code, jen.Lit(10)).Op("+").Lit(")")),
		)
		f.Line()
	}

	typed(f, p)
	newErrorResponse(f, p)
	errorObject(f, p)
}

// typed writes Typed: the error objects with a constant code, by code.
func typed(f *jen.File, p *ir.Protocol) {
	var cases []jen.Code
	for _, o := range p.Typed {
		td, c := o.Decl, o.Code
		cases = append(cases, jen.Case(literalCode(c.Literal)).Block(
			jen.Id("t").Op(":=").New(jen.Id(td.Name)),
			jen.If(jen.Id("convertError").Call(jen.Id("e"), jen.Id("t")).Op("==").Nil()).Block(jen.Return(jen.Id("t"))),
		))
	}
	f.Add(docComment(p.TypedDoc))
	body := []jen.Code{}
	if len(cases) > 0 {
		body = append(body, jen.Switch(jen.Id("e").Dot(p.ErrorCode)).Block(cases...))
	}
	body = append(body, jen.Return(jen.Id("e")))
	f.Func().Params(jen.Id("e").Op("*").Id(p.ErrorType)).Id(p.Names.Typed).Params().Error().Block(body...)
	f.Line()
}

// newErrorResponse writes NewErrorResponse.
func newErrorResponse(f *jen.File, p *ir.Protocol) {
	f.Add(docComment(p.ErrorResponseDoc))
	// An error object held by pointer (Config.Objects) is a local's address.
	var obj []jen.Code
	errorValue := jen.Id(p.Names.ErrorObject).Call(jen.Err())
	if p.ErrorPointer {
		obj, errorValue = []jen.Code{jen.Id("o").Op(":=").Add(errorValue)}, jen.Op("&").Id("o")
	}
	f.Func().Id(p.Names.NewErrorResponse).Params(jen.Id("id").Id(p.RequestID.Name), jen.Err().Error()).Op("*").Id(p.ErrorResponse.Name).Block(
		jen.Var().Id("merr").Op("*").Id(p.Names.MessageError),
		jen.If(jen.Id("id").Op("==").Nil().Op("&&").Qual("errors", "As").Call(jen.Err(), jen.Op("&").Id("merr"))).Block(jen.Id("id").Op("=").Id("merr").Dot(p.Names.MessageErrorID)),
		jen.If(jen.Id("id").Op("==").Nil()).Block(jen.Id("id").Op("=").Id(p.RequestID.NullVariant).Values()),
		jen.Add(obj...),
		jen.Return(jen.Op("&").Id(p.ErrorResponse.Name).Values(jen.Dict{
			jen.Id(p.ErrorID.Name):    jen.Id("id"),
			jen.Id(p.ErrorField.Name): errorValue,
		})),
	)
	f.Line()
}

// errorObject writes errorObject, which turns a Go error into the error object of a response.
func errorObject(f *jen.File, p *ir.Protocol) {
	// An error object without a data field (ErrorData "") is written without the data.
	data, fields := jen.Id("_"), jen.Dict{jen.Id(p.ErrorCode): jen.Id("code"), jen.Id(p.ErrorMessage): jen.Id("message")}
	if p.ErrorData != "" {
		data, fields[jen.Id(p.ErrorData)] = jen.Id("data"), jen.Id("data")
	}
	var checks []jen.Code
	checks = append(checks,
		jen.If(jen.List(jen.Id("code"), jen.Id("message"), data, jen.Id("ok")).Op(":=").Id("protocolError").Call(jen.Err()), jen.Id("ok")).Block(
			jen.Return(jen.Id(p.ErrorType).Values(fields)),
		),
	)
	// Each error object is looked for in its own if statement, with one name, target, in scope
	// only there: if target := (*T)(nil); errors.As(err, &target) { ... }.
	for _, o := range p.Errors {
		td := o.Decl
		target := jen.Id("target")
		check := []jen.Code{jen.Return(jen.Op("*").Add(target))}
		if !o.Own {
			check = []jen.Code{
				jen.Var().Id("o").Id(p.ErrorType),
				jen.If(jen.Id("convertError").Call(target, jen.Op("&").Id("o")).Op("==").Nil()).Block(jen.Return(jen.Id("o"))),
			}
		}
		checks = append(checks, jen.If(
			jen.Add(target).Op(":=").Parens(jen.Op("*").Id(td.Name)).Call(jen.Nil()),
			jen.Qual("errors", "As").Call(jen.Err(), jen.Op("&").Add(target)),
		).Block(check...))
	}
	checks = append(checks, jen.Return(jen.Id(p.ErrorType).Values(jen.Dict{
		jen.Id(p.ErrorCode):    jen.Lit(ir.InternalError),
		jen.Id(p.ErrorMessage): jen.Err().Dot("Error").Call(),
	})))
	f.Func().Id(p.Names.ErrorObject).Params(jen.Err().Error()).Id(p.ErrorType).Block(checks...)
	f.Line()
}
