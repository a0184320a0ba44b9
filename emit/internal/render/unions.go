package render

import (
	"slices"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/emit/internal/ir"
)

// interfaceType writes a union of objects or of JSON kinds: the sealed interface, the marker
// methods of its variants, UnmarshalX, decodeX, encodeX and, when decoding needs it, the table
// of its variants.
func (r *renderer) interfaceType(td *ir.Decl) {
	f := r.unionsGo
	marker := td.Funcs.Marker
	f.Add(docComment(td.Doc))
	f.Type().Id(td.Name).Interface(append(r.unionMethods(marker), r.messageMethods(td)...)...)
	f.Line()
	for _, v := range td.Variants {
		recv := jen.Id(v.Type.Name)
		if v.Pointer {
			recv = jen.Op("*").Id(v.Type.Name)
		}
		f.Func().Params(recv).Id(marker).Params().Block()
	}
	if td.Unknown != "" {
		f.Func().Params(jen.Op("*").Id(td.Unknown)).Id(marker).Params().Block()
	}
	f.Line()

	f.Add(docComment(td.Funcs.Unmarshal + " decodes data as [" + td.Name + "], choosing the variant as its doc says."))
	f.Func().Id(td.Funcs.Unmarshal).Params(jen.Id("data").Index().Byte()).Params(jen.Id(td.Name), jen.Error()).Block(
		jen.Id("d").Op(":=").Id("topDecoder").Call(jen.Id("data")),
		jen.List(jen.Id("v"), jen.Err()).Op(":=").Id(td.Funcs.Decode).Call(jen.Id("d")),
		jen.If(jen.Err().Op("=").Id("d").Dot("finish").Call(jen.Err()), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Return(jen.Id("v"), jen.Nil()),
	)
	f.Line()

	var body []jen.Code
	if td.KindUnion {
		body = r.decodeKinds(td)
	} else {
		body = r.decodeObjects(td)
	}
	f.Func().Id(td.Funcs.Decode).Params(jen.Id("d").Op("*").Id("decoder")).Params(jen.Id(td.Name), jen.Error()).Block(body...)
	f.Line()
	r.encodeUnion(td)
	if td.Funcs.Variants != "" {
		r.variantTable(td)
	}
}

// encodeUnion writes encodeX: a type switch over the variants, each of which encodes itself
// (encodeVariant, for a pointer). A nil value, or a nil pointer variant, is an error.
func (r *renderer) encodeUnion(td *ir.Decl) {
	var cases []jen.Code
	add := func(name string, pointer bool) {
		if pointer {
			cases = append(cases, jen.Case(jen.Op("*").Id(name)).Block(
				jen.Id("encodeVariant").Call(jen.Id("e"), jen.Id("v"), jen.Lit(td.Name))))
		} else {
			cases = append(cases, jen.Case(jen.Id(name)).Block(jen.Id("v").Dot("encode").Call(jen.Id("e"))))
		}
	}
	for _, v := range td.Variants {
		add(v.Type.Name, v.Pointer)
	}
	if td.Unknown != "" {
		add(td.Unknown, true)
	}
	cases = append(cases, jen.Default().Block(jen.Id("e").Dot("errorf").Call(jen.Lit("nil "+td.Name))))
	r.unionsGo.Func().Id(td.Funcs.Encode).Params(jen.Id("e").Op("*").Id("encoder"), jen.Id("v").Id(td.Name)).Block(
		jen.Switch(jen.Id("v").Op(":=").Id("v").Assert(jen.Type())).Block(cases...),
	)
	r.unionsGo.Line()
}

// kindTests are the tests of a value's first byte c that tell its JSON kind.
var kindTests = [...]string{
	ir.StringJSON:  `c == '"'`,
	ir.NumberJSON:  `c == '-' || '0' <= c && c <= '9'`,
	ir.BooleanJSON: `c == 't' || c == 'f'`,
	ir.NullJSON:    `c == 'n'`,
	ir.ObjectJSON:  `c == '{'`,
	ir.ArrayJSON:   `c == '['`,
}

// decodeKinds is the body of decodeX for a kind union: a switch on the first byte of the value.
func (r *renderer) decodeKinds(td *ir.Decl) []jen.Code {
	var cases []jen.Code
	for _, k := range td.Kinds {
		var body []jen.Code
		switch {
		case k.JSONKind == ir.ObjectJSON && td.Objects != nil:
			body = r.decodeObjects(td)
		case len(k.Variants) > 1:
			args := []jen.Code{jen.Id("d")}
			for _, v := range k.Variants {
				args = append(args, jen.Func().Params(jen.Id("d").Op("*").Id("decoder")).Params(jen.Id(td.Name), jen.Error()).Block(decodeInto(v)...))
			}
			body = []jen.Code{jen.Return(jen.Id("decodeFirst").Call(args...))}
		default:
			body = decodeInto(k.Variants[0])
		}
		cases = append(cases, jen.Case(jen.Op(kindTests[k.JSONKind])).Block(body...))
	}
	return []jen.Code{
		jen.Switch(jen.Id("c").Op(":=").Id("d").Dot("peek").Call(), jen.Empty()).Block(cases...),
		jen.Return(jen.Nil(), jen.Id("d").Dot("errorf").Call(jen.Lit(td.Expected))),
	}
}

// decodeInto returns statements that decode a variant and return it with the error.
func decodeInto(v *ir.Variant) []jen.Code {
	if v.Pointer {
		return []jen.Code{
			jen.Id("v").Op(":=").New(jen.Id(v.Type.Name)),
			jen.Return(jen.Id("v"), jen.Id("v").Dot("decode").Call(jen.Id("d"))),
		}
	}
	return []jen.Code{
		jen.Var().Id("v").Id(v.Type.Name),
		jen.Err().Op(":=").Id("v").Dot("decode").Call(jen.Id("d")),
		jen.Return(jen.Id("v"), jen.Err()),
	}
}

// decodeObjects returns the statements that decode an object of a union: a switch on the
// discriminator, or the choice by required members.
func (r *renderer) decodeObjects(td *ir.Decl) []jen.Code {
	oc := td.Objects
	if td.ResultTag {
		return r.decodeResults(td, allVariants(oc), "")
	}
	if oc.Discriminator == "" {
		return r.decodeGuess(td, allVariants(oc))
	}
	tags, absent := oc.Tags, oc.Absent
	ifAbsent := []jen.Code{jen.Return(jen.Nil(), jen.Id("d").Dot("errorf").Call(jen.Lit("missing member %q"), jen.Lit(oc.Discriminator)))}
	if absent != nil {
		ifAbsent = r.decodeCandidates(td, absent)
	}
	var cases []jen.Code
	for _, tc := range tags {
		var values []jen.Code
		for _, val := range tc.Values {
			values = append(values, jen.Lit(val))
		}
		cases = append(cases, jen.Case(values...).Block(r.decodeCandidates(td, tc.Variants)...))
	}
	return []jen.Code{
		jen.List(jen.Id("tag"), jen.Id("ok"), jen.Err()).Op(":=").Id("lookupTag").Call(jen.Id("d"), jen.Lit(oc.Discriminator)),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.If(jen.Op("!").Id("ok")).Block(ifAbsent...),
		jen.Switch(jen.Id("tag")).Block(cases...),
		jen.Id("v").Op(":=").New(jen.Id(td.Unknown)),
		jen.Return(jen.Id("v"), jen.Id("v").Dot("decode").Call(jen.Id("d"))),
	}
}

// decodeResults decodes a result of a union of results that holds InputRequiredResult, choosing
// among candidates: by "resultType" first ("input_required" is the InputRequiredResult, if it
// is a candidate; another value but "complete" is the Unknown variant), then, for a complete
// result, among the other candidates as decodeCandidates does. method names the request the
// result answers, for errors ("" when unknown).
func (r *renderer) decodeResults(td *ir.Decl, candidates []int, method string) []jen.Code {
	irr := td.Objects.InputRequired
	complete := slices.DeleteFunc(slices.Clone(candidates), func(i int) bool { return i == irr })
	inputRequired := []jen.Code{jen.Return(jen.Nil(), jen.Id("d").Dot("errorf").Call(
		jen.Lit("result type %s does not answer "+quote(method)), jen.Id("quoteValue").Call(jen.Id("tag"))))}
	if slices.Contains(candidates, irr) {
		inputRequired = decodeInto(td.Objects.Variants[irr])
	}
	ifComplete := []jen.Code{jen.Return(jen.Nil(), jen.Id("d").Dot("errorf").Call(
		jen.Lit("a complete result does not answer "+quote(method))))}
	switch {
	case len(complete) > 0 && method == "":
		ifComplete = r.decodeGuess(td, complete)
	case len(complete) > 0:
		ifComplete = r.decodeCandidates(td, complete)
	}
	return append([]jen.Code{
		jen.List(jen.Id("tag"), jen.Id("ok"), jen.Err()).Op(":=").Id("lookupTag").Call(jen.Id("d"), jen.Lit(ir.ResultTypeMember)),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.If(jen.Id("ok").Op("&&").Id("tag").Op("!=").Lit(ir.ResultComplete)).Block(
			jen.If(jen.Id("tag").Op("==").Lit(ir.ResultInputRequired)).Block(inputRequired...),
			jen.Id("v").Op(":=").New(jen.Id(td.Unknown)),
			jen.Return(jen.Id("v"), jen.Id("v").Dot("decode").Call(jen.Id("d"))),
		),
	}, ifComplete...)
}

// decodeCandidates decodes one variant directly, or chooses among several.
func (r *renderer) decodeCandidates(td *ir.Decl, candidates []int) []jen.Code {
	if len(candidates) == 1 {
		return decodeInto(td.Objects.Variants[candidates[0]])
	}
	return []jen.Code{jen.Return(r.callDecodeVariant(td, candidates))}
}

// decodeGuess decodes an object of td without knowing which variant it must be, as
// decodeCandidates does, except for a union of results with a base (typeDecl.Base): when the
// candidates fail, the base takes the result.
func (r *renderer) decodeGuess(td *ir.Decl, candidates []int) []jen.Code {
	base := slices.Index(td.Objects.Variants, td.Base)
	if base < 0 || len(candidates) == 1 || !slices.Contains(candidates, base) {
		return r.decodeCandidates(td, candidates)
	}
	args := []jen.Code{jen.Id("d"), jen.Lit(td.Name), jen.Id(td.Funcs.Variants), jen.Lit(base)}
	for _, c := range candidates {
		args = append(args, jen.Lit(c))
	}
	return []jen.Code{jen.Return(jen.Id("decodeVariantOrBase").Call(args...))}
}

func (r *renderer) callDecodeVariant(td *ir.Decl, candidates []int) jen.Code {
	args := []jen.Code{jen.Id("d"), jen.Lit(td.Name), jen.Id(td.Funcs.Variants)}
	for _, c := range candidates {
		args = append(args, jen.Lit(c))
	}
	return jen.Id("decodeVariant").Call(args...)
}

func allVariants(oc *ir.ObjectChoice) []int {
	all := make([]int, len(oc.Variants))
	for i := range all {
		all[i] = i
	}
	return all
}

// variantTable writes variantsOfX, the variants of an object union as decodeVariant sees them.
func (r *renderer) variantTable(td *ir.Decl) {
	name := td.Funcs.Variants
	var entries []jen.Code
	for _, v := range td.Objects.Variants {
		entries = append(entries, jen.Line().Id("objectVariant").Types(jen.Id(td.Name)).Values(
			jen.Line().Id("name").Op(":").Lit(v.Type.Written()),
			jen.Line().Id("required").Op(":").Add(stringSlice(v.Required)),
			jen.Line().Id("known").Op(":").Add(stringSlice(v.Known)),
			jen.Line().Id("alloc").Op(":").Func().Params().Params(jen.Id(td.Name), jen.Id("decodable")).Block(
				jen.Id("v").Op(":=").New(jen.Id(v.Type.Name)),
				jen.Return(jen.Id("v"), jen.Id("v")),
			),
			jen.Line(),
		))
	}
	entries = append(entries, jen.Line())
	r.unionsGo.Add(docComment(name + " are the variants of [" + td.Name + "], for decodeVariant."))
	r.unionsGo.Var().Id(name).Op("=").Id("newVariantTable").Call(entries...)
	r.unionsGo.Line()
}

func stringSlice(ss []string) jen.Code {
	var items []jen.Code
	for _, s := range ss {
		items = append(items, jen.Lit(s))
	}
	return jen.Index().String().Values(items...)
}

// unionMethods are the methods of a union's interface before those of a message union: the
// marker, and Validate (unless the output has no validators).
func (r *renderer) unionMethods(marker string) []jen.Code {
	if r.pkg.NoValidate {
		return []jen.Code{jen.Id(marker).Params()}
	}
	return []jen.Code{jen.Id(marker).Params(), jen.Id("Validate").Params().Error()}
}
