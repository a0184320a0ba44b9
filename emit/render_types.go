package emit

import (
	"go/token"

	"github.com/dave/jennifer/jen"
)

// extraDoc documents the Extra field of every struct.
const extraDoc = "Extra holds the members the schema does not define, as received, encoded after the others."

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
		var extra []string
		if f.literal != nil {
			extra = append(extra, "Always "+f.literal.String()+".")
		}
		if d := f.member.Default; d != nil {
			extra = append(extra, "Empty means "+d.String()+": encoding writes it, and an absent member decodes empty.")
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
		fields = append(fields, docComment(r.docText(f.member.Doc, "field", extra...)), decl)
	}
	for _, src := range td.added {
		fields = append(fields, jen.Op(src).Tag(map[string]string{"json": "-"}))
	}
	if !r.opts.Config.DropUnknown {
		doc := extraDoc
		if len(td.absent) > 0 {
			doc += " It must not hold " + quoteList(td.absent) + ", which the schema gives the type never: " +
				"decoding and Validate reject it, and encoding fails on it."
		}
		fields = append(fields,
			docComment(doc),
			jen.Id("Extra").Map(jen.String()).Add(td.rest.code()).Tag(map[string]string{"json": "-"}))
	}
	r.typesGo.Add(docComment(r.typeDoc(td)))
	r.typesGo.Type().Id(td.name).Struct(fields...)
	r.typesGo.Line()
}

// aliasType declares `type X = T`.
func (r *renderer) aliasType(td *typeDecl) {
	var extra []string
	if td.typ.kind == rawKind {
		extra = append(extra, "It holds any JSON value, exactly as received.")
	}
	r.typesGo.Add(docComment(r.typeDoc(td, extra...)))
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
	f.Add(docComment(r.typeDoc(td)))
	underlying := *td.typ
	underlying.alias = ""
	f.Type().Id(td.name).Add(underlying.code())
	f.Line()
	r.collectionCodec(td)
}

// enumType declares a string type, its constants and its codec.
func (r *renderer) enumType(td *typeDecl) {
	closing := "The set is closed: other values are invalid, though decoding keeps them as received."
	if td.open {
		closing = "Other values are allowed."
	}
	r.typesGo.Add(docComment(r.typeDoc(td, closing)))
	r.typesGo.Type().Id(td.name).String()
	r.typesGo.Line()
	var consts []jen.Code
	for i, v := range td.values {
		name := td.valueNames[i]
		consts = append(consts,
			docComment(name+" is the ["+td.name+"] value "+quote(v)+"."),
			jen.Id(name).Id(td.name).Op("=").Lit(v))
	}
	r.enumConsts = append(r.enumConsts, jen.Const().Defs(consts...), jen.Line())
	r.scalarCodec(td, "string")
}

// quote writes s as a Go doc comment shows a JSON string.
func quote(s string) string {
	return `"` + s + `"`
}
