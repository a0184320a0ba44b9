package render

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stringDecisions returns the positions of the comparisons (== and !=) and case clauses of the
// file src whose operand is a non-empty string literal.
func stringDecisions(t *testing.T, fset *token.FileSet, name string, src any) []string {
	t.Helper()
	f, err := parser.ParseFile(fset, name, src, 0)
	require.NoError(t, err, name)
	nonEmpty := func(e ast.Expr) bool {
		lit, ok := ast.Unparen(e).(*ast.BasicLit)
		return ok && lit.Kind == token.STRING && lit.Value != `""` && lit.Value != "``"
	}
	var found []string
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if (n.Op == token.EQL || n.Op == token.NEQ) && (nonEmpty(n.X) || nonEmpty(n.Y)) {
				found = append(found, fset.Position(n.Pos()).String())
			}
		case *ast.CaseClause:
			for _, e := range n.List {
				if nonEmpty(e) {
					found = append(found, fset.Position(e.Pos()).String())
				}
			}
		}
		return true
	})
	return found
}

// TestNoStringDecisions checks that rendering decides by the ir's fields, not by strings: no
// file of the package compares a value with a non-empty string literal or switches on one. A
// name or a value compared would be a decision planning did not make.
func TestNoStringDecisions(t *testing.T) {
	fset := token.NewFileSet()
	bad := "package p\nfunc f(s string) bool {\n\tswitch s {\n\tcase \"x\", \"\":\n\t}\n\treturn s == \"\" || \"y\" != s\n}\n"
	assert.Equal(t, []string{"bad.go:4:7", "bad.go:6:20"}, stringDecisions(t, fset, "bad.go", bad), "the check finds them")
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		require.NoError(t, err)
		assert.Empty(t, stringDecisions(t, fset, name, src), "%s: rendering decides by the ir's fields, not by strings", name)
		checked++
	}
	assert.Positive(t, checked, "the package's files are checked")
}
