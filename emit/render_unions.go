package emit

import (
	"slices"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/model"
)

// interfaceType writes a union of objects or of JSON kinds: the sealed interface, the marker
// methods of its variants, UnmarshalX, decodeX, encodeX and, when decoding needs it, the table
// of its variants.
func (r *renderer) interfaceType(td *typeDecl) {
	f := r.unionsGo
	marker := "is" + td.name
	f.Add(docComment(td.docText))
	f.Type().Id(td.name).Interface(append(r.unionMethods(marker), r.messageMethods(td)...)...)
	f.Line()
	for _, v := range td.variants {
		recv := jen.Id(v.typ.name)
		if v.pointer {
			recv = jen.Op("*").Id(v.typ.name)
		}
		f.Func().Params(recv).Id(marker).Params().Block()
	}
	if td.unknown != "" {
		f.Func().Params(jen.Op("*").Id(td.unknown)).Id(marker).Params().Block()
	}
	f.Line()

	f.Commentf("%s decodes a %s from JSON, choosing its variant as described on [%s].", td.funcs.unmarshal, td.name, td.name)
	f.Func().Id(td.funcs.unmarshal).Params(jen.Id("data").Index().Byte()).Params(jen.Id(td.name), jen.Error()).Block(
		jen.Id("d").Op(":=").Id("topDecoder").Call(jen.Id("data")),
		jen.List(jen.Id("v"), jen.Err()).Op(":=").Id(td.funcs.decode).Call(jen.Id("d")),
		jen.If(jen.Err().Op("=").Id("d").Dot("finish").Call(jen.Err()), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Return(jen.Id("v"), jen.Nil()),
	)
	f.Line()

	var body []jen.Code
	if td.decision.Strategy == model.KindStrategy {
		body = r.decodeKinds(td)
	} else {
		body = r.decodeObjects(td)
	}
	f.Func().Id(td.funcs.decode).Params(jen.Id("d").Op("*").Id("decoder")).Params(jen.Id(td.name), jen.Error()).Block(body...)
	f.Line()
	r.encodeUnion(td)
	if td.funcs.variants != "" {
		r.variantTable(td)
	}
}

// encodeUnion writes encodeX: a type switch over the variants, each of which encodes itself
// (encodeVariant, for a pointer). A nil value, or a nil pointer variant, is an error.
func (r *renderer) encodeUnion(td *typeDecl) {
	var cases []jen.Code
	add := func(name string, pointer bool) {
		if pointer {
			cases = append(cases, jen.Case(jen.Op("*").Id(name)).Block(
				jen.Id("encodeVariant").Call(jen.Id("e"), jen.Id("v"), jen.Lit(td.name))))
		} else {
			cases = append(cases, jen.Case(jen.Id(name)).Block(jen.Id("v").Dot("encode").Call(jen.Id("e"))))
		}
	}
	for _, v := range td.variants {
		add(v.typ.name, v.pointer)
	}
	if td.unknown != "" {
		add(td.unknown, true)
	}
	cases = append(cases, jen.Default().Block(jen.Id("e").Dot("errorf").Call(jen.Lit("nil "+td.name))))
	r.unionsGo.Func().Id(td.funcs.encode).Params(jen.Id("e").Op("*").Id("encoder"), jen.Id("v").Id(td.name)).Block(
		jen.Switch(jen.Id("v").Op(":=").Id("v").Assert(jen.Type())).Block(cases...),
	)
	r.unionsGo.Line()
}

// kindTests are the tests of a value's first byte c that tell its JSON kind.
var kindTests = map[string]string{
	"string":  `c == '"'`,
	"number":  `c == '-' || '0' <= c && c <= '9'`,
	"boolean": `c == 't' || c == 'f'`,
	"null":    `c == 'n'`,
	"object":  `c == '{'`,
	"array":   `c == '['`,
}

// decodeKinds is the body of decodeX for a kind union: a switch on the first byte of the value.
func (r *renderer) decodeKinds(td *typeDecl) []jen.Code {
	var cases []jen.Code
	for _, k := range td.kinds {
		var body []jen.Code
		switch {
		case k.jsonKind == "object" && td.objects != nil:
			body = r.decodeObjects(td)
		case len(k.variants) > 1:
			args := []jen.Code{jen.Id("d")}
			for _, v := range k.variants {
				args = append(args, jen.Func().Params(jen.Id("d").Op("*").Id("decoder")).Params(jen.Id(td.name), jen.Error()).Block(decodeInto(v)...))
			}
			body = []jen.Code{jen.Return(jen.Id("decodeFirst").Call(args...))}
		default:
			body = decodeInto(k.variants[0])
		}
		cases = append(cases, jen.Case(jen.Op(kindTests[k.jsonKind])).Block(body...))
	}
	return []jen.Code{
		jen.Switch(jen.Id("c").Op(":=").Id("d").Dot("peek").Call(), jen.Empty()).Block(cases...),
		jen.Return(jen.Nil(), jen.Id("d").Dot("errorf").Call(jen.Lit(td.expected))),
	}
}

// decodeInto returns statements that decode a variant and return it with the error.
func decodeInto(v *variant) []jen.Code {
	if v.pointer {
		return []jen.Code{
			jen.Id("v").Op(":=").New(jen.Id(v.typ.name)),
			jen.Return(jen.Id("v"), jen.Id("v").Dot("decode").Call(jen.Id("d"))),
		}
	}
	return []jen.Code{
		jen.Var().Id("v").Id(v.typ.name),
		jen.Err().Op(":=").Id("v").Dot("decode").Call(jen.Id("d")),
		jen.Return(jen.Id("v"), jen.Err()),
	}
}

// decodeObjects returns the statements that decode an object of a union: a switch on the
// discriminator, or the choice by required members.
func (r *renderer) decodeObjects(td *typeDecl) []jen.Code {
	oc := td.objects
	if td.resultTag {
		return r.decodeResults(td, allVariants(oc), "")
	}
	if oc.decision.Discriminator == "" {
		return r.decodeGuess(td, allVariants(oc))
	}
	tags, absent := oc.tags, oc.absent
	ifAbsent := []jen.Code{jen.Return(jen.Nil(), jen.Id("d").Dot("errorf").Call(jen.Lit("missing member %q"), jen.Lit(oc.decision.Discriminator)))}
	if absent != nil {
		ifAbsent = r.decodeCandidates(td, absent)
	}
	var cases []jen.Code
	for _, tc := range tags {
		var values []jen.Code
		for _, val := range tc.values {
			values = append(values, jen.Lit(val))
		}
		cases = append(cases, jen.Case(values...).Block(r.decodeCandidates(td, tc.variants)...))
	}
	return []jen.Code{
		jen.List(jen.Id("tag"), jen.Id("ok"), jen.Err()).Op(":=").Id("lookupTag").Call(jen.Id("d"), jen.Lit(oc.decision.Discriminator)),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.If(jen.Op("!").Id("ok")).Block(ifAbsent...),
		jen.Switch(jen.Id("tag")).Block(cases...),
		jen.Id("v").Op(":=").New(jen.Id(td.unknown)),
		jen.Return(jen.Id("v"), jen.Id("v").Dot("decode").Call(jen.Id("d"))),
	}
}

// decodeResults decodes a result of a union of results that holds InputRequiredResult, choosing
// among candidates: by "resultType" first ("input_required" is the InputRequiredResult, if it
// is a candidate; another value but "complete" is the Unknown variant), then, for a complete
// result, among the other candidates as decodeCandidates does. method names the request the
// result answers, for errors ("" when unknown).
func (r *renderer) decodeResults(td *typeDecl, candidates []int, method string) []jen.Code {
	irr := inputRequiredIndex(td.objects)
	complete := slices.DeleteFunc(slices.Clone(candidates), func(i int) bool { return i == irr })
	inputRequired := []jen.Code{jen.Return(jen.Nil(), jen.Id("d").Dot("errorf").Call(
		jen.Lit("result type %s does not answer "+quote(method)), jen.Id("quoteValue").Call(jen.Id("tag"))))}
	if slices.Contains(candidates, irr) {
		inputRequired = decodeInto(td.objects.variants[irr])
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
		jen.List(jen.Id("tag"), jen.Id("ok"), jen.Err()).Op(":=").Id("lookupTag").Call(jen.Id("d"), jen.Lit(resultTypeMember)),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.If(jen.Id("ok").Op("&&").Id("tag").Op("!=").Lit(resultComplete)).Block(
			jen.If(jen.Id("tag").Op("==").Lit(resultInputRequired)).Block(inputRequired...),
			jen.Id("v").Op(":=").New(jen.Id(td.unknown)),
			jen.Return(jen.Id("v"), jen.Id("v").Dot("decode").Call(jen.Id("d"))),
		),
	}, ifComplete...)
}

