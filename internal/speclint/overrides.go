package speclint

import (
	"fmt"

	"github.com/mcpgen/mcpgen/model"
	"github.com/mcpgen/mcpgen/parser"
)

// A base and an override that disagree on requiredness: a member declared optional where a
// type it builds on requires it. Through `extends`, TypeScript refuses the interface (it
// "incorrectly extends" its base), while a reader that takes the member as written makes it
// optional; through `&`, the intersection requires the member, whatever the part that says `?`.
// The reverse, a required member over an optional one, is the refinement derived types make.

// overrides adds the findings of the overrides of v.
func (l *linter) overrides(v *version) {
	for _, d := range v.ast.Decls {
		switch d := d.(type) {
		case *parser.Interface:
			for _, base := range d.Extends {
				l.extends(v, d, base)
			}
			for _, m := range d.Members {
				l.intersections(v, d.Name+"."+m.Name, m.Type, 0)
			}
		case *parser.Alias:
			l.intersections(v, d.Name, d.Type, 0)
		}
	}
}

// extends checks the members of i against those of one of its bases.
func (l *linter) extends(v *version, i *parser.Interface, base parser.Type) {
	obj, name := baseObject(v.raw, base)
	if obj == nil {
		return
	}
	for _, m := range i.Members {
		if b := obj.Member(m.Name); m.Optional && b != nil && !b.Optional && !b.Absent {
			l.add(m.Pos, Override, i.Name+"."+m.Name,
				"optional here, but %s, which %s extends, requires it (%s): TypeScript refuses the interface (it incorrectly extends %s), and a reader of the declaration as written makes the member optional",
				name, i.Name, where("schema.ts", b.Pos), name)
		}
	}
}

// baseObject resolves a base type of extends or a part of an intersection to its object: a
// declaration, Omit<T, K> or Pick<T, K> of one, or an object literal. It returns nil where it
// cannot.
func baseObject(s *model.Schema, t parser.Type) (*model.ObjectType, string) {
	ref, ok := t.(*parser.TypeRef)
	if !ok {
		return nil, ""
	}
	if len(ref.Args) == 0 {
		if d := s.Decl(ref.Name); d != nil {
			if r, err := s.Deref(d.Type); err == nil && r.Kind == model.Object {
				return r.Object, ref.Name
			}
		}
		return nil, ""
	}
	if (ref.Name != "Omit" && ref.Name != "Pick") || len(ref.Args) != 2 {
		return nil, ""
	}
	inner, name := baseObject(s, ref.Args[0])
	keys, ok := literalKeys(ref.Args[1])
	if inner == nil || !ok {
		return nil, ""
	}
	out := &model.ObjectType{Rest: inner.Rest}
	for _, m := range inner.Members {
		if keys[m.Name] == (ref.Name == "Pick") {
			out.Members = append(out.Members, m)
		}
	}
	return out, fmt.Sprintf("%s<%s, ...>", ref.Name, name)
}

// literalKeys reads the keys of Omit or Pick: a string literal or a union of them.
func literalKeys(t parser.Type) (map[string]bool, bool) {
	keys := map[string]bool{}
	parts := []parser.Type{t}
	if u, ok := t.(*parser.Union); ok {
		parts = u.Types
	}
	for _, p := range parts {
		lit, ok := p.(*parser.Literal)
		if !ok || lit.Value.Kind != model.String {
			return nil, false
		}
		keys[lit.Value.Str] = true
	}
	return keys, true
}

// intersections checks every intersection in the type expression t: a member that one part
// declares optional and another requires.
func (l *linter) intersections(v *version, where string, t parser.Type, depth int) {
	if depth > model.MaxDepth {
		return
	}
	switch t := t.(type) {
	case *parser.Intersection:
		l.intersection(v, where, t)
		for _, p := range t.Types {
			l.intersections(v, where, p, depth+1)
		}
	case *parser.Union:
		for _, p := range t.Types {
			l.intersections(v, where, p, depth+1)
		}
	case *parser.ArrayOf:
		l.intersections(v, where, t.Elem, depth+1)
	case *parser.ObjectLit:
		for _, m := range t.Members {
			l.intersections(v, where+"."+m.Name, m.Type, depth+1)
		}
	case *parser.TypeRef:
		for _, a := range t.Args {
			l.intersections(v, where, a, depth+1)
		}
	}
}

func (l *linter) intersection(v *version, at string, t *parser.Intersection) {
	for i, p := range t.Types {
		lit, ok := p.(*parser.ObjectLit)
		if !ok {
			continue
		}
		for j, q := range t.Types {
			if i == j {
				continue
			}
			l.intersectionPart(v, at, lit, q)
		}
	}
}

// intersectionPart checks the members of the object literal lit against another part q.
func (l *linter) intersectionPart(v *version, at string, lit *parser.ObjectLit, q parser.Type) {
	var required func(name string) (model.Pos, string, bool)
	if other, ok := q.(*parser.ObjectLit); ok {
		required = func(name string) (model.Pos, string, bool) {
			for _, m := range other.Members {
				if m.Name == name && !m.Optional {
					return m.Pos, "another part", true
				}
			}
			return model.Pos{}, "", false
		}
	} else if obj, name := baseObject(v.raw, q); obj != nil {
		required = func(member string) (model.Pos, string, bool) {
			m := obj.Member(member)
			if m == nil || m.Optional || m.Absent {
				return model.Pos{}, "", false
			}
			return m.Pos, name, true
		}
	} else {
		return
	}
	for _, m := range lit.Members {
		if !m.Optional {
			continue
		}
		if pos, by, ok := required(m.Name); ok {
			l.add(m.Pos, Override, at+"."+m.Name,
				"optional in this part of an intersection, but %s requires it (%s): the intersection requires it, whatever this part says",
				by, where("schema.ts", pos))
		}
	}
}
