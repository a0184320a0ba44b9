package parser

// Branded primitives (`number & { readonly minimum: 0 }`): the primitive, its brand read as
// constraints.

import (
	"slices"

	"github.com/mcpgen/mcpgen/model"
)

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
