// Package config reads mcpgen's configuration file, which shapes the generated package: the
// types to generate, their Go names, the existing Go types that replace some of them, extra
// initialisms, the package doc, and whether the output carries validators and the runtime.
//
// The file is YAML (mcpgen.yaml) or JSON (mcpgen.json, read as the YAML it also is):
//
//	package: mcp                  # the Go package name (-pkg overrides it)
//	doc: |                        # the package doc; the license notice of the spec's text follows it
//	  Package mcp holds the MCP types of example.com/mysdk.
//	types:                        # the roots: these and everything they reference (default: all)
//	  - CallToolRequestParams
//	  - CallToolResult
//	  - InitializeRequest.params  # a member's type, without its declaration
//	rename:                       # Go names of declarations, members' inline types, constants
//	  CallToolRequestParams: CallToolParams
//	  ClientCapabilities.sampling: SamplingCapabilities
//	fields:                       # Go names of fields
//	  Tool._meta: Metadata
//	substitute:                   # existing Go types that replace declarations or members' types
//	  Tool.inputSchema: "*github.com/google/jsonschema-go/jsonschema.Schema"
//	  ProgressToken: any
//	initialisms: [MIME]           # written in capitals, besides ID, URI, URL, JSON, RPC, HTTP
//	validate: false               # no validators (default true)
//	runtime: false                # no runtime files: another output in the package has them
//	filePrefix: ext_              # ext_types.go, ...: outputs sharing a directory
//	constants: false              # no schema constants: another output in the package has them
//
// and an SDK's own shapes (docs/sdk-shapes.md says what each loses):
//
//	optional:                     # optional members: pointer (default), omitempty, omitzero, value
//	  default: omitempty
//	  CreateMessageRequestParams.temperature: pointer
//	elements: pointer             # []*T for arrays of objects (default value)
//	objects: pointer              # *T for required objects (default value)
//	oneOrMany: slice              # E | E[] as []E (default struct)
//	nilAs:                        # a nil required slice or map: empty (default) or null
//	  CallToolResult.content: null
//	literals: implicit            # no field for a constant member (type: "text"; default field)
//	unknown: drop                 # no Extra: unknown members skipped (default keep)
//	decode: lenient               # null is the zero value, missing required members no error
//	embed: [Result._meta, CacheableResult]   # embedded fields; an embedded base
//	order:                        # members first, in this order (fields and wire)
//	  CompleteRequestParams: [argument, ref]
//	tagCodecs: [ClientCapabilities]   # coded by encoding/json from the tags, no MarshalJSON
//	omit: [SamplingMessage._meta]     # members left out: no field
//	defined: [EmptyResult]            # aliases as defined types: type EmptyResult Result
//	addFields:                    # hand-written fields, json:"-"
//	  CallToolResult: ["err error"]
//	declarations: |               # TypeScript merged into schema.ts (Load)
//	  export interface CallToolResult { requestState?: string }
//	standIn:                      # a declaration in place of another (Load)
//	  ContentBlock: Content
//
// Members may be named by their path through inline objects (ClientCapabilities.sampling.tools);
// an entry on a base's member (Result._meta) reaches the declarations inheriting it.
//
// The file is read with go.yaml.in/yaml/v3, the YAML organization's maintained continuation of
// gopkg.in/yaml.v3, which the root module has through testify already: its yaml.Node keeps the
// line and column of every key and value, which the errors name (encoding/json keeps none).
//
// [Parse] checks the file's syntax: known keys, each once, values of the right kind, Go
// identifiers, substitutes written as [*]importpath.Name. What needs the schema (the declarations
// and members named, the Go names that collide, the entries that change nothing) is checked by
// emit.Generate, and whether a substitute's Go type exists by [CheckSubstitutes]. Every error
// names the file, line and column of the entry at fault. Each of these reports every mistake it
// finds, skipping the entry at fault to check the others, as one model.ErrorList sorted by
// position when there are several.
package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	goparser "go/parser"
	"go/token"
	"maps"
	"regexp"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/mcpgen/mcpgen/emit"
	"github.com/mcpgen/mcpgen/model"
	"github.com/mcpgen/mcpgen/templates"
)

