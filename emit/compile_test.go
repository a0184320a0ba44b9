package emit

import (
	"path/filepath"
	"testing"
)

// TestCompileSchemas generates the package of every vendored schema version and checks that it
// compiles and passes go vet.
func TestCompileSchemas(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	paths, err := filepath.Glob("../schema/*/schema.ts")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no schemas: %v", err)
	}
	for _, path := range paths {
		version := filepath.Base(filepath.Dir(path))
		t.Run(version, func(t *testing.T) {
			t.Parallel()
			files := generate(t, load(t, path, version), "mcp")
			goTool(t, writeModule(t, "mcp", files), "vet", "./...")
		})
	}
}

// TestCompileOtherSchemas does the same for schema.ts files that are not vendored versions: the
// spec repository's own history (parser/testdata/history) and the forms that the first subset
// did not read (parser/testdata/mapped.ts).
func TestCompileOtherSchemas(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	paths, err := filepath.Glob("../parser/testdata/history/*.ts")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no schemas: %v", err)
	}
	for _, path := range append(paths, "../parser/testdata/mapped.ts") {
		t.Run(filepath.Base(path), func(t *testing.T) {
			t.Parallel()
			files := generate(t, load(t, path, "history"), "mcp")
			goTool(t, writeModule(t, "mcp", files), "vet", "./...")
		})
	}
}
