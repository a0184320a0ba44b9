package emit

import (
	"fmt"
	"strconv"

	"github.com/mcpgen/mcpgen/model"
)

// declareNames reserves the package-level names that rendering derives from the planned
// declarations, in the order it writes them: the constants of enums, the functions of unions
// and their variant tables, the constructors of one-or-many types, the typed result decodes, the
// names of the protocol layer, and the constants of the schema and of the methods. A collision
// is an error naming both; so is a union whose variants define more member names than its
// decoder can tell apart. Rendering then only writes.
func (g *generator) declareNames() error {
	for _, td := range g.types {
		var names []string
		var what string
		switch td.form {
		case enumForm:
			td.valueNames = make([]string, len(td.values))
			for i, v := range td.values {
				name := g.names.enumConstName(td.name, v)
				td.valueNames[i] = name
				if err := g.scope.declare(name, "constant for "+td.name+" value "+v, td.pos); err != nil {
					return err
				}
			}
		case interfaceForm:
			names, what = []string{"Unmarshal" + td.name, "decode" + td.name, "encode" + td.name}, "function of union "+td.name
		case oneOrManyForm:
			names, what = []string{"New" + td.name, "New" + td.name + "List"}, "constructor of "+td.name
		}
		for _, name := range names {
			if err := g.scope.declare(name, what, td.pos); err != nil {
				return err
			}
		}
		if td.form == interfaceForm && td.objects != nil && td.objects.table {
			if err := g.scope.declare("variantsOf"+td.name, "variant table of union "+td.name, td.pos); err != nil {
				return err
			}
			if err := checkTableSize(td); err != nil {
				return err
			}
		}
	}
	for _, name := range resultUnions {
		union := g.byDecl[name]
		if union == nil || len(union.results) == 0 {
			continue
		}
		for _, n := range []string{"Unmarshal" + union.name + "For", "decode" + union.name + "For"} {
			if err := g.scope.declare(n, "typed result decode of "+name, union.pos); err != nil {
				return err
			}
		}
	}
	if g.proto != nil {
		for _, name := range []string{"Message", "DecodeClientMessage", "DecodeServerMessage", "decodeClientMessage",
			"decodeServerMessage", "Methods", "NewErrorResponse", "errorObject"} {
			if err := g.scope.declare(name, "the protocol layer", model.Pos{}); err != nil {
				return err
			}
		}
	}
	g.constNames = map[*model.Const]string{}
	for _, c := range g.s.Consts {
		if g.opts.Config.NoConstants {
			break
		}
		name, err := g.constName(c)
		if err != nil {
			return err
		}
		g.constNames[c] = name
	}
	for _, td := range g.types {
		if _, ok := methodOf(td); ok {
			if err := g.scope.declare(methodConstName(td.name), "method constant of "+td.decl.Name, td.pos); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkTableSize checks that the variants of an object union with a variant table define at
// most the member names the runtime's variantTable can hold.
func checkTableSize(td *typeDecl) error {
	names := map[string]bool{}
	for _, v := range td.objects.variants {
		for _, n := range v.model.Known {
			names[n] = true
		}
	}
	if len(names) > maxUnionMembers {
		return fmt.Errorf("%s: union %s: its variants define %d member names, more than the %d the decoder can tell apart",
			td.pos, td.name, len(names), maxUnionMembers)
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

// schemaVersionName is the name of the constant SchemaVersion, or its rename.
func (p *plan) schemaVersionName() string {
	if e, ok := p.opts.Config.Names["SchemaVersion"]; ok {
		return e.Name
	}
	return "SchemaVersion"
}
