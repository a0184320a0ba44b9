package emit

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/model"
	"github.com/mcpgen/mcpgen/parser"
	"github.com/mcpgen/mcpgen/templates"
)

// load parses a schema.ts file and prepares it as the generator does (model.Protocol, then
// model.Classify).
func load(t *testing.T, path, version string) *model.Schema {
	t.Helper()
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	s, err := parser.Load(filepath.Base(path), src)
	require.NoError(t, err)
	s.Version = version
	require.NoError(t, model.Protocol(s))
	require.NoError(t, model.Classify(s))
	return s
}

// generate runs Generate with the real runtime.
func generate(t *testing.T, s *model.Schema, pkg string) map[string][]byte {
	t.Helper()
	files, err := Generate(s, Options{Package: pkg, Version: s.Version, SchemaHash: "sha256:0123", Runtime: templates.Runtime(), Parts: templates.Parts()})
	require.NoError(t, err)
	return files
}

// writeModule writes files as package pkg of a new module in a temporary directory, and returns
// the module's directory.
func writeModule(t *testing.T, pkg string, files map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/gen\n\ngo 1.26\n"), 0o644))
	require.NoError(t, os.Mkdir(filepath.Join(dir, pkg), 0o755))
	for name, b := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, pkg, name), b, 0o644))
	}
	return dir
}

// goTool runs the go command in dir and fails the test with its output on error.
func goTool(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "go %v:\n%s", args, out)
	t.Logf("go %v:\n%s", args, out)
}
