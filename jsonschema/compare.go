package jsonschema

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/model"
)

// This file compares the model built from schema.ts (the reference) with the one built from
// schema.json, declaration by declaration, and names each difference.

// A Reason names a kind of difference. A difference no rule recognizes is a plain mismatch.
type Reason string

// The kinds of difference.
const (
	ReasonMismatch    Reason = "types differ"
	ReasonOpenEnum    Reason = "open enum exported as string"
	ReasonNullDropped Reason = "null dropped from union"
	ReasonRecordAny   Reason = "Record<string, unknown> exported as object"
	ReasonRestDropped Reason = "inherited index signature not exported"
	ReasonInlined     Reason = "union alias inlined into the union"
	ReasonWrittenOut  Reason = "reference to an object written out"
	ReasonOptional    Reason = "optionality differs"
	ReasonConstraints Reason = "constraints differ"
	ReasonNoMemberTS  Reason = "member only in schema.json"
	ReasonNoMemberJS  Reason = "member only in schema.ts"
	ReasonNoDeclTS    Reason = "declaration only in schema.json"
	ReasonNoDeclJS    Reason = "declaration only in schema.ts"
)

// A Difference is one disagreement. Path is the place inside the declaration: member names joined
// by ".", "[]" for array elements, "{}" for map values and index signatures, "" for the
// declaration's own type.
type Difference struct {
	Decl, Path string
	Reason     Reason
	// TS and JSON are the two sides: types, or nil for the side that has none. For
	// ReasonOptional they are the members' types, for ReasonConstraints nil.
	TS, JSON *model.Type
	// TSText and JSONText render the two sides (the constraints, optionality, or types).
	TSText, JSONText string
	// TSPos and JSONPos are where each side says it: the type, else the member or declaration
	// that holds the place.
	TSPos, JSONPos model.Pos
}

func (d Difference) String() string {
	return fmt.Sprintf("%s: %s\n\tschema.ts:   %s\n\tschema.json: %s", d.At(), d.Reason, d.TSText, d.JSONText)
}

// At names the place of the difference: the declaration, then the path.
func (d Difference) At() string {
	if d.Path == "" {
		return d.Decl
	}
	if strings.HasPrefix(d.Path, "[") || strings.HasPrefix(d.Path, "{") {
		return d.Decl + d.Path
	}
	return d.Decl + "." + d.Path
}

// Compare compares every declaration of ts, the model of a schema.ts, with the one of the same
// name in js, the model of its schema.json (both as the front ends build them, before
// model.Protocol), and returns the differences in declaration order and the number of members
// compared.
func Compare(ts, js *model.Schema) (diffs []Difference, members int) {
	c := &comparer{ts: ts, js: js}
	for _, d := range ts.Decls {
		c.decl = d.Name
		other := js.Decl(d.Name)
		if other == nil {
			c.at = [2]model.Pos{d.Pos, {}}
			c.add("", ReasonNoDeclJS, d.Type, nil)
			continue
		}
		c.at = [2]model.Pos{d.Pos, other.Pos}
		c.compare("", d.Type, other.Type, 0)
	}
	for _, d := range js.Decls {
		if ts.Decl(d.Name) == nil {
			c.decl = d.Name
			c.at = [2]model.Pos{{}, d.Pos}
			c.add("", ReasonNoDeclTS, nil, d.Type)
		}
	}
	return c.diffs, c.members
}

// comparer walks two schemas side by side.
type comparer struct {
	ts, js  *model.Schema
	diffs   []Difference
	members int // members compared
	decl    string
	// at holds the positions of the innermost member (or declaration) being compared, on the
	// side of schema.ts and of schema.json.
	at [2]model.Pos
}

func (c *comparer) add(path string, reason Reason, a, b *model.Type) {
	c.diffs = append(c.diffs, Difference{Decl: c.decl, Path: path, Reason: reason, TS: a, JSON: b,
		TSText: model.Render(a), JSONText: model.Render(b), TSPos: c.pos(a, 0), JSONPos: c.pos(b, 1)})
}

