package emit

import (
	"github.com/dave/jennifer/jen"
)

// This file writes the types derived from unions: the wrappers of primitive variants, the
// Unknown variant of a discriminated union, and the one-or-many struct.

// wrapperType declares the wrapper of a primitive variant of a kind union: `type XString string`,
// or `type XNull struct{}`.
func (r *renderer) wrapperType(td *typeDecl) {
	f := r.unionsGo
	f.Add(docComment(td.docText))
	if td.typ == nil {
		f.Type().Id(td.name).Struct()
		f.Line()
		r.scalarCodec(td, "")
		return
	}
	f.Type().Id(td.name).Id(td.typ.name)
	f.Line()
	r.scalarCodec(td, td.typ.name)
}

// unknownType declares UnknownX, which keeps a variant of X with a discriminator value the
// schema does not define.
func (r *renderer) unknownType(td *typeDecl) {
	f := r.unionsGo
	f.Add(docComment(td.docText))
	f.Type().Id(td.name).Struct(
		jen.Comment("Raw is the JSON object."),
		jen.Id("Raw").Qual("encoding/json", "RawMessage"),
	)
	f.Line()
	jsonMethods(f, td.name)
	encodeMethod(f, td.name, true, jen.Id("e").Dot("rawObject").Call(jen.Id("v").Dot("Raw")))
	decodeMethod(f, td.name,
		jen.List(jen.Id("v").Dot("Raw"), jen.Err()).Op("=").Id("d").Dot("raw").Call(),
		jen.Return(jen.Err()),
	)
}

// oneOrManyType declares the struct of `E | E[]`, its constructors and its codec.
func (r *renderer) oneOrManyType(td *typeDecl) {
	f := r.unionsGo
	newOne, newList := td.funcs.newOne, td.funcs.newList
	elem := td.typ.code()
	f.Add(docComment(td.docText))
	f.Type().Id(td.name).Struct(
		jen.Comment("List holds the values."),
		jen.Id("List").Index().Add(elem),
		jen.Comment("IsList records whether the JSON form is an array."),
		jen.Id("IsList").Bool(),
	)
	f.Line()
	f.Commentf("%s returns a %s holding the single value v.", newOne, td.name)
	f.Func().Id(newOne).Params(jen.Id("v").Add(td.typ.code())).Id(td.name).Block(
		jen.Return(jen.Id(td.name).Values(jen.Dict{jen.Id("List"): jen.Index().Add(td.typ.code()).Values(jen.Id("v"))})),
	)
	f.Line()
	f.Commentf("%s returns a %s holding the array v.", newList, td.name)
	f.Func().Id(newList).Params(jen.Id("v").Op("...").Add(td.typ.code())).Id(td.name).Block(
		jen.Return(jen.Id(td.name).Values(jen.Dict{jen.Id("List"): jen.Id("v"), jen.Id("IsList"): jen.True()})),
	)
	f.Line()

	list := &goType{kind: sliceKind, elem: td.typ}
	jsonMethods(f, td.name)
	encodeMethod(f, td.name, true, append([]jen.Code{
		jen.If(jen.Id("v").Dot("IsList")).Block(append(encodeValue(jen.Id("v").Dot("List"), list, 0), jen.Return())...),
		jen.If(jen.Len(jen.Id("v").Dot("List")).Op("!=").Lit(1)).Block(
			jen.Id("e").Dot("errorf").Call(jen.Lit(td.name+" holds %d values and is not a list"), jen.Len(jen.Id("v").Dot("List"))),
			jen.Return(),
		),
	}, encodeValue(jen.Id("v").Dot("List").Index(jen.Lit(0)), td.typ, 0)...)...)
	dec := []jen.Code{
		jen.Op("*").Id("v").Op("=").Id(td.name).Values(jen.Dict{jen.Id("IsList"): jen.Id("d").Dot("peek").Call().Op("==").LitRune('[')}),
		jen.If(jen.Id("v").Dot("IsList")).Block(append(decodeValue(jen.Id("v").Dot("List"), list, 0), jen.Return(jen.Err()))...),
		jen.Id("v").Dot("List").Op("=").Make(jen.Index().Add(td.typ.code()), jen.Lit(1)),
	}
	dec = append(dec, decodeValue(jen.Id("v").Dot("List").Index(jen.Lit(0)), td.typ, 0)...)
	dec = append(dec, jen.Return(jen.Err()))
	decodeMethod(f, td.name, dec...)
}
