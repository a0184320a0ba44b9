package render

import (
	"encoding/json"
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/emit/internal/ir"
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
func encodeValue(src jen.Code, t *ir.Type, depth int) []jen.Code {
	switch t.Kind {
	case ir.BuiltinKind:
		return []jen.Code{jen.Id("e").Dot(codecSuffix(t.Builtin)).Call(src)}
	case ir.RawKind:
		return []jen.Code{jen.Id("e").Dot("raw").Call(src)}
	case ir.StructKind, ir.EnumKind, ir.NamedKind:
		return []jen.Code{jen.Add(src).Dot("encode").Call(jen.Id("e"))}
	case ir.UnionKind:
		return []jen.Code{jen.Id(t.Union.Funcs.Encode).Call(jen.Id("e"), src)}
	case ir.ExternalKind:
		return []jen.Code{encodeExternalValue(src, t)}
	case ir.SliceKind:
		i := local("i", depth)
		if t.Single {
			// One element is written as the single value.
			plain := *t
			plain.Single = false
			return []jen.Code{jen.If(jen.Len(src).Op("==").Lit(1)).Block(
				encodeValue(jen.Add(src).Index(jen.Lit(0)), t.Elem, depth+1)...,
			).Else().Block(encodeValue(src, &plain, depth)...)}
		}
		return []jen.Code{
			jen.Id("e").Dot("beginArray").Call(),
			jen.For(jen.Id(i).Op(":=").Range().Add(src)).Block(
				append([]jen.Code{jen.Id("e").Dot("elem").Call(jen.Id(i))},
					encodeValue(jen.Add(src).Index(jen.Id(i)), t.Elem, depth+1)...)...,
			),
			jen.Id("e").Dot("endArray").Call(),
		}
	case ir.MapKind:
		if t.Elem.Kind == ir.RawKind {
			return []jen.Code{jen.Id("e").Dot("rawMap").Call(src)}
		}
		return []jen.Code{
			jen.Id("e").Dot("beginObject").Call(),
			encodeMembers(src, t.Elem, depth),
			jen.Id("e").Dot("endObject").Call(),
		}
	case ir.NullableKind, ir.PointerKind:
		return []jen.Code{
			jen.If(jen.Add(src).Op("==").Nil()).Block(
				jen.Id("e").Dot("null").Call(),
			).Else().Block(encodeValue(deref(src, t.Elem), t.Elem, depth)...),
		}
	}
	return nil
}

// encodeMembers returns a block that encodes the entries of the map src as members of the
// current object, sorted by name.
func encodeMembers(src jen.Code, elem *ir.Type, depth int) jen.Code {
	k, keys, mark := local("k", depth), local("keys", depth), local("mark", depth)
	var body []jen.Code
	body = append(body, jen.Id("e").Dot("key").Call(jen.Id(k)))
	if elem.Kind == ir.StructKind || elem.Kind == ir.ExternalKind && !elem.HasNil {
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
func deref(src jen.Code, t *ir.Type) jen.Code {
	if t.Kind == ir.BuiltinKind {
		return jen.Op("*").Add(src)
	}
	return src
}

// selfDecoding reports whether values of t decode themselves: `err = x.decode(d)`.
func selfDecoding(t *ir.Type) bool {
	switch t.Kind {
	case ir.StructKind, ir.EnumKind, ir.NamedKind:
		return true
	}
	return false
}

// decodeValue returns statements that decode the next value into dst, of type t, assigning err.
func decodeValue(dst jen.Code, t *ir.Type, depth int) []jen.Code {
	if t.Kind == ir.SliceKind && t.Single {
		// An array, or a single value: a slice of one.
		plain := *t
		plain.Single = false
		return []jen.Code{jen.If(jen.Id("d").Dot("peek").Call().Op("==").LitRune('[')).Block(
			decodeValue(dst, &plain, depth)...,
		).Else().Block(append([]jen.Code{jen.Add(dst).Op("=").Make(code(t), jen.Lit(1))},
			decodeValue(jen.Add(dst).Index(jen.Lit(0)), t.Elem, depth+1)...)...)}
	}
	switch t.Kind {
	case ir.BuiltinKind, ir.RawKind, ir.UnionKind, ir.SliceKind, ir.MapKind:
		return []jen.Code{jen.List(dst, jen.Err()).Op("=").Add(readCall(t, depth))}
	case ir.StructKind, ir.EnumKind, ir.NamedKind:
		return []jen.Code{jen.Err().Op("=").Add(dst).Dot("decode").Call(jen.Id("d"))}
	case ir.ExternalKind:
		return []jen.Code{decodeExternalValue(dst)}
	case ir.NullableKind, ir.PointerKind:
		null := local("null", depth)
		var inner []jen.Code
		if t.Elem.HasNil {
			inner = decodeValue(dst, t.Elem, depth)
		} else {
			inner = append([]jen.Code{jen.Add(dst).Op("=").Add(newValue(t.Elem))}, decodeValue(deref(dst, t.Elem), t.Elem, depth)...)
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
func readCall(t *ir.Type, depth int) jen.Code {
	switch t.Kind {
	case ir.BuiltinKind:
		return jen.Id("d").Dot(codecSuffix(t.Builtin)).Call()
	case ir.RawKind:
		return jen.Id("d").Dot("raw").Call()
	case ir.UnionKind:
		return jen.Id(t.Union.Funcs.Decode).Call(jen.Id("d"))
	case ir.SliceKind:
		if selfDecoding(t.Elem) {
			return jen.Id("decodeSliceOf").Types(code(t.Elem)).Call(jen.Id("d"))
		}
		return jen.Id("decodeSlice").Call(jen.Id("d"), reader(t.Elem, depth+1))
	case ir.MapKind:
		switch {
		case t.Elem.Kind == ir.RawKind:
			return jen.Id("d").Dot("rawMap").Call()
		case selfDecoding(t.Elem):
			return jen.Id("decodeMapOf").Types(code(t.Elem)).Call(jen.Id("d"))
		}
		return jen.Id("decodeMap").Call(jen.Id("d"), reader(t.Elem, depth+1))
	}
	panic(fmt.Sprintf("emit: no reader call for kind %d", t.Kind))
}

// reader is a function `func(*decoder) (T, error)` that reads a value of t.
func reader(t *ir.Type, depth int) jen.Code {
	switch t.Kind {
	case ir.BuiltinKind:
		return jen.Parens(jen.Op("*").Id("decoder")).Dot(codecSuffix(t.Builtin))
	case ir.RawKind:
		return jen.Parens(jen.Op("*").Id("decoder")).Dot("raw")
	case ir.UnionKind:
		return jen.Id(t.Union.Funcs.Decode)
	case ir.StructKind, ir.EnumKind, ir.NamedKind:
		return jen.Id("decodeInto").Types(code(t))
	case ir.ExternalKind:
		return jen.Id("readExternal").Types(code(t))
	}
	x := local("x", depth)
	return jen.Func().Params(jen.Id("d").Op("*").Id("decoder")).Params(jen.Id(x).Add(code(t)), jen.Err().Error()).Block(
		append(decodeValue(jen.Id(x), t, depth), jen.Return(jen.Id(x), jen.Err()))...,
	)
}

// decodeEntry returns statements that decode the value of member name into the map m (an Extra
// field, nil until its first member), assigning err.
func decodeEntry(m jen.Code, elem *ir.Type) []jen.Code {
	if elem.Kind == ir.RawKind {
		return []jen.Code{jen.Err().Op("=").Id("d").Dot("extraRaw").Call(jen.Op("&").Add(m), jen.Id("name"))}
	}
	return []jen.Code{jen.Err().Op("=").Id("decodeEntry").Call(jen.Id("d"), jen.Op("&").Add(m), jen.Id("name"), reader(elem, 1))}
}

// slabs are the decoder's slabs of builtin values, by Go type: pointers to optional scalars are
// taken from them (alloc), a chunk at a time, rather than allocated one by one.
var slabs = map[string]string{"string": "strs", "bool": "bools", "int64": "ints", "float64": "floats"}

// newValue is an expression of a pointer to a new zero value of t, in the decoding code.
func newValue(t *ir.Type) jen.Code {
	if slab, ok := slabs[t.Name]; ok && t.Kind == ir.BuiltinKind {
		return jen.Id("alloc").Call(jen.Op("&").Id("d").Dot(slab))
	}
	return jen.New(code(t))
}
