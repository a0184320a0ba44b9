package emit

import (
	"fmt"
	"strings"

	"github.com/mcpgen/mcpgen/emit/internal/ir"
	"github.com/mcpgen/mcpgen/emit/internal/render"
	"github.com/mcpgen/mcpgen/model"
)

// The kinds of Go types (ir.Kind): how a type is written and how its values are encoded and
// decoded.
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

// hasNil reports whether the type has a nil value, which then stands for an absent member.
func hasNil(t *ir.Type) bool {
	switch t.Kind {
	case builtinKind, structKind, enumKind:
		return false
	case externalKind:
		return t.Pointer || nilKinds[t.Underlying] || t.Path == "" && (t.Name == "any" || t.Name == "[]byte")
	}
	return true
}

// How a value is tested for emptiness as encoding/json's omitempty does (emptiness): the
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
func emptiness(t *ir.Type) int {
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
func embeddedName(t *ir.Type) string {
	switch t.Kind {
	case structKind, enumKind, namedKind, unionKind:
		return t.Written()
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
func (p *plan) fieldString(f *ir.Field) string {
	return fmt.Sprintf("%s %s `json:%q`", f.Name, p.typeString(f.Type, f.Pointer), f.JSONName+f.TagOption)
}

// typeString writes t as Go source, a pointer to it if pointer is set, for messages. The facts
// that writing it reads are set first (toIR sets them again, once planning is done).
func (p *plan) typeString(t *ir.Type, pointer bool) string {
	p.settleType(t, map[*ir.Type]bool{})
	return render.GoSource(t, pointer)
}

// builtinOf is the Go type of a JSON scalar kind.
func builtinOf(k model.Kind) *ir.Type {
	switch k {
	case model.String:
		return &ir.Type{Kind: builtinKind, Name: "string"}
	case model.Integer:
		return &ir.Type{Kind: builtinKind, Name: "int64"}
	case model.Number:
		return &ir.Type{Kind: builtinKind, Name: "float64"}
	case model.Boolean:
		return &ir.Type{Kind: builtinKind, Name: "bool"}
	}
	return nil
}

// builtins are the builtin types by name.
var builtins = map[string]ir.Builtin{"string": ir.String, "int64": ir.Int64, "float64": ir.Float64, "bool": ir.Bool}

// builtinTypeOf is the builtin type t is: a builtinKind's, or an externalKind's that is a
// predeclared one.
func builtinTypeOf(t *ir.Type) ir.Builtin {
	if t.Kind == builtinKind || t.Kind == externalKind && t.Path == "" {
		return builtins[t.Name]
	}
	return ir.NotBuiltin
}

// shapeOf is the shape of an externalKind's type: a map or a slice, where the configuration
// says so.
func shapeOf(t *ir.Type) ir.Shape {
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
