package emit

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/schema"
)

// TestEveryDeclaration checks that every declaration and constant of every vendored schema.ts is
// declared, under its Go name, in the generated package.
func TestEveryDeclaration(t *testing.T) {
	for _, version := range schema.Versions {
		t.Run(version, func(t *testing.T) {
			s := load(t, filepath.Join("..", "schema", version, "schema.ts"), version)
			files := generate(t, s, "mcp")
			declared := map[string]bool{}
			fset := token.NewFileSet()
			for name, src := range files {
				f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
				require.NoError(t, err)
				for _, d := range f.Decls {
					if gd, ok := d.(*ast.GenDecl); ok {
						for _, spec := range gd.Specs {
							switch spec := spec.(type) {
							case *ast.TypeSpec:
								declared[spec.Name.Name] = true
							case *ast.ValueSpec:
								for _, n := range spec.Names {
									declared[n.Name] = true
								}
							}
						}
					}
				}
			}
			for _, d := range s.Decls {
				assert.True(t, declared[goName(d.Name)], "%s: declaration %s (Go %s) is missing", version, d.Name, goName(d.Name))
			}
			consts := 0
			for _, c := range s.Consts {
				name := constName(c.Name)
				if isErrorCode(c.Value) {
					name = "Code" + name
				}
				if declared[name] || declared[name+"Code"] || declared[name+"Value"] {
					consts++
				} else {
					t.Errorf("%s: constant %s is missing", version, c.Name)
				}
			}
			t.Logf("%s: %d declarations and %d constants present", version, len(s.Decls), consts)
			if version == "draft" {
				// The 155 of schema.ts, and ServerRequest and AnyResult from model.Protocol.
				assert.Len(t, s.Decls, 157)
			}
		})
	}
}