// File is a parsed configuration file.
type File struct {
	// Name is the file's name, as given to Parse.
	Name string
	// Package is the Go package name ("" when the file does not set it).
	Package string
	// Doc is the package doc, if HasDoc: a text/template executed with the fields Package and
	// Version, which should start with "Package <name> ". An empty doc leaves the package
	// without one (for an output that shares its package with another).
	Doc    string
	HasDoc bool
	// Config is what the file says about the output.
	Config emit.Config
	// Declarations is TypeScript added to the schema (the declarations key), with its lines and
	// columns those of the configuration file; nil when the file has none. See Load.
	Declarations []byte
}

// ValidPackageName reports whether name can name a Go package: an identifier (which is not a
// keyword) other than _.
func ValidPackageName(name string) bool {
	return token.IsIdentifier(name) && name != "_"
}

// PackageDoc returns the template of doc.go (emit.Options.PackageDoc) that the file asks for: the
// default one (templates.Doc), the file's doc followed by the license notice of the spec's text
// (templates.DocWith), or none for an empty doc.
func (f *File) PackageDoc() string {
	switch {
	case !f.HasDoc:
		return templates.Doc
	case strings.TrimSpace(f.Doc) == "":
		return ""
	}
	return templates.DocWith(f.Doc)
}

// keys are the top-level keys of a configuration file, in the order the documentation lists
// them.
var keys = []string{"package", "doc", "types", "rename", "fields", "substitute", "initialisms", "validate", "runtime", "filePrefix",
	"optional", "elements", "objects", "oneOrMany", "embed", "declarations", "standIn", "constants", "addFields", "unknown", "decode", "literals", "order", "tagCodecs", "nilAs", "omit", "defined"}

// Parse reads a configuration file. A .json file must be JSON; any other is YAML.
//
// Every mistake the file has is reported, as one model.ErrorList sorted by position when there
// are several: an entry at fault is skipped and the others are read. With the error, Parse
// returns the file without the entries at fault, so that a caller can check the others against
// the schema (Load, emit.Generate) and report all of a run's mistakes at once; but nil when what
// is at fault would make those checks report mistakes that are none: the file's syntax, a key
// that is not one or comes twice, or an entry of types, declarations or standIn, which decide
// what the schema and the selection are.
func Parse(name string, data []byte) (*File, error) {
	if strings.HasSuffix(name, ".json") {
		if err := checkJSON(name, data); err != nil {
			return nil, err
		}
		// JSON is YAML, but for tabs between tokens, which JSON allows and YAML does not. A tab
		// cannot appear inside a JSON string, so replacing each by a space changes nothing else,
		// and keeps every line and column.
		data = bytes.ReplaceAll(data, []byte("\t"), []byte(" "))
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, yamlError(name, err)
	}
	f := &File{Name: name}
	p := &reader{file: name}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return f, nil // an empty file configures nothing
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, p.errorf(root, "expected a mapping of %s, found %s", strings.Join(keys, ", "), kind(root))
	}
	seen := map[string]*yaml.Node{}
	var errs model.ErrorList
	partial := f
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if prev, dup := seen[k.Value]; dup {
			errs.Add(p.errorf(k, "%s is set twice (first at line %d)", k.Value, prev.Line))
			partial = nil
			continue
		}
		seen[k.Value] = k
		err := p.entry(f, k, v, data)
		if err != nil && (!slices.Contains(keys, k.Value) || slices.Contains(selecting, k.Value)) {
			partial = nil
		}
		errs.Add(err)
	}
	if f.Config.NoRuntime && f.Config.FilePrefix == "" && seen["filePrefix"] == nil {
		errs.Add(p.errorf(seen["runtime"], "runtime: false needs a filePrefix: the output shares its directory with the output that has the runtime"))
	}
	if err := errs.Err(); err != nil {
		return partial, err
	}
	return f, nil
}

// selecting are the keys that decide what the schema and the selection are: a mistake in them
// would make the other entries' checks against the schema wrong.
var selecting = []string{"types", "declarations", "standIn"}

