package render

import (
	"github.com/dave/jennifer/jen"
	"github.com/mcpgen/mcpgen/emit/internal/ir"
)

// This file writes the code for values of substituted types (Config.Substitutes, goType
// ir.ExternalKind). The contract of a substitute is encoding/json's: json.Marshal and
// json.Unmarshal encode and decode it (through its MarshalJSON and UnmarshalJSON, if it has
// them), and a method Validate() error on the value or its pointer, if it has one, is called by
// the enclosing type's Validate. The generated code calls three helpers of the runtime
// (templates/wire/wire_external.go).

// The runtime's helpers that the code of substituted types calls.
const (
	encodeExternal   = "encodeExternal"
	decodeExternal   = "decodeExternal"
	validateExternal = "validateExternal"
	emptyExternal    = ir.EmptyExternal
)

// external returns the Go type of a value of a substituted type as the helpers take it: a
// pointer to src for a type without nil (so that methods with pointer receivers are found), src
// itself for a pointer or an interface.
func external(src jen.Code, t *ir.Type) jen.Code {
	if t.HasNil {
		return src
	}
	return jen.Op("&").Add(src)
}

// encodeExternalValue is the statement that encodes src, of the substituted type t.
func encodeExternalValue(src jen.Code, t *ir.Type) jen.Code {
	return jen.Id(encodeExternal).Call(jen.Id("e"), external(src, t))
}

// decodeExternalValue is the statement that decodes the next value into dst, of the
// substituted type t, assigning err.
func decodeExternalValue(dst jen.Code) jen.Code {
	return jen.Err().Op("=").Id(decodeExternal).Call(jen.Id("d"), jen.Op("&").Add(dst))
}

// externalField returns the statements that encode (or, with decode set, decode) a field of a
// substituted type: an optional field of a type without nil is a pointer to it, which the
// helpers take as it is.
func externalField(fd *ir.Field, decode bool) []jen.Code {
	src := jen.Id("v").Dot(fd.Name)
	if decode {
		if fd.Pointer {
			return []jen.Code{
				jen.Add(src).Op("=").New(code(fd.Type)),
				jen.Err().Op("=").Id(decodeExternal).Call(jen.Id("d"), src),
			}
		}
		return []jen.Code{decodeExternalValue(src)}
	}
	body := []jen.Code{jen.Id("e").Dot("key").Call(jen.Lit(fd.JSONName))}
	switch {
	case fd.Pointer:
		body = append(body, jen.Id(encodeExternal).Call(jen.Id("e"), src))
	case !fd.Optional && !fd.NilNull && fd.Type.Shape != ir.OtherShape && !fd.Type.Pointer:
		// A required member is always encoded, a nil map as {} and a nil slice as [] (where
		// encoding/json writes null), as for generated maps and slices.
		empty := []jen.Code{jen.Id("e").Dot("beginObject").Call(), jen.Id("e").Dot("endObject").Call()}
		switch {
		case fd.Type.Bytes:
			empty = []jen.Code{jen.Id("e").Dot("str").Call(jen.Lit(""))} // base64 of nothing
		case fd.Type.Shape == ir.SliceShape:
			empty = []jen.Code{jen.Id("e").Dot("beginArray").Call(), jen.Id("e").Dot("endArray").Call()}
		}
		body = append(body, jen.If(jen.Add(src).Op("==").Nil()).Block(empty...).Else().Block(encodeExternalValue(src, fd.Type)))
	default:
		body = append(body, encodeExternalValue(src, fd.Type))
	}
	if fd.Optional && !fd.Always {
		return []jen.Code{jen.If(present(fd)).Block(body...)}
	}
	return body
}

// validateExternalField returns the statements that check a field of a substituted type, with
// its member on the path: a nil required pointer is reported (unless it stands for a null the
// member admits), a value is checked by its Validate.
func validateExternalField(fd *ir.Field) []jen.Code {
	src := jen.Id("v").Dot(fd.Name)
	in := func(check ...jen.Code) []jen.Code {
		return append(append([]jen.Code{jen.Id("c").Dot("in").Call(jen.Lit(fd.JSONName))}, check...), jen.Id("c").Dot("out").Call())
	}
	switch {
	case fd.Always:
		return in(jen.Id(validateExternal).Call(jen.Id("c"), external(src, fd.Type)))
	case fd.OmitEmpty || fd.OmitZero:
		return []jen.Code{jen.If(present(fd)).Block(in(jen.Id(validateExternal).Call(jen.Id("c"), external(src, fd.Type)))...)}
	case fd.Pointer, fd.Type.HasNil && (fd.Optional || fd.NilIsNull):
		return []jen.Code{jen.If(jen.Add(src).Op("!=").Nil()).Block(in(jen.Id(validateExternal).Call(jen.Id("c"), src))...)}
	case fd.Type.HasNil:
		return in(jen.If(jen.Add(src).Op("==").Nil()).Block(
			jen.Id("c").Dot("report").Call(jen.Lit("required member is nil")),
		).Else().Block(jen.Id(validateExternal).Call(jen.Id("c"), src)))
	}
	return in(jen.Id(validateExternal).Call(jen.Id("c"), external(src, fd.Type)))
}

// validateExternalValue is the statement that checks src, a value of the substituted type t in
// an array, map or alias.
func validateExternalValue(src jen.Code, t *ir.Type) jen.Code {
	return jen.Id(validateExternal).Call(jen.Id("c"), external(src, t))
}
