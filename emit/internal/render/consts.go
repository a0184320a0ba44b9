package render

import (
	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/emit/internal/ir"
)

// constants writes consts.go: SchemaVersion, the schema's constants and the method constants.
// (The enum constants are written with their types.)
func (r *renderer) constants() {
	f := r.constsGo
	version := r.pkg.SchemaVersion
	f.Add(docComment(version + " is the version of the MCP schema this package was generated from."))
	f.Const().Id(version).Op("=").Lit(r.pkg.Version)
	f.Line()

	var defs []jen.Code
	for _, c := range r.pkg.Consts {
		defs = append(defs, docComment(c.Doc), jen.Id(c.Name).Op("=").Add(literalCode(c.Value)))
	}
	if len(defs) > 0 {
		f.Const().Defs(defs...)
		f.Line()
	}

	var methods []jen.Code
	for _, m := range r.pkg.MethodConsts {
		methods = append(methods, docComment(m.Name+" is the method of ["+m.Decl+"]."), jen.Id(m.Name).Op("=").Lit(m.Value))
	}
	if len(methods) > 0 {
		f.Const().Defs(methods...)
		f.Line()
	}
	for _, c := range r.enumConsts {
		f.Add(c)
	}
}

// literalCode writes a constant: numbers exactly as in the schema.
func literalCode(v *ir.Value) jen.Code {
	switch {
	case v.IsString:
		return jen.Lit(v.Str)
	case v.IsBool:
		return jen.Lit(v.Bool)
	}
	return jen.Op(v.Num)
}
