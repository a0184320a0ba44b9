package parser

import (
	"strings"

	"github.com/mcpgen/mcpgen/model"
)

// Load parses a schema.ts file and resolves it into a model. Schema.Version is left empty.
//
// A construct that TypeScript allows and that has no Go mapping (a conditional or mapped type, a
// function type, type parameters, a class, an import...) is one error that names it, the
// declaration it is in, and its position. A file without any interface or type alias is an
// error.
func Load(filename string, src []byte) (*model.Schema, error) {
	f, err := Parse(filename, src)
	if err != nil {
		return nil, err
	}
	return resolve(filename, f)
}

// Source is one file of a schema: its name, used in positions, and its text.
type Source struct {
	Name string
	Src  []byte
}

// LoadWith is Load of a schema file with declarations added from other sources, as if they
// followed it in the same file: an interface declared again merges its members into the
// schema's, as TypeScript's declaration merging does, and new declarations are appended.
// Positions name the source they come from.
func LoadWith(filename string, src []byte, more ...Source) (*model.Schema, error) {
	return LoadStandIns(filename, src, nil, more...)
}

// StandIn is a declaration that stands in for another (see LoadStandIns): its name, and the
// position of what says so.
type StandIn struct {
	Name string
	Pos  model.Pos
}

// LoadStandIns is LoadWith where an interface that extends a declaration of standIns (by name)
// extends the declaration standing in for it instead, so that it inherits the stand-in's
// members; the clause's reference (model.Decl.Extends) has the position of the stand-in's
// entry. References elsewhere are left to the caller, which replaces them in the model.
func LoadStandIns(filename string, src []byte, standIns map[string]StandIn, more ...Source) (*model.Schema, error) {
	f, err := Parse(filename, src)
	if err != nil {
		return nil, err
	}
	for _, m := range more {
		g, err := Parse(m.Name, m.Src)
		if err != nil {
			return nil, err
		}
		f.Decls = append(f.Decls, g.Decls...)
	}
	if len(standIns) > 0 {
		for _, d := range f.Decls {
			i, ok := d.(*Interface)
			if !ok {
				continue
			}
			for j, e := range i.Extends {
				if ref, ok := e.(*TypeRef); ok && len(ref.Args) == 0 {
					if s, ok := standIns[ref.Name]; ok {
						i.Extends[j] = &TypeRef{Pos: s.Pos, Name: s.Name}
					}
				}
			}
		}
	}
	return resolve(filename, f)
}

// resolver turns the declarations of a File into model types, lazily and at most once each.
type resolver struct {
	decls  map[string]Decl // interfaces and aliases
	consts map[string]*Const
	types  map[string]*model.Type // resolved declarations
	active []string               // declarations being resolved, innermost last
	// brands are the constraints of branded primitive types (`number & { readonly minimum: 0 }`),
	// by their resolved type.
	brands map[*model.Type]model.Constraints
	// never marks the members declared `?: never` (or `?: undefined`), which an object must not
	// have: they are removed once the object's parts are merged.
	never *model.Type
}

