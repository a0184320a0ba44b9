package emit

import (
	"go/token"

	"github.com/dave/jennifer/jen"
)

// structType declares a struct: a field per member, then Extra.
func (r *renderer) structType(td *typeDecl) {
	var fields []jen.Code
	embedded := map[string]bool{}
	for _, f := range td.fields {
		if f.implicit {
			continue // Config.Literals: the codec writes the constant
		}
		if f.base != "" {
			// The embedded base holds the field; encoding/json promotes its fields as the
			// codecs reach them.
			if !embedded[f.base] {
				embedded[f.base] = true
				fields = append(fields, docComment(f.base+" holds the members of ["+f.base+"]."), jen.Id(f.base))
			}
			continue
		}
		typ := f.typ.code()
		if f.pointer {
			typ = jen.Op("*").Add(typ)
		}
		tag := f.member.Name + f.tagOption
		decl := jen.Id(f.name).Add(typ)
		if f.embed {
			decl = typ
		}
		if f.embed || token.IsExported(f.name) {
			// An unexported field has no tag: encoding/json ignores it, and go vet reports one.
			decl = decl.Tag(map[string]string{"json": tag})
		}
		fields = append(fields, docComment(f.docText), decl)
	}
	for _, src := range td.added {
		fields = append(fields, jen.Op(src).Tag(map[string]string{"json": "-"}))
	}
	if !r.opts.Config.DropUnknown {
		fields = append(fields,
			docComment(td.extraDoc),
			jen.Id("Extra").Map(jen.String()).Add(td.rest.code()).Tag(map[string]string{"json": "-"}))
	}
	r.typesGo.Add(docComment(td.docText))
	r.typesGo.Type().Id(td.name).Struct(fields...)
	r.typesGo.Line()
}

// aliasType declares `type X = T`.
func (r *renderer) aliasType(td *typeDecl) {
	r.typesGo.Add(docComment(td.docText))
	r.typesGo.Type().Id(td.name).Op("=").Add(td.typ.code())
	r.typesGo.Line()
}

// collectionType declares a named map or slice type, with its codec.
// The variants of a kind union go to unions.go, the others to types.go and json.go.
func (r *renderer) collectionType(td *typeDecl) {
	f := r.typesGo
	if td.union != "" {
		f = r.unionsGo
	}
	f.Add(docComment(td.docText))
	underlying := *td.typ
	underlying.alias = ""
	f.Type().Id(td.name).Add(underlying.code())
	f.Line()
	r.collectionCodec(td)
}

// enumType declares a string type, its constants and its codec.
func (r *renderer) enumType(td *typeDecl) {
	r.typesGo.Add(docComment(td.docText))
	r.typesGo.Type().Id(td.name).String()
	r.typesGo.Line()
	var consts []jen.Code
	for i, v := range td.values {
		name := td.valueNames[i]
		consts = append(consts,
			docComment(td.valueDocs[i]),
			jen.Id(name).Id(td.name).Op("=").Lit(v))
	}
	r.enumConsts = append(r.enumConsts, jen.Const().Defs(consts...), jen.Line())
	r.scalarCodec(td, "string")
}

// quote writes s as a Go doc comment shows a JSON string.
func quote(s string) string {
	return `"` + s + `"`
}
