package parser

import (
	"fmt"
	"slices"
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
			s.Decls = append(s.Decls, &model.Decl{Name: d.DeclName(), Type: t, Doc: declDoc(d), Pos: d.Position()})
		}
	}
	if len(s.Decls) == 0 {
		return nil, model.Pos{File: file, Line: 1, Col: 1}.Errorf("found no interface or type alias, expected at least one")
	}
	return s, nil
}

// mergeInterfaces merges the declarations of an interface declared several times into the first
// one, as TypeScript does: the members and `extends` of each in turn. The first declaration with
// a doc comment gives the doc. A member declared again with the same type and optionality is
// merged into the first (its doc comment used if the first has none); with another type or
// optionality it is an error naming both positions, as TypeScript's "subsequent property
// declarations must have the same type" (see typeKeys).
func mergeInterfaces(decls []Decl) ([]Decl, error) {
	keys := &typeKeys{aliases: map[string]*Alias{}, memo: map[string]string{}, active: map[string]bool{}}
	for _, d := range decls {
		if a, ok := d.(*Alias); ok {
			keys.aliases[a.Name] = a
		}
	}
	first := map[string]*Interface{}
	var out []Decl
	for _, d := range decls {
		i, ok := d.(*Interface)
		if !ok {
			out = append(out, d)
			continue
		}
		f := first[i.Name]
		if f == nil {
			c := *i
			first[i.Name] = &c
			out = append(out, &c)
			continue
		}
		f.Extends = append(f.Extends[:len(f.Extends):len(f.Extends)], i.Extends...)
		members := f.Members[:len(f.Members):len(f.Members)]
		for _, m := range i.Members {
			j := slices.IndexFunc(f.Members, func(p *Member) bool { return p.Name == m.Name })
			if j < 0 {
				members = append(members, m)
				continue
			}
			prev := f.Members[j]
			if prev.Optional != m.Optional {
				return nil, m.Pos.Errorf("found member %q of %s declared again with another optionality than at %s, expected the same "+
					"(all declarations of a property must have identical modifiers)", model.Shorten(m.Name), model.Shorten(i.Name), prev.Pos)
			}
			if prev.Doc.TJSType != m.Doc.TJSType || keys.key(prev.Type) != keys.key(m.Type) {
				return nil, m.Pos.Errorf("found member %q of %s declared again with another type than at %s, expected the same "+
					"(subsequent property declarations must have the same type)", model.Shorten(m.Name), model.Shorten(i.Name), prev.Pos)
			}
			if docEmpty(prev.Doc.Doc) && !docEmpty(m.Doc.Doc) {
				merged := *prev
				merged.Doc = m.Doc
				members[j] = &merged
			}
		}
		f.Members = members
		f.Unmapped = append(f.Unmapped[:len(f.Unmapped):len(f.Unmapped)], i.Unmapped...)
		if f.Generic == nil {
			f.Generic = i.Generic
		}
		if docEmpty(f.Doc.Doc) {
			f.Doc = i.Doc
		}
		if i.Index != nil {
			if f.Index != nil {
				// Reported by body as a second index signature.
				f.Unmapped = append(f.Unmapped, &Unmapped{Pos: i.Index.Pos, What: secondIndex})
			} else {
				f.Index = i.Index
			}
		}
	}
	return out, nil
}

// typeKeys gives type expressions a key: the text of the type without positions, aliases
// replaced by what they stand for and the parts of unions and intersections sorted. Two type
// expressions that TypeScript takes for the same type, as a redeclared member's must be, have
// the same key (object types are compared by name, not by their members). The key of each alias
// is computed once, so that aliases built on each other cost what they write.
type typeKeys struct {
	aliases map[string]*Alias
	memo    map[string]string // the key of each alias expanded so far
	active  map[string]bool   // the aliases being expanded: a cycle keeps the name
}

