package jsonschema

import (
	"slices"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/model"
)

// object converts an object schema. Without properties, an "additionalProperties" schema makes a
// Map (`{ [key: string]: T }`); with properties it is the Object's Rest. "additionalProperties":
// true adds nothing: every MCP object is open.
func (l *loader) object(s *node) (*model.Type, error) {
	if err := l.only(s, "type", "properties", "required", "additionalProperties"); err != nil {
		return nil, err
	}
	rest, err := l.rest(s)
	if err != nil {
		return nil, err
	}
	props, err := l.nonEmpty(s, "properties", kindObject)
	if err != nil {
		return nil, err
	}
	required, err := l.required(s, props)
	if err != nil {
		return nil, err
	}
	if props == nil && rest != nil {
		return &model.Type{Kind: model.Map, Elem: rest}, nil
	}
	obj := &model.ObjectType{Rest: rest}
	for _, p := range props.list() {
		m, err := l.member(p, required[p.key])
		if err != nil {
			return nil, err
		}
		obj.Members = append(obj.Members, m)
	}
	return &model.Type{Kind: model.Object, Object: obj}, nil
}

// rest reads "additionalProperties": the type of a schema, or nil for true or none.
func (l *loader) rest(s *node) (*model.Type, error) {
	ap := s.get("additionalProperties")
	switch {
	case ap == nil || ap.val.kind == kindBool && ap.val.bool:
		return nil, nil
	case ap.val.kind == kindBool:
		return nil, l.errorf(ap.off, "unsupported additionalProperties false")
	}
	return l.typ(ap.val, false)
}

// nonEmpty returns the value of keyword key of s, checking its JSON kind, or nil if s has none or
// it is an empty object or array.
func (l *loader) nonEmpty(s *node, key, kind string) (*node, error) {
	f := s.get(key)
	if f == nil {
		return nil, nil
	}
	if f.val.kind != kind {
		return nil, l.errorf(f.val.off, "%s is a JSON %s, expected an %s", key, f.val.kind, kind)
	}
	if len(f.val.fields) == 0 && len(f.val.elems) == 0 {
		return nil, nil
	}
	return f.val, nil
}

// required reads the "required" list; every name must be a property.
func (l *loader) required(s *node, props *node) (map[string]bool, error) {
	list, err := l.nonEmpty(s, "required", kindArray)
	if list == nil {
		return nil, err
	}
	names := map[string]bool{}
	for _, n := range list.elems {
		if n.kind != kindString {
			return nil, l.errorf(n.off, "required lists a JSON %s, expected a string", n.kind)
		}
		if props == nil || props.get(n.str) == nil {
			return nil, l.errorf(n.off, "required member %q is not a property", n.str)
		}
		names[n.str] = true
	}
	return names, nil
}

// member converts one entry of "properties".
func (l *loader) member(p field, required bool) (*model.Member, error) {
	t, err := l.typ(p.val, true)
	if err != nil {
		return nil, err
	}
	doc, err := l.doc(p.val)
	if err != nil {
		return nil, err
	}
	c, err := l.constraints(p.val)
	if err != nil {
		return nil, err
	}
	if t.Kind == model.Ref {
		// The constraints of a definition apply where it is used, under the member's own.
		c = l.defConstraints(t.Ref).Overlay(c)
	}
	return &model.Member{Name: p.key, Type: t, Optional: !required, Doc: doc, Constraints: c, Pos: l.pos(p.off), DeclaredIn: l.cur}, nil
}

// doc reads the annotations of a declaration's or member's schema.
func (l *loader) doc(s *node) (model.Doc, error) {
	var doc model.Doc
	if f := s.get("description"); f != nil {
		if f.val.kind != kindString {
			return doc, l.errorf(f.val.off, "description is a JSON %s, expected a string", f.val.kind)
		}
		doc.Text = model.CleanText(f.val.str)
	}
	if f := s.get("deprecated"); f != nil {
		if f.val.kind != kindBool {
			return doc, l.errorf(f.val.off, "deprecated is a JSON %s, expected a boolean", f.val.kind)
		}
		doc.Deprecated = f.val.bool
	}
	return doc, nil
}

