package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/schema"
)

// copySchema writes the embedded file name of version to dir/name and returns its path.
func copySchema(t *testing.T, version, name, dir string) string {
	t.Helper()
	_, src, err := schema.File(version, name)
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(dir, 0o755))
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, src, 0o644))
	return path
}

// TestVersionFromFile generates from copies of the vendored schemas and checks the version, and
// so the package name and SchemaVersion, that mcpgen tells from each.
func TestVersionFromFile(t *testing.T) {
	tmp := t.TempDir()
	for _, tc := range []struct {
		name, version, file, dir string
		want                     string // the package's version, or the start of the error
	}{
		{"the spec repository's layout", "2025-11-25", "schema.ts", "path/to/2025-11-25", "2025-11-25"},
		{"LATEST_PROTOCOL_VERSION", "2025-11-25", "schema.ts", "elsewhere", "2025-11-25"},
		{"links to the draft spec", "draft", "schema.ts", "somewhere", "draft"},
		{"schema.json in a version directory", "2025-06-18", "schema.json", "json/2025-06-18", "2025-06-18"},
		{"a draft directory, whose schema.ts names the last release", "draft", "schema.ts", "x/draft", "draft"},
		{"schema.json that does not say", "draft", "schema.json", "plain", "error: cannot tell the spec version of"},
		{"directory and file disagree", "2025-11-25", "schema.ts", "y/2026-07-28", "error: " + "is in a directory named 2026-07-28, " +
			"but its LATEST_PROTOCOL_VERSION is 2025-11-25; pass -spec"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := copySchema(t, tc.version, tc.file, filepath.Join(tmp, tc.dir))
			out := filepath.Join(t.TempDir(), "mcp")
			var stderr bytes.Buffer
			err := run([]string{"-schema", file, "-o", out}, &stderr, &stderr)
			if msg, ok := strings.CutPrefix(tc.want, "error: "); ok {
				require.Error(t, err)
				assert.Contains(t, err.Error(), msg)
				assert.NoDirExists(t, out)
				return
			}
			require.NoError(t, err)
			consts, err := os.ReadFile(filepath.Join(out, "consts.go"))
			require.NoError(t, err)
			assert.Contains(t, string(consts), "\npackage "+packageFor(tc.want)+"\n")
			assert.Contains(t, string(consts), `const SchemaVersion = "`+tc.want+`"`)
		})
	}

	t.Run("-spec overrides", func(t *testing.T) {
		file := copySchema(t, "2025-11-25", "schema.ts", filepath.Join(tmp, "z", "2026-07-28"))
		out := filepath.Join(t.TempDir(), "mcp")
		var stderr bytes.Buffer
		require.NoError(t, run([]string{"-schema", file, "-spec", "2025-11-25", "-o", out}, &stderr, &stderr))
		consts, err := os.ReadFile(filepath.Join(out, "consts.go"))
		require.NoError(t, err)
		assert.Contains(t, string(consts), `const SchemaVersion = "2025-11-25"`)
	})
}

// TestFileGeneratesTheCheckedInPackage generates from path/to/2025-11-25/schema.ts, the example of
// docs/generator.md, and checks that the result is gen/mcp20251125 but for doc.go, which does not name the
// vendored source.
func TestFileGeneratesTheCheckedInPackage(t *testing.T) {
	file := copySchema(t, "2025-11-25", "schema.ts", filepath.Join(t.TempDir(), "path", "to", "2025-11-25"))
	out := filepath.Join(t.TempDir(), "mcp")
	var stderr bytes.Buffer
	require.NoError(t, run([]string{"-schema", file, "-o", out}, &stderr, &stderr))
	got := snapshot(t, out)
	want := snapshot(t, filepath.Join("..", "..", "gen", "mcp20251125"))
	for name := range want {
		if strings.HasSuffix(name, "_test.go") || !strings.HasSuffix(name, ".go") {
			delete(want, name)
		}
	}
	require.ElementsMatch(t, keys(want), keys(got))
	for name := range want {
		if name != "doc.go" {
			assert.Equal(t, want[name], got[name], name)
		}
	}
	assert.Contains(t, got["doc.go"], "\npackage mcp20251125\n")
	assert.NotContains(t, got["doc.go"], "Source:")
}

// TestOutputRequired: without -o nothing is written, and the error says what to pass.
func TestOutputRequired(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	assert.Equal(t, 2, cli(nil, &stdout, &stderr))
	assert.Contains(t, stderr.String(), "no output directory: pass -o")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries)
}

