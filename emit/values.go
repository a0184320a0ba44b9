package emit

import (
	"fmt"

	"github.com/dave/jennifer/jen"
)

// This file writes the statements that encode and decode one value of a goType. The generated
// code calls the runtime (wire.go) directly: e is the *encoder, d the *decoder, and decoding
// statements assign err, which the enclosing function or closure declares.

// local names a local variable of the generated code by nesting depth: "x", "x1", "x2", ...
func local(name string, depth int) string {
	if depth == 0 {
		return name
	}
	return fmt.Sprintf("%s%d", name, depth)
}

// encodeValue returns statements that encode src, of type t.
func encodeValue(src jen.Code, t *goType, depth int) []jen.Code {
	switch t.kind {
	case builtinKind:
		return []jen.Code{jen.Id("e").Dot(codecSuffix(t.name)).Call(src)}
	case rawKind:
		return []jen.Code{jen.Id("e").Dot("raw").Call(src)}
	case structKind, enumKind, namedKind:
		return []jen.Code{jen.Add(src).Dot("encode").Call(jen.Id("e"))}
	case unionKind:
		return []jen.Code{jen.Id("encode"+t.name).Call(jen.Id("e"), src)}
	case externalKind:
		return []jen.Code{encodeExternalValue(src, t)}
	case sliceKind:
		i := local("i", depth)
		return []jen.Code{
			jen.Id("e").Dot("beginArray").Call(),
			jen.For(jen.Id(i).Op(":=").Range().Add(src)).Block(
				append([]jen.Code{jen.Id("e").Dot("elem").Call()},
					encodeValue(jen.Add(src).Index(jen.Id(i)), t.elem, depth+1)...)...,
			),
			jen.Id("e").Dot("endArray").Call(),
		}
	case mapKind:
		return []jen.Code{
			jen.Id("e").Dot("beginObject").Call(),
			encodeMembers(src, t.elem, depth),
			jen.Id("e").Dot("endObject").Call(),
		}
	case nullableKind:
		return []jen.Code{
			jen.If(jen.Add(src).Op("==").Nil()).Block(
				jen.Id("e").Dot("null").Call(),
			).Else().Block(encodeValue(deref(src, t.elem), t.elem, depth)...),
		}
	}
	return nil
}

// encodeMembers returns a loop that encodes the entries of the map src as members of the current
// object, sorted by name.
func encodeMembers(src jen.Code, elem *goType, depth int) jen.Code {
	k := local("k", depth)
	var body []jen.Code
	body = append(body, jen.Id("e").Dot("key").Call(jen.Id(k)))
	if elem.kind == structKind || elem.kind == externalKind && !elem.hasNil() {
		// A map value is not addressable; the encode method has a pointer receiver.
		x := local("x", depth)
		body = append(body, jen.Id(x).Op(":=").Add(src).Index(jen.Id(k)))
		body = append(body, encodeValue(jen.Id(x), elem, depth+1)...)
	} else {
		body = append(body, encodeValue(jen.Add(src).Index(jen.Id(k)), elem, depth+1)...)
	}
	keys := jen.Qual("slices", "Sorted").Call(jen.Qual("maps", "Keys").Call(src))
	return jen.For(jen.List(jen.Id("_"), jen.Id(k)).Op(":=").Range().Add(keys)).Block(body...)
}

// deref is the value of a pointer to t: builtins need the *, named types have methods that Go
// calls through the pointer.
func deref(src jen.Code, t *goType) jen.Code {
	if t.kind == builtinKind {
		return jen.Op("*").Add(src)
	}
	return src
}

