package emit

import (
	"sort"
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/model"
)

// constants writes consts.go: SchemaVersion, the schema's constants and the method constants.
// (The enum constants are written with their types.)
func (g *generator) constants() error {
	f := g.constsGo
	version := g.schemaVersionName()
	f.Comment(version + " is the version of the MCP schema this package was generated from.")
	f.Const().Id(version).Op("=").Lit(g.opts.Version)
	f.Line()

	var defs []jen.Code
	for _, c := range g.s.Consts {
		name, err := g.constName(c)
		if err != nil {
			return err
		}
		defs = append(defs, docComment(g.constDoc(name, c)), jen.Id(name).Op("=").Add(literalCode(&c.Value)))
	}
	if len(defs) > 0 {
		f.Const().Defs(defs...)
		f.Line()
	}

	methods, err := g.methodConsts()
	if err != nil {
		return err
	}
	if len(methods) > 0 {
		f.Const().Defs(methods...)
		f.Line()
	}
	for _, c := range g.enumConsts {
		f.Add(c)
	}
	return nil
}

// constName names a schema constant: an error code (isErrorCode) is Code plus its CamelCase
// name (PARSE_ERROR → CodeParseError), as go-sdk names its codes; another constant is CamelCase,
// with "Code" (numbers) or "Value" (others) appended when that is a type name.
func (g *generator) constName(c *model.Const) (string, error) {
	if e, ok := g.opts.Config.Names[c.Name]; ok {
		return e.Name, g.scope.declare(e.Name, "constant "+c.Name, e.Pos)
	}
	name := g.names.constName(c.Name)
	if isErrorCode(c.Value) {
		name = "Code" + name
	} else if _, taken := g.scope[name]; taken {
		if c.Value.Kind == model.Integer || c.Value.Kind == model.Number {
			name += "Code"
		} else {
			name += "Value"
		}
	}
	return name, g.scope.declare(name, "constant "+c.Name, c.Pos)
}

// isErrorCode reports whether a constant is a JSON-RPC error code: an integer in the range
// JSON-RPC reserves for the codes of the protocol and its implementations, -32768 to -32000.
func isErrorCode(v model.Value) bool {
	if v.Kind != model.Integer {
		return false
	}
	n, err := strconv.ParseInt(v.Num, 10, 64)
	return err == nil && -32768 <= n && n <= -32000
}

// methodConsts returns the method constants, sorted by name: one per declared object whose
// "method" member is a string literal.
func (g *generator) methodConsts() ([]jen.Code, error) {
	type method struct{ name, value, decl string }
	var methods []method
	for _, td := range g.types {
		if value, ok := methodOf(td); ok {
			name := methodConstName(td.name)
			if err := g.scope.declare(name, "method constant of "+td.decl.Name, td.pos); err != nil {
				return nil, err
			}
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
	return defs, nil
}

// methodOf returns the method of a declared struct whose "method" member is a string literal.
func methodOf(td *typeDecl) (string, bool) {
	if td.decl == nil || td.form != structForm {
		return "", false
	}
	for _, f := range td.fields {
		if f.member.Name == "method" && f.literal != nil && f.literal.Kind == model.String {
			return f.literal.Str, true
		}
	}
	return "", false
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

// schemaVersionName is the name of the constant SchemaVersion, or its rename.
func (g *generator) schemaVersionName() string {
	if e, ok := g.opts.Config.Names["SchemaVersion"]; ok {
		return e.Name
	}
	return "SchemaVersion"
}
