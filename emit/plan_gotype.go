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
	Kind goKind
	// Name is the builtin type of a builtinKind and the Go type Name of the named kinds.
	Name string
	// Union is the declaration of a unionKind, whose functions (ir.Funcs) encode, decode and
	// validate it.
	Union *typeDecl
	// Alias is the name of an Alias declaration through which the type is reached, written in
	// its place; "" when there is none.
	Alias string
	Elem  *goType
	// externalKind: the package of the type ("" for the output's own package or a predeclared
	// type), whether the substitute is a pointer to the named type, and the configuration entry.
	Path    string
	Pointer bool
	pos     model.Pos
	// Single is set for a sliceKind that stands for a one-or-many union `E | E[]`
	// (Config.OneOrMany Slice): one element is encoded as the Single value, and a Single
	// value decodes as a slice of one.
	Single bool
	// Composite is set for an externalKind written as a Go type expression (name:
	// "map[string]any"); underlying is the kind of an externalKind's type, when known
	// (Substitute.Kind).
	Composite  bool
	Underlying string
}

// hasNil reports whether the type has a nil value, which then stands for an absent member.
func (t *goType) hasNil() bool {
	switch t.Kind {
	case builtinKind, structKind, enumKind:
		return false
	case externalKind:
		return t.Pointer || nilKinds[t.Underlying] || t.Path == "" && (t.Name == "any" || t.Name == "[]byte")
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
	switch t.Kind {
	case builtinKind, externalKind:
		if t.Kind == externalKind && (t.Pointer || t.Path != "") {
			break
		}
		switch {
		case t.Name == "bool":
			return emptyFalse
		case t.Name == "string":
			return emptyString
		case t.Name == "[]byte":
			return emptyLen
		case numeric[t.Name]:
			return emptyZero
		case t.Name == "any":
			return emptyNil
		}
	case enumKind:
		return emptyString
	case sliceKind, mapKind, namedKind, rawKind:
		return emptyLen
	}
	if t.Kind == externalKind && !t.Pointer {
		switch {
		case t.Underlying == "map" || t.Underlying == "slice":
			return emptyLen
		case t.Underlying == "string":
			return emptyString
		case t.Underlying == "bool":
			return emptyFalse
		case numeric[t.Underlying]:
			return emptyZero
		case !nilKinds[t.Underlying]:
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
	switch t.Kind {
	case structKind, enumKind, namedKind, unionKind:
		return t.written()
	case pointerKind:
		return embeddedName(t.Elem)
	case externalKind:
		if !t.Composite && (t.Path != "" || t.Name != "[]byte" && t.Name != "any" && t.Name != strings.ToLower(t.Name)) {
			return t.Name
		}
	}
	return ""
}

// fieldString writes the field f as Go source, for messages: its name, type and json tag.
func (p *plan) fieldString(f *field) string {
	return fmt.Sprintf("%s %s `json:%q`", f.Name, p.typeString(f.Type, f.Pointer), f.member.Name+f.TagOption)
}

// typeString writes t as Go source, a pointer to it if pointer is set, for messages.
func (p *plan) typeString(t *goType, pointer bool) string {
	return render.GoSource(p.lowering().typ(t), pointer)
}

// written is the name of the type as written, for docs: the alias if there is one.
func (t *goType) written() string {
	if t.Alias != "" {
		return t.Alias
	}
	return t.Name
}

// builtinOf is the Go type of a JSON scalar kind.
func builtinOf(k model.Kind) *goType {
	switch k {
	case model.String:
		return &goType{Kind: builtinKind, Name: "string"}
	case model.Integer:
		return &goType{Kind: builtinKind, Name: "int64"}
	case model.Number:
		return &goType{Kind: builtinKind, Name: "float64"}
	case model.Boolean:
		return &goType{Kind: builtinKind, Name: "bool"}
	}
	return nil
}

// builtins are the builtin types by name.
var builtins = map[string]ir.Builtin{"string": ir.String, "int64": ir.Int64, "float64": ir.Float64, "bool": ir.Bool}

// builtinTypeOf is the builtin type t is: a builtinKind's, or an externalKind's that is a
// predeclared one.
func builtinTypeOf(t *goType) ir.Builtin {
	if t.Kind == builtinKind || t.Kind == externalKind && t.Path == "" {
		return builtins[t.Name]
	}
	return ir.NotBuiltin
}

// shapeOf is the shape of an externalKind's type: a map or a slice, where the configuration
// says so.
func shapeOf(t *goType) ir.Shape {
	switch {
	case t.Kind != externalKind:
		return ir.OtherShape
	case t.Underlying == "map":
		return ir.MapShape
	case t.Underlying == "slice":
		return ir.SliceShape
	}
	return ir.OtherShape
}
