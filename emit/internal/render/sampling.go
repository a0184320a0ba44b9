package render

import (
	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/emit/internal/ir"
)

// This file writes, into validate.go, the readers that the hand-written sampling rules call
// (ir.Sampling): methods that read a member for the rules under the configured shapes, so that
// the rules never name a field. samplingBlock, its kinds and samplingContentJSON are the parts'.

// samplingReaders writes the readers of the sampling rules, if the output has the rules.
func (r *renderer) samplingReaders() {
	s := r.pkg.Sampling
	if s == nil {
		return
	}
	if q := s.Request; q != nil {
		samplingRequest(r.validateGo, q)
	}
	variants := map[string]bool{} // the variants whose asSamplingBlock is written
	for _, m := range s.Messages {
		samplingMessage(r.validateGo, m, variants)
	}
	if c := s.Capabilities; c != nil {
		samplingCapabilities(r.validateGo, c)
	}
}

// samplingRequest writes samplingMessages and samplingMessage: how many messages a request has,
// and message i (nil for a nil element of a slice of pointers).
func samplingRequest(f *jen.File, q *ir.SamplingRequest) {
	recv := jen.Id("v").Op("*").Id(q.Decl.Name)
	messages := jen.Id("v").Dot(q.Messages.Name)
	f.Add(docComment("samplingMessages is the number of messages of the request, for the sampling rules."))
	f.Func().Params(recv).Id("samplingMessages").Params().Int().Block(jen.Return(jen.Len(messages)))
	f.Line()
	elem := q.Messages.Type.Elem
	ret, typ := jen.Op("&").Add(messages.Clone().Index(jen.Id("i"))), jen.Op("*").Add(code(elem))
	if elem.Kind == ir.PointerKind {
		ret, typ = messages.Clone().Index(jen.Id("i")), code(elem)
	}
	f.Add(docComment("samplingMessage is message i of the request, for the sampling rules."))
	f.Func().Params(recv.Clone()).Id("samplingMessage").Params(jen.Id("i").Int()).Add(typ).Block(jen.Return(ret))
	f.Line()
}

// samplingMessage writes samplingRole and samplingContent of a message type, and the
// asSamplingBlock methods of its content's tool use and tool result variants not written yet.
func samplingMessage(f *jen.File, m *ir.SamplingMessage, variants map[string]bool) {
	recv := jen.Id("v").Op("*").Id(m.Decl.Name)
	f.Add(docComment("samplingRole is the role of the message, for the sampling rules."))
	f.Func().Params(recv).Id("samplingRole").Params().String().Block(jen.Return(readString(jen.Id("v"), m.Role, false)))
	f.Line()
	f.Add(docComment("samplingContent appends the blocks of the message's content to blocks, for the sampling rules, and reports whether the content is a list (encoded as an array)."))
	f.Func().Params(recv.Clone()).Id("samplingContent").Params(jen.Id("blocks").Index().Id("samplingBlock")).
		Params(jen.Index().Id("samplingBlock"), jen.Bool()).Block(samplingContent(m)...)
	f.Line()
	for _, v := range []*ir.SamplingVariant{m.ToolUse, m.ToolResult} {
		if v != nil && !variants[v.Variant.Type.Name] {
			variants[v.Variant.Type.Name] = true
			asSamplingBlock(f, v, v == m.ToolUse)
		}
	}
}

// samplingContent is the body of samplingContent, by how the content holds its blocks.
func samplingContent(m *ir.SamplingMessage) []jen.Code {
	content := jen.Id("v").Dot(m.Content.Name)
	if m.Blocks == ir.BlocksJSON {
		return []jen.Code{jen.Return(jen.Id("samplingContentJSON").Call(content, jen.Id("blocks")))}
	}
	var body []jen.Code
	if m.Content.Pointer || m.Content.Type.Kind == ir.PointerKind {
		body = append(body, jen.If(content.Clone().Op("==").Nil()).Block(jen.Return(jen.Id("blocks"), jen.False())))
	}
	list, isList := content.Clone(), jen.Code(jen.True())
	switch {
	case m.Blocks == ir.BlocksOneOrMany:
		list, isList = content.Clone().Dot("List"), content.Clone().Dot("IsList")
	case m.Content.Type.Single:
		isList = jen.Len(content.Clone()).Op("!=").Lit(1) // one element is encoded as the single block
	}
	loop := jen.For(jen.List(jen.Id("_"), jen.Id("b")).Op(":=").Range().Add(list))
	if m.Elem.Kind == ir.UnionKind && m.ToolUse == nil && m.ToolResult == nil && m.Unknown == "" {
		loop = jen.For(jen.Range().Add(list)) // no block is a tool use or a tool result
	}
	return append(body, loop.Block(appendBlock(m)), jen.Return(jen.Id("blocks"), isList))
}

// appendBlock appends the block b to blocks: a tool use or tool result variant of a union read by
// its asSamplingBlock, the Unknown variant of a union without them from its raw JSON, another
// variant as an other block, a block of another type from its JSON.
func appendBlock(m *ir.SamplingMessage) jen.Code {
	add := func(v jen.Code) jen.Code { return jen.Id("blocks").Op("=").Append(jen.Id("blocks"), v) }
	if m.Elem.Kind != ir.UnionKind {
		return add(jen.Id("samplingBlockJSON").Call(jen.Id("b")))
	}
	var cases []jen.Code
	for _, v := range []*ir.SamplingVariant{m.ToolUse, m.ToolResult} {
		if v != nil {
			t := code(v.Variant.Type)
			if v.Variant.Pointer {
				t = jen.Op("*").Add(t)
			}
			cases = append(cases, jen.Case(t).Block(add(jen.Id("b").Dot("asSamplingBlock").Call())))
		}
	}
	if m.Unknown != "" {
		cases = append(cases, jen.Case(jen.Op("*").Id(m.Unknown)).Block(add(jen.Id("samplingBlockRaw").Call(jen.Id("b").Dot("Raw")))))
	}
	if len(cases) == 0 {
		return add(jen.Id("samplingBlock").Values())
	}
	cases = append(cases, jen.Default().Block(add(jen.Id("samplingBlock").Values())))
	return jen.Switch(jen.Id("b").Op(":=").Id("b").Assert(jen.Type())).Block(cases...)
}