func resolve(file string, f *File) (*model.Schema, error) {
	r := &resolver{
		decls: map[string]Decl{}, consts: map[string]*Const{}, types: map[string]*model.Type{},
		brands: map[*model.Type]model.Constraints{}, never: &model.Type{Kind: model.Any},
	}
	decls, err := mergeInterfaces(f.Decls)
	if err != nil {
		return nil, err
	}
	for _, d := range decls {
		if _, ok := d.(*Other); ok {
			continue
		}
		if r.declared(d.DeclName()) {
			return nil, d.Position().Errorf("found a second declaration of %s, expected one", model.Shorten(d.DeclName()))
		}
		if c, ok := d.(*Const); ok {
			r.consts[c.Name] = c
		} else {
			r.decls[d.DeclName()] = d
		}
	}
	s := &model.Schema{}
	for _, d := range decls {
		switch d := d.(type) {
		case *Other:
			name := ""
			if d.Name != "" {
				name = " " + model.Shorten(d.Name)
			}
			return nil, d.Pos.Errorf("found %s%s, which cannot be mapped to Go", d.What, name)
		case *Const:
			if d.Unmapped != nil {
				return nil, d.Unmapped.Pos.Errorf("found %s in %s, which cannot be mapped to Go", d.Unmapped.What, model.Shorten(d.Name))
			}
			s.Consts = append(s.Consts, &model.Const{Name: d.Name, Value: d.Value.Value, Doc: d.Doc.Doc, Pos: d.Pos})
		default:
			t, err := r.declType(d.DeclName(), d.Position())
			if err != nil {
				return nil, err
			}
			s.Decls = append(s.Decls, &model.Decl{Name: d.DeclName(), Type: t, Doc: declDoc(d), Pos: d.Position(), Extends: extendsOf(d)})
		}
	}
	if len(s.Decls) == 0 {
		return nil, model.Pos{File: file, Line: 1, Col: 1}.Errorf("found no interface or type alias, expected at least one")
	}
	return s, nil
}

