package render

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/emit/internal/ir"
)

// This file writes the codecs of named types into json.go: the exported MarshalJSON and
// UnmarshalJSON, and the unexported encode and decode methods that nested values call.

// jsonMethods writes MarshalJSON and AppendJSON (value receivers) and UnmarshalJSON (pointer
// receiver) of a type that has encode and decode methods, each one statement calling the
// runtime (marshalJSON, appendJSON, unmarshal). The encode is handed over as a method value, which
// does not escape, so that the value stays on the caller's stack as with a direct call.
func jsonMethods(f *jen.File, name string) {
	encode := jen.Id("v").Dot("encode")
	f.Add(docComment("MarshalJSON implements [json.Marshaler]."))
	f.Func().Params(jen.Id("v").Id(name)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Add(
		oneLine(jen.Return(jen.Id("marshalJSON").Call(encode))),
	)
	f.Line()
	f.Add(docComment("AppendJSON is MarshalJSON appending to dst, a buffer the caller can reuse."))
	f.Func().Params(jen.Id("v").Id(name)).Id("AppendJSON").Params(jen.Id("dst").Index().Byte()).Params(jen.Index().Byte(), jen.Error()).Add(
		oneLine(jen.Return(jen.Id("appendJSON").Call(jen.Id("dst"), encode))),
	)
	f.Line()
	f.Add(docComment("UnmarshalJSON implements [json.Unmarshaler]."))
	f.Func().Params(jen.Id("v").Op("*").Id(name)).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Add(
		oneLine(jen.Return(jen.Id("unmarshal").Call(jen.Id("data"), jen.Id("v")))),
	)
	f.Line()
}

// oneLine is a function body written on one line, which gofmt keeps so when it is short (a
// longer one it breaks as any other).
func oneLine(stmts ...jen.Code) jen.Code {
	return jen.Custom(jen.Options{Open: "{ ", Close: " }", Separator: "; "}, stmts...)
}

// encodeMethod writes `func (v T) encode(e *encoder)`, with a pointer receiver for structs.
func encodeMethod(f *jen.File, name string, pointer bool, body ...jen.Code) {
	recv := jen.Id("v").Id(name)
	if pointer {
		recv = jen.Id("v").Op("*").Id(name)
	}
	f.Func().Params(recv).Id("encode").Params(jen.Id("e").Op("*").Id("encoder")).Block(body...)
	f.Line()
}

// decodeMethod writes `func (v *T) decode(d *decoder) (err error)`.
func decodeMethod(f *jen.File, name string, body ...jen.Code) {
	f.Func().Params(jen.Id("v").Op("*").Id(name)).Id("decode").Params(jen.Id("d").Op("*").Id("decoder")).Params(jen.Err().Error()).Block(body...)
	f.Line()
}

// structCodec writes the codec of a struct. Encoding writes the required members always, the
// optional ones when set, then Extra; decoding checks the required members are present.
func (r *renderer) structCodec(td *ir.Decl) {
	f := r.jsonGo
	if td.TagCodec {
		// Config.TagCodecs: encoding/json codes a copy of the struct without methods.
		plain := jen.Type().Id("plain").Id(td.Name)
		encodeMethod(f, td.Name, true, plain, jen.Id(encodeExternal).Call(jen.Id("e"), jen.Parens(jen.Op("*").Id("plain")).Call(jen.Id("v"))))
		decodeMethod(f, td.Name, plain, jen.Return(jen.Id(decodeExternal).Call(jen.Id("d"), jen.Parens(jen.Op("*").Id("plain")).Call(jen.Id("v")))))
		return
	}
	jsonMethods(f, td.Name)

	enc := []jen.Code{jen.Id("e").Dot("beginObject").Call()}
	for _, fd := range td.Fields {
		enc = append(enc, encodeField(fd)...)
	}
	var known []jen.Code
	for _, fd := range td.Fields {
		known = append(known, jen.Lit(fd.JSONName))
	}
	switch {
	case r.pkg.DropUnknown:
		// No Extra: only the members the schema defines are written.
	case len(td.Absent) > 0:
		// A member that must not be present is never written: an Extra holding it is an error.
		var names []jen.Code
		for _, name := range td.Absent {
			names = append(names, jen.Lit(name))
		}
		enc = append(enc, jen.If(jen.Id("extraHoldsAbsent").Call(jen.Id("e"), jen.Id("v").Dot(r.pkg.Extra), jen.Index().String().Values(names...))).Block(
			jen.Return(),
		))
	}
	switch {
	case r.pkg.DropUnknown:
	case td.Rest.Kind == ir.RawKind:
		enc = append(enc, jen.Id("e").Dot("extra").Call(append([]jen.Code{jen.Id("v").Dot(r.pkg.Extra)}, known...)...))
	default:
		enc = append(enc, jen.If(jen.Len(jen.Id("v").Dot(r.pkg.Extra)).Op(">").Lit(0).Op("&&").Op("!").Id("extraHoldsKnown").Call(jen.Id("e"), jen.Id("v").Dot(r.pkg.Extra), jen.Index().String().Values(known...))).Block(
			encodeMembers(jen.Id("v").Dot(r.pkg.Extra), td.Rest, 0),
		))
	}
	enc = append(enc, jen.Id("e").Dot("endObject").Call())
	encodeMethod(f, td.Name, true, enc...)
	if !td.ResultResponse {
		decodeMethod(f, td.Name, r.structDecode(td, false)...)
		return
	}
	// A result response decodes its result with a function of the caller, who may know the
	// method of the request it answers.
	decodeMethod(f, td.Name, jen.Return(jen.Id("v").Dot("decodeFor").Call(jen.Id("d"), jen.Id(td.ResultUnion.Funcs.Decode))))
	f.Add(docComment("decodeFor decodes the response, its result with result."))
	f.Func().Params(jen.Id("v").Op("*").Id(td.Name)).Id("decodeFor").Params(
		jen.Id("d").Op("*").Id("decoder"),
		jen.Id("result").Func().Params(jen.Op("*").Id("decoder")).Params(jen.Id(td.ResultUnion.Name), jen.Error()),
	).Params(jen.Err().Error()).Block(r.structDecode(td, true)...)
	f.Line()
}

// structDecode is the body of a struct's decode method: a loop over the members with a switch on
// the name, then a check that the required members were present. A bit of seen per field finds
// a duplicate of a known member (checked once after the switch, the runtime's memberError
// making the error); a duplicate of an unknown one is found in Extra. With result
// set, the "result" member is decoded by the function result. With Config.DropUnknown, an unknown
// member is skipped; with Config.Lenient, null decodes as the zero value, of the struct and of
// any member, and a missing required member is no error.
func (r *renderer) structDecode(td *ir.Decl, result bool) []jen.Code {
	lenient := r.pkg.Lenient
	words := (len(td.Fields) + 63) / 64
	cases, required := memberCases(td, result, lenient)
	member := r.memberSwitch(td, cases, words)
	vars := []jen.Code{jen.Id("name").Index().Byte(), jen.Id("ok").Bool()}
	switch {
	case words == 1:
		vars = append(vars, jen.Id("seen").Uint64())
	case words > 1:
		vars = append(vars, jen.Id("seen").Index(jen.Lit(words)).Uint64())
	}
	dec := []jen.Code{jen.Op("*").Id("v").Op("=").Id(td.Name).Values()}
	if lenient {
		dec = append(dec,
			jen.If(jen.List(jen.Id("null"), jen.Err()).Op(":=").Id("d").Dot("null").Call(), jen.Err().Op("!=").Nil().Op("||").Id("null")).Block(jen.Return(jen.Err())))
	}
	dec = append(dec,
		jen.If(jen.Err().Op("=").Id("d").Dot("beginObject").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.Var().Defs(vars...),
		jen.For(jen.Id("i").Op(":=").Lit(0), jen.Empty(), jen.Id("i").Op("++")).Block(
			append([]jen.Code{
				jen.If(jen.List(jen.Id("name"), jen.Id("ok"), jen.Err()).Op("=").Id("d").Dot("member").Call(jen.Id("i"), jen.Id("name")), jen.Op("!").Id("ok")).Block(jen.Break()),
			}, member...)...,
		),
	)
	if len(required) == 0 {
		return append(dec, jen.Return(jen.Err()))
	}
	if words == 1 {
		return append(dec, missingCheck(td, required), jen.Return(jen.Err()))
	}
	checks := []jen.Code{jen.Case(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))}
	for _, i := range required {
		mask := jen.Lit(1).Op("<<").Lit(i % 64)
		checks = append(checks, jen.Case(jen.Id("seen").Index(jen.Lit(i/64)).Op("&").Parens(mask).Op("==").Lit(0)).Block(
			jen.Return(jen.Id("d").Dot("errorf").Call(jen.Lit("missing required member %q"), jen.Lit(td.Fields[i].JSONName))),
		))
	}
	return append(dec,
		jen.Switch().Block(checks...),
		jen.Return(jen.Nil()),
	)
}

// missingCheck is the check, after a decode without error, that the required fields (their
// indexes, all below 64) were all seen; the runtime's missingMember names the first missing.
func missingCheck(td *ir.Decl, required []int) jen.Code {
	var mask uint64
	for _, i := range required {
		mask |= 1 << i
	}
	names := []jen.Code{jen.Id("seen"), jen.Id(fmt.Sprintf("%#x", mask))}
	for _, fd := range td.Fields[:required[len(required)-1]+1] {
		names = append(names, jen.Lit(fd.JSONName))
	}
	return jen.If(jen.Err().Op("==").Nil().Op("&&").Id("seen").Op("&").Id(fmt.Sprintf("%#x", mask)).Op("!=").Id(fmt.Sprintf("%#x", mask))).Block(
		jen.Err().Op("=").Id("d").Dot("missingMember").Call(names...),
	)
}

// memberCases are the cases of a struct decoder's switch on a member's name, one per field
// (which marks its bit of seen) and per member that must be absent, and the indexes of the
// fields that are required.
func memberCases(td *ir.Decl, result, lenient bool) (cases []jen.Code, required []int) {
	words := (len(td.Fields) + 63) / 64
	for i, fd := range td.Fields {
		body := decodeField(fd)
		if result && fd.Result {
			body = []jen.Code{jen.List(jen.Id("v").Dot(fd.Name), jen.Err()).Op("=").Id("result").Call(jen.Id("d"))}
		}
		if (lenient || fd.NilNull) && !fd.Nullable && !(result && fd.Result) {
			body = []jen.Code{
				jen.Var().Id("null").Bool(),
				jen.If(jen.List(jen.Id("null"), jen.Err()).Op("=").Id("d").Dot("null").Call(), jen.Err().Op("==").Nil().Op("&&").Op("!").Id("null")).Block(body...),
			}
		}
		if !fd.Optional && fd.Default == nil && !lenient {
			required = append(required, i)
		}
		mark := jen.Id("bit").Op("=").Add(jen.Lit(1).Op("<<").Lit(i % 64))
		if words > 1 {
			mark = jen.List(jen.Id("word"), jen.Id("bit")).Op("=").List(jen.Lit(i/64), jen.Lit(1).Op("<<").Lit(i%64))
		}
		cases = append(cases, jen.Case(jen.Lit(fd.JSONName)).Block(append([]jen.Code{mark}, body...)...))
	}
	for _, name := range td.Absent {
		cases = append(cases, jen.Case(jen.Lit(name)).Block(
			jen.Err().Op("=").Id("d").Dot("errorf").Call(jen.Lit(absentMessage)),
		))
	}
	return cases, required
}

// memberSwitch is the body of a struct decoder's loop for one member: the switch on its name
// (Extra, or skipping, for an unknown member), then the check of the member's error and of a
// duplicate.
func (r *renderer) memberSwitch(td *ir.Decl, cases []jen.Code, words int) []jen.Code {
	extra := decodeEntry(jen.Id("v").Dot(r.pkg.Extra), td.Rest)
	if r.pkg.DropUnknown {
		extra = []jen.Code{jen.Err().Op("=").Id("d").Dot("skip").Call()}
	}
	var member []jen.Code
	if len(cases) == 0 {
		member = extra
	} else {
		cases = append(cases, jen.Default().Block(extra...))
		member = []jen.Code{jen.Switch(jen.String().Call(jen.Id("name"))).Block(cases...)}
	}
	if words == 0 {
		return append(member, jen.If(jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Id("inMember").Call(jen.Err(), jen.Id("name"))),
		))
	}
	// A field's case sets bit (and word) to its bit of seen, checked once after the switch.
	seen := jen.Id("seen")
	marks := []jen.Code{jen.Var().Id("bit").Uint64()}
	if words > 1 {
		seen = jen.Id("seen").Index(jen.Id("word"))
		marks = append(marks, jen.Var().Id("word").Int())
	}
	dup := jen.Add(seen).Op("&").Id("bit")
	return append(append(marks, member...),
		jen.If(jen.Err().Op("!=").Nil().Op("||").Add(dup).Op("!=").Lit(0)).Block(
			jen.Return(jen.Id("d").Dot("memberError").Call(dup, jen.Id("name"), jen.Err())),
		),
		jen.Add(seen).Op("|=").Id("bit"))
}

