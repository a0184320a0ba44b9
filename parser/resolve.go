package parser

import (
	"strings"

	"github.com/mcpgen/mcpgen/model"
)

// Load parses a schema.ts file and resolves it into a model. Schema.Version is left empty.
func Load(filename string, src []byte) (*model.Schema, error) {
	f, err := Parse(filename, src)
	if err != nil {
		return nil, err
	}
	return resolve(f)
}

// resolver turns the declarations of a File into model types, lazily and at most once each.
type resolver struct {
	decls  map[string]Decl // interfaces and aliases
	consts map[string]*Const
	types  map[string]*model.Type // resolved declarations
	active []string               // declarations being resolved, innermost last
}

func resolve(f *File) (*model.Schema, error) {
	r := &resolver{decls: map[string]Decl{}, consts: map[string]*Const{}, types: map[string]*model.Type{}}
	for _, d := range f.Decls {
		if r.declared(d.DeclName()) {
			return nil, d.Position().Errorf("found a second declaration of %s, expected one", d.DeclName())
		}
		if c, ok := d.(*Const); ok {
			r.consts[c.Name] = c
		} else {
			r.decls[d.DeclName()] = d
		}
	}
	s := &model.Schema{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *Const:
			s.Consts = append(s.Consts, &model.Const{Name: d.Name, Value: d.Value.Value, Doc: d.Doc.Doc, Pos: d.Pos})
		default:
			t, err := r.declType(d.DeclName(), d.Position())
			if err != nil {
				return nil, err
			}
			s.Decls = append(s.Decls, &model.Decl{Name: d.DeclName(), Type: t, Doc: declDoc(d), Pos: d.Position()})
		}
	}
	return s, nil
}

func declDoc(d Decl) model.Doc {
	if i, ok := d.(*Interface); ok {
		return i.Doc.Doc
	}
	return d.(*Alias).Doc.Doc
}

func (r *resolver) declared(name string) bool {
	_, isDecl := r.decls[name]
	_, isConst := r.consts[name]
	return isDecl || isConst
}

// enter marks name as being resolved; it fails on a cycle.
func (r *resolver) enter(name string, at model.Pos) error {
	for i, n := range r.active {
		if n == name {
			return at.Errorf("found a cycle %s → %s, expected none", strings.Join(r.active[i:], " → "), name)
		}
	}
	r.active = append(r.active, name)
	return nil
}

func (r *resolver) leave() { r.active = r.active[:len(r.active)-1] }

// declType returns the resolved type of the interface or alias name, referenced at pos.
func (r *resolver) declType(name string, at model.Pos) (*model.Type, error) {
	if t, ok := r.types[name]; ok {
		return t, nil
	}
	d, ok := r.decls[name]
	if !ok {
		return nil, at.Errorf("found unknown type %s, expected a declared type", name)
	}
	if err := r.enter(name, at); err != nil {
		return nil, err
	}
	defer r.leave()
	var t *model.Type
	var err error
	switch d := d.(type) {
	case *Interface:
		t, err = r.interfaceType(d)
	case *Alias:
		t, err = r.typ(d.Type, d.Doc.TJSType == "number")
	}
	if err != nil {
		return nil, err
	}
	r.types[name] = t
	return t, nil
}

// interfaceType flattens an interface into an Object (or a Map, for a lone index signature).
func (r *resolver) interfaceType(d *Interface) (*model.Type, error) {
	obj := &model.ObjectType{}
	for _, e := range d.Extends {
		o, err := r.objectOf(e)
		if err != nil {
			return nil, err
		}
		merge(obj, o)
	}
	own, err := r.body(d.Body)
	if err != nil {
		return nil, err
	}
	if own.Kind == model.Map {
		if len(d.Extends) == 0 {
			own.Pos = d.Pos
			return own, nil
		}
		own = &model.Type{Kind: model.Object, Object: &model.ObjectType{Rest: own.Elem}}
	}
	merge(obj, own.Object)
	return model.ObjectOrMap(obj, d.Pos), nil
}

