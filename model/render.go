package model

import "strings"

// Render writes a type in TypeScript-like syntax, for messages: references by name, objects with
// their members two levels deep ("{ a: string; b?: { c: integer; d: {...} } }"), "(none)" for nil.
func Render(t *Type) string {
	return RenderDepth(t, 2)
}

// RenderDepth is Render with objects written depth levels deep.
func RenderDepth(t *Type, depth int) string {
	if t == nil {
		return "(none)"
	}
	switch t.Kind {
	case Literal:
		return t.Literal.String()
	case Ref:
		return t.Ref
	case Array:
		return "(" + RenderDepth(t.Elem, depth) + ")[]"
	case Map:
		return "{ [key]: " + RenderDepth(t.Elem, depth) + " }"
	case Union:
		parts := make([]string, len(t.Union.Variants))
		for i, v := range t.Union.Variants {
			parts[i] = RenderDepth(v, depth)
		}
		return strings.Join(parts, " | ")
	case Object:
		if depth == 0 {
			return "{...}"
		}
		var parts []string
		for _, m := range t.Object.Members {
			name := m.Name
			if m.Optional {
				name += "?"
			}
			parts = append(parts, name+": "+RenderDepth(m.Type, depth-1))
		}
		if t.Object.Rest != nil {
			parts = append(parts, "[key]: "+RenderDepth(t.Object.Rest, depth-1))
		}
		return "{ " + strings.Join(parts, "; ") + " }"
	}
	return t.Kind.String()
}

// RenderConstraints writes the constraints that are set, or "none".
func RenderConstraints(c Constraints) string {
	if c.IsZero() {
		return "none"
	}
	return c.String()
}
