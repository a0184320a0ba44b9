package emit

import (
	"encoding/json"
	"fmt"

	"github.com/dave/jennifer/jen"
)

// This file writes the statements that encode and decode one value of a goType. The generated
// code calls the runtime (wire.go, wire_encode.go) directly: e is the *encoder, d the *decoder,
// and decoding statements assign err, which the enclosing function declares. Arrays and maps are
// read by the runtime's generic decodeSlice and decodeMap, given a reader of their elements.

// local names a local variable of the generated code by nesting depth: "x", "x1", "x2", ...
func local(name string, depth int) string {
	if depth == 0 {
		return name
	}
	return fmt.Sprintf("%s%d", name, depth)
}

// quotedMember is the JSON of a member name and its colon, as the encoder writes it (the escaping
// of encoding/json, which the encoder's str follows): the constant the generated code passes to
// e.member.
func quotedMember(name string) string {
	b, err := json.Marshal(name)
	if err != nil {
		panic(err) // a string always encodes
	}
	return string(b) + ":"
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
		return []jen.Code{jen.Id(t.union.funcs.encode).Call(jen.Id("e"), src)}
	case externalKind:
		return []jen.Code{encodeExternalValue(src, t)}
	case sliceKind:
		i := local("i", depth)
		if t.single {
			// One element is written as the single value.
			plain := *t
			plain.single = false
			return []jen.Code{jen.If(jen.Len(src).Op("==").Lit(1)).Block(
				encodeValue(jen.Add(src).Index(jen.Lit(0)), t.elem, depth+1)...,
			).Else().Block(encodeValue(src, &plain, depth)...)}
		}
		return []jen.Code{
			jen.Id("e").Dot("beginArray").Call(),
			jen.For(jen.Id(i).Op(":=").Range().Add(src)).Block(
				append([]jen.Code{jen.Id("e").Dot("elem").Call(jen.Id(i))},
					encodeValue(jen.Add(src).Index(jen.Id(i)), t.elem, depth+1)...)...,
			),
			jen.Id("e").Dot("endArray").Call(),
		}
	case mapKind:
		if t.elem.kind == rawKind {
			return []jen.Code{jen.Id("e").Dot("rawMap").Call(src)}
		}
		return []jen.Code{
			jen.Id("e").Dot("beginObject").Call(),
			encodeMembers(src, t.elem, depth),
			jen.Id("e").Dot("endObject").Call(),
		}
	case nullableKind, pointerKind:
		return []jen.Code{
			jen.If(jen.Add(src).Op("==").Nil()).Block(
				jen.Id("e").Dot("null").Call(),
			).Else().Block(encodeValue(deref(src, t.elem), t.elem, depth)...),
		}
	}
	return nil
}

// encodeMembers returns a block that encodes the entries of the map src as members of the
// current object, sorted by name.
func encodeMembers(src jen.Code, elem *goType, depth int) jen.Code {
	k, keys, mark := local("k", depth), local("keys", depth), local("mark", depth)
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
	return jen.Block(
		jen.List(jen.Id(keys), jen.Id(mark)).Op(":=").Id("sortedKeys").Call(jen.Id("e"), src),
		jen.For(jen.List(jen.Id("_"), jen.Id(k)).Op(":=").Range().Id(keys)).Block(body...),
		jen.Id("e").Dot("releaseKeys").Call(jen.Id(mark)),
	)
}

// deref is the value of a pointer to t: builtins need the *, named types have methods that Go
// calls through the pointer.
func deref(src jen.Code, t *goType) jen.Code {
	if t.kind == builtinKind {
		return jen.Op("*").Add(src)
	}
	return src
}

// selfDecoding reports whether values of t decode themselves: `err = x.decode(d)`.
func selfDecoding(t *goType) bool {
	switch t.kind {
	case structKind, enumKind, namedKind:
		return true
	}
	return false
}

