// Package jsonschema is the schema.json front end of mcpgen: it reads the JSON Schema export of
// the MCP schema (draft-07 "definitions" or 2020-12 "$defs") and builds the same [model.Schema]
// as the TypeScript front end builds from schema.ts, as far as JSON Schema carries the facts.
//
// Each definition becomes a [model.Decl]; "$ref" stays a [model.Ref]; "allOf" is flattened into
// an object; "description" becomes Doc.Text; minimum, maximum, format, minItems and maxItems on a
// member become its Constraints. Any other keyword is an error of the form
// `file:line:col: Definition: message`. Schema.Consts stays empty: schema.json has no constants.
//
// [Compare] names each difference between the model of a schema.ts and the model of its
// schema.json: what the export writes differently, and what it loses.
package jsonschema

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/model"
)

// Load reads a schema.json; filename is used in positions. Schema.Version is left empty, as the
// TypeScript front end leaves it: the caller knows the version.
func Load(filename string, data []byte) (*model.Schema, error) {
	l := &loader{file: filename, lines: model.NewLines(filename, data)}
	if !utf8.Valid(data) {
		off := 0
		for r, n := utf8.DecodeRune(data); r != utf8.RuneError || n > 1; r, n = utf8.DecodeRune(data[off:]) {
			off += n
		}
		return nil, l.pos(off).Errorf("found the byte 0x%02x, which is not UTF-8, expected UTF-8 text", data[off])
	}
	root, err := parseJSON(data)
	if err != nil {
		var se *syntaxError
		if errors.As(err, &se) {
			return nil, l.pos(se.off).Errorf("%s", se.msg)
		}
		return nil, err
	}
	if err := l.root(root); err != nil {
		return nil, err
	}
	s := &model.Schema{}
	for _, f := range l.defs {
		d, err := l.decl(f.key)
		if err != nil {
			return nil, err
		}
		s.Decls = append(s.Decls, d)
	}
	for _, r := range l.refs {
		if l.def(r.name) == nil {
			return nil, l.pos(r.off).Errorf("%s: $ref to undefined definition %q", model.Shorten(r.decl), model.Shorten(r.name))
		}
	}
	if len(s.Decls) == 0 {
		return nil, l.pos(l.defsOff).Errorf("found no definitions, expected at least one")
	}
	return s, nil
}

// loader holds the state of one Load.
type loader struct {
	file    string
	lines   model.Lines
	prefix  string  // "#/definitions/" or "#/$defs/"
	defs    []field // the definitions, in file order
	decls   map[string]*model.Decl
	busy    map[string]bool // definitions being built, to catch allOf cycles
	refs    []ref           // every $ref, checked once all definitions are known
	cur     string          // the definition being built, named by errors
	depth   int             // of the schemas being converted
	defsOff int             // of the "definitions" or "$defs" member
}

// ref is a "$ref" seen while building definition decl.
type ref struct {
	name, decl string
	off        int
}

func (l *loader) pos(off int) model.Pos {
	return l.lines.Pos(off)
}

// errorf returns an error at off that names the definition being built.
func (l *loader) errorf(off int, format string, args ...any) error {
	return l.pos(off).Errorf("%s: %s", model.Shorten(l.cur), fmt.Sprintf(format, args...))
}

// root reads the top-level object: "$schema" and one of "definitions" and "$defs".
func (l *loader) root(n *node) error {
	if n.kind != kindObject {
		return l.pos(n.off).Errorf("schema is a JSON %s, expected an object", n.kind)
	}
	for _, f := range n.fields {
		switch f.key {
		case "$schema":
		case "definitions", "$defs":
			if l.prefix != "" {
				return l.pos(f.off).Errorf("both \"definitions\" and \"$defs\"")
			}
			if f.val.kind != kindObject {
				return l.pos(f.val.off).Errorf("%q is a JSON %s, expected an object", f.key, f.val.kind)
			}
			l.prefix, l.defs, l.defsOff = "#/"+f.key+"/", f.val.fields, f.off
		default:
			return l.pos(f.off).Errorf("unsupported top-level keyword %q", f.key)
		}
	}
	if l.prefix == "" {
		return l.pos(n.off).Errorf("no \"definitions\" or \"$defs\"")
	}
	l.decls, l.busy = map[string]*model.Decl{}, map[string]bool{}
	return nil
}

func (l *loader) def(name string) *field {
	for i := range l.defs {
		if l.defs[i].key == name {
			return &l.defs[i]
		}
	}
	return nil
}

// decl builds the named definition once. Definitions are built on demand because flattening an
// "allOf" needs the members of the definitions it refers to.
func (l *loader) decl(name string) (*model.Decl, error) {
	if d := l.decls[name]; d != nil {
		return d, nil
	}
	f := l.def(name)
	if f == nil {
		return nil, fmt.Errorf("no definition %q", name) // callers check names first
	}
	l.busy[name] = true
	defer delete(l.busy, name)
	outer := l.cur
	l.cur = name
	defer func() { l.cur = outer }()

	t, err := l.typ(f.val, true)
	if err != nil {
		return nil, err
	}
	if _, err := l.constraints(f.val); err != nil {
		return nil, err
	}
	doc, err := l.doc(f.val)
	if err != nil {
		return nil, err
	}
	d := &model.Decl{Name: name, Type: t, Doc: doc, Pos: l.pos(f.off)}
	l.decls[name] = d
	return d, nil
}

// refName returns the definition named by a "$ref" value.
func (l *loader) refName(n *node) (string, error) {
	if n.kind != kindString {
		return "", l.errorf(n.off, "$ref is a JSON %s, expected a string", n.kind)
	}
	name, ok := strings.CutPrefix(n.str, l.prefix)
	if !ok || name == "" || strings.ContainsAny(name, "/~") {
		return "", l.errorf(n.off, "unsupported $ref %q, expected %s<Name>", n.str, l.prefix)
	}
	l.refs = append(l.refs, ref{name: name, decl: l.cur, off: n.off})
	return name, nil
}
