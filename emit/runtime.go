package emit

import (
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"maps"
	"slices"

	"github.com/mcpgen/mcpgen/model"
)

// runtime returns the files of the JSON runtime (Options.Runtime) in the output package: the
// header, the package clause (its package doc dropped), then the rest of the source as is. It
// reserves the runtime's package-level names so that no generated name collides with them.
func (g *generator) runtime() (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, name := range slices.Sorted(maps.Keys(g.opts.Runtime)) {
		src := g.opts.Runtime[name]
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
