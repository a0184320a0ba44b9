package emit

import "github.com/mcpgen/mcpgen/emit/internal/ir"

import "slices"

// Planning validation: which unions and named collections have checks, decided before any
// Validate method is written.

// checks reports whether validating a value of type t can find a problem beyond the
// constraints of its member.
func (p *plan) checks(t *ir.Type) bool {
	switch t.Kind {
	case externalKind, pointerKind:
		return true
	case structKind:
		// A one-or-many value or an Unknown variant always has checks; a struct, by planChecks
		// and by its hand-written rules (known once the parts are read, after planChecks).
		if td := p.byName[t.Name]; td != nil && td.Form == structForm {
			return p.checked[t.Name] || p.rules[t.Name]
		}
		return true
	case unionKind, namedKind:
		return p.namedChecks(t.Name)
	case enumKind:
		td := p.byName[t.Name]
		return td == nil || !td.Open
	case sliceKind, mapKind:
		return p.elemChecks(t.Elem)
	case nullableKind:
		return p.checks(t.Elem)
	}
	return false
}

// elemChecks is checks for an element of an array or a map (or of a one-or-many value, or a
// value of a typed Extra): there a nil union is not an absent member but a value that cannot be
// encoded, so an element of a union type always has a check.
func (p *plan) elemChecks(t *ir.Type) bool {
	return t.Kind == unionKind || p.checks(t)
}

// namedChecks is checks for a union, or a named map or slice (or the wrapper of a primitive
// variant, which has none), from the table planChecks filled in.
func (p *plan) namedChecks(name string) bool {
	known, ok := p.checked[name]
	return known || !ok && p.byName[name] == nil
}

// planChecks decides which structs, unions and named collections have validation checks. They
// can refer to each other in cycles (a union with an array variant of itself), so the answers
// start at false and are recomputed until none changes: a type has checks only if something it
// reaches has them.
func (g *generator) planChecks() {
	for changed := true; changed; {
		changed = false
		for _, td := range g.types {
			var result bool
			switch td.Form {
			case interfaceForm:
				result = g.unionChecks(td)
			case collectionForm:
				result = g.checks(td.Type)
			case structForm:
				result = g.structChecks(td)
			default:
				continue
			}
			if result != g.checked[td.Name] {
				g.checked[td.Name], changed = result, true
			}
		}
	}
}

// unionChecks reports whether a value of a union can have a problem: it can be a pointer (nil), an
// unknown variant, or a variant with checks of its own.
func (p *plan) unionChecks(td *ir.Decl) bool {
	return td.Unknown != "" || td.NullVariant != "" ||
		slices.ContainsFunc(td.Variants, func(v *ir.Variant) bool { return v.Pointer || p.checks(v.Type) })
}

// structChecks reports whether validating a struct can find a problem, without its hand-written
// rules (plan.checks adds those): a struct with fields checks that Extra repeats none of them (or,
// without Extra, may check the fields), and one without checks the members that must be absent
// and the values of a typed Extra.
func (p *plan) structChecks(td *ir.Decl) bool {
	if len(td.Fields) > 0 {
		return true
	}
	return !p.opts.Config.DropUnknown && (len(td.Absent) > 0 || td.Rest != nil && p.elemChecks(td.Rest))
}

// declChecks is checks for a struct, or for a type defined as one, by its declaration.
func (p *plan) declChecks(td *ir.Decl) bool {
	switch td.Form {
	case structForm:
		return p.checks(&ir.Type{Kind: structKind, Name: td.Name})
	case definedForm:
		return p.checks(td.Type)
	}
	return false
}
