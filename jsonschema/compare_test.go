package jsonschema

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/model"
)

// This file compares the model built from schema.ts (the reference) with the one built from
// schema.json, declaration by declaration, and names each difference.

// Reasons name the kinds of difference. A difference no rule recognizes is a plain mismatch.
const (
	reasonMismatch    = "types differ"
	reasonOpenEnum    = "open enum exported as string"
	reasonNullDropped = "null dropped from union"
	reasonRecordAny   = "Record<string, unknown> exported as object"
	reasonRestDropped = "inherited index signature not exported"
	reasonInlined     = "union alias inlined into the union"
	reasonWrittenOut  = "reference to an object written out"
	reasonOptional    = "optionality differs"
	reasonConstraints = "constraints differ"
	reasonNoMemberTS  = "member only in schema.json"
	reasonNoMemberJS  = "member only in schema.ts"
	reasonNoDeclTS    = "declaration only in schema.json"
	reasonNoDeclJS    = "declaration only in schema.ts"
)

// difference is one disagreement. Path is the place inside the declaration: member names joined
// by ".", "[]" for array elements, "{}" for map values and index signatures, "" for the
// declaration's own type.
type difference struct {
	Decl, Path, Reason string
	// TS and JSON render the two sides.
	TS, JSON string
}

func (d difference) String() string {
	at := d.Decl
	if d.Path != "" {
		at += "." + d.Path
	}
	return fmt.Sprintf("%s: %s\n\tschema.ts:   %s\n\tschema.json: %s", at, d.Reason, d.TS, d.JSON)
}

// comparer walks two schemas side by side.
type comparer struct {
	ts, js  *model.Schema
	diffs   []difference
	members int // members compared
	decl    string
}

// compareSchemas compares every declaration of the two schemas.
func compareSchemas(ts, js *model.Schema) *comparer {
	c := &comparer{ts: ts, js: js}
	for _, d := range ts.Decls {
		c.decl = d.Name
		other := js.Decl(d.Name)
		if other == nil {
			c.add("", reasonNoDeclJS, d.Type, nil)
			continue
		}
		c.compare("", d.Type, other.Type, 0)
	}
	for _, d := range js.Decls {
		if ts.Decl(d.Name) == nil {
			c.decl = d.Name
			c.add("", reasonNoDeclTS, nil, d.Type)
		}
	}
	return c
}

func (c *comparer) add(path, reason string, a, b *model.Type) {
	c.diffs = append(c.diffs, difference{Decl: c.decl, Path: path, Reason: reason, TS: render(a), JSON: render(b)})
}

// equal reports whether two types agree, without recording anything.
func (c *comparer) equal(a, b *model.Type, depth int) bool {
	sub := &comparer{ts: c.ts, js: c.js, decl: c.decl}
	sub.compare("", a, b, depth)
	return len(sub.diffs) == 0
}

// maxDepth bounds the references followed along one path, which recursive types would otherwise
// follow forever.
const maxDepth = 8

func (c *comparer) compare(path string, a, b *model.Type, depth int) {
	a, b = normalize(a), normalize(b)
	if a.Kind == model.Ref && b.Kind == model.Ref && a.Ref == b.Ref {
		return
	}
	// Follow a reference to an alias, which the other side may write out. A reference to an
	// object written out on the other side is a difference: the object loses its name.
	ta, tb := named(c.ts, a), named(c.js, b)
	switch {
	case depth >= maxDepth:
	case ta != nil && ta.Kind != model.Object:
		c.compare(path, ta, b, depth+1)
		return
	case tb != nil && tb.Kind != model.Object:
		c.compare(path, a, tb, depth+1)
		return
	case ta != nil && b.Kind == model.Object:
		c.writtenOut(path, a, b, ta, b, depth)
		return
	case tb != nil && a.Kind == model.Object:
		c.writtenOut(path, a, b, a, tb, depth)
		return
	}
	if a.Kind != b.Kind {
		c.add(path, classify(a, b), a, b)
		return
	}
	switch a.Kind {
	case model.Literal:
		if a.Literal != b.Literal {
			c.add(path, reasonMismatch, a, b)
		}
	case model.Ref:
		c.add(path, reasonMismatch, a, b) // different names
	case model.Array, model.Map:
		c.compare(join(path, elemPath[a.Kind]), a.Elem, b.Elem, depth)
	case model.Object:
		c.object(path, a.Object, b.Object, depth)
	case model.Union:
		c.union(path, a, b, depth)
	}
}

// named returns the type of the declaration that a reference names, or nil.
func named(s *model.Schema, t *model.Type) *model.Type {
	if d := s.Decl(t.Ref); t.Kind == model.Ref && d != nil {
		return d.Type
	}
	return nil
}

// writtenOut compares a reference to an object (a or b) with an object written out on the other
// side, given both as objects (x and y).
func (c *comparer) writtenOut(path string, a, b, x, y *model.Type, depth int) {
	if c.equal(x, y, depth+1) {
		c.add(path, reasonWrittenOut, a, b)
		return
	}
	c.compare(path, x, y, depth+1)
}

var elemPath = map[model.Kind]string{model.Array: "[]", model.Map: "{}"}

func join(path, name string) string {
	if path == "" || strings.HasPrefix(name, "[") || strings.HasPrefix(name, "{") {
		return path + name
	}
	return path + "." + name
}

