package render

import (
	"github.com/dave/jennifer/jen"
	"github.com/mcpgen/mcpgen/emit/internal/ir"
)

// This file writes the types derived from unions: the wrappers of primitive variants, the
// Unknown variant of a discriminated union, and the one-or-many struct.

// wrapperType declares the wrapper of a primitive variant of a kind union: `type XString string`,
// or `type XNull struct{}`.
func (r *renderer) wrapperType(td *ir.Decl) {
	f := r.unionsGo
	f.Add(docComment(td.Doc))
	if td.Type == nil {
		f.Type().Id(td.Name).Struct()
		f.Line()
		r.scalarCodec(td, ir.NotBuiltin)
		return
	}
	f.Type().Id(td.Name).Id(td.Type.Name)
	f.Line()
	r.scalarCodec(td, td.Type.Builtin)
}

// unknownType declares UnknownX, which keeps a variant of X with a discriminator value the
// schema does not define.
func (r *renderer) unknownType(td *ir.Decl) {
	f := r.unionsGo
	f.Add(docComment(td.Doc))
	f.Type().Id(td.Name).Struct(
		docComment("Raw is the JSON object."),
		jen.Id("Raw").Qual("encoding/json", "RawMessage"),
	)
	f.Line()
	jsonMethods(f, td.Name)
	encodeMethod(f, td.Name, true, jen.Id("e").Dot("rawObject").Call(jen.Id("v").Dot("Raw")))
	decodeMethod(f, td.Name,
		jen.List(jen.Id("v").Dot("Raw"), jen.Err()).Op("=").Id("d").Dot("raw").Call(),
		jen.Return(jen.Err()),
	)
}

// oneOrManyType declares the struct of `E | E[]`, its constructors and its codec.
func (r *renderer) oneOrManyType(td *ir.Decl) {
	f := r.unionsGo
	newOne, newList := td.Funcs.NewOne, td.Funcs.NewList
	elem := code(td.Type)
	f.Add(docComment(td.Doc))
	f.Type().Id(td.Name).Struct(
		docComment("List holds the values."),
		jen.Id("List").Index().Add(elem),
		docComment("IsList records whether the JSON form is an array."),
		jen.Id("IsList").Bool(),
	)
	f.Line()
	f.Add(docComment(newOne + " returns a " + td.Name + " holding the single value v."))
	f.Func().Id(newOne).Params(jen.Id("v").Add(code(td.Type))).Id(td.Name).Block(
		jen.Return(jen.Id(td.Name).Values(jen.Dict{jen.Id("List"): jen.Index().Add(code(td.Type)).Values(jen.Id("v"))})),
	)
	f.Line()
	f.Add(docComment(newList + " returns a " + td.Name + " holding the array v."))
	f.Func().Id(newList).Params(jen.Id("v").Op("...").Add(code(td.Type))).Id(td.Name).Block(
		jen.Return(jen.Id(td.Name).Values(jen.Dict{jen.Id("List"): jen.Id("v"), jen.Id("IsList"): jen.True()})),
	)
	f.Line()

	list := &ir.Type{Kind: ir.SliceKind, Elem: td.Type, HasNil: true, Emptiness: ir.EmptyLen}
	jsonMethods(f, td.Name)
	encodeMethod(f, td.Name, true, append([]jen.Code{
		jen.If(jen.Id("v").Dot("IsList")).Block(append(encodeValue(jen.Id("v").Dot("List"), list, 0), jen.Return())...),
		jen.If(jen.Len(jen.Id("v").Dot("List")).Op("!=").Lit(1)).Block(
			jen.Id("e").Dot("errorf").Call(jen.Lit(td.Name+" holds %d values and is not a list"), jen.Len(jen.Id("v").Dot("List"))),
			jen.Return(),
		),
	}, encodeValue(jen.Id("v").Dot("List").Index(jen.Lit(0)), td.Type, 0)...)...)
	dec := []jen.Code{
		jen.Op("*").Id("v").Op("=").Id(td.Name).Values(jen.Dict{jen.Id("IsList"): jen.Id("d").Dot("peek").Call().Op("==").LitRune('[')}),
		jen.If(jen.Id("v").Dot("IsList")).Block(append(decodeValue(jen.Id("v").Dot("List"), list, 0), jen.Return(jen.Err()))...),
		jen.Id("v").Dot("List").Op("=").Make(jen.Index().Add(code(td.Type)), jen.Lit(1)),
	}
	dec = append(dec, decodeValue(jen.Id("v").Dot("List").Index(jen.Lit(0)), td.Type, 0)...)
	dec = append(dec, jen.Return(jen.Err()))
	decodeMethod(f, td.Name, dec...)
}