// entry reads the top-level key k, of value v, into f; data is the file.
func (p *reader) entry(f *File, k, v *yaml.Node, data []byte) error {
	var err error
	switch k.Value {
	case "package":
		var name string
		if name, err = p.str(v, "package"); err == nil && !ValidPackageName(name) {
			err = p.errorf(v, "package: %q is not a valid Go package name", model.Shorten(name))
		}
		if err == nil {
			f.Package = name
		}
	case "doc":
		f.Doc, err = p.str(v, "doc")
		f.HasDoc = err == nil
	case "types":
		f.Config.Types, err = p.keyList(v, "types")
		if err == nil && f.Config.Types == nil {
			f.Config.Types = []emit.Entry{} // an empty list selects nothing but what the schema needs
		}
	case "rename":
		f.Config.Names, err = p.names(v, "rename", false)
	case "fields":
		f.Config.Fields, err = p.names(v, "fields", true)
	case "substitute":
		f.Config.Substitutes, err = p.substitutes(v)
	case "initialisms":
		f.Config.Initialisms, err = p.initialisms(v)
	case "validate":
		err = p.negated(v, "validate", &f.Config.NoValidate)
	case "runtime":
		err = p.negated(v, "runtime", &f.Config.NoRuntime)
	case "constants":
		err = p.negated(v, "constants", &f.Config.NoConstants)
	case "filePrefix":
		f.Config.FilePrefix, err = p.filePrefix(v)
	case "optional":
		f.Config.Optional, err = p.shape(v, "optional", emit.Pointer, emit.OmitEmpty, emit.OmitZero, emit.Value)
	case "elements":
		f.Config.Elements, err = p.shape(v, "elements", emit.Value, emit.Pointer)
	case "objects":
		f.Config.Objects, err = p.shape(v, "objects", emit.Value, emit.Pointer)
	case "oneOrMany":
		f.Config.OneOrMany, err = p.shape(v, "oneOrMany", emit.Struct, emit.Slice)
	case "nilAs":
		f.Config.NilAs, err = p.shape(v, "nilAs", emit.Empty, emit.Null)
	case "literals":
		f.Config.Literals, err = p.shape(v, "literals", emit.Field, emit.Implicit)
	case "embed":
		f.Config.Embed, err = p.keyList(v, "embed")
	case "addFields":
		f.Config.AddFields, err = p.addFields(v)
	case "tagCodecs":
		f.Config.TagCodecs, err = p.keyList(v, "tagCodecs")
	case "defined":
		f.Config.Defined, err = p.defined(v)
	case "omit":
		f.Config.Omit, err = p.omit(v)
	case "order":
		f.Config.Order, err = p.order(v)
	case "decode":
		f.Config.Lenient, err = p.choice(v, "decode", "strict", "lenient")
	case "unknown":
		f.Config.DropUnknown, err = p.choice(v, "unknown", "keep", "drop")
	case "declarations":
		f.Declarations, err = p.typescript(v, data)
	case "standIn":
		f.Config.StandIns, err = p.standIns(v)
	default:
		err = p.errorf(k, "unknown key %q%s; the keys are %s", k.Value, suggest(k.Value, keys), strings.Join(keys, ", "))
	}
	return err
}

// defined reads the value of defined: declarations, not members.
func (p *reader) defined(v *yaml.Node) ([]emit.Entry, error) {
	list, err := p.keyList(v, "defined")
	return without(list, err, func(e emit.Entry) error {
		if strings.Contains(e.Name, ".") {
			return e.Pos.Errorf("defined: %s is a member: a defined type is made of an alias declaration (EmptyResult)", e.Name)
		}
		return nil
	})
}

// omit reads the value of omit: members, not declarations.
func (p *reader) omit(v *yaml.Node) ([]emit.Entry, error) {
	list, err := p.keyList(v, "omit")
	return without(list, err, func(e emit.Entry) error {
		if !strings.Contains(e.Name, ".") {
			return e.Pos.Errorf("omit: %q names no member: write Declaration.member (SamplingMessage._meta)", e.Name)
		}
		return nil
	})
}

// standIns reads the value of standIn: a declaration for a declaration, none stood in for
// standing in itself.
func (p *reader) standIns(v *yaml.Node) (map[string]emit.Entry, error) {
	m, err := p.names(v, "standIn", false)
	var errs model.ErrorList
	errs.Add(err)
	for _, key := range slices.Sorted(maps.Keys(m)) {
		e := m[key]
		if strings.Contains(key, ".") {
			errs.Add(p.errorf(v, "standIn: %s: a declaration stands in for a declaration, not a member", key))
		} else if m[e.Name].Name != "" {
			errs.Add(e.Pos.Errorf("standIn: %s stands in for %s, and is stood in for itself", e.Name, key))
		}
	}
	return m, errs.Err()
}

