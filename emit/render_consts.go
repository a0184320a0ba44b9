package emit

import (
	"sort"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/model"
)

// constants writes consts.go: SchemaVersion, the schema's constants and the method constants.
// (The enum constants are written with their types.)
func (r *renderer) constants() {
	f := r.constsGo
	version := r.schemaVersionName()
	f.Add(docComment(version + " is the version of the MCP schema this package was generated from."))
	f.Const().Id(version).Op("=").Lit(r.opts.Version)
	f.Line()

	var defs []jen.Code
	for _, c := range r.s.Consts {
		name, ok := r.constNames[c]
		if !ok {
			continue // Config.NoConstants
		}
		defs = append(defs, docComment(r.constDoc(name, c)), jen.Id(name).Op("=").Add(literalCode(&c.Value)))
	}
	if len(defs) > 0 {
		f.Const().Defs(defs...)
		f.Line()
	}

	methods := r.methodConsts()
	if len(methods) > 0 {
		f.Const().Defs(methods...)
		f.Line()
	}
	for _, c := range r.enumConsts {
		f.Add(c)
	}
}

// methodConsts returns the method constants, sorted by name: one per declared object whose
// "method" member is a string literal.
func (r *renderer) methodConsts() []jen.Code {
	type method struct{ name, value, decl string }
	var methods []method
	for _, td := range r.types {
		if value, ok := methodOf(td); ok {
			name := methodConstName(td.name)
			methods = append(methods, method{name, value, td.name})
		}
	}
	sort.Slice(methods, func(i, j int) bool { return methods[i].name < methods[j].name })
	var defs []jen.Code
	for _, m := range methods {
		defs = append(defs,
			docComment(m.name+" is the method of ["+m.decl+"]."),
			jen.Id(m.name).Op("=").Lit(m.value))
	}
	return defs
}

// literalCode writes a constant: numbers exactly as in the schema.
func literalCode(v *model.Value) jen.Code {
	switch v.Kind {
	case model.String:
		return jen.Lit(v.Str)
	case model.Boolean:
		return jen.Lit(v.Bool)
	}
	return jen.Op(v.Num)
}
