package render

import (
	"go/token"
	"strings"

	"github.com/mcpgen/mcpgen/emit/internal/ir"

	"github.com/dave/jennifer/jen"
)

// structType declares a struct: a field per member, then Extra.
func (r *renderer) structType(td *ir.Decl) {
	var fields []jen.Code
	embedded := map[string]bool{}
	for _, f := range td.Fields {
		if f.Implicit {
			continue // Config.Literals: the codec writes the constant
		}
		if f.Base != "" {
			// The embedded base holds the field; encoding/json promotes its fields as the
			// codecs reach them.
			if !embedded[f.Base] {
				embedded[f.Base] = true
				fields = append(fields, docComment(f.Base+" holds the members of ["+f.Base+"]."), jen.Id(f.Base))
			}
			continue
		}
		typ := code(f.Type)
		if f.Pointer {
			typ = jen.Op("*").Add(typ)
		}
		tag := f.JSONName + f.TagOption
		decl := jen.Id(f.Name).Add(typ)
		if f.Embed {
			decl = typ
		}
		if f.Embed || token.IsExported(f.Name) {
			// An unexported field has no tag: encoding/json ignores it, and go vet reports one.
			decl = decl.Tag(map[string]string{"json": tag})
		}
		fields = append(fields, docComment(f.Doc), decl)
	}
	for _, src := range td.Added {
		fields = append(fields, addedField(src).Tag(map[string]string{"json": "-"}))
	}
	if !r.pkg.DropUnknown {
		fields = append(fields,
			docComment(td.ExtraDoc),
			jen.Id(r.pkg.Extra).Map(jen.String()).Add(code(td.Rest)).Tag(map[string]string{"json": "-"}))
	}
	r.typesGo.Add(docComment(td.Doc))
	r.typesGo.Type().Id(td.Name).Struct(fields...)
	r.typesGo.Line()
}

// definedType declares `type X T` of a struct T, with methods that call T's: the codec (none
// but encode and decode for a struct coded by encoding/json) and the validators.
func (r *renderer) definedType(td *ir.Decl) {
	r.typesGo.Add(docComment(td.Doc))
	r.typesGo.Type().Id(td.Name).Id(td.Type.Name)
	r.typesGo.Line()
	target := jen.Parens(jen.Op("*").Id(td.Type.Name)).Call(jen.Id("v"))
	if !td.TagCodec {
		jsonMethods(r.jsonGo, td.Name)
	}
	encodeMethod(r.jsonGo, td.Name, true, jen.Add(target).Dot("encode").Call(jen.Id("e")))
	decodeMethod(r.jsonGo, td.Name, jen.Return(jen.Add(target).Dot("decode").Call(jen.Id("d"))))
	if r.pkg.NoValidate {
		return
	}
	f := r.validateGo
	f.Add(docComment(validateDoc))
	f.Func().Params(jen.Id("v").Op("*").Id(td.Name)).Id("Validate").Params().Error().Add(
		oneLine(jen.Return(jen.Add(target).Dot("Validate").Call())),
	)
	f.Line()
	if !td.Checks {
		return // the target has nothing to check, and no validate
	}
	f.Func().Params(jen.Id("v").Op("*").Id(td.Name)).Id("validate").Params(jen.Id("c").Op("*").Id("validator")).Block(
		jen.Add(target).Dot("validate").Call(jen.Id("c")),
	)
	f.Line()
}

// aliasType declares `type X = T`.
func (r *renderer) aliasType(td *ir.Decl) {
	r.typesGo.Add(docComment(td.Doc))
	r.typesGo.Type().Id(td.Name).Op("=").Add(code(td.Type))
	r.typesGo.Line()
}

// collectionType declares a named map or slice type, with its codec.
// The variants of a kind union go to unions.go, the others to types.go and json.go.
func (r *renderer) collectionType(td *ir.Decl) {
	f := r.typesGo
	if td.Union != nil {
		f = r.unionsGo
	}
	f.Add(docComment(td.Doc))
	underlying := *td.Type
	underlying.Alias = ""
	f.Type().Id(td.Name).Add(code(&underlying))
	f.Line()
	r.collectionCodec(td)
}

// enumType declares a string type, its constants and its codec.
func (r *renderer) enumType(td *ir.Decl) {
	r.typesGo.Add(docComment(td.Doc))
	r.typesGo.Type().Id(td.Name).String()
	r.typesGo.Line()
	var consts []jen.Code
	for i, v := range td.Values {
		name := td.ValueNames[i]
		consts = append(consts,
			docComment(td.ValueDocs[i]),
			jen.Id(name).Id(td.Name).Op("=").Lit(v))
	}
	r.enumConsts = append(r.enumConsts, jen.Const().Defs(consts...), jen.Line())
	r.scalarCodec(td, ir.String)
}

// quote writes s as a Go doc comment shows a JSON string.
func quote(s string) string {
	return `"` + s + `"`
}

// stdImports are the standard library packages whose types a hand-written field
// (Config.AddFields) may name by their package's name (json.RawMessage, http.Header): the file
// imports them.
var stdImports = map[string]string{"json": "encoding/json", "http": "net/http", "time": "time", "url": "net/url",
	"context": "context", "io": "io", "sync": "sync", "bytes": "bytes", "strings": "strings"}

// addedField writes a hand-written field, "name Type" or an embedded "Type", so that a type of a
// package of stdImports is imported; other source is written as it is.
func addedField(src string) *jen.Statement {
	name, typ, named := strings.Cut(strings.TrimSpace(src), " ")
	if !named {
		name, typ = "", src
	}
	typ = strings.TrimSpace(typ)
	star := ""
	for strings.HasPrefix(typ, "*") || strings.HasPrefix(typ, "[]") {
		if typ[0] == '*' {
			star, typ = star+"*", typ[1:]
		} else {
			star, typ = star+"[]", typ[2:]
		}
	}
	pkg, sel, qualified := strings.Cut(typ, ".")
	path, known := stdImports[pkg]
	if !qualified || !known || !token.IsIdentifier(sel) {
		return jen.Op(src)
	}
	code := jen.Qual(path, sel)
	if star != "" {
		code = jen.Op(star).Add(code)
	}
	if name == "" {
		return code
	}
	return jen.Id(name).Add(code)
}