// without returns the entries for which check finds no mistake, and err with those mistakes.
func without(entries []emit.Entry, err error, check func(emit.Entry) error) ([]emit.Entry, error) {
	var errs model.ErrorList
	errs.Add(err)
	var out []emit.Entry
	for _, e := range entries {
		if err := check(e); err != nil {
			errs.Add(err)
			continue
		}
		out = append(out, e)
	}
	return out, errs.Err()
}

// reader reads the nodes of one file.
type reader struct {
	file string
}

func (p *reader) pos(n *yaml.Node) model.Pos {
	return model.Pos{File: p.file, Line: n.Line, Col: n.Column}
}

func (p *reader) errorf(n *yaml.Node, format string, args ...any) error {
	return p.pos(n).Errorf(format, args...)
}

// kind names what a node is, for messages.
func kind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	}
	switch n.Tag {
	case "!!null":
		return "nothing"
	case "!!bool":
		return "a boolean"
	case "!!int", "!!float":
		return "a number"
	}
	return fmt.Sprintf("the string %q", model.Shorten(n.Value))
}

// str reads a string.
func (p *reader) str(n *yaml.Node, what string) (string, error) {
	if n.Kind != yaml.ScalarNode || n.Tag != "!!str" {
		return "", p.errorf(n, "%s: expected a string, found %s", what, kind(n))
	}
	return n.Value, nil
}

// identifier reads a Go identifier.
func (p *reader) identifier(n *yaml.Node, what string) (string, error) {
	s, err := p.str(n, what)
	if err != nil {
		return "", err
	}
	if !token.IsIdentifier(s) {
		return "", p.errorf(n, "%s: %q is not a Go identifier", what, model.Shorten(s))
	}
	return s, nil
}

// negated reads a boolean into *not, negated (validate: false is NoValidate), unless it is at
// fault.
func (p *reader) negated(n *yaml.Node, what string, not *bool) error {
	b, err := p.boolean(n, what)
	if err == nil {
		*not = !b
	}
	return err
}

func (p *reader) boolean(n *yaml.Node, what string) (bool, error) {
	if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" {
		return false, p.errorf(n, "%s: expected true or false, found %s", what, kind(n))
	}
	return n.Value == "true", nil
}

// key reads the name of a declaration ("Tool") or a member ("Tool.inputSchema"); member
// requires a member.
func (p *reader) key(n *yaml.Node, what string, member bool) (string, error) {
	s, err := p.str(n, what)
	if err != nil {
		return "", err
	}
	decl, m, hasMember := strings.Cut(s, ".")
	switch {
	case !token.IsIdentifier(decl):
		return "", p.errorf(n, "%s: %q does not name a declaration (Tool) or a member (Tool.inputSchema)", what, model.Shorten(s))
	case hasMember && m == "":
		return "", p.errorf(n, "%s: %q names no member after the dot", what, s)
	case member && !hasMember:
		return "", p.errorf(n, "%s: %q names no member: write Declaration.member (Tool.inputSchema)", what, s)
	}
	return s, nil
}

// keyList reads a list of declarations and members.
func (p *reader) keyList(n *yaml.Node, what string) ([]emit.Entry, error) {
	if n.Kind != yaml.SequenceNode {
		return nil, p.errorf(n, "%s: expected a list, found %s", what, kind(n))
	}
	var out []emit.Entry
	var errs model.ErrorList
	seen := map[string]int{}
	for _, item := range n.Content {
		s, err := p.key(item, what, false)
		if err == nil && seen[s] > 0 {
			err = p.errorf(item, "%s: %s is listed twice (first at line %d)", what, s, seen[s])
		}
		if err != nil {
			errs.Add(err)
			continue
		}
		seen[s] = item.Line
		out = append(out, emit.Entry{Name: s, Pos: p.pos(item)})
	}
	return out, errs.Err()
}

// mapping calls entry for each key and value of a mapping, checking that no key comes twice.
func (p *reader) mapping(n *yaml.Node, what string, entry func(k, v *yaml.Node) error) error {
	if n.Kind != yaml.MappingNode {
		return p.errorf(n, "%s: expected a mapping, found %s", what, kind(n))
	}
	var errs model.ErrorList
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if line, dup := seen[k.Value]; dup {
			errs.Add(p.errorf(k, "%s: %s is set twice (first at line %d)", what, k.Value, line))
			continue
		}
		seen[k.Value] = k.Line
		errs.Add(entry(k, v))
	}
	return errs.Err()
}

