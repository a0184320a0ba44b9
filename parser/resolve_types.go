package parser

// Type expressions resolved into model types: keywords, literals, unions, arrays and references.

import (
	"strings"

	"github.com/mcpgen/mcpgen/model"
)

// typ resolves a type expression. number says whether `number` means a float (@TJS-type number)
// rather than an integer.
func (r *resolver) typ(t Type, number bool) (*model.Type, error) {
	res, err := r.typ1(t, number)
	if err != nil {
		return nil, err
	}
	res.Pos = t.Position()
	return res, nil
}

// keywordWhat names the predefined types that have no Go mapping.
var keywordWhat = map[string]string{
	"never": "the type never", "undefined": "the type undefined", "void": "the type void",
	"symbol": "the type symbol", "bigint": "the type bigint", "this": "the type this",
}

func (r *resolver) typ1(t Type, number bool) (*model.Type, error) {
	switch t := t.(type) {
	case *Unmapped:
		return nil, r.unmapped(t)
	case *Keyword:
		if what, ok := keywordWhat[t.Name]; ok {
			return nil, r.unmapped(&Unmapped{Pos: t.Pos, What: what})
		}
		return keywordType(t.Name, number), nil
	case *Literal:
		return &model.Type{Kind: model.Literal, Literal: t.Value}, nil
	case *Typeof:
		if strings.Contains(t.Name, ".") {
			return nil, r.unmapped(&Unmapped{Pos: t.Pos, What: "a typeof of a qualified name"})
		}
		c, ok := r.consts[t.Name]
		if !ok {
			return nil, t.Pos.Errorf("found unknown constant %s, expected a declared const", model.Shorten(t.Name))
		}
		if c.Value == nil {
			return nil, r.unmapped(c.Unmapped)
		}
		return &model.Type{Kind: model.Literal, Literal: c.Value.Value}, nil
	case *ArrayOf:
		elem, err := r.typ(t.Elem, number)
		return &model.Type{Kind: model.Array, Elem: elem}, err
	case *Union:
		// `never` and `undefined` add nothing to a union (an optional member is already
		// absent or present).
		var variants []Type
		for _, v := range t.Types {
			if !absent(v) {
				variants = append(variants, v)
			}
		}
		switch len(variants) {
		case 0:
			return nil, r.unmapped(&Unmapped{Pos: t.Pos, What: "a union of never and undefined only"})
		case 1:
			return r.typ1(variants[0], number)
		}
		u := &model.UnionType{}
		for _, v := range variants {
			vt, err := r.typ(v, number)
			if err != nil {
				return nil, err
			}
			u.Variants = append(u.Variants, vt)
		}
		return &model.Type{Kind: model.Union, Union: u}, nil
	case *Intersection:
		if bt, ok, err := r.branded(t, number); ok || err != nil {
			return bt, err
		}
		obj := &model.ObjectType{}
		for _, part := range t.Types {
			o, err := r.objectOf(part)
			if err != nil {
				return nil, err
			}
			mergeIntersection(obj, o)
		}
		return model.ObjectOrMap(r.dropNever(obj), model.Pos{}), nil
	case *ObjectLit:
		b, err := r.body(t.Body)
		if err == nil && b.Kind == model.Object {
			r.dropNever(b.Object)
		}
		return b, err
	case *TypeRef:
		return r.typeRef(t, number)
	}
	return nil, t.Position().Errorf("found unsupported type %T, expected a type of the subset", t)
}

func keywordType(name string, number bool) *model.Type {
	switch name {
	case "string":
		return &model.Type{Kind: model.String}
	case "number":
		if number {
			return &model.Type{Kind: model.Number}
		}
		return &model.Type{Kind: model.Integer}
	case "boolean":
		return &model.Type{Kind: model.Boolean}
	case "null":
		return &model.Type{Kind: model.Null}
	case "object":
		return &model.Type{Kind: model.Object, Object: &model.ObjectType{}}
	}
	return &model.Type{Kind: model.Any} // unknown, any
}

// deref resolves the declarations that t refers to, through aliases, to the first type that is
// not a Ref.
func (r *resolver) deref(t *model.Type) (*model.Type, error) {
	for n := 0; t.Kind == model.Ref; n++ {
		if n > model.MaxDepth {
			return nil, t.Pos.Errorf("found a chain of more than %d aliases, expected at most %d", model.MaxDepth, model.MaxDepth)
		}
		dt, err := r.declType(t.Ref, t.Pos)
		if err != nil {
			return nil, err
		}
		t = dt
	}
	return t, nil
}

