package model

import (
	"fmt"
	"slices"
	"strings"
)

// Classify decides, for every union in the schema (declared or inline, at any depth), how a
// decoder tells its variants apart, and records it in UnionType.Decision. A union for which there
// is no decision procedure is an error naming it and its position.
func Classify(s *Schema) error {
	c := classifier{s: s}
	for _, d := range s.Decls {
		if err := c.walk(d.Name, d.Type); err != nil {
			return err
		}
	}
	return nil
}

// ClassifyEach is Classify that goes on past a union without a decision procedure: it returns
// the error of every such union, in declaration order, and leaves their Decision nil.
func ClassifyEach(s *Schema) []error {
	c := classifier{s: s, each: true}
	for _, d := range s.Decls {
		_ = c.walk(d.Name, d.Type) // returns nil: each error is appended to errs
	}
	return c.errs
}

type classifier struct {
	s *Schema
	// each keeps walking after a union's error, which it appends to errs.
	each bool
	errs []error
}

// walk classifies every union reachable from t without following Refs (each declaration is
// walked on its own). where names the enclosing declaration for errors.
func (c *classifier) walk(where string, t *Type) error {
	if t == nil {
		return nil
	}
	switch t.Kind {
	case Array, Map:
		return c.walk(where, t.Elem)
	case Object:
		for _, m := range t.Object.Members {
			if err := c.walk(where+"."+m.Name, m.Type); err != nil {
				return err
			}
		}
		return c.walk(where, t.Object.Rest)
	case Union:
		d, err := c.decide(t)
		if err != nil {
			err = t.Pos.Errorf("union in %s: %v", where, err)
			if !c.each {
				return err
			}
			c.errs = append(c.errs, err)
		}
		t.Union.Decision = d
		for _, v := range t.Union.Variants {
			if err := c.walk(where, v); err != nil {
				return err
			}
		}
	}
	return nil
}

// leaf is a union variant after nested unions are flattened: the type as written and the type
// it resolves to through aliases.
type leaf struct {
	written  *Type
	resolved *Type
}

// flatten lists the leaves of a union: variants that are unions themselves (inline or declared)
// contribute their own variants. A leaf reached twice (the same declaration through two paths)
// is listed once, and a union reached twice is flattened once (done), so that unions of unions
// that repeat each other (`type A1 = A0 | A0; type A2 = A1 | A1; ...`) cost their size, not 2^n.
func (c *classifier) flatten(u *UnionType, out []leaf, depth int, done map[*UnionType]bool) ([]leaf, error) {
	if depth > len(c.s.Decls)+1 {
		return nil, fmt.Errorf("union cycle")
	}
	if depth > MaxDepth {
		return nil, fmt.Errorf("found unions of unions nested more than %d deep, expected at most %d", MaxDepth, MaxDepth)
	}
	for _, v := range u.Variants {
		r, err := c.s.Deref(v)
		if err != nil {
			return nil, err
		}
		if r.Kind == Union {
			if done[r.Union] {
				continue
			}
			if out, err = c.flatten(r.Union, out, depth+1, done); err != nil {
				return nil, err
			}
			done[r.Union] = true
			continue
		}
		if !slices.ContainsFunc(out, func(l leaf) bool { return l.resolved == r }) {
			out = append(out, leaf{written: v, resolved: r})
		}
	}
	return out, nil
}

func (c *classifier) decide(t *Type) (*Decision, error) {
	u := t.Union
	if d := c.oneOrMany(u); d != nil {
		return d, nil
	}
	leaves, err := c.flatten(u, nil, 0, map[*UnionType]bool{})
	if err != nil {
		return nil, err
	}
	if d := enumDecision(leaves); d != nil {
		return d, nil
	}
	if freeForm(leaves) {
		return &Decision{Strategy: FreeFormStrategy}, nil
	}
	if d := nullable(leaves); d != nil {
		return d, nil
	}
	if allObjects(leaves) {
		return c.objectDecision(leaves, u.Tag)
	}
	return c.kindDecision(leaves)
}