// names reads rename or fields: keys to Go identifiers.
func (p *reader) names(n *yaml.Node, what string, member bool) (map[string]emit.Entry, error) {
	out := map[string]emit.Entry{}
	err := p.mapping(n, what, func(k, v *yaml.Node) error {
		key, err := p.key(k, what, member)
		if err != nil {
			return err
		}
		name, err := p.identifier(v, what+": "+key)
		if err != nil {
			return err
		}
		out[key] = emit.Entry{Name: name, Pos: p.pos(v)}
		return nil
	})
	return out, err
}

// goType matches a substitute: an optional *, then an import path and a dot, then a name; or a
// name alone.
var goType = regexp.MustCompile(`^(\*?)(?:([^\s*"]+)\.)?([^./\s]+)$`)

// substitutes reads substitute: keys to Go types.
func (p *reader) substitutes(n *yaml.Node) (map[string]emit.Substitute, error) {
	out := map[string]emit.Substitute{}
	err := p.mapping(n, "substitute", func(k, v *yaml.Node) error {
		key, err := p.key(k, "substitute", false)
		if err != nil {
			return err
		}
		s, err := p.str(v, "substitute: "+key)
		if err != nil {
			return err
		}
		if sub, ok := compositeType(s); ok {
			sub.Pos = p.pos(v)
			out[key] = sub
			return nil
		}
		m := goType.FindStringSubmatch(s)
		if m == nil || !token.IsIdentifier(m[3]) {
			return p.errorf(v, "substitute: %s: %q is not a Go type written as [*]importpath.Name (*github.com/google/jsonschema-go/jsonschema.Schema), Name (a type of the output's package), a predeclared type (any, int, ...), or a type expression of those without import paths (map[string]any, []string)", key, model.Shorten(s))
		}
		sub := emit.Substitute{Pointer: m[1] == "*", Path: m[2], Name: m[3], Pos: p.pos(v)}
		if sub.Path != "" {
			if err := checkImportPath(sub.Path); err != nil {
				return p.errorf(v, "substitute: %s: %v", key, err)
			}
			if !token.IsExported(sub.Name) {
				return p.errorf(v, "substitute: %s: %s is not exported from %s", key, sub.Name, sub.Path)
			}
		}
		out[key] = sub
		return nil
	})
	return out, err
}

// compositeType reads a substitute written as a Go type expression of predeclared types and
// types of the output's package: a map, a slice or array, a struct, a pointer to one of those,
// an interface, a function or a channel ("map[string]any", "[]string", "[]byte",
// "struct{ ListChanged bool `json:\"listChanged,omitempty\"` }"), no import path.
func compositeType(s string) (emit.Substitute, bool) {
	e, err := goparser.ParseExpr(s)
	if err != nil {
		return emit.Substitute{}, false
	}
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.SelectorExpr, *ast.CallExpr, *ast.BinaryExpr, *ast.IndexExpr, *ast.CompositeLit, *ast.FuncLit:
			ok = false
		}
		return ok
	})
	if star, isStar := e.(*ast.StarExpr); isStar {
		if _, named := star.X.(*ast.Ident); named {
			return emit.Substitute{}, false // *Name: the ordinary form
		}
	}
	sub := emit.Substitute{Name: s, Composite: true, Kind: kindOf(e)}
	if sub.Kind == "" {
		return emit.Substitute{}, false
	}
	if s == "[]byte" {
		return emit.Substitute{Name: s, Kind: "slice"}, ok
	}
	return sub, ok
}

// kindOf is the kind of a type expression (emit.Substitute.Kind), "" for a name.
func kindOf(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StructType:
		return "struct"
	case *ast.MapType:
		return "map"
	case *ast.InterfaceType:
		return "interface"
	case *ast.FuncType:
		return "func"
	case *ast.ChanType:
		return "chan"
	case *ast.ArrayType:
		if t.Len == nil {
			return "slice"
		}
		return "array"
	case *ast.StarExpr:
		return "pointer"
	case *ast.ParenExpr:
		return kindOf(t.X)
	}
	return ""
}

