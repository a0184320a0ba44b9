package emit

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLayers holds the two stages to their imports: the plan (internal/ir) is data and imports
// the standard library only; rendering (internal/render) imports the standard library, jennifer
// and the plan only, so that it cannot read the schema's model or the configuration.
func TestLayers(t *testing.T) {
	const ir = "github.com/mcpgen/mcpgen/emit/internal/ir"
	for dir, allowed := range map[string][]string{
		"internal/ir":     nil,
		"internal/render": {"github.com/dave/jennifer/jen", ir},
	} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		require.NoError(t, err)
		imports := 0
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
				std := !strings.Contains(first, ".")
				assert.True(t, std || slices.Contains(allowed, path), "%s imports %s", name, path)
				imports++
			}
		}
		require.NotZero(t, imports, "%s: no imports read", dir)
	}
}
