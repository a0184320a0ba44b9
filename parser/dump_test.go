package parser

import (
	"fmt"
	"strings"

	"github.com/mcpgen/mcpgen/model"
)

// dump renders a resolved schema as TypeScript-like text, for golden tests and debugging: one
// block per declaration with its doc as `//` lines and the position of each name after `@`. Objects
// are written out in full; `integer` and `number` tell the two number kinds apart.
func dump(s *model.Schema) string {
	var b strings.Builder
	for _, c := range s.Consts {
		dumpDoc(&b, "", c.Doc)
		fmt.Fprintf(&b, "const %s @%d:%d = %s\n", c.Name, c.Pos.Line, c.Pos.Col, c.Value)
	}
	for _, d := range s.Decls {
		dumpDoc(&b, "", d.Doc)
		fmt.Fprintf(&b, "type %s @%d:%d = %s\n", d.Name, d.Pos.Line, d.Pos.Col, dumpType(d.Type, ""))
	}
	return b.String()
}

func dumpDoc(b *strings.Builder, indent string, d model.Doc) {
	line := func(s string) {
		for l := range strings.SplitSeq(s, "\n") {
			fmt.Fprintln(b, strings.TrimRight(indent+"// "+l, " "))
		}
	}
	if d.Text != "" {
		line(d.Text)
	}
	if d.Deprecated {
		line(strings.TrimSpace("@deprecated " + d.DeprecatedText))
	}
	if d.Internal {
		line("@internal")
	}
	if d.Category != "" {
		line("@category " + d.Category)
	}
	for _, s := range d.See {
		line("@see " + s)
	}
	for _, e := range d.Examples {
		line(fmt.Sprintf("@example %s {@includeCode %s}", e.Title, e.File))
	}
}

// dumpType renders t; objects span several lines, indented by indent.
func dumpType(t *model.Type, indent string) string {
	switch t.Kind {
	case model.Literal:
		return t.Literal.String()
	case model.Ref:
		return t.Ref
	case model.Array:
		elem := dumpType(t.Elem, indent)
		if t.Elem.Kind == model.Union {
			elem = "(" + elem + ")"
		}
		return elem + "[]"
	case model.Map:
		return "Record<string, " + dumpType(t.Elem, indent) + ">"
	case model.Union:
		vs := make([]string, len(t.Union.Variants))
		for i, v := range t.Union.Variants {
			vs[i] = dumpType(v, indent)
		}
		return strings.Join(vs, " | ")
	case model.Object:
		return dumpObject(t.Object, indent)
	}
	return t.Kind.String()
}

func dumpObject(o *model.ObjectType, indent string) string {
	if len(o.Members) == 0 && o.Rest == nil {
		return "{}"
	}
	var b strings.Builder
	in := indent + "  "
	b.WriteString("{\n")
	for _, m := range o.Members {
		dumpDoc(&b, in, m.Doc)
		opt := ""
		if m.Optional {
			opt = "?"
		}
		fmt.Fprintf(&b, "%s%q%s @%d:%d: %s%s\n", in, m.Name, opt, m.Pos.Line, m.Pos.Col, dumpType(m.Type, in), dumpConstraints(m.Constraints))
	}
	if o.Rest != nil {
		fmt.Fprintf(&b, "%s[key: string]: %s\n", in, dumpType(o.Rest, in))
	}
	b.WriteString(indent + "}")
	return b.String()
}

func dumpConstraints(c model.Constraints) string {
	if c.IsZero() {
		return ""
	}
	return "  (" + c.String() + ")"
}
