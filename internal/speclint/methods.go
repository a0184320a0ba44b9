package speclint

import (
	"strings"

	"github.com/mcpgen/mcpgen/model"
)

// Requests sharing a method: two declarations of requests (or of notifications) whose method
// member is the same constant. A peer's message of that method is either, and a result of that
// method has no one type; the generator refuses such a schema where it cannot choose.

// methods adds the findings of the methods of v.
func (l *linter) methods(v *version) {
	if v.read == nil {
		return
	}
	type first struct {
		decl string
		pos  model.Pos
	}
	seen := map[string]first{}
	for _, d := range v.read.Decls {
		kind, ok := messageKind(d.Name)
		if !ok || d.Type.Kind != model.Object {
			continue
		}
		m := d.Type.Object.Member("method")
		if m == nil {
			continue
		}
		t, err := v.read.Deref(m.Type)
		if err != nil || t.Kind != model.Literal || t.Literal.Kind != model.String {
			continue
		}
		key := kind + "\x00" + t.Literal.Str
		prev, dup := seen[key]
		if !dup {
			seen[key] = first{d.Name, m.Pos}
			continue
		}
		l.add(m.Pos, DuplicateMethod, d.Name, "has the method %q of the %s %s (%s): a message of this method is either, and nothing in it says which",
			t.Literal.Str, kind, prev.decl, where("schema.ts", prev.pos))
	}
}

// messageKind says whether the declaration name is a request's or a notification's, by the
// names the schema gives them.
func messageKind(name string) (string, bool) {
	switch {
	case strings.HasPrefix(name, model.EnvelopePrefix):
		return "", false
	case strings.HasSuffix(name, "Request"):
		return "request", true
	case strings.HasSuffix(name, "Notification"):
		return "notification", true
	}
	return "", false
}