func (c *comparer) object(path string, a, b *model.ObjectType, depth int) {
	for _, m := range a.Members {
		p := join(path, m.Name)
		other := b.Member(m.Name)
		if other == nil {
			c.add(p, reasonNoMemberJS, m.Type, nil)
			continue
		}
		c.members++
		if m.Optional != other.Optional {
			c.diffs = append(c.diffs, difference{Decl: c.decl, Path: p, Reason: reasonOptional,
				TS: optional(m.Optional), JSON: optional(other.Optional)})
		}
		if renderConstraints(m.Constraints) != renderConstraints(other.Constraints) {
			c.diffs = append(c.diffs, difference{Decl: c.decl, Path: p, Reason: reasonConstraints,
				TS: renderConstraints(m.Constraints), JSON: renderConstraints(other.Constraints)})
		}
		c.compare(p, m.Type, other.Type, depth)
	}
	for _, m := range b.Members {
		if a.Member(m.Name) == nil {
			c.add(join(path, m.Name), reasonNoMemberTS, nil, m.Type)
		}
	}
	switch {
	case a.Rest != nil && b.Rest != nil:
		c.compare(join(path, "{}"), a.Rest, b.Rest, depth)
	case a.Rest != nil:
		c.add(join(path, "{}"), reasonRestDropped, a.Rest, nil)
	case b.Rest != nil:
		c.add(join(path, "{}"), reasonMismatch, a.Rest, b.Rest)
	}
}

// union compares the variants as sets. If they differ, variants naming union aliases are replaced
// by the aliased variants on both sides, and a match then is reported as an inlined alias. When
// exactly one variant of each side is left unmatched, the two are compared in depth so the
// difference names its member.
func (c *comparer) union(path string, a, b *model.Type, depth int) {
	onlyA, onlyB := c.unmatched(a.Union.Variants, b.Union.Variants, depth)
	if len(onlyA) == 0 && len(onlyB) == 0 {
		return
	}
	inlinedA, inlinedB := inline(c.ts, a.Union.Variants, 0), inline(c.js, b.Union.Variants, 0)
	if len(inlinedA) != len(a.Union.Variants) || len(inlinedB) != len(b.Union.Variants) {
		onlyA, onlyB = c.unmatched(inlinedA, inlinedB, depth)
		if len(onlyA) == 0 && len(onlyB) == 0 {
			c.add(path, reasonInlined, a, b)
			return
		}
	}
	if len(onlyA) == 1 && len(onlyB) == 1 {
		c.compare(path, onlyA[0], onlyB[0], depth)
		return
	}
	c.add(path, classify(a, b), a, b)
}

// unmatched pairs equal variants and returns those left over on each side.
func (c *comparer) unmatched(a, b []*model.Type, depth int) (onlyA, onlyB []*model.Type) {
	onlyB = slices.Clone(b)
	for _, v := range a {
		i := slices.IndexFunc(onlyB, func(w *model.Type) bool { return c.equal(v, w, depth) })
		if i < 0 {
			onlyA = append(onlyA, v)
			continue
		}
		onlyB = slices.Delete(onlyB, i, i+1)
	}
	return onlyA, onlyB
}

// inline replaces the variants that name union declarations of s by their variants.
func inline(s *model.Schema, variants []*model.Type, depth int) []*model.Type {
	var out []*model.Type
	for _, v := range variants {
		if d := s.Decl(v.Ref); v.Kind == model.Ref && d != nil && depth < maxDepth {
			if u := normalize(d.Type); u.Kind == model.Union {
				out = append(out, inline(s, u.Union.Variants, depth+1)...)
				continue
			}
		}
		out = append(out, v)
	}
	return out
}

// normalize flattens nested unions and writes an object with only an index signature as a map.
func normalize(t *model.Type) *model.Type {
	switch {
	case t.Kind == model.Object && len(t.Object.Members) == 0 && t.Object.Rest != nil:
		return &model.Type{Kind: model.Map, Elem: t.Object.Rest}
	case t.Kind == model.Union:
		flat := &model.Type{Kind: model.Union, Union: &model.UnionType{}}
		for _, v := range t.Union.Variants {
			v = normalize(v)
			if v.Kind == model.Union {
				flat.Union.Variants = append(flat.Union.Variants, v.Union.Variants...)
			} else {
				flat.Union.Variants = append(flat.Union.Variants, v)
			}
		}
		return flat
	}
	return t
}

// classify names a known kind of difference between a (schema.ts) and b (schema.json).
func classify(a, b *model.Type) string {
	switch {
	case isOpenEnum(a) && b.Kind == model.String:
		return reasonOpenEnum
	case a.Kind == model.Map && a.Elem.Kind == model.Any && b.Kind == model.Object && len(b.Object.Members) == 0:
		return reasonRecordAny
	case a.Kind == model.Union && slices.ContainsFunc(a.Union.Variants, isNull) &&
		!(b.Kind == model.Union && slices.ContainsFunc(b.Union.Variants, isNull)):
		return reasonNullDropped
	}
	return reasonMismatch
}

func isNull(t *model.Type) bool { return t.Kind == model.Null }

// isOpenEnum reports whether t is `"a" | "b" | string`.
func isOpenEnum(t *model.Type) bool {
	if t.Kind != model.Union {
		return false
	}
	open := false
	for _, v := range t.Union.Variants {
		switch {
		case v.Kind == model.String:
			open = true
		case v.Kind != model.Literal || v.Literal.Kind != model.String:
			return false
		}
	}
	return open
}

func optional(b bool) string {
	if b {
		return "optional"
	}
	return "required"
}