// checkImportPath checks the form of an import path: slash-separated elements of letters,
// digits and -._~+, none empty or starting with a dot.
func checkImportPath(path string) error {
	for _, elem := range strings.Split(path, "/") {
		if elem == "" || elem[0] == '.' || strings.Trim(elem, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~+") != "" {
			return fmt.Errorf("%q is not an import path", model.Shorten(path))
		}
	}
	return nil
}

// typescript reads the declarations key: TypeScript text, returned with as many newlines and
// spaces before it as make the parser's lines and columns those of the configuration file
// (data), for a block scalar (declarations: |) as for a one-line string.
func (p *reader) typescript(n *yaml.Node, data []byte) ([]byte, error) {
	s, err := p.str(n, "declarations")
	if err != nil {
		return nil, err
	}
	lines := strings.Split(string(data), "\n")
	if n.Style == yaml.LiteralStyle || n.Style == yaml.FoldedStyle {
		// The text starts on the line after the indicator, indented as that line is.
		indent := 0
		if n.Line < len(lines) {
			indent = len(lines[n.Line]) - len(strings.TrimLeft(lines[n.Line], " "))
		}
		var b strings.Builder
		b.WriteString(strings.Repeat("\n", n.Line))
		for i, line := range strings.Split(s, "\n") {
			if i > 0 {
				b.WriteString("\n")
			}
			if line != "" {
				b.WriteString(strings.Repeat(" ", indent))
			}
			b.WriteString(line)
		}
		return []byte(b.String()), nil
	}
	col := n.Column - 1
	if n.Style == yaml.DoubleQuotedStyle || n.Style == yaml.SingleQuotedStyle {
		col++
	}
	return []byte(strings.Repeat("\n", n.Line-1) + strings.Repeat(" ", col) + s), nil
}

// order reads order: declarations (or paths to inline objects) to lists of member names.
func (p *reader) order(n *yaml.Node) (map[string][]emit.Entry, error) {
	return p.lists(n, "order", "member names", func(k *yaml.Node) (string, error) { return p.key(k, "order", false) })
}

// addFields reads addFields: declarations to lists of Go fields.
func (p *reader) addFields(n *yaml.Node) (map[string][]emit.Entry, error) {
	return p.lists(n, "addFields", "Go fields (err error)", func(k *yaml.Node) (string, error) { return p.identifier(k, "addFields") })
}

// lists reads a mapping of keys (read by key) to lists of strings (of what).
func (p *reader) lists(n *yaml.Node, name, what string, key func(*yaml.Node) (string, error)) (map[string][]emit.Entry, error) {
	out := map[string][]emit.Entry{}
	err := p.mapping(n, name, func(k, v *yaml.Node) error {
		key, err := key(k)
		if err != nil {
			return err
		}
		if v.Kind != yaml.SequenceNode {
			return p.errorf(v, "%s: %s: expected a list of %s, found %s", name, key, what, kind(v))
		}
		var errs model.ErrorList
		for _, item := range v.Content {
			s, err := p.str(item, name+": "+key)
			if err != nil {
				errs.Add(err)
				continue
			}
			out[key] = append(out[key], emit.Entry{Name: s, Pos: p.pos(item)})
		}
		return errs.Err()
	})
	return out, err
}

// choice reads a choice for the whole output between the default and other, reporting whether
// it is other.
func (p *reader) choice(n *yaml.Node, what, def, other string) (bool, error) {
	sh, err := p.shape(n, what, def, other)
	if err == nil && sh.Members != nil {
		err = p.errorf(n, "%s: expected %s or %s, for the whole output", what, def, other)
	}
	return sh.Default.Name == other, err
}

