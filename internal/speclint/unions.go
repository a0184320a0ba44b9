package speclint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/model"
)

// Unions that do not discriminate: in a union of objects, a variant X that accepts every value of
// another variant Y (schema.ts read with objects closed, as the TypeScript types are: X accepts a
// member it does not declare only through an index signature) while requiring less than Y
// requires, so that a Y missing a required member still validates, as an X; or two variants that
// accept each other's values, which nothing tells apart. Variants that share no discriminator
// value are told apart by it.
//
// The overlaps the protocol intends are not findings: the message unions (told apart by their
// method, and by the request they answer for results: model.ResultUnions) and the unions of
// JSON-RPC envelopes (a request has every member of a notification).

// unions adds the findings of the unions of v.
func (l *linter) unions(v *version) {
	if v.read == nil {
		return
	}
	u := unionChecker{l: l, s: v.read}
	for _, d := range v.read.Decls {
		if slices.Contains(model.ResultUnions(), d.Name) {
			continue
		}
		u.walk(d.Name, d.Type, 0)
	}
}

type unionChecker struct {
	l *linter
	s *model.Schema
	// steps bounds the work of comparing one pair of variants, so that recursive types of many
	// variants cannot make it exponential: when it runs out, the comparison answers false.
	steps int
}

// maxSteps is the work one pair of variants may cost.
const maxSteps = 20_000

// walk checks every union reachable from t without following references; where names the
// place for messages.
func (u *unionChecker) walk(where string, t *model.Type, depth int) {
	if t == nil || depth > model.MaxDepth {
		return
	}
	switch t.Kind {
	case model.Array, model.Map:
		u.walk(where, t.Elem, depth+1)
	case model.Object:
		for _, m := range t.Object.Members {
			u.walk(where+"."+m.Name, m.Type, depth+1)
		}
		u.walk(where, t.Object.Rest, depth+1)
	case model.Union:
		u.check(where, t)
		for _, v := range t.Union.Variants {
			u.walk(where, v, depth+1)
		}
	}
}

// check checks one union.
func (u *unionChecker) check(where string, t *model.Type) {
	d := t.Union.Decision
	if d == nil || t.Union.Tag != "" || u.envelopes(t.Union) {
		return
	}
	switch d.Strategy {
	case model.ObjectStrategy:
		u.pairs(where, t, d)
	case model.KindStrategy:
		for _, k := range d.Kinds {
			if k.Objects != nil {
				u.pairs(where, t, k.Objects)
			}
		}
	}
}

// envelopes reports whether every variant of u is a JSON-RPC envelope (JSONRPCMessage,
// JSONRPCResponse).
func (u *unionChecker) envelopes(un *model.UnionType) bool {
	for _, v := range un.Variants {
		if v.Kind != model.Ref || !strings.HasPrefix(v.Ref, model.EnvelopePrefix) {
			return false
		}
	}
	return true
}

// pairs checks every pair of variants of an object decision that the discriminator does not
// tell apart. A pair that a union declared elsewhere holds (both variants come from one variant
// of t that names a union) is left to that union.
func (u *unionChecker) pairs(where string, t *model.Type, d *model.Decision) {
	origin := u.origins(t)
	for i, x := range d.Variants {
		for _, y := range d.Variants[i+1:] {
			if sharesOrigin(origin, x, y) || !shareValues(d, x, y) {
				continue
			}
			u.steps = maxSteps
			xy := u.objectAccepts(x.Object, y.Object, 0)
			u.steps = maxSteps
			yx := u.objectAccepts(y.Object, x.Object, 0)
			switch {
			case xy && yx:
				u.l.add(t.Pos, UnionOverlap, where, "%s and %s accept each other's values: nothing tells them apart%s",
					variantName(x), variantName(y), u.hint(x, y))
			case xy && requiresLess(x, y):
				u.swallows(where, t, x, y)
			case yx && requiresLess(y, x):
				u.swallows(where, t, y, x)
			}
		}
	}
}