func (k *typeKeys) key(t Type) string {
	switch t := t.(type) {
	case *Keyword:
		return t.Name
	case *Literal:
		return fmt.Sprintf("lit(%d:%q:%q:%v)", t.Value.Kind, t.Value.Str, t.Value.Num, t.Value.Bool)
	case *TypeRef:
		if a := k.aliases[t.Name]; a != nil && a.Generic == nil && len(t.Args) == 0 && !k.active[t.Name] && len(k.active) < model.MaxDepth {
			if key, ok := k.memo[t.Name]; ok {
				return key
			}
			k.active[t.Name] = true
			key := k.key(a.Type)
			delete(k.active, t.Name)
			k.memo[t.Name] = key
			return key
		}
		if t.Name == "Array" && len(t.Args) == 1 && k.aliases[t.Name] == nil {
			return "(" + k.key(t.Args[0]) + ")[]" // Array<T> is T[]
		}
		var args []string
		for _, a := range t.Args {
			args = append(args, k.key(a))
		}
		if len(args) == 0 {
			return t.Name
		}
		return t.Name + "<" + strings.Join(args, ",") + ">"
	case *Typeof:
		return "typeof " + t.Name
	case *ArrayOf:
		return "(" + k.key(t.Elem) + ")[]"
	case *Union:
		return "(" + k.set(t.Types, "|") + ")"
	case *Intersection:
		return "(" + k.set(t.Types, "&") + ")"
	case *ObjectLit:
		var members []string
		for _, m := range t.Members {
			opt := ""
			if m.Optional {
				opt = "?"
			}
			members = append(members, fmt.Sprintf("%q%s:%s:%s", m.Name, opt, m.Doc.TJSType, k.key(m.Type)))
		}
		slices.Sort(members)
		index := ""
		if t.Index != nil {
			index = ";[]:" + k.key(t.Index.Value)
		}
		return fmt.Sprintf("{%s%s;unmapped%d}", strings.Join(members, ";"), index, len(t.Unmapped))
	case *Unmapped:
		// The same construct: merged, then reported where the first declaration has it.
		return fmt.Sprintf("unmapped(%q)", t.What)
	}
	return fmt.Sprintf("%T", t)
}

// set is the key of the parts of a union or intersection, in any order, each once.
func (k *typeKeys) set(ts []Type, sep string) string {
	keys := make([]string, len(ts))
	for i, e := range ts {
		keys[i] = k.key(e)
	}
	slices.Sort(keys)
	return strings.Join(slices.Compact(keys), sep)
}

// secondIndex marks a second index signature of a merged interface.
const secondIndex = "\x00second index signature"

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

// checkOverrides fails when a member of the interface name (own) redeclares an inherited one
// (inherited) with a type that cannot be the inherited member's, as TypeScript refuses an
// interface that "incorrectly extends" another: a value of a JSON kind the inherited type does
// not admit (`name: number` over an inherited `name: string`, which a second declaration of an
// interface may try). Only the JSON kinds are compared: a narrower type of the same kinds (a
// literal over a string, a union of fewer kinds) is the refinement that derived declarations make.
func (r *resolver) checkOverrides(name string, inherited, own *model.ObjectType) error {
	index := memberIndexes(inherited)
	for _, m := range own.Members {
		i, ok := index[m.Name]
		if !ok || m.Absent || m.Type == r.never {
			continue
		}
		prev := inherited.Members[i]
		if prev.Absent || prev.Type == r.never {
			continue
		}
		want, got := r.jsonKinds(prev.Type, 0), r.jsonKinds(m.Type, 0)
		if want >= 0 && got >= 0 && got&^want != 0 {
			return m.Pos.Errorf("found member %q of %s of type %s, which the member it redeclares, at %s, of type %s, cannot hold, expected the same type or a narrower one",
				model.Shorten(m.Name), model.Shorten(name), kindsText(got), prev.Pos, kindsText(want))
		}
	}
	return nil
}

