package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeFile writes a file of a test.
func writeFile(t *testing.T, path, text string) string {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	return path
}

// goFiles lists the .go files of dir.
func goFiles(t *testing.T, dir string) []string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	require.NoError(t, err)
	for i, n := range names {
		names[i] = filepath.Base(n)
	}
	slices.Sort(names)
	return names
}

// TestConfigFlag generates with -config: the file's package name (which -pkg overrides), its
// selection and renames, and -check with the same flags.
func TestConfigFlag(t *testing.T) {
	dir := t.TempDir()
	cfg := writeFile(t, filepath.Join(dir, "mcpgen.yaml"), "package: tools\ntypes: [CallToolResult]\nrename:\n  CallToolResult: ToolResult\n")
	out := filepath.Join(dir, "tools")
	var stderr bytes.Buffer
	args := []string{"-spec", "2026-07-28", "-config", cfg, "-o", out}
	require.NoError(t, run(args, &stderr, &stderr))
	types, err := os.ReadFile(filepath.Join(out, "types.go"))
	require.NoError(t, err)
	assert.Contains(t, string(types), "\npackage tools\n")
	assert.Contains(t, string(types), "\ntype ToolResult struct {\n")
	assert.NotContains(t, string(types), "\ntype Tool struct {\n", "not selected")
	assert.NotContains(t, goFiles(t, out), "protocol.go")
	require.NoError(t, run(append([]string{"-check"}, args...), &stderr, &stderr))

	// The configuration is part of what -check compares.
	writeFile(t, cfg, "package: tools\ntypes: [CallToolResult]\n")
	err = run(append([]string{"-check"}, args...), &stderr, &stderr)
	require.Error(t, err)
	assert.Equal(t, 1, exitCode(err))
	assert.Contains(t, err.Error(), "types.go: ")

	other := filepath.Join(dir, "other")
	require.NoError(t, run([]string{"-spec", "2026-07-28", "-config", cfg, "-pkg", "mcp", "-o", other}, &stderr, &stderr))
	consts, err := os.ReadFile(filepath.Join(other, "consts.go"))
	require.NoError(t, err)
	assert.Contains(t, string(consts), "\npackage mcp\n", "-pkg overrides the file's package")
}

// TestConfigErrors: an error of the file, or of the file against the schema, names its line and
// writes nothing.
func TestConfigErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ name, file, want string }{
		{"syntax", "types: [Tool\n", "mcpgen.yaml:1: did not find expected ',' or ']'"},
		{"unknown key", "package: mcp\nrenames:\n  Tool: T\n", `mcpgen.yaml:2:1: unknown key "renames" (did you mean rename?)`},
		{"unknown declaration", "types:\n  - Tool\n  - CallToolResults\n", "mcpgen.yaml:3:5: types: the schema declares no CallToolResults (did you mean CallToolResult?)"},
		{"rename collision", "rename:\n  Tool: Resource\n", "mcpgen.yaml:2:9: declaration Tool: Go name Resource is already used by declaration Resource (draft/schema.ts:"},
		{"missing Go type", "substitute:\n  Tool.inputSchema: encoding/json.Raw\n", "mcpgen.yaml:2:21: substitute: Tool.inputSchema: no type Raw in package encoding/json"},
		{"omit breaking the sampling rules", "omit: [SamplingMessage.role]\n", "mcpgen.yaml:1:8: the configuration leaves out SamplingMessage.Role, which the sampling rules read"},
		{"substitute breaking the sampling rules", "substitute:\n  ToolUseContent.id: int\n", "mcpgen.yaml:2:22: the configuration makes ToolUseContent.ID int, which the sampling rules cannot read (they need a string)"},
		{"missing local type", "substitute:\n  Tool.inputSchema: \"*Schema\"\n", "mcpgen.yaml:2:21: substitute: Tool.inputSchema: no type Schema in the files of "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := writeFile(t, filepath.Join(dir, tc.name, "mcpgen.yaml"), tc.file)
			out := filepath.Join(dir, tc.name, "mcp")
			var stderr bytes.Buffer
			err := run([]string{"-config", cfg, "-o", out}, &stderr, &stderr)
			require.Error(t, err)
			assert.Equal(t, 2, exitCode(err))
			assert.Contains(t, err.Error(), tc.want)
			if !strings.HasPrefix(tc.want, "mcpgen.yaml") {
				assert.Contains(t, err.Error(), "mcpgen.yaml")
			}
			assert.NoDirExists(t, out)
		})
	}
	var stderr bytes.Buffer
	err := run([]string{"-diff", "-config", "x.yaml", "2025-11-25", "draft"}, &stderr, &stderr)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "-diff takes two schemas")
}

// TestSharedDirectory generates two outputs into one directory, the second without the runtime
// and with a file prefix: neither removes the other's files, and -check passes for both until
// one of them changes.
func TestSharedDirectory(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "mcp")
	core := writeFile(t, filepath.Join(dir, "core.yaml"), "package: mcp\ntypes: [Tool]\n")
	ext := writeFile(t, filepath.Join(dir, "ext.yaml"), "package: mcp\ndoc: \"\"\ntypes: [ToolUI]\nsubstitute:\n  Tool: Tool\n"+
		"rename:\n  SchemaVersion: ExtSchemaVersion\nruntime: false\nfilePrefix: ext_\n")
	schemaFile := writeFile(t, filepath.Join(dir, "ext.ts"), "export interface ToolUI {\n  tool: Tool;\n  resourceUri: string;\n}\n\n"+
		"export interface Tool {\n  name: string;\n}\n")
	coreArgs := []string{"-spec", "2026-07-28", "-config", core, "-o", out}
	extArgs := []string{"-schema", schemaFile, "-spec", "ext-1", "-config", ext, "-o", out}
	var stderr bytes.Buffer
	require.NoError(t, run(coreArgs, &stderr, &stderr))
	require.NoError(t, run(extArgs, &stderr, &stderr))
	both := goFiles(t, out)
	assert.Subset(t, both, []string{"types.go", "wire.go", "ext_types.go", "ext_doc.go"})
	assert.NotContains(t, both, "ext_wire.go")
	require.NoError(t, run(coreArgs, &stderr, &stderr), "regenerating the first output")
	assert.Equal(t, both, goFiles(t, out), "leaves the second's files")
	require.NoError(t, run(append([]string{"-check"}, coreArgs...), &stderr, &stderr))
	require.NoError(t, run(append([]string{"-check"}, extArgs...), &stderr, &stderr))

	// The second output's stale file is its own; the first's check is not about it.
	writeFile(t, filepath.Join(out, "ext_types.go"), "// Code generated by mcpgen v0.0.1. DO NOT EDIT.\n\npackage mcp\n")
	require.NoError(t, run(append([]string{"-check"}, coreArgs...), &stderr, &stderr))
	err := run(append([]string{"-check"}, extArgs...), &stderr, &stderr)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "ext_types.go: ")
	// A file the second output no longer writes is removed by it, not by the first.
	writeFile(t, filepath.Join(out, "ext_old.go"), "// Code generated by mcpgen v0.0.1. DO NOT EDIT.\n\npackage mcp\n")
	require.NoError(t, run(coreArgs, &stderr, &stderr))
	assert.FileExists(t, filepath.Join(out, "ext_old.go"))
	require.NoError(t, run(extArgs, &stderr, &stderr))
	assert.NoFileExists(t, filepath.Join(out, "ext_old.go"))
	assert.Equal(t, both, goFiles(t, out))
}
