package render

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestImports holds rendering to the plan: its files import the standard library, jennifer and
// the ir only, so that it cannot read the schema's model or the configuration.
func TestImports(t *testing.T) {
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	allowed := map[string]bool{"github.com/dave/jennifer/jen": true, "github.com/mcpgen/mcpgen/emit/internal/ir": true}
	seen := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		require.NoError(t, err)
		for _, imp := range f.Imports {
			path, err := strconv.Unquote(imp.Path.Value)
			require.NoError(t, err)
			first, _, _ := strings.Cut(path, "/")
			if !allowed[path] && strings.Contains(first, ".") {
				t.Errorf("%s imports %s: rendering reads the plan (ir) only", name, path)
			}
			seen++
		}
	}
	require.NotZero(t, seen, "no imports found: the test reads no files")
}
