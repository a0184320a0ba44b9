package render

import (
	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/emit/internal/ir"
)

// code writes the type t.
func code(t *ir.Type) *jen.Statement {
	switch {
	case t.Alias != "":
		return jen.Id(t.Alias)
	case t.Kind == ir.RawKind:
		return jen.Qual("encoding/json", "RawMessage")
	case t.Kind == ir.SliceKind:
		return jen.Index().Add(code(t.Elem))
	case t.Kind == ir.MapKind:
		return jen.Map(jen.String()).Add(code(t.Elem))
	case t.Kind == ir.NullableKind && t.Elem.HasNil:
		return code(t.Elem)
	case t.Kind == ir.NullableKind, t.Kind == ir.PointerKind:
		return jen.Op("*").Add(code(t.Elem))
	case t.Kind == ir.ExternalKind && t.Bytes:
		return jen.Index().Byte()
	case t.Kind == ir.ExternalKind && t.Composite:
		return jen.Op(t.Name)
	case t.Kind == ir.ExternalKind:
		named := jen.Id(t.Name)
		if t.Path != "" {
			named = jen.Qual(t.Path, t.Name)
		}
		if t.Pointer {
			return jen.Op("*").Add(named)
		}
		return named
	}
	return jen.Id(t.Name)
}

// GoSource writes t as Go source, a pointer to it if pointer is set, for messages.
func GoSource(t *ir.Type, pointer bool) string {
	c := code(t)
	if pointer {
		c = jen.Op("*").Add(c)
	}
	return c.GoString()
}

// codecSuffixes are the names of the decoder and encoder methods of the builtin types: d.str(),
// e.int64(v), ...
var codecSuffixes = [...]string{ir.String: "str", ir.Int64: "int64", ir.Float64: "float64", ir.Bool: "bool"}

// codecSuffix is the name of the decoder and encoder methods of a builtin type.
func codecSuffix(b ir.Builtin) string {
	return codecSuffixes[b]
}

// builtinNames are the builtin types' Go names.
var builtinNames = [...]string{ir.String: "string", ir.Int64: "int64", ir.Float64: "float64", ir.Bool: "bool"}