// swallows reports that x accepts every value of y.
func (u *unionChecker) swallows(where string, t *model.Type, x, y *model.Variant) {
	missing := slices.DeleteFunc(slices.Clone(y.Required), func(name string) bool { return slices.Contains(x.Required, name) })
	u.l.add(t.Pos, UnionOverlap, where, "%s accepts every %s, and requires less: %s %s without %s still validates, as %s %s%s",
		variantName(x), variantName(y), article(variantName(y)), variantName(y), joinNames(quoteEach(missing)), article(variantName(x)), variantName(x), u.hint(x, y))
}

func quoteEach(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = fmt.Sprintf("%q", n)
	}
	return out
}

// hint says which member could tell x and y apart: one that has constants in one and accepts any
// string in the other, or one both type with the same open set of values.
func (u *unionChecker) hint(x, y *model.Variant) string {
	for _, m := range x.Object.Members {
		o := y.Object.Member(m.Name)
		if o == nil || m.Optional || o.Optional {
			continue
		}
		xs, xLit := literalStrings(u.s, m.Type)
		ys, yLit := literalStrings(u.s, o.Type)
		switch {
		case xLit && !yLit && u.isString(o.Type):
			return fmt.Sprintf(" (%s.%s accepts any string, where %s has %s)", variantName(y), m.Name, variantName(x), quoteAll(xs))
		case yLit && !xLit && u.isString(m.Type):
			return fmt.Sprintf(" (%s.%s accepts any string, where %s has %s)", variantName(x), m.Name, variantName(y), quoteAll(ys))
		case !xLit && !yLit && sameRef(m.Type, o.Type) && u.openEnum(m.Type):
			return fmt.Sprintf(" (both type %q as %s, which accepts any string; a constant in each would tell them apart)", m.Name, m.Type.Ref)
		}
	}
	return ""
}

func sameRef(a, b *model.Type) bool {
	return a.Kind == model.Ref && b.Kind == model.Ref && a.Ref == b.Ref
}

// isString reports whether t accepts any string (a string, or an open enum).
func (u *unionChecker) isString(t *model.Type) bool {
	r, err := u.s.Deref(t)
	return err == nil && (r.Kind == model.String || r.Kind == model.Union && r.Union.Decision != nil &&
		r.Union.Decision.Strategy == model.EnumStrategy && r.Union.Decision.Open)
}

// openEnum reports whether t is an open enum with known values (`"a" | "b" | string`).
func (u *unionChecker) openEnum(t *model.Type) bool {
	r, err := u.s.Deref(t)
	return err == nil && r.Kind == model.Union && r.Union.Decision != nil &&
		r.Union.Decision.Strategy == model.EnumStrategy && r.Union.Decision.Open
}

// literalStrings returns the values of a string constant or a closed union of them.
func literalStrings(s *model.Schema, t *model.Type) ([]string, bool) {
	r, err := s.Deref(t)
	if err != nil {
		return nil, false
	}
	switch {
	case r.Kind == model.Literal && r.Literal.Kind == model.String:
		return []string{r.Literal.Str}, true
	case r.Kind == model.Union && r.Union.Decision != nil && r.Union.Decision.Strategy == model.EnumStrategy && !r.Union.Decision.Open:
		return r.Union.Decision.Values, true
	}
	return nil, false
}

// requiresLess reports whether y requires a member that x does not.
func requiresLess(x, y *model.Variant) bool {
	for _, name := range y.Required {
		if !slices.Contains(x.Required, name) {
			return true
		}
	}
	return false
}

// shareValues reports whether the discriminator of d (if any) lets a value be both x and y.
func shareValues(d *model.Decision, x, y *model.Variant) bool {
	if d.Discriminator == "" || x.DiscriminatorOptional && y.DiscriminatorOptional {
		return true
	}
	for _, a := range x.Values {
		if slices.Contains(y.Values, a) {
			return true
		}
	}
	return false
}