// builtinArity gives the number of type arguments of the built-in generics that map to Go.
var builtinArity = map[string]int{
	"Array": 1, "ReadonlyArray": 1, "Record": 2, "Omit": 2, "Pick": 2, "Partial": 1, "Required": 1, "Readonly": 1,
}

// libGenerics are generic types of TypeScript's standard library that have no Go mapping.
var libGenerics = map[string]bool{
	"Exclude": true, "Extract": true, "NonNullable": true, "ReturnType": true, "Parameters": true,
	"ConstructorParameters": true, "InstanceType": true, "Awaited": true, "Promise": true,
	"PromiseLike": true, "Map": true, "Set": true, "WeakMap": true, "WeakSet": true,
	"ReadonlyMap": true, "ReadonlySet": true, "Uppercase": true, "Lowercase": true,
	"Capitalize": true, "Uncapitalize": true, "ThisParameterType": true, "OmitThisParameter": true,
	"ThisType": true, "NoInfer": true, "Iterable": true, "Iterator": true, "AsyncIterable": true,
	"ArrayLike": true,
}

// typeRef resolves a reference: a built-in generic or a declaration.
func (r *resolver) typeRef(t *TypeRef, number bool) (*model.Type, error) {
	if strings.Contains(t.Name, ".") {
		return nil, r.unmapped(&Unmapped{Pos: t.Pos, What: "a qualified type name"})
	}
	if _, declared := r.decls[t.Name]; !declared && t.Name == "Date" && len(t.Args) == 0 {
		// A Date travels as its JSON form, an ISO 8601 string (Date.prototype.toJSON): a string
		// of the date-time format, kept as written.
		s := &model.Type{Kind: model.String}
		r.brands[s] = model.Constraints{Format: "date-time"}
		return s, nil
	}
	n, builtin := builtinArity[t.Name]
	if _, declared := r.decls[t.Name]; declared || !builtin {
		if len(t.Args) > 0 {
			if !declared && libGenerics[t.Name] {
				return nil, r.unmapped(&Unmapped{Pos: t.Pos, What: "the generic type " + t.Name})
			}
			if declared {
				return nil, t.Pos.Errorf("found type arguments to %s, expected none", model.Shorten(t.Name))
			}
		}
		return r.ref(t)
	}
	if len(t.Args) != n {
		return nil, t.Pos.Errorf("found %s with %d type arguments, expected %d", t.Name, len(t.Args), n)
	}
	switch t.Name {
	case "Array", "ReadonlyArray":
		elem, err := r.typ(t.Args[0], number)
		return &model.Type{Kind: model.Array, Elem: elem}, err
	case "Readonly":
		return r.typ1(t.Args[0], number)
	case "Record":
		return r.record(t, number)
	}
	obj, err := r.objectOf(t)
	if err != nil {
		return nil, err
	}
	return model.ObjectOrMap(obj, t.Pos), nil
}

// ref resolves a reference to a declaration without expanding it.
func (r *resolver) ref(t *TypeRef) (*model.Type, error) {
	if _, ok := r.decls[t.Name]; !ok {
		if _, ok := r.consts[t.Name]; ok {
			name := model.Shorten(t.Name)
			return nil, t.Pos.Errorf("found constant %s, expected a type (use typeof %s)", name, name)
		}
		return nil, t.Pos.Errorf("found unknown type %s, expected a declared type", model.Shorten(t.Name))
	}
	return &model.Type{Kind: model.Ref, Ref: t.Name, Pos: t.Pos}, nil
}

// cloneType copies a resolved type deeply, so that inherited members are not shared between
// declarations.
func cloneType(t *model.Type) *model.Type {
	if t == nil {
		return nil
	}
	c := *t
	c.Elem = cloneType(t.Elem)
	if t.Object != nil {
		o := &model.ObjectType{Rest: cloneType(t.Object.Rest)}
		for _, m := range t.Object.Members {
			mc := *m
			mc.Type = cloneType(m.Type)
			o.Members = append(o.Members, &mc)
		}
		c.Object = o
	}
	if t.Union != nil {
		u := &model.UnionType{}
		for _, v := range t.Union.Variants {
			u.Variants = append(u.Variants, cloneType(v))
		}
		c.Union = u
	}
	return &c
}