// The JSON kinds of a value, as bits.
const (
	kindString = 1 << iota
	kindNumber
	kindBoolean
	kindNull
	kindArray
	kindObject
	kindsAll = kindString | kindNumber | kindBoolean | kindNull | kindArray | kindObject
)

// jsonKinds returns the JSON kinds a value of t may have, or -1 when it does not know them (a
// reference not resolved yet, which resolving here could take for a cycle).
func (r *resolver) jsonKinds(t *model.Type, depth int) int {
	if depth > model.MaxDepth {
		return -1
	}
	switch t.Kind {
	case model.String:
		return kindString
	case model.Integer, model.Number:
		return kindNumber
	case model.Boolean:
		return kindBoolean
	case model.Null:
		return kindNull
	case model.Literal:
		switch t.Literal.Kind {
		case model.String:
			return kindString
		case model.Boolean:
			return kindBoolean
		}
		return kindNumber
	case model.Array:
		return kindArray
	case model.Map, model.Object:
		return kindObject
	case model.Ref:
		if dt, ok := r.types[t.Ref]; ok {
			return r.jsonKinds(dt, depth+1)
		}
		return -1
	case model.Union:
		k := 0
		for _, v := range t.Union.Variants {
			vk := r.jsonKinds(v, depth+1)
			if vk < 0 {
				return -1
			}
			k |= vk
		}
		return k
	}
	return kindsAll
}