// shape reads optional, elements or objects: one of values for the whole output, or a mapping
// of a default and members to one of values.
func (p *reader) shape(n *yaml.Node, what string, values ...string) (emit.Shape, error) {
	var sh emit.Shape
	value := func(n *yaml.Node, what string) (emit.Entry, error) {
		if n.Kind == yaml.ScalarNode && n.Tag == "!!null" && n.Value == "null" && slices.Contains(values, "null") {
			return emit.Entry{Name: "null", Pos: p.pos(n)}, nil // nilAs: null, unquoted
		}
		s, err := p.str(n, what)
		if err == nil && !slices.Contains(values, s) {
			err = p.errorf(n, "%s: %q is not one of %s", what, model.Shorten(s), strings.Join(values, ", "))
		}
		if err != nil {
			return emit.Entry{}, err // the generator's default
		}
		return emit.Entry{Name: s, Pos: p.pos(n)}, nil
	}
	if n.Kind == yaml.ScalarNode {
		var err error
		sh.Default, err = value(n, what)
		return sh, err
	}
	if n.Kind != yaml.MappingNode {
		return sh, p.errorf(n, "%s: expected one of %s, or a mapping of default and members to one of them, found %s", what, strings.Join(values, ", "), kind(n))
	}
	sh.Members = map[string]emit.Entry{}
	err := p.mapping(n, what, func(k, v *yaml.Node) error {
		if k.Value == "default" {
			e, err := value(v, what+": default")
			if err == nil {
				sh.Default = e
			}
			return err
		}
		key, err := p.key(k, what, true)
		if err != nil {
			return err
		}
		e, err := value(v, what+": "+key)
		if err == nil {
			sh.Members[key] = e
		}
		return err
	})
	return sh, err
}

func (p *reader) initialisms(n *yaml.Node) ([]emit.Entry, error) {
	if n.Kind != yaml.SequenceNode {
		return nil, p.errorf(n, "initialisms: expected a list, found %s", kind(n))
	}
	var out []emit.Entry
	var errs model.ErrorList
	for _, item := range n.Content {
		s, err := p.identifier(item, "initialisms")
		if err != nil {
			errs.Add(err)
			continue
		}
		out = append(out, emit.Entry{Name: s, Pos: p.pos(item)})
	}
	return out, errs.Err()
}

// filePrefix matches the prefixes of file names that the go command builds (not starting with _
// or ., ignored files) and that end with _, so that no file of an output without a prefix starts
// with one (types.go, not ext_types.go).
var filePrefix = regexp.MustCompile(`^[a-z0-9][a-z0-9_]*_$`)

func (p *reader) filePrefix(n *yaml.Node) (string, error) {
	s, err := p.str(n, "filePrefix")
	if err != nil {
		return "", err
	}
	if !filePrefix.MatchString(s) {
		return "", p.errorf(n, "filePrefix: %q is not lower-case letters, digits and _, starting with a letter or digit and ending with _ (ext_)", model.Shorten(s))
	}
	if s == "wire_" {
		return "", p.errorf(n, "filePrefix: wire_ starts the names of the runtime's files")
	}
	return s, nil
}

// yamlLine matches the position in the YAML library's errors.
var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// yamlError makes a YAML syntax error name the file and line.
func yamlError(name string, err error) error {
	msg := err.Error()
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		return fmt.Errorf("%s:%s: %s", name, m[1], m[2])
	}
	return fmt.Errorf("%s: %s", name, strings.TrimPrefix(msg, "yaml: "))
}

// checkJSON fails with the line and column of a JSON syntax error.
func checkJSON(name string, data []byte) error {
	var v any
	err := json.Unmarshal(data, &v)
	var syntax *json.SyntaxError
	if errors.As(err, &syntax) {
		before := data[:min(max(int(syntax.Offset)-1, 0), len(data))] // Offset is after the byte at fault
		line := bytes.Count(before, []byte("\n")) + 1
		col := len(before) - bytes.LastIndexByte(before, '\n')
		return model.Pos{File: name, Line: line, Col: col}.Errorf("%v", err)
	}
	if err != nil {
		return fmt.Errorf("%s: %v", name, err)
	}
	return nil
}

// suggest returns " (did you mean X?)" for a close candidate, or "".
func suggest(s string, candidates []string) string {
	for _, c := range candidates {
		if strings.EqualFold(s, c) || len(s) > 2 && (strings.HasPrefix(c, s) || strings.HasPrefix(s, c)) || swapped(s, c) {
			return " (did you mean " + c + "?)"
		}
	}
	return ""
}

// swapped reports whether a and b differ by one pair of adjacent letters swapped or one letter.
func swapped(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	var diff []int
	for i := range a {
		if a[i] != b[i] {
			diff = append(diff, i)
		}
	}
	return len(diff) == 1 || len(diff) == 2 && diff[1] == diff[0]+1 && a[diff[0]] == b[diff[1]] && a[diff[1]] == b[diff[0]]
}
