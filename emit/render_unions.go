package emit

import (
	"slices"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/model"
)

// interfaceType writes a union of objects or of JSON kinds: the sealed interface, the marker
// methods of its variants, UnmarshalX, decodeX, encodeX and, when decoding needs it, the table
// of its variants.
func (r *renderer) interfaceType(td *typeDecl) {
	f := r.unionsGo
	marker := "is" + td.name
	f.Add(docComment(r.typeDoc(td, decisionDoc(td))))
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

	f.Add(docComment("Unmarshal" + td.name + " decodes data as [" + td.name + "], choosing the variant as its doc says."))
	f.Func().Id("Unmarshal"+td.name).Params(jen.Id("data").Index().Byte()).Params(jen.Id(td.name), jen.Error()).Block(
		jen.Id("d").Op(":=").Id("topDecoder").Call(jen.Id("data")),
		jen.List(jen.Id("v"), jen.Err()).Op(":=").Id("decode"+td.name).Call(jen.Id("d")),
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
	f.Func().Id("decode"+td.name).Params(jen.Id("d").Op("*").Id("decoder")).Params(jen.Id(td.name), jen.Error()).Block(body...)
	f.Line()
	r.encodeUnion(td)
	if td.objects != nil && td.objects.table {
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
	r.unionsGo.Func().Id("encode"+td.name).Params(jen.Id("e").Op("*").Id("encoder"), jen.Id("v").Id(td.name)).Block(
		jen.Switch(jen.Id("v").Op(":=").Id("v").Assert(jen.Type())).Block(cases...),
	)
	r.unionsGo.Line()
}

// jsonKinds describes each JSON kind: the word that names a wrapper type of a kind union, the
// phrase that names the kind in messages and docs, and the test of a value's first byte c.
var jsonKinds = map[string]struct{ word, phrase, test string }{
	"string":  {"String", "a string", `c == '"'`},
	"number":  {"Number", "a number", `c == '-' || '0' <= c && c <= '9'`},
	"boolean": {"Boolean", "a boolean", `c == 't' || c == 'f'`},
	"null":    {"Null", "null", `c == 'n'`},
	"object":  {"Object", "an object", `c == '{'`},
	"array":   {"Array", "an array", `c == '['`},
}

// decodeKinds is the body of decodeX for a kind union: a switch on the first byte of the value.
func (r *renderer) decodeKinds(td *typeDecl) []jen.Code {
	var cases []jen.Code
	var phrases []string
	for _, k := range td.kinds {
		phrases = append(phrases, jsonKinds[k.jsonKind].phrase)
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
		cases = append(cases, jen.Case(jen.Op(jsonKinds[k.jsonKind].test)).Block(body...))
	}
	return []jen.Code{
		jen.Switch(jen.Id("c").Op(":=").Id("d").Dot("peek").Call(), jen.Empty()).Block(cases...),
		jen.Return(jen.Nil(), jen.Id("d").Dot("errorf").Call(jen.Lit("expected "+orList(phrases)))),
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

// tagCase is a set of discriminator values and the variants they select.
type tagCase struct {
	values   []string
	variants []int
}

// tagCases groups the variants of an object union by discriminator value, in order of first
// appearance, merging the values that select the same variants. absent lists the variants an
// object without the discriminator can be (those that declare it optional).
func tagCases(oc *objectChoice) (cases []*tagCase, absent []int) {
	var values []string
	byValue := map[string][]int{}
	for i, v := range oc.variants {
		for _, val := range v.model.Values {
			if _, ok := byValue[val.Str]; !ok {
				values = append(values, val.Str)
			}
			byValue[val.Str] = append(byValue[val.Str], i)
		}
		if v.model.DiscriminatorOptional {
			absent = append(absent, i)
		}
	}
	for _, val := range values {
		i := slices.IndexFunc(cases, func(c *tagCase) bool { return slices.Equal(c.variants, byValue[val]) })
		if i < 0 {
			cases = append(cases, &tagCase{variants: byValue[val]})
			i = len(cases) - 1
		}
		cases[i].values = append(cases[i].values, val)
	}
	return cases, absent
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
	tags, absent := tagCases(oc)
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
	args := []jen.Code{jen.Id("d"), jen.Lit(td.name), jen.Id("variantsOf" + td.name), jen.Lit(base)}
	for _, c := range candidates {
		args = append(args, jen.Lit(c))
	}
	return []jen.Code{jen.Return(jen.Id("decodeVariantOrBase").Call(args...))}
}

func (r *renderer) callDecodeVariant(td *typeDecl, candidates []int) jen.Code {
	args := []jen.Code{jen.Id("d"), jen.Lit(td.name), jen.Id("variantsOf" + td.name)}
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

// needsTable reports whether decoding an object may choose among several variants.
func needsTable(oc *objectChoice) bool {
	if oc.decision.Discriminator == "" {
		return len(oc.variants) > 1
	}
	cases, absent := tagCases(oc)
	for _, tc := range cases {
		if len(tc.variants) > 1 {
			return true
		}
	}
	return len(absent) > 1
}

// variantTable writes variantsOfX, the variants of an object union as decodeVariant sees them.
func (r *renderer) variantTable(td *typeDecl) {
	name := "variantsOf" + td.name
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
	r.unionsGo.Add(docComment(name + " are the variants of [" + td.name + "], for decodeVariant."))
	r.unionsGo.Var().Id(name).Op("=").Id("newVariantTable").Call(entries...)
	r.unionsGo.Line()
}

// maxUnionMembers is the number of member names the runtime's variantTable can hold
// (maxTableNames).
const maxUnionMembers = 256

func stringSlice(ss []string) jen.Code {
	var items []jen.Code
	for _, s := range ss {
		items = append(items, jen.Lit(s))
	}
	return jen.Index().String().Values(items...)
}

// decisionDoc is the paragraph of a union's doc that says how decoding picks a variant.
func decisionDoc(td *typeDecl) string {
	if td.decision.Strategy != model.KindStrategy {
		return objectsDoc(td, "Decoding")
	}
	var parts []string
	for _, k := range td.kinds {
		var links []string
		for _, v := range k.variants {
			links = append(links, variantLink(v))
		}
		switch {
		case k.jsonKind == "object" && td.objects != nil:
			parts = append(parts, "an object is one of "+orList(links)+" (see below)")
		case len(links) > 1:
			parts = append(parts, jsonKinds[k.jsonKind].phrase+" is the first of "+orList(links)+" that decodes")
		default:
			parts = append(parts, jsonKinds[k.jsonKind].phrase+" is "+links[0])
		}
	}
	doc := "Decoding looks at the JSON kind of the value: " + strings.Join(parts, ", ") + "."
	if td.objects != nil {
		doc += "\n\n" + objectsDoc(td, "For an object, decoding")
	}
	return doc
}

// objectsDoc says how decoding an object picks a variant; it starts with subject.
func objectsDoc(td *typeDecl, subject string) string {
	oc := td.objects
	// The order of the tries, and why a result falls back to Result, are explained once, in the
	// package doc (templates.Doc, Unions).
	const order = "see Unions in the package doc"
	if oc.decision.Discriminator == "" {
		var parts []string
		for _, v := range oc.variants {
			p := variantLink(v)
			if len(v.model.Required) > 0 {
				p += " (requires " + quoteList(v.model.Required) + ")"
			}
			parts = append(parts, p)
		}
		picks := subject + " picks the variant whose required members are all present"
		if oc.table {
			picks += " (" + order + ")"
		}
		doc := picks + ": " +
			strings.Join(parts, ", ") + "."
		if td.base != nil {
			doc += " A result that none of them decodes is a " + variantLink(td.base) + " if it decodes as one, " +
				"its members kept in Extra (" + order + ")."
		}
		if td.resultTag {
			doc = subject + " reads the " + quote(resultTypeMember) + " member first: " + quote(resultInputRequired) + " is " +
				variantLink(oc.variants[inputRequiredIndex(oc)]) + ", any value but " + quote(resultComplete) + " is [*" + td.unknown +
				"], which keeps the JSON. A complete result (" + quote(resultComplete) + " or no " + quote(resultTypeMember) +
				") is one of the other variants: " + strings.Replace(doc, subject+" picks", "the decoder picks", 1)
		}
		return doc
	}
	cases, absent := tagCases(oc)
	several := len(absent) > 1
	var parts []string
	for _, tc := range cases {
		var values []string
		for _, v := range tc.values {
			values = append(values, strconv.Quote(v))
		}
		parts = append(parts, orList(values)+" is "+candidatesLink(oc, tc.variants))
		several = several || len(tc.variants) > 1
	}
	if absent != nil {
		parts = append(parts, "a missing member is "+candidatesLink(oc, absent))
	}
	doc := subject + " reads the " + quote(oc.decision.Discriminator) + " member: " + strings.Join(parts, ", ") +
		"; any other value is [*" + td.unknown + "], which keeps the JSON."
	if several {
		doc += " Where several variants are possible, it picks the first whose required members are all present (" + order + ")."
	}
	return doc
}

func candidatesLink(oc *objectChoice, candidates []int) string {
	var links []string
	for _, c := range candidates {
		links = append(links, variantLink(oc.variants[c]))
	}
	if len(links) == 1 {
		return links[0]
	}
	return "one of " + orList(links)
}

func variantLink(v *variant) string {
	if v.pointer {
		return "[*" + v.typ.written() + "]"
	}
	return "[" + v.typ.written() + "]"
}

// orList joins items as "a, b or c".
func orList(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}

func quoteList(names []string) string {
	var q []string
	for _, n := range names {
		q = append(q, quote(n))
	}
	return strings.Join(q, ", ")
}