// oneOrMany recognizes `X | X[]` (in either order).
func (c *classifier) oneOrMany(u *UnionType) *Decision {
	if len(u.Variants) != 2 {
		return nil
	}
	for i := range 2 {
		one, many := u.Variants[i], u.Variants[1-i]
		if many.Kind == Array && sameType(many.Elem, one) {
			return &Decision{Strategy: OneOrManyStrategy, Elem: one}
		}
	}
	return nil
}

// enumDecision recognizes unions of string literals, possibly with `string` (an open enum).
func enumDecision(leaves []leaf) *Decision {
	d := &Decision{Strategy: EnumStrategy}
	for _, l := range leaves {
		switch {
		case l.resolved.Kind == Literal && l.resolved.Literal.Kind == String:
			d.Values = append(d.Values, l.resolved.Literal.Str)
		case l.resolved.Kind == String:
			d.Open = true
		default:
			return nil
		}
	}
	if len(d.Values) == 0 {
		return nil
	}
	return d
}

// jsonKind is the JSON kind of a resolved non-union type.
func jsonKind(t *Type) string {
	switch t.Kind {
	case String:
		return "string"
	case Integer, Number:
		return "number"
	case Boolean:
		return "boolean"
	case Null:
		return "null"
	case Object, Map:
		return "object"
	case Array:
		return "array"
	case Literal:
		return jsonKind(&Type{Kind: t.Literal.Kind})
	}
	return "any"
}

// freeForm reports whether the leaves admit any JSON value: one of them is Any, or together they
// cover all six JSON kinds (JSONValue).
func freeForm(leaves []leaf) bool {
	kinds := map[string]bool{}
	for _, l := range leaves {
		if l.resolved.Kind == Any {
			return true
		}
		if l.resolved.Kind != Literal {
			kinds[jsonKind(l.resolved)] = true
		}
	}
	return len(kinds) == 6
}

// nullable recognizes `T | null`.
func nullable(leaves []leaf) *Decision {
	if len(leaves) != 2 {
		return nil
	}
	for i := range 2 {
		if leaves[i].resolved.Kind == Null {
			return &Decision{Strategy: NullableStrategy, Elem: leaves[1-i].written}
		}
	}
	return nil
}

func allObjects(leaves []leaf) bool {
	for _, l := range leaves {
		if l.resolved.Kind != Object {
			return false
		}
	}
	return true
}

// kindDecision handles unions whose variants have different JSON kinds. Several object variants
// are decided among like an object union; several array variants are tried in order. Two
// variants of another JSON kind cannot be told apart.
func (c *classifier) kindDecision(leaves []leaf) (*Decision, error) {
	d := &Decision{Strategy: KindStrategy}
	byKind := map[string][]leaf{}
	var order []string
	for _, l := range leaves {
		if l.resolved.Kind == Literal {
			return nil, fmt.Errorf("no decision procedure: literal %s mixed with other kinds", l.resolved.Literal)
		}
		k := jsonKind(l.resolved)
		if _, ok := byKind[k]; !ok {
			order = append(order, k)
		}
		byKind[k] = append(byKind[k], l)
	}
	for _, k := range order {
		group := byKind[k]
		kv := &KindVariant{JSONKind: k}
		switch {
		case len(group) == 1:
			kv.Type = group[0].written
		case k == "array":
			for _, l := range group {
				kv.Alternatives = append(kv.Alternatives, l.written)
			}
		case k == "object" && allObjects(group):
			objects, err := c.objectDecision(group, "")
			if err != nil {
				return nil, err
			}
			kv.Objects = objects
		default:
			return nil, fmt.Errorf("no decision procedure: variants %s and %s are both JSON %s", describe(group[0].written), describe(group[1].written), k)
		}
		d.Kinds = append(d.Kinds, kv)
	}
	return d, nil
}

