package apidiff

import (
	"fmt"
	"io"
	"strings"
)

// width is the width up to which Write fills lists of names.
const width = 100

// Write prints the report: a summary line, the removed, added and renamed types, the changes of
// each changed type, the constants and functions, and the changelog entries that name a change.
// from and to name the two sides ("2025-11-25 (package mcp20251125)"); changelogs names the
// changelogs that were matched ("" when the spec has none for these versions).
func (r *Report) Write(w io.Writer, from, to, changelogs string) error {
	p := &textWriter{w: w}
	p.line("Go API changes from %s to %s", from, to)
	p.line("")
	if r.Empty() {
		p.line("No change.")
	} else {
		parts := r.summary()
		parts[len(parts)-1] += "."
		p.fill("Summary: ", parts)
	}
	p.names("Removed types", typeNames(r.Removed))
	p.names("Added types", typeNames(r.Added))
	if len(r.Renamed) > 0 {
		p.line("")
		p.line("Renamed types (%d):", len(r.Renamed))
		for _, rn := range r.Renamed {
			p.line("  %s → %s", rn.Old, rn.New)
		}
	}
	if len(r.Changed) > 0 {
		p.line("")
		p.line("Changed types (%d):", len(r.Changed))
		for _, c := range r.Changed {
			p.change(c)
		}
	}
	if len(r.ConstsRemoved)+len(r.ConstsAdded)+len(r.ConstsRenamed)+len(r.ConstsChanged) > 0 {
		p.line("")
		p.line("Constants:")
		p.list("  removed", constNames(r.ConstsRemoved))
		p.list("  added", constNames(r.ConstsAdded))
		var renamed []string
		for _, c := range r.ConstsRenamed {
			renamed = append(renamed, c[0].Name+" → "+c[1].Name)
		}
		p.list("  renamed", renamed)
		var changed []string
		for _, c := range r.ConstsChanged {
			s := c[1].Name + " = " + c[0].Value + " → " + c[1].Value
			if c[0].Type != c[1].Type {
				s = fmt.Sprintf("%s: type %s → %s", c[1].Name, or(c[0].Type, "untyped"), or(c[1].Type, "untyped"))
			}
			changed = append(changed, s)
		}
		p.list("  changed", changed)
	}
	if len(r.FuncsRemoved)+len(r.FuncsAdded) > 0 {
		p.line("")
		p.line("Functions:")
		p.list("  removed", r.FuncsRemoved)
		p.list("  added", r.FuncsAdded)
	}
	p.line("")
	switch {
	case changelogs == "":
		p.line("No spec changelog is vendored for these versions (see schema/README.md).")
	case len(r.Changelog)+r.Unmatched == 0:
		p.line("Spec changelog (%s): no entries.", changelogs)
	case len(r.Changelog) == 0:
		p.line("Spec changelog (%s): no entry names these changes (%d entries).", changelogs, r.Unmatched)
	default:
		p.line("Spec changelog (%s): %d of %d entries name these changes:", changelogs, len(r.Changelog),
			len(r.Changelog)+r.Unmatched)
		for _, m := range r.Changelog {
			p.words(fmt.Sprintf("  %s %d (%s): ", strings.TrimSuffix(m.Section, " changes"), m.Number, m.Version),
				firstSentence(m.Text, 240))
			p.fill("      → ", m.Names)
		}
	}
	return p.err
}

// summary counts the changes of each kind: "2 types removed", ...
func (r *Report) summary() []string {
	var parts []string
	count := func(n int, noun, what string) {
		switch {
		case n == 1:
			parts = append(parts, fmt.Sprintf("1 %s %s", noun, what))
		case n > 1:
			parts = append(parts, fmt.Sprintf("%d %ss %s", n, noun, what))
		}
	}
	count(len(r.Removed), "type", "removed")
	count(len(r.Added), "type", "added")
	count(len(r.Renamed), "type", "renamed")
	count(len(r.Changed), "type", "changed")
	count(len(r.ConstsRemoved), "constant", "removed")
	count(len(r.ConstsAdded), "constant", "added")
	count(len(r.ConstsRenamed), "constant", "renamed")
	count(len(r.ConstsChanged), "constant", "changed")
	count(len(r.FuncsRemoved), "function", "removed")
	count(len(r.FuncsAdded), "function", "added")
	return parts
}

type textWriter struct {
	w   io.Writer
	err error
}

func (p *textWriter) line(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format+"\n", args...)
	}
}

