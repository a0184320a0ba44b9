package templates

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWireIsCopyable checks the rules that let the emitter copy Wire into
// any generated package: one package clause to replace, only unexported
// names, standard library imports, no init and no package-level variables.
func TestWireIsCopyable(t *testing.T) {
	assert.Equal(t, 1, strings.Count(Wire, "\npackage wire\n"), "package clause")

	f, err := parser.ParseFile(token.NewFileSet(), "wire.go", Wire, 0)
	require.NoError(t, err)
	for _, imp := range f.Imports {
		path, err := strconv.Unquote(imp.Path.Value)
		require.NoError(t, err)
		assert.NotContains(t, strings.Split(path, "/")[0], ".", "import %s is not in the standard library", path)
	}
	for _, decl := range f.Decls {
		switch decl := decl.(type) {
		case *ast.FuncDecl:
			if decl.Recv == nil {
				assert.False(t, decl.Name.IsExported(), "func %s", decl.Name)
				assert.NotEqual(t, "init", decl.Name.Name)
			}
		case *ast.GenDecl:
			assert.NotEqual(t, token.VAR, decl.Tok, "package-level variable")
			for _, spec := range decl.Specs {
				switch spec := spec.(type) {
				case *ast.TypeSpec:
					assert.False(t, spec.Name.IsExported(), "type %s", spec.Name)
				case *ast.ValueSpec:
					for _, name := range spec.Names {
						assert.False(t, name.IsExported(), "const %s", name)
					}
				}
			}
		}
	}
}