// objectDecision builds the decision for a union of objects: a discriminator if the variants
// have one, and each variant's members for deciding among the rest.
func (c *classifier) objectDecision(leaves []leaf, tag string) (*Decision, error) {
	d := &Decision{Strategy: ObjectStrategy}
	for _, l := range leaves {
		v := &Variant{Type: l.written, Object: l.resolved.Object}
		for _, m := range v.Object.Members {
			v.Known = append(v.Known, m.Name)
			if !m.Optional {
				v.Required = append(v.Required, m.Name)
			}
		}
		d.Variants = append(d.Variants, v)
	}
	d.Discriminator = c.discriminator(d.Variants)
	if tag != "" && c.tagged(d.Variants, tag) {
		d.Discriminator = tag
	}
	if d.Discriminator != "" {
		for _, v := range d.Variants {
			m := v.Object.Member(d.Discriminator)
			v.Values, _ = c.literalValues(m.Type, 0)
			v.DiscriminatorOptional = m.Optional
		}
	}
	return d, nil
}

// discriminator picks the member that every variant declares with string literal values and that
// splits the variants into the most groups (ties: the first name in alphabetical order). It
// returns "" when no member splits them into two or more groups.
func (c *classifier) discriminator(vs []*Variant) string {
	best, bestGroups := "", 1
	var names []string
	for _, m := range vs[0].Object.Members {
		names = append(names, m.Name)
	}
	slices.Sort(names)
	for _, name := range names {
		groups := map[string]bool{}
		ok := true
		for _, v := range vs {
			m := v.Object.Member(name)
			if m == nil {
				ok = false
				break
			}
			vals, isLit := c.literalValues(m.Type, 0)
			if !isLit {
				ok = false
				break
			}
			groups[strings.Join(valueStrings(vals), "\x00")] = true
		}
		if ok && len(groups) > bestGroups {
			best, bestGroups = name, len(groups)
		}
	}
	return best
}

// tagged reports whether every variant declares the member tag with string literal values.
func (c *classifier) tagged(vs []*Variant, tag string) bool {
	for _, v := range vs {
		m := v.Object.Member(tag)
		if m == nil {
			return false
		}
		if _, ok := c.literalValues(m.Type, 0); !ok {
			return false
		}
	}
	return true
}

// literalValues returns the values of a string literal or of a closed union of string literals.
func (c *classifier) literalValues(t *Type, depth int) ([]Value, bool) {
	r, err := c.s.Deref(t)
	if err != nil || depth > MaxDepth {
		return nil, false
	}
	switch r.Kind {
	case Literal:
		return []Value{r.Literal}, r.Literal.Kind == String
	case Union:
		var vals []Value
		for _, v := range r.Union.Variants {
			vs, ok := c.literalValues(v, depth+1)
			if !ok {
				return nil, false
			}
			vals = append(vals, vs...)
		}
		return vals, true
	}
	return nil, false
}

func valueStrings(vals []Value) []string {
	var out []string
	for _, v := range vals {
		out = append(out, v.String())
	}
	return out
}

func sameObject(a, b *ObjectType) bool {
	if len(a.Members) != len(b.Members) || (a.Rest == nil) != (b.Rest == nil) {
		return false
	}
	if a.Rest != nil && !sameType(a.Rest, b.Rest) {
		return false
	}
	for _, am := range a.Members {
		bm := b.Member(am.Name)
		if bm == nil || am.Optional != bm.Optional || !sameType(am.Type, bm.Type) {
			return false
		}
	}
	return true
}

// sameType compares two types structurally; Refs are equal when they name the same declaration.
func sameType(a, b *Type) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case Literal:
		return a.Literal == b.Literal
	case Ref:
		return a.Ref == b.Ref
	case Array, Map:
		return sameType(a.Elem, b.Elem)
	case Object:
		return sameObject(a.Object, b.Object)
	case Union:
		if len(a.Union.Variants) != len(b.Union.Variants) {
			return false
		}
		for i := range a.Union.Variants {
			if !sameType(a.Union.Variants[i], b.Union.Variants[i]) {
				return false
			}
		}
	}
	return true
}

func describe(t *Type) string {
	switch t.Kind {
	case Ref:
		return t.Ref
	case Literal:
		return t.Literal.String()
	case Array:
		return describe(t.Elem) + "[]"
	}
	return t.Kind.String()
}
