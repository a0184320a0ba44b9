package emit

import (
	"cmp"
	"go/ast"
	"go/token"
	"strings"

	"github.com/mcpgen/mcpgen/emit/internal/ir"
	"github.com/mcpgen/mcpgen/model"
)

// The parts (templates/parts) are written with the default Go names of the schema's
// declarations. When a configuration changes names (Config.Names, Fields, Initialisms), partNames
// maps the default names to the output's, and a part's package-level identifiers are renamed to
// match: renaming CreateMessageRequestParams keeps the sampling rules. A field a part uses cannot
// be renamed that way (telling fields apart needs types): a configuration that renames one is an
// error naming its entry.

// partRenames maps the names the parts are written with to the names of the output.
type partRenames struct {
	// idents maps package-level names: types, enum constants, the functions of unions and
	// one-or-many types, method constants.
	idents map[string]string
	// fields are the field names that the configuration changes, in each struct by its default
	// name, with the configuration entry that changes it and the member's schema path.
	fields map[string]map[string]renamedField
	// forms are the forms of the generated types, by default name: the composite literals of
	// structs have field names as keys.
	forms map[string]form
}

// partNames pairs the names the output's types, constants and fields have without the
// configuration's names (declSource.defName, the default namer) with the output's, or returns nil
// when the configuration changes no name. Should the default names collide where the
// configured ones do not, parts are copied as written.
func (nm *naming) partNames() *partRenames {
	c := nm.opts.Config
	if len(c.Names) == 0 && len(c.Fields) == 0 && len(c.Initialisms) == 0 || nm.defaultsClash {
		return nil
	}
	r := &partRenames{idents: map[string]string{}, fields: map[string]map[string]renamedField{}, forms: map[string]form{}}
	rename := func(from, to string) {
		if from != to {
			r.idents[from] = to
		}
	}
	for _, td := range nm.types {
		def := nm.src(td).defName
		rename(def, td.Name)
		r.forms[def] = td.Form
		switch td.Form {
		case enumForm:
			for _, v := range td.Values {
				rename(namer{}.enumConstName(def, v), nm.names.enumConstName(td.Name, v))
			}
		case interfaceForm:
			from := resultFuncNames(unionFuncNames(def, false, false), def)
			to := resultFuncNames(unionFuncNames(td.Name, false, false), td.Name)
			rename(from.Unmarshal, to.Unmarshal)
			rename(from.UnmarshalFor, to.UnmarshalFor)
		case oneOrManyForm:
			from, to := oneOrManyFuncNames(def), oneOrManyFuncNames(td.Name)
			rename(from.NewOne, to.NewOne)
			rename(from.NewList, to.NewList)
		case structForm:
			if _, ok := nm.methodOf(td); ok {
				rename(methodConstName(def), methodConstName(td.Name))
			}
			if !nm.renamedFields(r, td) {
				return nil
			}
		}
	}
	return r
}

// renamedField is a field that the configuration renames: the entry that does, and the member's
// schema path (ClientCapabilities.sampling.context).
type renamedField struct {
	pos  model.Pos
	path string
}

// renamedFields records the fields of the struct td whose names are not their default names
// (the default namer's, or for a field an embed entry names its type's default name), or reports false
// when two default names of td are the same or one is not a Go identifier.
func (nm *naming) renamedFields(r *partRenames, td *ir.Decl) bool {
	seen := map[string]bool{"Extra": true}
	for _, f := range td.Fields {
		def := fieldName(f.JSONName)
		if nm.fsrc(f).defEmbed {
			def = embeddedName(f.Type)
			if e := nm.byName[def]; e != nil {
				def = nm.src(e).defName
			}
		}
		if seen[def] || !token.IsIdentifier(def) {
			return false
		}
		seen[def] = true
		if def != f.Name {
			if r.fields[nm.src(td).defName] == nil {
				r.fields[nm.src(td).defName] = map[string]renamedField{}
			}
			r.fields[nm.src(td).defName][def] = renamedField{nm.fieldEntry(f), cmp.Or(nm.src(td).path, td.Name) + "." + f.JSONName}
		}
	}
	return true
}

// fieldEntry is the position of the configuration entry that names the field f: its Fields
// entry (at any depth, or on the declaration of an inherited member), or the initialism that
// changes it.
func (nm *naming) fieldEntry(f *ir.Field) model.Pos {
	if nm.fsrc(f).namedAt.Line > 0 {
		return nm.fsrc(f).namedAt
	}
	for _, e := range nm.opts.Config.Initialisms {
		for _, w := range words(f.JSONName) {
			if strings.EqualFold(w, e.Name) {
				return e.Pos
			}
		}
	}
	return model.Pos{}
}

// apply renames the package-level identifiers of the part file, and fails if the part uses a
// field that the configuration renames in a struct the part names.
func (r *partRenames) apply(file string, f *ast.File) error {
	named := map[string]bool{} // the identifiers the part mentions
	ast.Inspect(f, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			named[id.Name] = true
		}
		return true
	})
	changed := map[string]renamedField{} // field names renamed in a struct the part names
	for _, name := range requires(partSource(f)) {
		named[goName(name)] = true
	}
	for s, fields := range r.fields {
		if named[s] {
			for name, rf := range fields {
				changed[name] = rf
			}
		}
	}
	skip := map[*ast.Ident]bool{}
	var err error
	field := func(id *ast.Ident) {
		skip[id] = true
		if rf, ok := changed[id.Name]; ok && err == nil {
			err = rf.pos.Errorf("the configuration renames the field %s (%s), which the hand-written part %s uses; keep its name", id.Name, rf.path, file)
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			field(n.Sel)
		case *ast.FuncDecl:
			skip[n.Name] = true
		case *ast.Field:
			for _, id := range n.Names {
				skip[id] = true
			}
		case *ast.CompositeLit:
			if r.structLiteral(n.Type) {
				for _, e := range n.Elts {
					if kv, ok := e.(*ast.KeyValueExpr); ok {
						if id, ok := kv.Key.(*ast.Ident); ok {
							field(id)
						}
					}
				}
			}
		case *ast.Ident:
			// A part's local names are lower-case: an identifier spelled like a generated
			// package-level name is that name.
			if to, ok := r.idents[n.Name]; ok && !skip[n] {
				n.Name = to
			}
		}
		return true
	})
	return err
}

// structLiteral reports whether a composite literal of type t has field names as keys: the type
// is a generated struct, or a type of the parts or the runtime, which the parts only build as
// structs; not a map, a slice, or another generated type.
func (r *partRenames) structLiteral(t ast.Expr) bool {
	switch t := t.(type) {
	case *ast.MapType, *ast.ArrayType:
		return false
	case *ast.Ident:
		f, generated := r.forms[t.Name]
		return !generated || f == structForm
	}
	return true
}

// partSource returns the "//mcpgen:requires" lines of a parsed part.
func partSource(f *ast.File) string {
	var b strings.Builder
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			b.WriteString(c.Text + "\n")
		}
	}
	return b.String()
}
