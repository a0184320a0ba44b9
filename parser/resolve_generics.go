package parser

// The built-in generics that have a Go mapping (Record, Omit, Pick, Partial, Required, Readonly),
// and the objects they take apart.

import (
	"strings"

	"github.com/mcpgen/mcpgen/model"
)

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
		obj.Members = append(obj.Members, &model.Member{Name: k.name, Type: e, Pos: k.pos, Constraints: r.constraintsOf(elem), DeclaredIn: r.declaring()})
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