// constraints reads the constraint keywords of a member's schema.
func (l *loader) constraints(s *node) (model.Constraints, error) {
	var c model.Constraints
	var err error
	for _, f := range s.fields {
		switch f.key {
		case "minimum":
			c.Minimum, err = l.number(f)
		case "maximum":
			c.Maximum, err = l.number(f)
		case "minItems":
			c.MinItems, err = l.count(f)
		case "maxItems":
			c.MaxItems, err = l.count(f)
		case "minLength":
			c.MinLength, err = l.count(f)
		case "maxLength":
			c.MaxLength, err = l.count(f)
		case "pattern":
			if f.val.kind != kindString {
				err = l.errorf(f.val.off, "pattern is a JSON %s, expected a string", f.val.kind)
			}
			c.Pattern = f.val.str
		case "format":
			if f.val.kind != kindString {
				err = l.errorf(f.val.off, "format is a JSON %s, expected a string", f.val.kind)
			}
			c.Format = f.val.str
		}
		if err != nil {
			return c, err
		}
	}
	return c, nil
}

// defConstraints returns the constraints of the definition name and of the definitions it is an
// alias of (`{"$ref": ...}`), the nearer ones first. Errors are left for the definitions' turn.
func (l *loader) defConstraints(name string) model.Constraints {
	var chain []model.Constraints
	for n := 0; n <= model.MaxDepth; n++ {
		d := l.def(name)
		if d == nil || d.val.kind != kindObject {
			break
		}
		c, err := l.constraints(d.val)
		if err != nil {
			break
		}
		chain = append(chain, c)
		ref := d.val.get("$ref")
		if ref == nil || ref.val.kind != kindString {
			break
		}
		next, ok := strings.CutPrefix(ref.val.str, l.prefix)
		if !ok {
			break
		}
		name = next
	}
	var c model.Constraints
	for _, cc := range slices.Backward(chain) {
		c = c.Overlay(cc)
	}
	return c
}

func (l *loader) number(f field) (*float64, error) {
	v, err := strconv.ParseFloat(f.val.str, 64)
	if f.val.kind != kindNumber || err != nil {
		return nil, l.errorf(f.val.off, "%s is not a number", f.key)
	}
	return &v, nil
}

func (l *loader) count(f field) (*int, error) {
	v, err := strconv.Atoi(f.val.str)
	if f.val.kind != kindNumber || err != nil || v < 0 {
		return nil, l.errorf(f.val.off, "%s is not a non-negative integer", f.key)
	}
	return &v, nil
}

// allOf flattens an intersection into one object: the members of every part in order, a member
// declared again taking the later type, and required if any part requires it.
func (l *loader) allOf(list *node) (*model.Type, error) {
	if list.kind != kindArray || len(list.elems) == 0 {
		return nil, l.errorf(list.off, "allOf must be a non-empty array")
	}
	obj := &model.ObjectType{}
	for _, n := range list.elems {
		t, err := l.typ(n, false)
		if err != nil {
			return nil, err
		}
		part, err := l.objectOf(t, n)
		if err != nil {
			return nil, err
		}
		merge(obj, part)
	}
	return model.ObjectOrMap(obj, model.Pos{}), nil
}

// objectOf returns the object type of an allOf part, following references.
func (l *loader) objectOf(t *model.Type, at *node) (*model.ObjectType, error) {
	seen := map[string]bool{}
	for t.Kind == model.Ref {
		if seen[t.Ref] {
			return nil, l.errorf(at.off, "allOf part %s is an alias of itself", t.Ref)
		}
		seen[t.Ref] = true
		if l.def(t.Ref) == nil {
			return nil, l.errorf(at.off, "$ref to undefined definition %q", t.Ref)
		}
		if l.busy[t.Ref] {
			return nil, l.errorf(at.off, "allOf cycle through %s", t.Ref)
		}
		d, err := l.decl(t.Ref)
		if err != nil {
			return nil, err
		}
		t = d.Type
	}
	switch t.Kind {
	case model.Object:
		return t.Object, nil
	case model.Map:
		return &model.ObjectType{Rest: t.Elem}, nil
	}
	return nil, l.errorf(at.off, "allOf part is %s, expected an object", t.Kind)
}

// merge adds the members and index signature of src to dst. Members are copied, so dst never
// changes the declaration it took them from.
func merge(dst, src *model.ObjectType) {
	for _, m := range src.Members {
		m := *m
		old := dst.Member(m.Name)
		if old == nil {
			dst.Members = append(dst.Members, &m)
			continue
		}
		m.Optional = m.Optional && old.Optional
		if m.Doc.Text == "" {
			m.Doc = old.Doc
		}
		if m.Constraints.IsZero() {
			m.Constraints = old.Constraints
		}
		*old = m
	}
	if src.Rest != nil {
		dst.Rest = src.Rest
	}
}
