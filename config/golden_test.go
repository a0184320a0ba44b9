package config

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/emit"
	"github.com/mcpgen/mcpgen/templates"
)

var update = flag.Bool("update", false, "rewrite the testdata/*.golden files")

// generate applies the configuration file cfg to the schema.ts file schema, as mcpgen -config
// does, and returns the files.
func generate(t *testing.T, schema, version, cfg string, prepare ...func(*File)) (map[string][]byte, *File) {
	t.Helper()
	src, err := os.ReadFile(schema)
	require.NoError(t, err)
	data, err := os.ReadFile(cfg)
	require.NoError(t, err)
	f, err := Parse(filepath.Base(cfg), data)
	require.NoError(t, err)
	for _, p := range prepare {
		p(f)
	}
	s, err := f.Load(filepath.Base(schema), src)
	require.NoError(t, err)
	s.Version = version
	pkg := cmpOr(f.Package, "mcp")
	files, err := emit.Generate(s, emit.Options{Package: pkg, Version: version, SchemaHash: "sha256:0123",
		Runtime: templates.Runtime(), Parts: templates.Parts(), PackageDoc: f.PackageDoc(), Config: f.Config})
	require.NoError(t, err)
	return files, f
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// concat joins the generated files but the runtime (wire*.go), each after a "-- name --" line.
func concat(files map[string][]byte) []byte {
	var b bytes.Buffer
	var names []string
	for name := range files {
		if !strings.HasPrefix(name, "wire") {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		b.WriteString("-- " + name + " --\n")
		b.Write(files[name])
	}
	return b.Bytes()
}

// TestGolden applies testdata/shaped.yaml to testdata/shaped.ts and compares the files (the
// runtime excepted) with testdata/shaped.golden: what a configuration selects, renames and
// substitutes, in full.
func TestGolden(t *testing.T) {
	files, _ := generate(t, "testdata/shaped.ts", "draft", "testdata/shaped.yaml")
	got := concat(files)
	if *update {
		require.NoError(t, os.WriteFile("testdata/shaped.golden", got, 0o644))
	}
	want, err := os.ReadFile("testdata/shaped.golden")
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got))
}

// writeModule writes files as package pkg of a new module in a temporary directory, and returns
// the package's directory.
func writeModule(t *testing.T, pkg string, files map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/mysdk\n\ngo 1.24\n"), 0o644))
	pkgDir := filepath.Join(dir, pkg)
	require.NoError(t, os.Mkdir(pkgDir, 0o755))
	for name, b := range files {
		require.NoError(t, os.WriteFile(filepath.Join(pkgDir, name), b, 0o644))
	}
	return pkgDir
}

// goTool runs the go command in dir and fails the test with its output on error.
func goTool(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "go %v:\n%s", args, out)
	return string(out)
}

// readFile reads a file of testdata.
func readFile(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	return data
}

// TestGoldenBehavior builds the package of TestGolden beside shaped_schema.go, the hand-written
// type it substitutes, vets it, and runs shaped_test.go: the substitutes' JSON forms go through
// their own methods and come back the same, their Validate reports at the member's JSON pointer,
// and the renamed types, fields and constants work.
func TestGoldenBehavior(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	files, f := generate(t, "testdata/shaped.ts", "draft", "testdata/shaped.yaml")
	files["shaped_schema.go"] = readFile(t, "shaped_schema.go.txt")
	files["shaped_test.go"] = readFile(t, "shaped_test.go.txt")
	dir := writeModule(t, f.Package, files)
	require.NoError(t, CheckSubstitutes(f.Config, dir, func(name string) bool { return name != "shaped_schema.go" }))
	goTool(t, dir, "vet", ".")
	goTool(t, dir, "test", ".")
}

// TestSDKGolden applies testdata/sdk.yaml to testdata/sdk.ts and compares the files (the
// runtime excepted) with testdata/sdk.golden: an SDK's own shapes (optional values with
// omitempty, element and object pointers, an embedded _meta, names and substitutes at depth).
func TestSDKGolden(t *testing.T) {
	files, _ := generate(t, "testdata/sdk.ts", "draft", "testdata/sdk.yaml", sdkKinds(t))
	got := concat(files)
	if *update {
		require.NoError(t, os.WriteFile("testdata/sdk.golden", got, 0o644))
	}
	want, err := os.ReadFile("testdata/sdk.golden")
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got))
}

// TestSDKShapes builds the package of TestSDKGolden beside sdk_meta.go, the hand-written Meta it
// substitutes and embeds, vets it, and runs sdk_test.go: the codecs encode and decode as
// encoding/json does from the struct tags, byte for byte, and Validate follows the shapes.
func TestSDKShapes(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	files, f := generate(t, "testdata/sdk.ts", "draft", "testdata/sdk.yaml", sdkKinds(t))
	files["sdk_meta.go"] = readFile(t, "sdk_meta.go.txt")
	files["sdk_test.go"] = readFile(t, "sdk_test.go.txt")
	dir := writeModule(t, f.Package, files)
	require.NoError(t, CheckSubstitutes(f.Config, dir, func(name string) bool { return name != "sdk_meta.go" }))
	goTool(t, dir, "vet", ".")
	goTool(t, dir, "test", ".")
}

// sdkKinds finds the kinds of sdk.yaml's substitutes in sdk_meta.go, as mcpgen does in the
// output directory before generating (SubstituteKinds): Meta is a map.
func sdkKinds(t *testing.T) func(*File) {
	return func(f *File) {
		dir := t.TempDir()
		require.NoError(t, os.WriteFile(filepath.Join(dir, "sdk_meta.go"), readFile(t, "sdk_meta.go.txt"), 0o644))
		SubstituteKinds(&f.Config, dir)
		require.Equal(t, "map", f.Config.Substitutes["Result._meta"].Kind)
	}
}