// origins maps the object of each leaf variant of t to the index of the variant of t it comes
// from, when that variant names a declared union.
func (u *unionChecker) origins(t *model.Type) map[*model.ObjectType]int {
	out := map[*model.ObjectType]int{}
	for i, v := range t.Union.Variants {
		r, err := u.s.Deref(v)
		if err != nil || v.Kind != model.Ref || r.Kind != model.Union {
			continue
		}
		var collect func(t *model.Type, depth int)
		collect = func(t *model.Type, depth int) {
			r, err := u.s.Deref(t)
			if err != nil || depth > model.MaxDepth {
				return
			}
			switch r.Kind {
			case model.Object:
				out[r.Object] = i
			case model.Union:
				for _, w := range r.Union.Variants {
					collect(w, depth+1)
				}
			}
		}
		collect(r, 0)
	}
	return out
}

func sharesOrigin(origin map[*model.ObjectType]int, x, y *model.Variant) bool {
	i, ok := origin[x.Object]
	j, ok2 := origin[y.Object]
	return ok && ok2 && i == j
}

// objectAccepts reports whether every value of y (with the members y declares) is a value of x:
// x requires only members y requires, and accepts each member of y, by its declaration or its
// index signature. It answers false where it cannot tell.
func (u *unionChecker) objectAccepts(x, y *model.ObjectType, depth int) bool {
	if x == y {
		return true
	}
	for _, m := range x.Members {
		if m.Optional || m.Absent {
			continue
		}
		if o := y.Member(m.Name); o == nil || o.Optional {
			return false
		}
	}
	for _, o := range y.Members {
		if o.Absent {
			continue
		}
		m := x.Member(o.Name)
		switch {
		case m == nil && x.Rest == nil, m != nil && m.Absent:
			return false
		case m == nil:
			if !u.accepts(x.Rest, o.Type, depth+1) {
				return false
			}
		case !u.accepts(m.Type, o.Type, depth+1) || o.Nullable && !m.Nullable:
			return false
		}
	}
	return y.Rest == nil || x.Rest != nil && u.accepts(x.Rest, y.Rest, depth+1)
}

// accepts reports whether every value of type y is a value of type x; false where it cannot tell.
func (u *unionChecker) accepts(x, y *model.Type, depth int) bool {
	if u.steps--; depth > 20 || u.steps < 0 {
		return false
	}
	if sameRef(x, y) {
		return true
	}
	x, errX := u.s.Deref(x)
	y, errY := u.s.Deref(y)
	if errX != nil || errY != nil {
		return false
	}
	if x.Kind == model.Any || x.Kind == model.Union && x.Union.Decision != nil && x.Union.Decision.Strategy == model.FreeFormStrategy {
		return true
	}
	if y.Kind == model.Union {
		for _, w := range y.Union.Variants {
			if !u.accepts(x, w, depth+1) {
				return false
			}
		}
		return len(y.Union.Variants) > 0
	}
	if x.Kind == model.Union {
		for _, w := range x.Union.Variants {
			if u.accepts(w, y, depth+1) {
				return true
			}
		}
		return false
	}
	return u.acceptsLeaf(x, y, depth)
}

// acceptsLeaf is accepts for two types that are not unions.
func (u *unionChecker) acceptsLeaf(x, y *model.Type, depth int) bool {
	lit := y.Kind == model.Literal
	switch x.Kind {
	case model.String:
		return y.Kind == model.String || lit && y.Literal.Kind == model.String
	case model.Number:
		return y.Kind == model.Number || y.Kind == model.Integer || lit && (y.Literal.Kind == model.Integer || y.Literal.Kind == model.Number)
	case model.Integer:
		return y.Kind == model.Integer || lit && y.Literal.Kind == model.Integer
	case model.Boolean:
		return y.Kind == model.Boolean || lit && y.Literal.Kind == model.Boolean
	case model.Null:
		return y.Kind == model.Null
	case model.Literal:
		return lit && x.Literal == y.Literal
	case model.Array:
		return y.Kind == model.Array && u.accepts(x.Elem, y.Elem, depth+1)
	case model.Map:
		switch y.Kind {
		case model.Map:
			return u.accepts(x.Elem, y.Elem, depth+1)
		case model.Object:
			return u.objectAccepts(&model.ObjectType{Rest: x.Elem}, y.Object, depth+1)
		}
	case model.Object:
		return y.Kind == model.Object && u.objectAccepts(x.Object, y.Object, depth+1)
	}
	return false
}