// decodeValue returns statements that decode the next value into dst, of type t, assigning err.
func decodeValue(dst jen.Code, t *goType, depth int) []jen.Code {
	switch t.kind {
	case builtinKind:
		return []jen.Code{jen.List(dst, jen.Err()).Op("=").Id("d").Dot(codecSuffix(t.name)).Call()}
	case rawKind:
		return []jen.Code{jen.List(dst, jen.Err()).Op("=").Id("d").Dot("raw").Call()}
	case structKind, enumKind, namedKind:
		return []jen.Code{jen.Err().Op("=").Add(decodeCall(dst, t))}
	case unionKind:
		return []jen.Code{jen.List(dst, jen.Err()).Op("=").Id("decode" + t.name).Call(jen.Id("d"))}
	case externalKind:
		return []jen.Code{decodeExternalValue(dst)}
	case sliceKind, mapKind:
		return []jen.Code{
			jen.Add(dst).Op("=").Add(t.code()).Values(),
			decodeElems(dst, t, depth),
		}
	case nullableKind:
		null := local("null", depth)
		var inner []jen.Code
		if t.elem.hasNil() {
			inner = decodeValue(dst, t.elem, depth)
		} else {
			inner = append([]jen.Code{jen.Add(dst).Op("=").New(t.elem.code())}, decodeValue(deref(dst, t.elem), t.elem, depth)...)
		}
		return []jen.Code{
			jen.Var().Id(null).Bool(),
			jen.If(jen.List(jen.Id(null), jen.Err()).Op("=").Id("d").Dot("null").Call(), jen.Err().Op("==").Nil().Op("&&").Op("!").Id(null)).Block(inner...),
		}
	}
	return nil
}

// decodeElems returns a statement that decodes the elements of an array or the members of an
// object into dst, an empty slice or map of type t, assigning err.
func decodeElems(dst jen.Code, t *goType, depth int) jen.Code {
	var param jen.Code
	var body []jen.Code
	if t.kind == sliceKind {
		i := local("i", depth)
		param = jen.Id(i).Int()
		elem := jen.Add(dst).Index(jen.Id(i))
		body = append(body, jen.Add(dst).Op("=").Append(dst, zero(t.elem)))
		if call := decodeCall(elem, t.elem); call != nil {
			body = append(body, jen.Return(call))
		} else {
			body = append(append(body, decodeValue(elem, t.elem, depth+1)...), jen.Return(jen.Err()))
		}
	} else {
		key := local("key", depth)
		param = jen.Id(key).String()
		body = append(decodeEntry(dst, jen.Id(key), t.elem, depth+1), jen.Return(jen.Err()))
	}
	reader := "object"
	if t.kind == sliceKind {
		reader = "array"
	}
	return jen.Err().Op("=").Id("d").Dot(reader).Call(jen.Func().Params(param).Params(jen.Err().Error()).Block(body...))
}

// decodeCall is the call that decodes into dst and returns the error, for the types that decode
// themselves, or nil.
func decodeCall(dst jen.Code, t *goType) jen.Code {
	switch t.kind {
	case structKind, enumKind, namedKind:
		return jen.Add(dst).Dot("decode").Call(jen.Id("d"))
	}
	return nil
}

// decodeEntry returns statements that decode the next value into m[key], assigning err. Values
// whose decoding needs an address go through a local variable.
func decodeEntry(m, key jen.Code, elem *goType, depth int) []jen.Code {
	switch elem.kind {
	case builtinKind, rawKind, unionKind:
		return decodeValue(jen.Add(m).Index(key), elem, depth)
	}
	x := local("x", depth)
	var stmts []jen.Code
	switch elem.kind {
	case sliceKind, mapKind:
		stmts = []jen.Code{jen.Id(x).Op(":=").Add(elem.code()).Values(), decodeElems(jen.Id(x), elem, depth)}
	default:
		stmts = append([]jen.Code{jen.Var().Id(x).Add(elem.code())}, decodeValue(jen.Id(x), elem, depth)...)
	}
	return append(stmts, jen.Add(m).Index(key).Op("=").Id(x))
}

// zero is the zero value of t, as appended to a slice before decoding into it.
func zero(t *goType) jen.Code {
	switch t.kind {
	case builtinKind:
		switch t.name {
		case "string":
			return jen.Lit("")
		case "bool":
			return jen.False()
		}
		return jen.Lit(0)
	case enumKind:
		return jen.Lit("")
	case structKind:
		return t.code().Values()
	case externalKind:
		if !t.hasNil() {
			return jen.Op("*").New(t.code())
		}
	}
	return jen.Nil()
}
