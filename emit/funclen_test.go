package emit

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// maxFuncLines is the most lines a function of emit (its packages included, tests too) may
// have, from its func keyword to its closing brace: a longer one is split by concern.
const maxFuncLines = 80

// TestFunctionLength holds every function of emit and its packages to maxFuncLines, function
// literals included.
func TestFunctionLength(t *testing.T) {
	fset := token.NewFileSet()
	funcs := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() && d.Name() == "testdata" {
			if err == nil {
				err = filepath.SkipDir
			}
			return err
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			var name string
			switch n := n.(type) {
			case *ast.FuncDecl:
				name = n.Name.Name
			case *ast.FuncLit:
				name = "a function literal"
			default:
				return true
			}
			funcs++
			lines := fset.Position(n.End()).Line - fset.Position(n.Pos()).Line + 1
			assert.LessOrEqual(t, lines, maxFuncLines, "%s: %s has %d lines", fset.Position(n.Pos()), name, lines)
			return true
		})
		return nil
	})
	require.NoError(t, err)
	require.Greater(t, funcs, 100, "the walk found too few functions to be reading emit")
}
