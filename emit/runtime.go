package emit

import (
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"maps"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/model"
)

// runtime returns the files of the JSON runtime (Options.Runtime) and the parts
// (Options.Parts) whose required declarations the schema has, in the output package: the header,
// the package clause (what comes before it, such as a package doc or a build constraint,
// dropped), then the rest of the source as is. It reserves the files' package-level names so
// that no generated name collides with them, and records the types that have rules.
func (g *generator) runtime() (map[string][]byte, error) {
	files := maps.Clone(g.opts.Runtime)
	if files == nil {
		files = map[string]string{}
	}
	for name, src := range g.opts.Parts {
		if _, dup := files[name]; dup {
			return nil, fmt.Errorf("emit: part %s has the name of a runtime file", name)
		}
		if g.declaresAll(requires(src)) {
			files[name] = src
		}
	}
	out := map[string][]byte{}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		src := files[name]
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
		if err != nil {
			return nil, fmt.Errorf("emit: runtime: %v", err)
		}
		for _, d := range f.Decls {
			for _, id := range declNames(d) {
				if err := g.scope.declare(id, "runtime identifier", posOf(fset, d.Pos())); err != nil {
					return nil, err
				}
			}
			if recv := rulesReceiver(d); recv != "" {
				g.rules[recv] = true
			}
		}
		rest := src[fset.Position(f.Name.End()).Offset:]
		text := g.headerText() + "package " + g.opts.Package + rest
		formatted, err := format.Source([]byte(text))
		if err != nil {
			return nil, fmt.Errorf("emit: runtime: %s: %v", name, err)
		}
		out[name] = formatted
	}
	return out, nil
}

// requires lists the schema declarations a part names in its "//mcpgen:requires" lines.
func requires(src string) []string {
	var names []string
	for _, line := range strings.Split(src, "\n") {
		if rest, ok := strings.CutPrefix(line, "//mcpgen:requires "); ok {
			names = append(names, strings.Fields(rest)...)
		}
	}
	return names
}

// declaresAll reports whether the schema declares every one of names.
func (g *generator) declaresAll(names []string) bool {
	for _, name := range names {
		if g.s.Decl(name) == nil {
			return false
		}
	}
	return true
}

// rulesReceiver returns T for a method `func (v *T) validateRules(c *validator)`, or "".
func rulesReceiver(d ast.Decl) string {
	fn, ok := d.(*ast.FuncDecl)
	if !ok || fn.Recv == nil || fn.Name.Name != "validateRules" || len(fn.Recv.List) != 1 {
		return ""
	}
	t := fn.Recv.List[0].Type
	if star, ok := t.(*ast.StarExpr); ok {
		t = star.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// declNames lists the package-level names a declaration declares (none for a method).
func declNames(d ast.Decl) []string {
	var names []string
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil {
			names = append(names, d.Name.Name)
		}
	case *ast.GenDecl:
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.TypeSpec:
				names = append(names, s.Name.Name)
			case *ast.ValueSpec:
				for _, n := range s.Names {
					if n.Name != "_" {
						names = append(names, n.Name)
					}
				}
			}
		}
	}
	return names
}

func posOf(fset *token.FileSet, p token.Pos) model.Pos {
	pos := fset.Position(p)
	return model.Pos{File: "runtime " + pos.Filename, Line: pos.Line, Col: pos.Column}
}