// asSamplingBlock writes the method that reads a tool use or tool result variant as a block.
func asSamplingBlock(f *jen.File, v *ir.SamplingVariant, use bool) {
	kind, what := "samplingToolResult", "tool result"
	if use {
		kind, what = "samplingToolUse", "tool use"
	}
	t := code(v.Variant.Type)
	var body []jen.Code
	if v.Variant.Pointer {
		t = jen.Op("*").Add(t)
		body = append(body, jen.If(jen.Id("b").Op("==").Nil()).Block(
			jen.Return(jen.Id("samplingBlock").Values(jen.Id("kind").Op(":").Id(kind), jen.Id("isNil").Op(":").True()))))
	}
	id := readString(jen.Id("b"), v.ID, false)
	body = append(body, jen.Return(jen.Id("samplingBlock").Values(jen.Id("kind").Op(":").Id(kind), jen.Id("id").Op(":").Add(id))))
	f.Add(docComment("asSamplingBlock reads the " + what + " as a content block, for the sampling rules."))
	f.Func().Params(jen.Id("b").Add(t)).Id("asSamplingBlock").Params().Id("samplingBlock").Block(body...)
	f.Line()
}

// samplingCapabilities writes the readers of CheckCapabilities: samplingCapabilities of the
// client's capabilities, samplingTools and samplingIncludeContext of the request.
func samplingCapabilities(f *jen.File, c *ir.SamplingCapabilities) {
	v := jen.Id("v")
	s := jen.Id("v").Dot(c.Sampling.Name)
	if !c.Sampling.Pointer && c.Sampling.Type.Kind != ir.PointerKind {
		s = jen.Op("&").Add(s)
	}
	f.Add(docComment("samplingCapabilities reports whether the client declares the sampling capability, and in it tools and context, for CheckCapabilities. A nil client declares none."))
	f.Func().Params(jen.Id("v").Op("*").Id(c.Client.Name)).Id("samplingCapabilities").Params().Params(jen.Id("sampling"), jen.Id("tools"), jen.Id("context").Bool()).Block(
		jen.If(jen.Id("v").Op("!=").Nil().Op("&&").Add(declared(v, c.Sampling))).Block(
			jen.Id("s").Op(":=").Add(s),
			jen.Return(jen.True(), declared(jen.Id("s"), c.SamplingTools), declared(jen.Id("s"), c.Context))),
		jen.Return(jen.False(), jen.False(), jen.False()),
	)
	f.Line()
	recv := jen.Id("v").Op("*").Id(c.Decl.Name)
	f.Add(docComment("samplingTools reports whether the request has tools and toolChoice, for CheckCapabilities."))
	f.Func().Params(recv).Id("samplingTools").Params().Params(jen.Id("tools"), jen.Id("toolChoice").Bool()).Block(
		jen.Return(declared(v, c.Tools), declared(v, c.ToolChoice)))
	f.Line()
	include := jen.Return(readString(v, c.Include, true), jen.True())
	if c.Include.Optional && !c.Include.Always {
		include = jen.If(presentIn(v, c.Include)).Block(include).Line().Return(jen.Lit(""), jen.False())
	}
	f.Add(docComment("samplingIncludeContext is the request's includeContext and whether it has one, for CheckCapabilities."))
	f.Func().Params(recv.Clone()).Id("samplingIncludeContext").Params().Params(jen.String(), jen.Bool()).Block(include)
	f.Line()
}

// declared is the condition that the member fd of recv is present: always for a required member
// or one always encoded; set (not nil) for a type with nil, so that an empty capability or tools
// array that was received counts, although omitempty would not send it again; else as encoding
// writes it (present's).
func declared(recv jen.Code, fd *ir.Field) jen.Code {
	switch {
	case !fd.Optional || fd.Always:
		return jen.True()
	case fd.Type.HasNil:
		return jen.Add(recv).Dot(fd.Name).Op("!=").Nil()
	}
	return presentIn(recv, fd)
}

// readString is the member fd of recv as a string: converted from an enum or a named string
// type, through its pointer when it has one ("" when nil, unless the caller checked it is not).
func readString(recv jen.Code, fd *ir.Field, checked bool) jen.Code {
	src := jen.Add(recv).Dot(fd.Name)
	conv := func(c jen.Code) jen.Code {
		if fd.Type.Kind == ir.BuiltinKind || fd.Type.Kind == ir.ExternalKind && fd.Type.Builtin == ir.String {
			return c
		}
		return jen.String().Call(c)
	}
	switch {
	case !fd.Pointer:
		return conv(src)
	case checked:
		return conv(jen.Op("*").Add(src))
	}
	return jen.Func().Params().String().Block(
		jen.If(src.Clone().Op("==").Nil()).Block(jen.Return(jen.Lit(""))),
		jen.Return(conv(jen.Op("*").Add(src.Clone()))),
	).Call()
}
