package gen

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxLinesPerType is the most lines of non-test Go that mcpdraft may have per exported type:
// the code its types share belongs in the runtime, not in a copy per type.
const maxLinesPerType = 115

// TestDraftLinesPerType holds gen/mcpdraft, the largest version, to maxLinesPerType: its
// non-test .go lines over its exported type declarations.
func TestDraftLinesPerType(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("mcpdraft", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	lines, types := 0, 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		lines += fset.File(f.Pos()).LineCount()
		types += exportedTypes(f)
	}
	if types == 0 {
		t.Fatal("mcpdraft declares no exported type")
	}
	perType := float64(lines) / float64(types)
	t.Logf("mcpdraft: %d lines, %d exported types, %.1f lines a type", lines, types, perType)
	if perType > maxLinesPerType {
		t.Errorf("mcpdraft has %.1f lines of non-test Go per exported type (%d lines, %d types), more than %d",
			perType, lines, types, maxLinesPerType)
	}
}

// exportedTypes counts the exported type declarations at the top level of f.
func exportedTypes(f *ast.File) int {
	n := 0
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, spec := range gd.Specs {
			if spec.(*ast.TypeSpec).Name.IsExported() {
				n++
			}
		}
	}
	return n
}