// extendsOf returns the declarations an interface extends by name (model.Decl.Extends).
func extendsOf(d Decl) []*model.Type {
	i, ok := d.(*Interface)
	if !ok {
		return nil
	}
	var out []*model.Type
	for _, e := range i.Extends {
		if ref, ok := e.(*TypeRef); ok && len(ref.Args) == 0 {
			out = append(out, &model.Type{Kind: model.Ref, Ref: ref.Name, Pos: ref.Pos})
		}
	}
	return out
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

// enter marks name as being resolved; it fails on a cycle and on a chain of declarations too long.
func (r *resolver) enter(name string, at model.Pos) error {
	for i, n := range r.active {
		if n == name {
			chain := append(append([]string{}, r.active[i:]...), name)
			for j := range chain {
				chain[j] = model.Shorten(chain[j])
			}
			return at.Errorf("found a cycle %s, expected none", strings.Join(chain, " → "))
		}
	}
	if len(r.active) >= model.MaxDepth {
		return at.Errorf("found declarations that build on each other more than %d deep, expected at most %d", model.MaxDepth, model.MaxDepth)
	}
	r.active = append(r.active, name)
	return nil
}

func (r *resolver) leave() { r.active = r.active[:len(r.active)-1] }

// declaring is the declaration whose text is being resolved: the one that declares the members
// of the object types found now.
func (r *resolver) declaring() string {
	if len(r.active) == 0 {
		return ""
	}
	return r.active[len(r.active)-1]
}

// unmapped returns the error for a construct without Go mapping in the declaration being
// resolved.
func (r *resolver) unmapped(u *Unmapped) error {
	if u.What == secondIndex {
		return u.Pos.Errorf("found a second index signature, expected one at most")
	}
	where := "the schema"
	if len(r.active) > 0 {
		where = model.Shorten(r.active[len(r.active)-1])
	}
	return u.Pos.Errorf("found %s in %s, which cannot be mapped to Go", u.What, where)
}

// declType returns the resolved type of the interface or alias name, referenced at pos.
func (r *resolver) declType(name string, at model.Pos) (*model.Type, error) {
	if t, ok := r.types[name]; ok {
		return t, nil
	}
	d, ok := r.decls[name]
	if !ok {
		return nil, at.Errorf("found unknown type %s, expected a declared type", model.Shorten(name))
	}
	if err := r.enter(name, at); err != nil {
		return nil, err
	}
	defer r.leave()
	var t *model.Type
	var err error
	switch d := d.(type) {
	case *Interface:
		if d.Generic != nil {
			return nil, r.unmapped(d.Generic)
		}
		t, err = r.interfaceType(d)
	case *Alias:
		if d.Generic != nil {
			return nil, r.unmapped(d.Generic)
		}
		if err := r.aliasChain(d); err != nil {
			return nil, err
		}
		t, err = r.typ(d.Type, d.Doc.TJSType == "number")
		if err == nil && !d.Doc.Constraints.IsZero() {
			// The constraint tags of an alias apply where it is used.
			r.brands[t] = overlay(r.brands[t], d.Doc.Constraints)
		}
	}
	if err != nil {
		return nil, err
	}
	r.types[name] = t
	return t, nil
}

// aliasChain fails when the alias d starts a chain of more than MaxDepth aliases of aliases
// (`type A = B; type B = C; ...`), which later stages follow one by one.
func (r *resolver) aliasChain(d *Alias) error {
	a := d
	for n := 0; ; n++ {
		ref, ok := a.Type.(*TypeRef)
		if !ok || len(ref.Args) > 0 {
			return nil
		}
		next, ok := r.decls[ref.Name].(*Alias)
		if !ok || next == d {
			return nil // not an alias, or a cycle: reported where it is followed
		}
		if n >= model.MaxDepth {
			return d.Pos.Errorf("found a chain of more than %d aliases from %s, expected at most %d", model.MaxDepth, model.Shorten(d.Name), model.MaxDepth)
		}
		a = next
	}
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
	if own.Kind == model.Object {
		if err := r.checkOverrides(d.Name, obj, own.Object); err != nil {
			return nil, err
		}
	}
	if own.Kind == model.Map {
		if len(d.Extends) == 0 {
			own.Pos = d.Pos
			return own, nil
		}
		own = &model.Type{Kind: model.Object, Object: &model.ObjectType{Rest: own.Elem}}
	}
	merge(obj, own.Object)
	return model.ObjectOrMap(r.dropNever(obj), d.Pos), nil
}

// body resolves the members of an interface or object literal: a Map when it has only an
// index signature, an Object otherwise. Members declared `?: never` are kept, marked, for the
// caller to drop after merging (see dropNever).
func (r *resolver) body(b Body) (*model.Type, error) {
	if len(b.Unmapped) > 0 {
		return nil, r.unmapped(b.Unmapped[0])
	}
	obj := &model.ObjectType{}
	seen := make(map[string]bool, len(b.Members))
	for _, m := range b.Members {
		if seen[m.Name] {
			return nil, m.Pos.Errorf("found a second member %q, expected one", model.Shorten(m.Name))
		}
		seen[m.Name] = true
		mm := &model.Member{Name: m.Name, Optional: m.Optional, Doc: m.Doc.Doc, Pos: m.Pos, DeclaredIn: r.declaring()}
		if absent(m.Type) {
			if !m.Optional {
				// Required and never: no value can be present, so the member must be absent.
				mm.Type, mm.Optional, mm.Absent = &model.Type{Kind: model.Any, Pos: m.Type.Position()}, true, true
				obj.Members = append(obj.Members, mm)
				continue
			}
			mm.Type = r.never
			obj.Members = append(obj.Members, mm)
			continue
		}
		t, err := r.typ(m.Type, m.Doc.TJSType == "number")
		if err != nil {
			return nil, err
		}
		mm.Type = t
		mm.Constraints = overlay(r.constraintsOf(t), m.Doc.Constraints)
		obj.Members = append(obj.Members, mm)
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

// absent reports whether t is `never` or `undefined`, or a union of them: the type of a member
// that must not be present.
func absent(t Type) bool {
	switch t := t.(type) {
	case *Keyword:
		return t.Name == "never" || t.Name == "undefined"
	case *Union:
		for _, v := range t.Types {
			if !absent(v) {
				return false
			}
		}
		return true
	}
	return false
}

// dropNever removes the members marked `?: never` from obj.
func (r *resolver) dropNever(obj *model.ObjectType) *model.ObjectType {
	kept := obj.Members[:0]
	for _, m := range obj.Members {
		if m.Type != r.never {
			kept = append(kept, m)
		}
	}
	clear(obj.Members[len(kept):])
	obj.Members = kept
	return obj
}