// addHere is add at the positions of the member or object being compared, for a difference
// that is about it rather than about its type (a member missing on one side, an index signature
// left out).
func (c *comparer) addHere(path string, reason Reason, a, b *model.Type) {
	c.add(path, reason, a, b)
	d := &c.diffs[len(c.diffs)-1]
	d.TSPos, d.JSONPos = c.at[0], c.at[1]
}

// pos is the position of t on side i, or that of the enclosing member when t has none.
func (c *comparer) pos(t *model.Type, i int) model.Pos {
	if t != nil && t.Pos.Line > 0 {
		return t.Pos
	}
	return c.at[i]
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
			c.add(path, ReasonMismatch, a, b)
		}
	case model.Ref:
		c.add(path, ReasonMismatch, a, b) // different names
	case model.Array, model.Map:
		c.compare(join(path, elemPath[a.Kind]), a.Elem, b.Elem, depth)
	case model.Object:
		c.object(path, a, b, depth)
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
		c.add(path, ReasonWrittenOut, a, b)
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

func (c *comparer) object(path string, ta, tb *model.Type, depth int) {
	a, b := ta.Object, tb.Object
	outer := c.at
	defer func() { c.at = outer }()
	for _, m := range a.Members {
		p := join(path, m.Name)
		other := b.Member(m.Name)
		if other == nil {
			c.at = [2]model.Pos{m.Pos, c.pos(tb, 1)}
			c.addHere(p, ReasonNoMemberJS, m.Type, nil)
			continue
		}
		c.members++
		c.at = [2]model.Pos{m.Pos, other.Pos}
		if m.Optional != other.Optional {
			c.diffs = append(c.diffs, Difference{Decl: c.decl, Path: p, Reason: ReasonOptional, TS: m.Type, JSON: other.Type,
				TSText: optional(m.Optional), JSONText: optional(other.Optional), TSPos: m.Pos, JSONPos: other.Pos})
		}
		if model.RenderConstraints(m.Constraints) != model.RenderConstraints(other.Constraints) {
			c.diffs = append(c.diffs, Difference{Decl: c.decl, Path: p, Reason: ReasonConstraints,
				TSText: model.RenderConstraints(m.Constraints), JSONText: model.RenderConstraints(other.Constraints), TSPos: m.Pos, JSONPos: other.Pos})
		}
		c.compare(p, m.Type, other.Type, depth)
	}
	for _, m := range b.Members {
		if a.Member(m.Name) == nil {
			c.at = [2]model.Pos{c.pos(ta, 0), m.Pos}
			c.addHere(join(path, m.Name), ReasonNoMemberTS, nil, m.Type)
		}
	}
	c.at = [2]model.Pos{c.pos(ta, 0), c.pos(tb, 1)}
	switch {
	case a.Rest != nil && b.Rest != nil:
		c.compare(join(path, "{}"), a.Rest, b.Rest, depth)
	case a.Rest != nil:
		c.addHere(join(path, "{}"), ReasonRestDropped, a.Rest, nil)
	case b.Rest != nil:
		c.add(join(path, "{}"), ReasonMismatch, a.Rest, b.Rest)
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
			c.add(path, ReasonInlined, a, b)
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
		return &model.Type{Kind: model.Map, Elem: t.Object.Rest, Pos: t.Pos}
	case t.Kind == model.Union:
		flat := &model.Type{Kind: model.Union, Union: &model.UnionType{}, Pos: t.Pos}
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
func classify(a, b *model.Type) Reason {
	switch {
	case isOpenEnum(a) && b.Kind == model.String:
		return ReasonOpenEnum
	case a.Kind == model.Map && a.Elem.Kind == model.Any && b.Kind == model.Object && len(b.Object.Members) == 0:
		return ReasonRecordAny
	case a.Kind == model.Union && slices.ContainsFunc(a.Union.Variants, isNull) &&
		!(b.Kind == model.Union && slices.ContainsFunc(b.Union.Variants, isNull)):
		return ReasonNullDropped
	}
	return ReasonMismatch
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