// kindsText names the JSON kinds of a set: "string or number".
func kindsText(k int) string {
	var names []string
	for i, n := range []string{"string", "number", "boolean", "null", "array", "object"} {
		if k&(1<<i) != 0 {
			names = append(names, n)
		}
	}
	return strings.Join(names, " or ")
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
		mm := &model.Member{Name: m.Name, Optional: m.Optional, Doc: m.Doc.Doc, Pos: m.Pos}
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

// branded resolves an intersection of one primitive type with object literals whose members all
// have literal types, such as `number & { readonly minimum: 0 }` or `string & {}`: the primitive,
// with the members named like constraint tags (minimum, maximum, format, minItems, maxItems) as
// its constraints; other members are nominal brands and add nothing. ok is false when t is
// not such an intersection.
func (r *resolver) branded(t *Intersection, number bool) (bt *model.Type, ok bool, err error) {
	var prim Type
	var brands []*ObjectLit
	for _, part := range t.Types {
		if o, isObj := part.(*ObjectLit); isObj {
			brands = append(brands, o)
		} else if prim == nil {
			prim = part
		} else {
			return nil, false, nil
		}
	}
	if prim == nil {
		return nil, false, nil
	}
	base, err := r.typ(prim, number)
	if err != nil {
		return nil, false, err
	}
	resolved, err := r.deref(base)
	if err != nil {
		return nil, false, err
	}
	switch resolved.Kind {
	case model.String, model.Integer, model.Number, model.Boolean:
	default:
		return nil, false, nil
	}
	c := r.constraintsOf(base)
	for _, b := range brands {
		if len(b.Unmapped) > 0 || b.Index != nil {
			return nil, true, r.unmapped(&Unmapped{Pos: b.Pos, What: "an intersection of a primitive type and an object type"})
		}
		for _, m := range b.Members {
			v, err := r.typ(m.Type, true)
			if err != nil {
				return nil, true, err
			}
			if v.Kind != model.Literal {
				return nil, true, r.unmapped(&Unmapped{Pos: b.Pos, What: "an intersection of a primitive type and an object type"})
			}
			if err := brandConstraint(&c, m, v.Literal); err != nil {
				return nil, true, err
			}
		}
	}
	bt = &model.Type{Kind: model.Ref, Ref: base.Ref}
	if base.Kind != model.Ref {
		bt = keywordType(map[model.Kind]string{model.String: "string", model.Integer: "number", model.Number: "number", model.Boolean: "boolean"}[resolved.Kind], resolved.Kind == model.Number)
	}
	if !c.IsZero() {
		r.brands[bt] = c
	}
	return bt, true, nil
}

// brandConstraint records the brand member m of value v in c, if m names a constraint.
func brandConstraint(c *model.Constraints, m *Member, v model.Value) error {
	num := func() (*float64, error) {
		f, ok := v.Float()
		if !ok {
			return nil, m.Pos.Errorf("found %s for %s, expected a number", model.Shorten(v.String()), m.Name)
		}
		return &f, nil
	}
	count := func() (*int, error) {
		n, ok := v.Int()
		if !ok || n < 0 {
			return nil, m.Pos.Errorf("found %s for %s, expected a non-negative integer", model.Shorten(v.String()), m.Name)
		}
		return &n, nil
	}
	var err error
	switch m.Name {
	case "minimum":
		c.Minimum, err = num()
	case "maximum":
		c.Maximum, err = num()
	case "minItems":
		c.MinItems, err = count()
	case "maxItems":
		c.MaxItems, err = count()
	case "format":
		if v.Kind != model.String {
			return m.Pos.Errorf("found %s for format, expected a string", model.Shorten(v.String()))
		}
		c.Format = v.Str
	}
	return err
}

// constraintsOf returns the constraints that a branded type carries: its own, then those of the
// aliases it refers to. It resolves those aliases if need be, but none being resolved, and leaves
// their errors for their own turn.
func (r *resolver) constraintsOf(t *model.Type) model.Constraints {
	c := r.brands[t]
	for n := 0; t.Kind == model.Ref && n < model.MaxDepth; n++ {
		dt, ok := r.types[t.Ref]
		if !ok {
			a, isAlias := r.decls[t.Ref].(*Alias)
			if !isAlias || slices.Contains(r.active, t.Ref) {
				break
			}
			_, isAnd := a.Type.(*Intersection)
			ref, isRef := a.Type.(*TypeRef)
			if !isAnd && !(isRef && len(ref.Args) == 0) && a.Doc.Constraints.IsZero() {
				break
			}
			var err error
			if dt, err = r.declType(t.Ref, t.Pos); err != nil {
				break
			}
		}
		c = overlay(r.brands[dt], c)
		t = dt
	}
	return c
}

// overlay returns base with the constraints set in top replacing its own.
func overlay(base, top model.Constraints) model.Constraints { return base.Overlay(top) }

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

// record resolves `Record<K, V>`: a Map when K admits any string, an object with a required
// member of type V per key when K is a union of literals.
func (r *resolver) record(t *TypeRef, number bool) (*model.Type, error) {
	keys, open, err := r.keys(t.Args[0], "a Record key type other than string and literals")
	if err != nil {
		return nil, err
	}
	elem, err := r.typ(t.Args[1], number)
	if err != nil {
		return nil, err
	}
	if open {
		return &model.Type{Kind: model.Map, Elem: elem}, nil
	}
	obj := &model.ObjectType{}
	for _, k := range keys {
		if obj.Member(k.name) != nil {
			continue
		}
		e := cloneType(elem)
		obj.Members = append(obj.Members, &model.Member{Name: k.name, Type: e, Pos: k.pos, Constraints: r.constraintsOf(elem)})
	}
	return &model.Type{Kind: model.Object, Object: obj}, nil
}

// key is a member name given as a literal type.
type key struct {
	name string
	pos  model.Pos
}

// keys returns the names that a key type (of Record, Omit or Pick) lists: string and number
// literals, unions of them, and aliases of those; open reports that it admits any string. what
// describes any other key type, which has no Go mapping.
func (r *resolver) keys(t Type, what string) (keys []key, open bool, err error) {
	if absent(t) { // never: no keys
		return nil, false, nil
	}
	rt, err := r.typ(t, false)
	if err != nil {
		return nil, false, err
	}
	var walk func(t *model.Type, depth int) error
	walk = func(t *model.Type, depth int) error {
		at := t.Pos
		if depth > model.MaxDepth {
			return at.Errorf("found key types nested more than %d deep, expected at most %d", model.MaxDepth, model.MaxDepth)
		}
		t, err := r.deref(t)
		if err != nil {
			return err
		}
		switch {
		case t.Kind == model.String:
			open = true
		case t.Kind == model.Literal && t.Literal.Kind == model.String:
			keys = append(keys, key{t.Literal.Str, at})
		case t.Kind == model.Literal && t.Literal.Kind != model.Boolean:
			keys = append(keys, key{t.Literal.Num, at})
		case t.Kind == model.Union:
			for _, v := range t.Union.Variants {
				if err := walk(v, depth+1); err != nil {
					return err
				}
			}
		default:
			return r.unmapped(&Unmapped{Pos: at, What: what})
		}
		return nil
	}
	err = walk(rt, 0)
	return keys, open, err
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

// objectOf returns the members of an object type expression, as a fresh ObjectType the caller
// may change: used for `extends`, `&` and the built-in generics of objects. A Map gives an Object
// with Rest only. Members declared `?: never` are kept, marked (see dropNever).
func (r *resolver) objectOf(t Type) (*model.ObjectType, error) {
	switch t := t.(type) {
	case *TypeRef:
		if _, declared := r.decls[t.Name]; !declared && len(t.Args) == builtinArity[t.Name] {
			switch t.Name {
			case "Omit", "Pick":
				return r.pick(t)
			case "Partial", "Required", "Readonly":
				obj, err := r.objectOf(t.Args[0])
				if err != nil {
					return nil, err
				}
				for _, m := range obj.Members {
					if t.Name != "Readonly" && m.Type != r.never {
						m.Optional = t.Name == "Partial"
					}
				}
				return obj, nil
			}
		}
		if len(t.Args) == 0 && !strings.Contains(t.Name, ".") {
			return r.declObject(t.Name, t.Pos)
		}
	case *ObjectLit:
		b, err := r.body(t.Body)
		if err != nil {
			return nil, err
		}
		return objectView(b, t.Pos)
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

// pick resolves `Omit<T, "a" | "b">` and `Pick<T, "a" | "b">`.
func (r *resolver) pick(t *TypeRef) (*model.ObjectType, error) {
	obj, err := r.objectOf(t.Args[0])
	if err != nil {
		return nil, err
	}
	keys, open, err := r.keys(t.Args[1], "a key that is not a string literal")
	if err != nil {
		return nil, err
	}
	if open {
		return nil, t.Args[1].Position().Errorf("found a key that is not a string literal, expected \"name\"")
	}
	picked := map[string]bool{}
	index := memberIndexes(obj)
	for _, k := range keys {
		if _, ok := index[k.name]; !ok {
			return nil, k.pos.Errorf("found %q, expected a member of the type", model.Shorten(k.name))
		}
		picked[k.name] = true
	}
	kept := obj.Members[:0]
	for _, m := range obj.Members {
		if picked[m.Name] == (t.Name == "Pick") {
			kept = append(kept, m)
		}
	}
	obj.Members = kept
	if t.Name == "Pick" {
		obj.Rest = nil
	}
	return obj, nil
}

// merge adds the members of src to dst, as `extends` does: a member already in dst keeps its
// place and takes the declaration of src (and its doc, unless that is empty). A Rest of src
// replaces dst's.
func merge(dst, src *model.ObjectType) {
	index := memberIndexes(dst)
	for _, m := range src.Members {
		i, ok := index[m.Name]
		if !ok {
			index[m.Name] = len(dst.Members)
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
	index := memberIndexes(dst)
	for _, m := range src.Members {
		if i, ok := index[m.Name]; ok && !dst.Members[i].Optional {
			m.Optional = false
		}
	}
	merge(dst, src)
}

// memberIndexes maps the member names of o to their indexes.
func memberIndexes(o *model.ObjectType) map[string]int {
	index := make(map[string]int, len(o.Members))
	for i, m := range o.Members {
		if _, dup := index[m.Name]; !dup {
			index[m.Name] = i
		}
	}
	return index
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
