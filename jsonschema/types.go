package jsonschema

import (
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/model"
)

// Keywords the reader understands, by role. Annotations are read by the declaration or member
// that owns the schema and ignored on nested schemas; constraints are read by members only.
var (
	annotationKeys = []string{"description", "deprecated"}
	constraintKeys = []string{"minimum", "maximum", "format", "minItems", "maxItems", "minLength", "maxLength", "pattern"}
	shapeKeys      = []string{"$ref", "allOf", "anyOf", "oneOf", "enum", "const"}
	structureKeys  = []string{"type", "properties", "required", "additionalProperties", "items"}
)

// primitives maps the JSON Schema types that need no further keywords to model kinds.
var primitives = map[string]model.Kind{
	"string":  model.String,
	"integer": model.Integer,
	"number":  model.Number,
	"boolean": model.Boolean,
	"null":    model.Null,
}

// typ converts a schema. member says whether the schema is an object member's or a
// definition's, the places where constraint keywords are allowed.
func (l *loader) typ(s *node, member bool) (*model.Type, error) {
	if l.depth++; l.depth > model.MaxDepth {
		return nil, l.errorf(s.off, "found schemas nested more than %d deep, expected at most %d", model.MaxDepth, model.MaxDepth)
	}
	defer func() { l.depth-- }()
	switch s.kind {
	case kindBool:
		if !s.bool {
			return nil, l.errorf(s.off, "unsupported schema false")
		}
		return &model.Type{Kind: model.Any, Pos: l.pos(s.off)}, nil
	case kindObject:
	default:
		return nil, l.errorf(s.off, "schema is a JSON %s, expected an object", s.kind)
	}
	var shape *field // the keyword that decides the type
	for i := range s.fields {
		f := &s.fields[i]
		switch {
		case slices.Contains(shapeKeys, f.key):
			if shape != nil {
				return nil, l.errorf(f.off, "unsupported combination of %q and %q", shape.key, f.key)
			}
			shape = f
		case slices.Contains(constraintKeys, f.key):
			if !member {
				return nil, l.errorf(f.off, "unsupported keyword %q outside an object member or a definition", f.key)
			}
		case !slices.Contains(annotationKeys, f.key) && !slices.Contains(structureKeys, f.key):
			return nil, l.errorf(f.off, "unsupported keyword %q", f.key)
		}
	}
	t, err := l.shape(s, shape)
	if err != nil {
		return nil, err
	}
	t.Pos = l.pos(s.off)
	return t, nil
}

// shape converts a schema by its deciding keyword, or by "type" when it has none.
func (l *loader) shape(s *node, shape *field) (*model.Type, error) {
	if shape == nil {
		return l.structure(s)
	}
	allowed := []string{shape.key}
	if shape.key == "enum" || shape.key == "const" {
		allowed = append(allowed, "type")
	}
	if err := l.only(s, allowed...); err != nil {
		return nil, err
	}
	switch shape.key {
	case "$ref":
		name, err := l.refName(shape.val)
		return &model.Type{Kind: model.Ref, Ref: name}, err
	case "allOf":
		return l.allOf(shape.val)
	case "anyOf", "oneOf":
		return l.union(shape)
	case "const":
		return l.literal(shape.val, s.get("type"))
	}
	return l.enum(shape.val, s.get("type"))
}

// only reports an error for the first structure keyword of s not in keys.
func (l *loader) only(s *node, keys ...string) error {
	for _, f := range s.fields {
		if !slices.Contains(structureKeys, f.key) || slices.Contains(keys, f.key) {
			continue
		}
		if len(keys) == 0 {
			return l.errorf(f.off, "unsupported keyword %q without \"type\"", f.key)
		}
		return l.errorf(f.off, "unsupported combination of %q and %q", strings.Join(keys, ", "), f.key)
	}
	return nil
}

// structure converts a schema without a deciding keyword: by its "type", or `{}` (any value).
func (l *loader) structure(s *node) (*model.Type, error) {
	tf := s.get("type")
	if tf == nil {
		if s.get("properties") != nil || s.get("required") != nil || s.get("additionalProperties") != nil {
			return l.object(s)
		}
		if err := l.only(s); err != nil {
			return nil, err
		}
		return &model.Type{Kind: model.Any}, nil
	}
	if tf.val.kind == kindArray {
		if err := l.only(s, "type"); err != nil {
			return nil, err
		}
		return l.kinds(tf.val)
	}
	name, err := l.typeName(tf.val)
	if err != nil {
		return nil, err
	}
	switch name {
	case "object":
		return l.object(s)
	case "array":
		if err := l.only(s, "type", "items"); err != nil {
			return nil, err
		}
		elem := &model.Type{Kind: model.Any, Pos: l.pos(s.off)}
		if items := s.get("items"); items != nil {
			if elem, err = l.typ(items.val, false); err != nil {
				return nil, err
			}
		}
		return &model.Type{Kind: model.Array, Elem: elem}, nil
	}
	if err := l.only(s, "type"); err != nil {
		return nil, err
	}
	return &model.Type{Kind: primitives[name]}, nil
}