// TestCheckSaysWhatChangedAndWhatToRun makes a generated package stale in every way and checks
// what -check says: each file and how it differs, and the command that updates it in this setup.
func TestCheckSaysWhatChangedAndWhatToRun(t *testing.T) {
	root := t.TempDir()
	t.Chdir(root)
	var stderr bytes.Buffer
	require.NoError(t, run([]string{"-spec", "2025-11-25", "-o", "mcp"}, &stderr, &stderr))

	types := filepath.Join("mcp", "types.go")
	data, err := os.ReadFile(types)
	require.NoError(t, err)
	edited := strings.Replace(string(data), "\ntype Tool struct {\n", "\ntype Tool struct {\n\tMine int\n", 1)
	require.NotEqual(t, string(data), edited)
	edited += "\n// Helper is added by hand.\nfunc Helper() {}\n"
	require.NoError(t, os.WriteFile(types, []byte(edited), 0o644))
	require.NoError(t, os.Remove(filepath.Join("mcp", "wire.go")))
	require.NoError(t, os.WriteFile(filepath.Join("mcp", "old.go"), []byte("// Code generated by mcpgen v0.0.1. DO NOT EDIT.\n\npackage mcp20251125\n"), 0o644))

	err = run([]string{"-check", "-spec", "2025-11-25", "-o", "mcp"}, &stderr, &stderr)
	require.Error(t, err)
	assert.Equal(t, 1, exitCode(err))
	msg := err.Error()
	for _, want := range []string{
		"mcp is stale: it is not what the embedded 2025-11-25 schema generates:",
		"  old.go: no longer generated (regenerating removes it)",
		"  types.go: changed Tool; removed Helper",
		"  wire.go: missing",
		"To update it, run the same command without -check: mcpgen -spec 2025-11-25 -o mcp",
	} {
		assert.Contains(t, msg, want)
	}

	// With a go:generate line that writes mcp, the advice is go generate.
	require.NoError(t, os.WriteFile("gen.go", []byte("package app\n\n//go:generate go tool mcpgen -spec 2025-11-25 -o mcp\n"), 0o644))
	err = run([]string{"-check", "-spec", "2025-11-25", "-o", "mcp"}, &stderr, &stderr)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "To update it, run: go generate .\n(the go:generate line at gen.go:3 runs mcpgen for it), or: mcpgen -spec 2025-11-25 -o mcp")

	// Checked against another schema, doc.go says which schema each records.
	require.NoError(t, run([]string{"-spec", "2025-11-25", "-o", "mcp"}, &stderr, &stderr))
	err = run([]string{"-check", "-spec", "draft", "-pkg", "mcp20251125", "-o", "mcp"}, &stderr, &stderr)
	require.Error(t, err)
	assert.Regexp(t, `doc.go: records MCP 2025-11-25 \(sha256:[0-9a-f]{12}…\), not MCP draft \(sha256:[0-9a-f]{12}…\)`, err.Error())
}

// TestDirective finds the go:generate line that writes a directory, relative to its file's
// directory or to the directory of go run -C.
func TestDirective(t *testing.T) {
	root := t.TempDir()
	t.Chdir(root)
	require.NoError(t, os.MkdirAll(filepath.Join("gen", "mcpdraft"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join("gen", "generate.go"), []byte("package gen\n\n"+
		"//go:generate go run -C .. ./cmd/mcpgen -spec 2025-11-25 -o gen/mcp20251125\n"+
		"//go:generate go run -C .. ./cmd/mcpgen -spec draft -o gen/mcpdraft\n"), 0o644))
	file, line, dir, ok := findDirective(filepath.Join("gen", "mcpdraft"))
	require.True(t, ok)
	assert.Equal(t, filepath.Join("gen", "generate.go"), file)
	assert.Equal(t, 4, line)
	assert.Equal(t, "./gen", dir)

	_, _, _, ok = findDirective("elsewhere")
	assert.False(t, ok)
}

// TestVersionFromConstants checks that the version of a schema.ts comes from its parsed
// LATEST_PROTOCOL_VERSION constant: not from text that only looks like one (in a comment), and
// whatever the constant's quotes.
func TestVersionFromConstants(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"double quotes", `export const LATEST_PROTOCOL_VERSION = "2025-03-26";`, "2025-03-26"},
		{"single quotes", `export const LATEST_PROTOCOL_VERSION = '2025-06-18';`, "2025-06-18"},
		{"a commented-out declaration first", "/*\nexport const LATEST_PROTOCOL_VERSION = \"1999-01-01\";\n*/\n" +
			`export const LATEST_PROTOCOL_VERSION = "2025-11-25";`, "2025-11-25"},
		{"only in a comment", "/*\nexport const LATEST_PROTOCOL_VERSION = \"2025-11-25\";\n*/\n", "error: cannot tell the spec version of"},
		{"not a string", "export const LATEST_PROTOCOL_VERSION = 20251125;", "error: cannot tell the spec version of"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "schema.ts")
			require.NoError(t, os.WriteFile(file, []byte(tc.src+"\nexport interface Thing {\n  name: string;\n}\n"), 0o644))
			out := filepath.Join(t.TempDir(), "mcp")
			var stderr bytes.Buffer
			err := run([]string{"-schema", file, "-o", out}, &stderr, &stderr)
			if msg, ok := strings.CutPrefix(tc.want, "error: "); ok {
				require.Error(t, err)
				assert.Contains(t, err.Error(), msg)
				return
			}
			require.NoError(t, err)
			consts, err := os.ReadFile(filepath.Join(out, "consts.go"))
			require.NoError(t, err)
			assert.Contains(t, string(consts), `const SchemaVersion = "`+tc.want+`"`)
		})
	}
}
