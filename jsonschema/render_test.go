package jsonschema

import (
	"strings"

	"github.com/mcpgen/mcpgen/model"
)

// render writes a type in TypeScript-like syntax for test messages. Objects list their members
// one level deep.
func render(t *model.Type) string {
	return renderDepth(t, 2)
}

func renderDepth(t *model.Type, depth int) string {
	if t == nil {
		return "(none)"
	}
	switch t.Kind {
	case model.Literal:
		return t.Literal.String()
	case model.Ref:
		return t.Ref
	case model.Array:
		return "(" + renderDepth(t.Elem, depth) + ")[]"
	case model.Map:
		return "{ [key]: " + renderDepth(t.Elem, depth) + " }"
	case model.Union:
		parts := make([]string, len(t.Union.Variants))
		for i, v := range t.Union.Variants {
			parts[i] = renderDepth(v, depth)
		}
		return strings.Join(parts, " | ")
	case model.Object:
		if depth == 0 {
			return "{...}"
		}
		var parts []string
		for _, m := range t.Object.Members {
			name := m.Name
			if m.Optional {
				name += "?"
			}
			parts = append(parts, name+": "+renderDepth(m.Type, depth-1))
		}
		if t.Object.Rest != nil {
			parts = append(parts, "[key]: "+renderDepth(t.Object.Rest, depth-1))
		}
		return "{ " + strings.Join(parts, "; ") + " }"
	}
	return t.Kind.String()
}

// renderConstraints writes the constraints that are set.
func renderConstraints(c model.Constraints) string {
	if c.IsZero() {
		return "none"
	}
	return c.String()
}
