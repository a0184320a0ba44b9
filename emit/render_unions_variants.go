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
	f.Add(docComment(r.typeDoc(td)))
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
	union := r.byName[td.union]
	f.Add(docComment(td.name + " is a [" + td.union + "] whose " + quote(union.tag) +
		" this version of the schema does not define. Raw holds it exactly as received, and encoding writes it back unchanged."))
	f.Type().Id(td.name).Struct(
		docComment("Raw is the JSON object."),
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
	newOne, newList := "New"+td.name, "New"+td.name+"List"
	elem := td.typ.code()
	form := "one " + typeLink(td.typ) + " or an array of them. IsList records the form: " +
		"a decoded array sets it, and encoding writes an array when it is set (even of one element) " +
		"and the single value otherwise (List must then hold exactly one element, else encoding fails)."
	if td.decl != nil {
		f.Add(docComment(r.typeDoc(td, td.name+" is "+form)))
	} else {
		f.Add(docComment(td.name + " is " + td.about + ": " + form))
	}
	f.Type().Id(td.name).Struct(
		docComment("List holds the values."),
		jen.Id("List").Index().Add(elem),
		docComment("IsList records whether the JSON form is an array."),
		jen.Id("IsList").Bool(),
	)
	f.Line()
	f.Add(docComment(newOne + " returns a " + td.name + " holding the single value v."))
	f.Func().Id(newOne).Params(jen.Id("v").Add(td.typ.code())).Id(td.name).Block(
		jen.Return(jen.Id(td.name).Values(jen.Dict{jen.Id("List"): jen.Index().Add(td.typ.code()).Values(jen.Id("v"))})),
	)
	f.Line()
	f.Add(docComment(newList + " returns a " + td.name + " holding the array v."))
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

// typeLink writes a type for a doc comment: a doc link for a named type.
func typeLink(t *goType) string {
	switch t.kind {
	case builtinKind:
		if t.alias != "" {
			return "[" + t.alias + "]"
		}
		return t.name
	case rawKind:
		if t.alias != "" {
			return "[" + t.alias + "]"
		}
		return "JSON value"
	case sliceKind:
		return "array of " + typeLink(t.elem)
	case mapKind:
		return "object of " + typeLink(t.elem)
	case nullableKind:
		return typeLink(t.elem) + " or null"
	}
	return "[" + t.written() + "]"
}