// decodeCandidates decodes one variant directly, or chooses among several.
func (r *renderer) decodeCandidates(td *typeDecl, candidates []int) []jen.Code {
	if len(candidates) == 1 {
		return decodeInto(td.objects.variants[candidates[0]])
	}
	return []jen.Code{jen.Return(r.callDecodeVariant(td, candidates))}
}

// decodeGuess decodes an object of td without knowing which variant it must be, as
// decodeCandidates does, except for a union of results with a base (typeDecl.base): when the
// candidates fail, the base takes the result.
func (r *renderer) decodeGuess(td *typeDecl, candidates []int) []jen.Code {
	base := slices.Index(td.objects.variants, td.base)
	if base < 0 || len(candidates) == 1 || !slices.Contains(candidates, base) {
		return r.decodeCandidates(td, candidates)
	}
	args := []jen.Code{jen.Id("d"), jen.Lit(td.name), jen.Id(td.funcs.variants), jen.Lit(base)}
	for _, c := range candidates {
		args = append(args, jen.Lit(c))
	}
	return []jen.Code{jen.Return(jen.Id("decodeVariantOrBase").Call(args...))}
}

func (r *renderer) callDecodeVariant(td *typeDecl, candidates []int) jen.Code {
	args := []jen.Code{jen.Id("d"), jen.Lit(td.name), jen.Id(td.funcs.variants)}
	for _, c := range candidates {
		args = append(args, jen.Lit(c))
	}
	return jen.Id("decodeVariant").Call(args...)
}

func allVariants(oc *objectChoice) []int {
	all := make([]int, len(oc.variants))
	for i := range all {
		all[i] = i
	}
	return all
}

// variantTable writes variantsOfX, the variants of an object union as decodeVariant sees them.
func (r *renderer) variantTable(td *typeDecl) {
	name := td.funcs.variants
	var entries []jen.Code
	for _, v := range td.objects.variants {
		entries = append(entries, jen.Line().Id("objectVariant").Types(jen.Id(td.name)).Values(
			jen.Line().Id("name").Op(":").Lit(v.typ.written()),
			jen.Line().Id("required").Op(":").Add(stringSlice(v.model.Required)),
			jen.Line().Id("known").Op(":").Add(stringSlice(v.model.Known)),
			jen.Line().Id("alloc").Op(":").Func().Params().Params(jen.Id(td.name), jen.Id("decodable")).Block(
				jen.Id("v").Op(":=").New(jen.Id(v.typ.name)),
				jen.Return(jen.Id("v"), jen.Id("v")),
			),
			jen.Line(),
		))
	}
	entries = append(entries, jen.Line())
	r.unionsGo.Commentf("%s are the variants of [%s], for decodeVariant.", name, td.name)
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
