package emit

import (
	"fmt"
	"strings"

	"github.com/mcpgen/mcpgen/emit/internal/ir"
	"github.com/mcpgen/mcpgen/emit/internal/render"
	"github.com/mcpgen/mcpgen/model"
)

// goKind says how a Go type is written and how its values are encoded and decoded: the ir's
// (ir.Kind).
type goKind = ir.Kind

const (
	builtinKind  = ir.BuiltinKind
	rawKind      = ir.RawKind
	structKind   = ir.StructKind
	enumKind     = ir.EnumKind
	namedKind    = ir.NamedKind
	unionKind    = ir.UnionKind
	sliceKind    = ir.SliceKind
	mapKind      = ir.MapKind
	nullableKind = ir.NullableKind
	externalKind = ir.ExternalKind
	pointerKind  = ir.PointerKind
)

// goType is the Go type of a value.
type goType struct {
	kind goKind
	// name is the builtin type of a builtinKind and the Go type name of the named kinds.
	name string
	// union is the declaration of a unionKind, whose functions (ir.Funcs) encode, decode and
	// validate it.
	union *typeDecl
	// alias is the name of an alias declaration through which the type is reached, written in
	// its place; "" when there is none.
	alias string
	elem  *goType
	// externalKind: the package of the type ("" for the output's own package or a predeclared
	// type), whether the substitute is a pointer to the named type, and the configuration entry.
	path    string
	pointer bool
	pos     model.Pos
	// single is set for a sliceKind that stands for a one-or-many union `E | E[]`
	// (Config.OneOrMany Slice): one element is encoded as the single value, and a single
	// value decodes as a slice of one.
	single bool
	// composite is set for an externalKind written as a Go type expression (name:
	// "map[string]any"); underlying is the kind of an externalKind's type, when known
	// (Substitute.Kind).
	composite  bool
	underlying string
}

// hasNil reports whether the type has a nil value, which then stands for an absent member.
func (t *goType) hasNil() bool {
	switch t.kind {
	case builtinKind, structKind, enumKind:
		return false
	case externalKind:
		return t.pointer || nilKinds[t.underlying] || t.path == "" && (t.name == "any" || t.name == "[]byte")
	}
	return true
}

// How a value is tested for emptiness as encoding/json's omitempty does (goType.emptiness): the
// ir's.
const (
	emptyNil     = ir.EmptyNil
	emptyFalse   = ir.EmptyFalse
	emptyString  = ir.EmptyString
	emptyZero    = ir.EmptyZero
	emptyLen     = ir.EmptyLen
	emptyReflect = ir.EmptyReflect
)

// emptiness says how a value of t is tested for emptiness as encoding/json's omitempty does.
func (t *goType) emptiness() int {
	switch t.kind {
	case builtinKind, externalKind:
		if t.kind == externalKind && (t.pointer || t.path != "") {
			break
		}
		switch {
		case t.name == "bool":
			return emptyFalse
		case t.name == "string":
			return emptyString
		case t.name == "[]byte":
			return emptyLen
		case numeric[t.name]:
			return emptyZero
		case t.name == "any":
			return emptyNil
		}
	case enumKind:
		return emptyString
	case sliceKind, mapKind, namedKind, rawKind:
		return emptyLen
	}
	if t.kind == externalKind && !t.pointer {
		switch {
		case t.underlying == "map" || t.underlying == "slice":
			return emptyLen
		case t.underlying == "string":
			return emptyString
		case t.underlying == "bool":
			return emptyFalse
		case numeric[t.underlying]:
			return emptyZero
		case !nilKinds[t.underlying]:
			return emptyReflect
		}
	}
	return emptyNil
}

// numeric are the predeclared numeric types a substitute may name.
var numeric = map[string]bool{"int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true, "float32": true, "float64": true}

// nilKinds are the kinds of Go types that have nil (Substitute.Kind).
var nilKinds = map[string]bool{"map": true, "slice": true, "interface": true, "pointer": true, "func": true, "chan": true}

// embeddedName is the name of the field that embeds a value of type t (Config.Embed): the name
// of its named type, or "" for a type that cannot be embedded.
func embeddedName(t *goType) string {
	switch t.kind {
	case structKind, enumKind, namedKind, unionKind:
		return t.written()
	case pointerKind:
		return embeddedName(t.elem)
	case externalKind:
		if !t.composite && (t.path != "" || t.name != "[]byte" && t.name != "any" && t.name != strings.ToLower(t.name)) {
			return t.name
		}
	}
	return ""
}

// fieldString writes the field f as Go source, for messages: its name, type and json tag.
func (p *plan) fieldString(f *field) string {
	return fmt.Sprintf("%s %s `json:%q`", f.name, p.typeString(f.typ, f.pointer), f.member.Name+f.tagOption)
}

// typeString writes t as Go source, a pointer to it if pointer is set, for messages.
func (p *plan) typeString(t *goType, pointer bool) string {
	return render.GoSource(p.lowering().typ(t), pointer)
}

// written is the name of the type as written, for docs: the alias if there is one.
func (t *goType) written() string {
	if t.alias != "" {
		return t.alias
	}
	return t.name
}

// builtinOf is the Go type of a JSON scalar kind.
func builtinOf(k model.Kind) *goType {
	switch k {
	case model.String:
		return &goType{kind: builtinKind, name: "string"}
	case model.Integer:
		return &goType{kind: builtinKind, name: "int64"}
	case model.Number:
		return &goType{kind: builtinKind, name: "float64"}
	case model.Boolean:
		return &goType{kind: builtinKind, name: "bool"}
	}
	return nil
}

// builtins are the builtin types by name.
var builtins = map[string]ir.Builtin{"string": ir.String, "int64": ir.Int64, "float64": ir.Float64, "bool": ir.Bool}

// builtinTypeOf is the builtin type t is: a builtinKind's, or an externalKind's that is a
// predeclared one.
func builtinTypeOf(t *goType) ir.Builtin {
	if t.kind == builtinKind || t.kind == externalKind && t.path == "" {
		return builtins[t.name]
	}
	return ir.NotBuiltin
}

// shapeOf is the shape of an externalKind's type: a map or a slice, where the configuration
// says so.
func shapeOf(t *goType) ir.Shape {
	switch {
	case t.kind != externalKind:
		return ir.OtherShape
	case t.underlying == "map":
		return ir.MapShape
	case t.underlying == "slice":
		return ir.SliceShape
	}
	return ir.OtherShape
}