// absentMessage is the error at a member that must not be present (model.Member.Absent).
const absentMessage = "must not be present (the schema gives it the type never)"

// encodeField returns the statements that encode one field of v: always for a required member,
// when set (non-nil) for an optional one.
func encodeField(fd *ir.Field) []jen.Code {
	if fd.Implicit {
		return append([]jen.Code{jen.Id("e").Dot("member").Call(jen.Lit(quotedMember(fd.JSONName)))},
			encodeValue(literalCode(fd.Literal), fd.Type, 0)...)
	}
	if fd.Type.Kind == ir.ExternalKind {
		return externalField(fd, false)
	}
	src := jen.Id("v").Dot(fd.Name)
	val := jen.Code(src)
	if fd.Pointer {
		val = deref(src, fd.Type)
	}
	var body []jen.Code
	body = append(body, jen.Id("e").Dot("member").Call(jen.Lit(quotedMember(fd.JSONName))))
	if fd.Literal != nil && fd.Type.Kind == ir.BuiltinKind {
		// The constant stands in for the zero value, so that a composite literal need not
		// spell it.
		val = jen.Qual("cmp", "Or").Call(val, literalCode(fd.Literal))
	}
	if d := fd.Default; d != nil && !fd.Pointer && (fd.Type.Kind == ir.BuiltinKind || fd.Type.Kind == ir.EnumKind) {
		// So does the default of a member that receivers may find absent.
		val = jen.Qual("cmp", "Or").Call(val, literalCode(d))
	}
	if fd.NilNull {
		body = append(body, jen.If(jen.Add(src).Op("==").Nil()).Block(jen.Id("e").Dot("null").Call()).Else().Block(encodeValue(val, fd.Type, 0)...))
	} else {
		body = append(body, encodeValue(val, fd.Type, 0)...)
	}
	if fd.Optional && !fd.Always {
		return []jen.Code{jen.If(present(fd)).Block(body...)}
	}
	return body
}