// body resolves the members of an interface or object literal: a Map when it has only an
// index signature, an Object otherwise.
func (r *resolver) body(b Body) (*model.Type, error) {
	obj := &model.ObjectType{}
	for _, m := range b.Members {
		if obj.Member(m.Name) != nil {
			return nil, m.Pos.Errorf("found a second member %q, expected one", m.Name)
		}
		t, err := r.typ(m.Type, m.Doc.TJSType == "number")
		if err != nil {
			return nil, err
		}
		obj.Members = append(obj.Members, &model.Member{
			Name: m.Name, Type: t, Optional: m.Optional,
			Doc: m.Doc.Doc, Constraints: m.Doc.Constraints, Pos: m.Pos,
		})
	}
	if b.Index != nil {
		t, err := r.typ(b.Index.Value, false)
		if err != nil {
			return nil, err
		}
		if len(b.Members) == 0 {
			return &model.Type{Kind: model.Map, Elem: t}, nil
		}
		obj.Rest = t
	}
	return &model.Type{Kind: model.Object, Object: obj}, nil
}

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

func (r *resolver) typ1(t Type, number bool) (*model.Type, error) {
	switch t := t.(type) {
	case *Keyword:
		return keywordType(t.Name, number), nil
	case *Literal:
		return &model.Type{Kind: model.Literal, Literal: t.Value}, nil
	case *Typeof:
		c, ok := r.consts[t.Name]
		if !ok {
			return nil, t.Pos.Errorf("found unknown constant %s, expected a declared const", t.Name)
		}
		return &model.Type{Kind: model.Literal, Literal: c.Value.Value}, nil
	case *ArrayOf:
		elem, err := r.typ(t.Elem, number)
		return &model.Type{Kind: model.Array, Elem: elem}, err
	case *Union:
		u := &model.UnionType{}
		for _, v := range t.Types {
			vt, err := r.typ(v, number)
			if err != nil {
				return nil, err
			}
			u.Variants = append(u.Variants, vt)
		}
		return &model.Type{Kind: model.Union, Union: u}, nil
	case *Intersection:
		obj := &model.ObjectType{}
		for _, part := range t.Types {
			o, err := r.objectOf(part)
			if err != nil {
				return nil, err
			}
			mergeIntersection(obj, o)
		}
		return model.ObjectOrMap(obj, model.Pos{}), nil
	case *ObjectLit:
		return r.body(t.Body)
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

// builtinArity gives the number of type arguments of the built-in generics.
var builtinArity = map[string]int{"Array": 1, "Record": 2, "Omit": 2}

// typeRef resolves a reference: a built-in generic or a declaration.
func (r *resolver) typeRef(t *TypeRef, number bool) (*model.Type, error) {
	n, builtin := builtinArity[t.Name]
	if _, declared := r.decls[t.Name]; declared || !builtin {
		if len(t.Args) > 0 {
			return nil, t.Pos.Errorf("found type arguments to %s, expected none", t.Name)
		}
		return r.ref(t)
	}
	if len(t.Args) != n {
		return nil, t.Pos.Errorf("found %s with %d type arguments, expected %d", t.Name, len(t.Args), n)
	}
	switch t.Name {
	case "Array":
		elem, err := r.typ(t.Args[0], number)
		return &model.Type{Kind: model.Array, Elem: elem}, err
	case "Record":
		if k, ok := t.Args[0].(*Keyword); !ok || k.Name != "string" {
			return nil, t.Args[0].Position().Errorf("found a Record key type other than string, expected string")
		}
		elem, err := r.typ(t.Args[1], number)
		return &model.Type{Kind: model.Map, Elem: elem}, err
	}
	obj, err := r.objectOf(t)
	return &model.Type{Kind: model.Object, Object: obj}, err
}

// ref resolves a reference to a declaration without expanding it.
func (r *resolver) ref(t *TypeRef) (*model.Type, error) {
	if _, ok := r.decls[t.Name]; !ok {
		if _, ok := r.consts[t.Name]; ok {
			return nil, t.Pos.Errorf("found constant %s, expected a type (use typeof %s)", t.Name, t.Name)
		}
		return nil, t.Pos.Errorf("found unknown type %s, expected a declared type", t.Name)
	}
	return &model.Type{Kind: model.Ref, Ref: t.Name, Pos: t.Pos}, nil
}

// objectOf returns the members of an object type expression, as a fresh ObjectType the caller
// may change: used for `extends`, `&` and `Omit<>`. A Map gives an Object with Rest only.
func (r *resolver) objectOf(t Type) (*model.ObjectType, error) {
	ref, ok := t.(*TypeRef)
	if ok && ref.Name == "Omit" && len(ref.Args) == 2 {
		if _, declared := r.decls["Omit"]; !declared {
			return r.omit(ref)
		}
	}
	if ok && len(ref.Args) == 0 {
		return r.declObject(ref.Name, ref.Pos)
	}
	rt, err := r.typ(t, false)
	if err != nil {
		return nil, err
	}
	return objectView(rt, t.Position())
}

// declObject returns the members of the declaration name, following aliases.
func (r *resolver) declObject(name string, at model.Pos) (*model.ObjectType, error) {
	dt, err := r.declType(name, at)
	if err != nil {
		return nil, err
	}
	if dt.Kind == model.Ref {
		if err := r.enter(name, at); err != nil {
			return nil, err
		}
		defer r.leave()
		return r.declObject(dt.Ref, at)
	}
	return objectView(cloneType(dt), at)
}

// objectView returns t as an object: an Object's members, or a Map as an Object with Rest.
func objectView(t *model.Type, at model.Pos) (*model.ObjectType, error) {
	switch t.Kind {
	case model.Object:
		return t.Object, nil
	case model.Map:
		return &model.ObjectType{Rest: t.Elem}, nil
	}
	return nil, at.Errorf("found %s, expected an object type", t.Kind)
}

// omit resolves `Omit<T, "a" | "b">`.
func (r *resolver) omit(t *TypeRef) (*model.ObjectType, error) {
	obj, err := r.objectOf(t.Args[0])
	if err != nil {
		return nil, err
	}
	keys := []Type{t.Args[1]}
	if u, ok := t.Args[1].(*Union); ok {
		keys = u.Types
	}
	for _, k := range keys {
		lit, ok := k.(*Literal)
		if !ok || lit.Value.Kind != model.String {
			return nil, k.Position().Errorf("found a key that is not a string literal, expected \"name\"")
		}
		i := memberIndex(obj, lit.Value.Str)
		if i < 0 {
			return nil, k.Position().Errorf("found %q, expected a member of the omitted type", lit.Value.Str)
		}
		obj.Members = append(obj.Members[:i], obj.Members[i+1:]...)
	}
	return obj, nil
}

// merge adds the members of src to dst, as `extends` does: a member already in dst keeps its
// place and takes the declaration of src (and its doc, unless that is empty). A Rest of src
// replaces dst's.
func merge(dst, src *model.ObjectType) {
	for _, m := range src.Members {
		i := memberIndex(dst, m.Name)
		if i < 0 {
			dst.Members = append(dst.Members, m)
			continue
		}
		if docEmpty(m.Doc) {
			m.Doc = dst.Members[i].Doc
		}
		dst.Members[i] = m
	}
	if src.Rest != nil {
		dst.Rest = src.Rest
	}
}

// mergeIntersection adds the members of src, a later part of an intersection, to dst, like
// merge, except that a member is optional only if it is optional in every part that declares it.
func mergeIntersection(dst, src *model.ObjectType) {
	for _, m := range src.Members {
		if i := memberIndex(dst, m.Name); i >= 0 && !dst.Members[i].Optional {
			m.Optional = false
		}
	}
	merge(dst, src)
}

func memberIndex(o *model.ObjectType, name string) int {
	for i, m := range o.Members {
		if m.Name == name {
			return i
		}
	}
	return -1
}

func docEmpty(d model.Doc) bool {
	return d.Text == "" && !d.Deprecated && !d.Internal && d.Category == "" && len(d.See) == 0 && len(d.Examples) == 0
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