// words prints text after prefix, filled to width; further lines are indented by four more
// spaces than prefix.
func (p *textWriter) words(prefix, text string) {
	indent := strings.Repeat(" ", len(prefix)-len(strings.TrimLeft(prefix, " "))+4)
	cur := prefix
	for _, w := range strings.Fields(text) {
		switch {
		case cur == prefix:
			cur += w
		case len([]rune(cur))+1+len([]rune(w)) > width:
			p.line("%s", cur)
			cur = indent + w
		default:
			cur += " " + w
		}
	}
	p.line("%s", cur)
}

// names prints a titled, counted list of names, filled to width.
func (p *textWriter) names(title string, names []string) {
	if len(names) == 0 {
		return
	}
	p.line("")
	p.line("%s (%d):", title, len(names))
	p.fill("  ", names)
}

// list prints "label (n): a, b, c" filled to width, or nothing for no items.
func (p *textWriter) list(label string, items []string) {
	if len(items) > 0 {
		p.fill(fmt.Sprintf("%s (%d): ", label, len(items)), items)
	}
}

// fill prints items separated by commas after prefix, breaking lines at width; further lines
// are indented as far as prefix's leading spaces plus four.
func (p *textWriter) fill(prefix string, items []string) {
	indent := strings.Repeat(" ", len(prefix)-len(strings.TrimLeft(prefix, " "))+4)
	if strings.TrimSpace(prefix) == "" || strings.TrimSpace(prefix) == "→" {
		indent = strings.Repeat(" ", len([]rune(prefix)))
	}
	if !strings.HasPrefix(prefix, " ") && strings.HasSuffix(prefix, ": ") {
		indent = strings.Repeat(" ", len(prefix))
	}
	cur := prefix
	for i, item := range items {
		if i < len(items)-1 {
			item += ","
		}
		switch {
		case cur == prefix:
			cur += item
		case len([]rune(cur))+1+len([]rune(item)) > width:
			p.line("%s", cur)
			cur = indent + item
		default:
			cur += " " + item
		}
	}
	p.line("%s", cur)
}

// change prints a changed type: its name (and old name, or kind), then a line per change.
func (p *textWriter) change(c *Change) {
	head := "  " + c.Name
	if c.OldName != "" {
		head += " (was " + c.OldName + ")"
	}
	if c.Kind != nil {
		head += ": " + c.Kind[0] + " → " + c.Kind[1]
	}
	p.line("%s", head)
	if c.Deprecated {
		p.line("    ~ deprecated")
	}
	if c.Undeprecated {
		p.line("    ~ no longer deprecated")
	}
	for _, m := range c.Members {
		p.line("    %s", m.String())
	}
}

// String is the member change as a line of the report: "+ Name Type (optional)", "- Name Type",
// "~ Name: Old → New", ...
func (m Member) String() string {
	arrow := func(s string) string {
		if m.Old == "" && m.New == "" {
			return s
		}
		return s + ": " + m.Old + " → " + m.New
	}
	switch m.Op {
	case FieldAdded:
		if m.Optional {
			return "+ " + m.Name + " " + m.New + " (optional)"
		}
		if m.JSON == "" {
			return "+ " + m.Name + " " + m.New
		}
		return "+ " + m.Name + " " + m.New + " (required)"
	case FieldRemoved:
		return "- " + m.Name + " " + m.Old
	case FieldRenamed:
		return "~ " + m.Old + " renamed " + m.New
	case FieldType:
		return "~ " + m.Name + ": " + m.Old + " → " + m.New
	case FieldJSON:
		return "~ " + m.Name + ": member " + m.Old + " → " + m.New
	case MadeRequired:
		return "~ " + arrow(m.Name+" made required")
	case MadeOptional:
		return "~ " + arrow(m.Name+" made optional")
	case FieldDeprecated:
		return "~ " + m.Name + " deprecated"
	case VariantAdded:
		return "+ variant " + m.Name
	case VariantRemoved:
		return "- variant " + m.Name
	case ValueAdded:
		return fmt.Sprintf("+ value %q", m.Name)
	case ValueRemoved:
		return fmt.Sprintf("- value %q", m.Name)
	}
	return string(m.Op) + " " + m.Name
}

func typeNames(ts []*Type) []string {
	var names []string
	for _, t := range ts {
		names = append(names, t.Name)
	}
	return names
}

func constNames(cs []*Const) []string {
	var names []string
	for _, c := range cs {
		names = append(names, c.Name)
	}
	return names
}

// firstSentence is the first sentence of text, shortened to max runes with "…".
func firstSentence(text string, max int) string {
	if i := strings.Index(text, ". "); i >= 0 {
		text = text[:i+1]
	}
	if r := []rune(text); len(r) > max {
		text = strings.TrimRight(string(r[:max-1]), " ") + "…"
	}
	return text
}

func or(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}