// present is the condition under which an optional field is encoded (and validated): set, for a
// pointer or a type with nil; not empty, as encoding/json's omitempty decides, for a value
// (field.OmitEmpty).
func present(fd *ir.Field) jen.Code {
	return presentIn(jen.Id("v"), fd)
}

// presentIn is present for the field of the struct value or pointer recv.
func presentIn(recv jen.Code, fd *ir.Field) jen.Code {
	src := jen.Add(recv).Dot(fd.Name)
	switch {
	case fd.OmitZero:
		return nonZero(src, fd.Type)
	case !fd.OmitEmpty:
		return jen.Add(src).Op("!=").Nil()
	}
	return nonEmpty(src, fd.Type)
}

// nonZero is the condition that src, of type t, is not its zero value as encoding/json's
// omitzero decides: a builtin or an enum compared with its zero, a struct or a substitute asked
// at run time (its IsZero method, else reflection).
func nonZero(src jen.Code, t *ir.Type) jen.Code {
	if t.HasNil {
		return jen.Add(src).Op("!=").Nil()
	}
	if t.Kind == ir.BuiltinKind || t.Kind == ir.EnumKind {
		switch t.Emptiness {
		case ir.EmptyFalse, ir.EmptyString, ir.EmptyZero:
			return nonEmpty(src, t)
		}
	}
	return jen.Op("!").Id(ir.ZeroExternal).Call(jen.Op("&").Add(src))
}