// decodeValue returns statements that decode the next value into dst, of type t, assigning err.
func decodeValue(dst jen.Code, t *goType, depth int) []jen.Code {
	if t.kind == sliceKind && t.single {
		// An array, or a single value: a slice of one.
		plain := *t
		plain.single = false
		return []jen.Code{jen.If(jen.Id("d").Dot("peek").Call().Op("==").LitRune('[')).Block(
			decodeValue(dst, &plain, depth)...,
		).Else().Block(append([]jen.Code{jen.Add(dst).Op("=").Make(t.code(), jen.Lit(1))},
			decodeValue(jen.Add(dst).Index(jen.Lit(0)), t.elem, depth+1)...)...)}
	}
	switch t.kind {
	case builtinKind, rawKind, unionKind, sliceKind, mapKind:
		return []jen.Code{jen.List(dst, jen.Err()).Op("=").Add(readCall(t, depth))}
	case structKind, enumKind, namedKind:
		return []jen.Code{jen.Err().Op("=").Add(dst).Dot("decode").Call(jen.Id("d"))}
	case externalKind:
		return []jen.Code{decodeExternalValue(dst)}
	case nullableKind, pointerKind:
		null := local("null", depth)
		var inner []jen.Code
		if t.elem.hasNil() {
			inner = decodeValue(dst, t.elem, depth)
		} else {
			inner = append([]jen.Code{jen.Add(dst).Op("=").Add(newValue(t.elem))}, decodeValue(deref(dst, t.elem), t.elem, depth)...)
		}
		return []jen.Code{
			jen.Var().Id(null).Bool(),
			jen.If(jen.List(jen.Id(null), jen.Err()).Op("=").Id("d").Dot("null").Call(), jen.Err().Op("==").Nil().Op("&&").Op("!").Id(null)).Block(inner...),
		}
	}
	return nil
}

// readCall is a call that reads a value of t (not self-decoding, not nullable) and returns it with
// the error.
func readCall(t *goType, depth int) jen.Code {
	switch t.kind {
	case builtinKind:
		return jen.Id("d").Dot(codecSuffix(t.name)).Call()
	case rawKind:
		return jen.Id("d").Dot("raw").Call()
	case unionKind:
		return jen.Id(t.union.funcs.decode).Call(jen.Id("d"))
	case sliceKind:
		if selfDecoding(t.elem) {
			return jen.Id("decodeSliceOf").Types(t.elem.code()).Call(jen.Id("d"))
		}
		return jen.Id("decodeSlice").Call(jen.Id("d"), reader(t.elem, depth+1))
	case mapKind:
		switch {
		case t.elem.kind == rawKind:
			return jen.Id("d").Dot("rawMap").Call()
		case selfDecoding(t.elem):
			return jen.Id("decodeMapOf").Types(t.elem.code()).Call(jen.Id("d"))
		}
		return jen.Id("decodeMap").Call(jen.Id("d"), reader(t.elem, depth+1))
	}
	panic(fmt.Sprintf("emit: no reader call for kind %d", t.kind))
}

// reader is a function `func(*decoder) (T, error)` that reads a value of t.
func reader(t *goType, depth int) jen.Code {
	switch t.kind {
	case builtinKind:
		return jen.Parens(jen.Op("*").Id("decoder")).Dot(codecSuffix(t.name))
	case rawKind:
		return jen.Parens(jen.Op("*").Id("decoder")).Dot("raw")
	case unionKind:
		return jen.Id(t.union.funcs.decode)
	case structKind, enumKind, namedKind:
		return jen.Id("decodeInto").Types(t.code())
	case externalKind:
		return jen.Id("readExternal").Types(t.code())
	}
	x := local("x", depth)
	return jen.Func().Params(jen.Id("d").Op("*").Id("decoder")).Params(jen.Id(x).Add(t.code()), jen.Err().Error()).Block(
		append(decodeValue(jen.Id(x), t, depth), jen.Return(jen.Id(x), jen.Err()))...,
	)
}

// decodeEntry returns statements that decode the value of member name into the map m (an Extra
// field, nil until its first member), assigning err.
func decodeEntry(m jen.Code, elem *goType) []jen.Code {
	if elem.kind == rawKind {
		return []jen.Code{jen.Err().Op("=").Id("d").Dot("extraRaw").Call(jen.Op("&").Add(m), jen.Id("name"))}
	}
	return []jen.Code{jen.Err().Op("=").Id("decodeEntry").Call(jen.Id("d"), jen.Op("&").Add(m), jen.Id("name"), reader(elem, 1))}
}

// slabs are the decoder's slabs of builtin values, by Go type: pointers to optional scalars are
// taken from them (alloc), a chunk at a time, rather than allocated one by one.
var slabs = map[string]string{"string": "strs", "bool": "bools", "int64": "ints", "float64": "floats"}

// newValue is an expression of a pointer to a new zero value of t, in the decoding code.
func newValue(t *goType) jen.Code {
	if slab, ok := slabs[t.name]; ok && t.kind == builtinKind {
		return jen.Id("alloc").Call(jen.Op("&").Id("d").Dot(slab))
	}
	return jen.New(t.code())
}
