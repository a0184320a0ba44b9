package emit

import (
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"

	"github.com/mcpgen/mcpgen/model"
)

// runtime returns wire.go, the JSON runtime of Options.Runtime in the output package: the header,
// the package clause (its package doc dropped), then the rest of the source as is. It reserves the
// runtime's package-level names, and those of the fixed helpers, so that no generated name
// collides with them.
func (g *generator) runtime() ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "wire.go", g.opts.Runtime, parser.ParseComments)
	if err != nil {
		return nil, fmt.Errorf("emit: runtime: %v", err)
	}
	for _, d := range f.Decls {
		for _, name := range declNames(d) {
			if err := g.scope.declare(name, "runtime identifier", posOf(fset, d.Pos())); err != nil {
				return nil, err
			}
		}
	}
	for _, name := range helperNames {
		if err := g.scope.declare(name, "helper", posOf(fset, f.Package)); err != nil {
			return nil, err
		}
	}
	rest := g.opts.Runtime[fset.Position(f.Name.End()).Offset:]
	src := fmt.Sprintf("// %s\n// %s\n\npackage %s%s", header, g.schemaLine(), g.opts.Package, rest)
	out, err := format.Source([]byte(src))
	if err != nil {
		return nil, fmt.Errorf("emit: runtime: %v", err)
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