// nonEmpty is the condition that src, of type t, is not empty as encoding/json's omitempty
// decides (goType.emptiness).
func nonEmpty(src jen.Code, t *ir.Type) jen.Code {
	switch t.Emptiness {
	case ir.EmptyFalse:
		return src
	case ir.EmptyString:
		return jen.Add(src).Op("!=").Lit("")
	case ir.EmptyZero:
		return jen.Add(src).Op("!=").Lit(0)
	case ir.EmptyLen:
		return jen.Len(src).Op(">").Lit(0)
	case ir.EmptyReflect:
		return jen.Op("!").Id(emptyExternal).Call(src)
	}
	return jen.Add(src).Op("!=").Nil()
}

// decodeField returns the statements that decode one member into its field, assigning err.
func decodeField(fd *ir.Field) []jen.Code {
	if fd.Type.Kind == ir.ExternalKind {
		return externalField(fd, true)
	}
	if fd.Implicit {
		// No field: the value read must be the constant.
		return []jen.Code{
			jen.Var().Id("lit").Add(code(fd.Type)),
			jen.If(jen.List(jen.Id("lit"), jen.Err()).Op("=").Add(readCall(fd.Type, 0)), jen.Err().Op("==").Nil().Op("&&").Id("lit").Op("!=").Add(literalCode(fd.Literal))).Block(
				jen.Err().Op("=").Id("d").Dot("errorf").Call(jen.Lit("is %v, not "+fd.Literal.Text), jen.Id("lit")),
			),
		}
	}
	dst := jen.Id("v").Dot(fd.Name)
	if fd.Nullable {
		return []jen.Code{
			jen.Var().Id("null").Bool(),
			jen.If(jen.List(jen.Id("null"), jen.Err()).Op("=").Id("d").Dot("null").Call(), jen.Err().Op("==").Nil()).Block(
				jen.If(jen.Id("null")).Block(
					jen.Add(dst).Op("=").Id(fd.Type.Union.NullVariant).Values(),
				).Else().Block(decodeValue(dst, fd.Type, 0)...),
			),
		}
	}
	val := func() jen.Code { return jen.Id("v").Dot(fd.Name) }
	var out []jen.Code
	if !fd.Pointer {
		out = decodeValue(dst, fd.Type, 0)
	} else {
		val = func() jen.Code { return deref(jen.Id("v").Dot(fd.Name), fd.Type) }
		out = append([]jen.Code{jen.Add(dst).Op("=").Add(newValue(fd.Type))}, decodeValue(val(), fd.Type, 0)...)
	}
	if fd.Literal != nil && fd.Type.Kind == ir.BuiltinKind && !fd.Literal.Zero {
		// The zero value stands for the constant (see encodeField): a zero decoded from the wire
		// would be encoded as the constant, unseen by Validate, so decoding rejects it.
		out = append(out, jen.If(jen.Err().Op("==").Nil()).Block(
			jen.Err().Op("=").Id("decodedConstant").Call(jen.Id("d"), val(), literalCode(fd.Literal)),
		))
	}
	return out
}