// typeName reads one "type" name.
func (l *loader) typeName(n *node) (string, error) {
	if n.kind != kindString {
		return "", l.errorf(n.off, "type is a JSON %s, expected a string", n.kind)
	}
	if _, ok := primitives[n.str]; !ok && n.str != "object" && n.str != "array" {
		return "", l.errorf(n.off, "unknown type %q", n.str)
	}
	return n.str, nil
}

// kinds converts a list of types, `"type": ["string", "integer"]`, to a union of those kinds.
func (l *loader) kinds(list *node) (*model.Type, error) {
	var variants []*model.Type
	for _, n := range list.elems {
		name, err := l.typeName(n)
		if err != nil {
			return nil, err
		}
		kind, ok := primitives[name]
		if !ok {
			return nil, l.errorf(n.off, "unsupported type %q in a list of types", name)
		}
		variants = append(variants, &model.Type{Kind: kind, Pos: l.pos(n.off)})
	}
	return l.variants(list, variants)
}

// variants returns a union of the given types, or the type itself when there is just one.
func (l *loader) variants(at *node, variants []*model.Type) (*model.Type, error) {
	switch len(variants) {
	case 0:
		return nil, l.errorf(at.off, "empty list")
	case 1:
		return variants[0], nil
	}
	return &model.Type{Kind: model.Union, Union: &model.UnionType{Variants: variants}}, nil
}

// union converts "anyOf" (or "oneOf"). A variant that is itself a union, such as a list of types
// or an enum, is spliced in: schema.ts writes `string | number | X` as one flat union.
func (l *loader) union(kw *field) (*model.Type, error) {
	if kw.val.kind != kindArray {
		return nil, l.errorf(kw.val.off, "%s is a JSON %s, expected an array", kw.key, kw.val.kind)
	}
	var variants []*model.Type
	for _, n := range kw.val.elems {
		t, err := l.typ(n, false)
		if err != nil {
			return nil, err
		}
		if t.Kind == model.Union {
			variants = append(variants, t.Union.Variants...)
		} else {
			variants = append(variants, t)
		}
	}
	return l.variants(kw.val, variants)
}

// enum converts an "enum" list to a union of literals.
func (l *loader) enum(list *node, typ *field) (*model.Type, error) {
	if list.kind != kindArray {
		return nil, l.errorf(list.off, "enum is a JSON %s, expected an array", list.kind)
	}
	var variants []*model.Type
	for _, n := range list.elems {
		t, err := l.literal(n, typ)
		if err != nil {
			return nil, err
		}
		t.Pos = l.pos(n.off)
		variants = append(variants, t)
	}
	return l.variants(list, variants)
}

// literal converts a "const" value (or an "enum" entry); null is the null type. typ is the
// schema's "type" keyword, if any, which must agree with the value.
func (l *loader) literal(n *node, typ *field) (*model.Type, error) {
	var t *model.Type
	switch n.kind {
	case kindString:
		t = &model.Type{Kind: model.Literal, Literal: model.Value{Kind: model.String, Str: n.str}}
	case kindNumber:
		t = &model.Type{Kind: model.Literal, Literal: model.NumberValue(n.str)}
	case kindBool:
		t = &model.Type{Kind: model.Literal, Literal: model.Value{Kind: model.Boolean, Bool: n.bool}}
	case kindNull:
		t = &model.Type{Kind: model.Null}
	default:
		return nil, l.errorf(n.off, "unsupported %s constant", n.kind)
	}
	if typ == nil {
		return t, nil
	}
	name, err := l.typeName(typ.val)
	if err != nil {
		return nil, err
	}
	if !valueHasType(n, name) {
		return nil, l.errorf(n.off, "%s constant in a schema of type %q", n.kind, name)
	}
	return t, nil
}

// valueHasType reports whether the JSON value n is of the JSON Schema type name.
func valueHasType(n *node, name string) bool {
	switch name {
	case "integer":
		return n.kind == kindNumber && model.NumberValue(n.str).Kind == model.Integer
	case "number", "string", "boolean", "null":
		return n.kind == name
	}
	return false
}
