package decls

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
)

// Type is an exported type declaration and its exported fields.
type Type struct {
	Name   string
	File   string
	Alias  string  // the aliased type's expression, for type X = Y
	Fields []Field // a struct's exported fields, in order; nil for other kinds
	Struct bool
}

// Field is an exported field of a struct: its name (an embedded field's is its type's name),
// its type as Go source, and whether it is embedded. Tags are not compared: what a program
// compiles against is the name and the type.
type Field struct {
	Name     string
	Type     string
	Embedded bool
}

func (f Field) String() string {
	if f.Embedded {
		return "embedded " + f.Type
	}
	return f.Name + " " + f.Type
}

// ExportedTypes returns the exported types that the named files of p declare, in source order.
func ExportedTypes(p *Pkg, files ...string) ([]Type, error) {
	var out []Type
	for _, name := range files {
		f := p.File(name)
		if f == nil {
			return nil, fmt.Errorf("%s: no file %s", p.Dir, name)
		}
		out = append(out, typesOf(f, true)...)
	}
	return out, nil
}

func typesOf(f *File, exportedOnly bool) []Type {
	var out []Type
	for _, d := range f.AST.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.TYPE {
			continue
		}
		for _, s := range g.Specs {
			ts := s.(*ast.TypeSpec)
			if exportedOnly && !ts.Name.IsExported() {
				continue
			}
			t := Type{Name: ts.Name.Name, File: f.Name}
			if ts.Assign.IsValid() {
				t.Alias = source(ts.Type)
			}
			if st, ok := ts.Type.(*ast.StructType); ok {
				t.Struct = true
				t.Fields = fieldsOf(st)
			}
			out = append(out, t)
		}
	}
	return out
}

func fieldsOf(st *ast.StructType) []Field {
	fields := []Field{}
	for _, fl := range st.Fields.List {
		typ := source(fl.Type)
		if len(fl.Names) == 0 {
			if name := embeddedName(fl.Type); ast.IsExported(name) {
				fields = append(fields, Field{Name: name, Type: typ, Embedded: true})
			}
			continue
		}
		for _, n := range fl.Names {
			if n.IsExported() {
				fields = append(fields, Field{Name: n.Name, Type: typ})
			}
		}
	}
	return fields
}

// embeddedName is the field name of an embedded type: T of T, *T, pkg.T, T[P].
func embeddedName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.StarExpr:
		return embeddedName(x.X)
	case *ast.SelectorExpr:
		return x.Sel.Name
	case *ast.IndexExpr:
		return embeddedName(x.X)
	case *ast.IndexListExpr:
		return embeddedName(x.X)
	case *ast.Ident:
		return x.Name
	}
	return ""
}

// source writes an expression on one line, without comments and without the field tags of an
// inline struct, so that two spellings of one type compare equal however they are laid out and
// commented.
func source(e ast.Expr) string {
	return types.ExprString(e)
}

// Measurement says how much of an API a package's generated output declares.
type Measurement struct {
	Types     int      // the API's exported types
	Declared  []string // those the output declares (a generated type, or an alias of one)
	Missing   []string // those it does not
	Identical []string // declared, with the same exported fields and nothing else exported added
	AllFields int      // the exported fields of every type of the API
	Fields    int      // the exported fields of the declared types
	Kept      int      // those of them that the output's type has, same name and type
	Lost      []string // the others: Type.Field, the API's type and the output's
}

// FieldShare is Kept/Fields.
func (m *Measurement) FieldShare() float64 {
	if m.Fields == 0 {
		return 0
	}
	return float64(m.Kept) / float64(m.Fields)
}

func (m *Measurement) String() string {
	return fmt.Sprintf("%d of %d types declared by mcpgen's output (%d identical), %d of %d fields of those types keep name and type (%.1f%%; %d fields in all %d types)",
		len(m.Declared), m.Types, len(m.Identical), m.Kept, m.Fields, 100*m.FieldShare(), m.AllFields, m.Types)
}

// Measure compares api, the exported types of the hand-written package, with out, the package
// where mcpgen's output replaced them. A type is declared by the output when a generated file
// declares it, or when a file named in aliases declares it as an alias (possibly through other
// aliases) of a type a generated file declares. Its fields are compared with the generated
// type's (the alias's target's).
func Measure(api []Type, out *Pkg, aliases []string) *Measurement {
	generated := map[string]Type{}
	handAliases := map[string]string{}
	for _, f := range out.Files {
		switch {
		case f.Generated:
			for _, t := range typesOf(f, false) {
				generated[t.Name] = t
			}
		case slices.Contains(aliases, f.Name):
			for _, t := range typesOf(f, false) {
				if t.Alias != "" {
					handAliases[t.Name] = t.Alias
				}
			}
		}
	}
	resolve := func(name string) (Type, bool) {
		for range 10 { // an alias chain, not a cycle
			if t, ok := generated[name]; ok {
				if t.Alias != "" && (generated[t.Alias].Name != "" || handAliases[t.Alias] != "") {
					name = t.Alias
					continue
				}
				return t, true
			}
			target, ok := handAliases[name]
			if !ok {
				return Type{}, false
			}
			name = target
		}
		return Type{}, false
	}
	m := &Measurement{Types: len(api)}
	for _, t := range api {
		m.AllFields += len(t.Fields)
		g, ok := resolve(t.Name)
		if !ok {
			m.Missing = append(m.Missing, t.Name)
			continue
		}
		m.Declared = append(m.Declared, t.Name)
		m.Fields += len(t.Fields)
		kept := 0
		for _, f := range t.Fields {
			i := slices.IndexFunc(g.Fields, func(h Field) bool { return h.Name == f.Name })
			switch {
			case i < 0:
				m.Lost = append(m.Lost, fmt.Sprintf("%s.%s: %s, absent", t.Name, f.Name, f))
			case g.Fields[i] != f:
				m.Lost = append(m.Lost, fmt.Sprintf("%s.%s: %s, generated %s", t.Name, f.Name, f, g.Fields[i]))
			default:
				kept++
			}
		}
		m.Kept += kept
		if kept == len(t.Fields) && len(g.Fields) == len(t.Fields) && g.Struct == t.Struct {
			m.Identical = append(m.Identical, t.Name)
		}
	}
	return m
}