// collectionCodec writes the codec of a named map or slice type.
func (r *renderer) collectionCodec(td *ir.Decl) {
	f := r.jsonGo
	if td.Union != nil {
		f = r.unionsGo
	}
	jsonMethods(f, td.Name)
	underlying := *td.Type
	underlying.Alias = ""
	encodeMethod(f, td.Name, false, encodeValue(jen.Id("v"), &underlying, 0)...)
	decodeMethod(f, td.Name,
		jen.List(jen.Id("x"), jen.Err()).Op(":=").Add(readCall(&underlying, 0)),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.Op("*").Id("v").Op("=").Id("x"),
		jen.Return(jen.Nil()),
	)
}

// scalarCodec writes the codec of a named string, number or boolean type (an enum or a wrapper
// of a kind union); base is its underlying type, NotBuiltin for the null wrapper.
func (r *renderer) scalarCodec(td *ir.Decl, base ir.Builtin) {
	f := r.jsonGo
	if td.Form == ir.WrapperForm {
		f = r.unionsGo
	}
	jsonMethods(f, td.Name)
	if base == ir.NotBuiltin {
		encodeMethod(f, td.Name, false, jen.Id("e").Dot("null").Call())
		decodeMethod(f, td.Name,
			jen.Var().Id("null").Bool(),
			jen.If(jen.List(jen.Id("null"), jen.Err()).Op("=").Id("d").Dot("null").Call(), jen.Err().Op("==").Nil().Op("&&").Op("!").Id("null")).Block(
				jen.Err().Op("=").Id("d").Dot("errorf").Call(jen.Lit("expected null")),
			),
			jen.Return(jen.Err()),
		)
		return
	}
	encodeMethod(f, td.Name, false, jen.Id("e").Dot(codecSuffix(base)).Call(jen.Id(builtinNames[base]).Call(jen.Id("v"))))
	decodeMethod(f, td.Name,
		jen.List(jen.Id("x"), jen.Err()).Op(":=").Id("d").Dot(codecSuffix(base)).Call(),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.Op("*").Id("v").Op("=").Id(td.Name).Call(jen.Id("x")),
		jen.Return(jen.Nil()),
	)
}
