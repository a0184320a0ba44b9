package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/emit"
	"github.com/mcpgen/mcpgen/schema"
	"github.com/mcpgen/mcpgen/templates"
)

// jsonschemaGo is the module of go-sdk's JSON Schema type, which gosdk.yaml substitutes, with
// its go.sum lines (as in interop/go.sum), so that the test module builds from the module cache.
const jsonschemaGo = "github.com/google/jsonschema-go v0.4.3"

var jsonschemaGoSum = "github.com/google/jsonschema-go v0.4.3 h1:/DBOLZTfDow7pe2GmaJNhltueGTtDKICi8V8p+DQPd0=\n" +
	"github.com/google/jsonschema-go v0.4.3/go.mod h1:r5quNTdLOYEz95Ru18zA0ydNbBuYoo9tgaYcxEYhJVE=\n"

// generateVersion applies a configuration to the vendored schema.ts of a spec version.
func generateVersion(t *testing.T, version string, f *File) map[string][]byte {
	t.Helper()
	name, src, err := schema.File(version, "schema.ts")
	require.NoError(t, err)
	s, err := f.Load(name, src)
	require.NoError(t, err)
	s.Version = version
	files, err := emit.Generate(s, emit.Options{Package: cmpOr(f.Package, "mcp"), Version: version, SchemaHash: "sha256:0123",
		Runtime: templates.Runtime(), Parts: templates.Parts(), PackageDoc: f.PackageDoc(), Config: f.Config})
	require.NoError(t, err)
	return files
}

// parseFile parses a configuration file of testdata.
func parseFile(t *testing.T, name string) *File {
	t.Helper()
	f, err := Parse(name, readFile(t, name))
	require.NoError(t, err)
	return f
}

// TestConfigsCompile builds and vets the packages that configurations shape from the real
// schemas: go-sdk's declarations table (gosdk.yaml, on the 2025-03-26 schema it was written
// for), the draft and 2025-03-26 without validators, and every version reduced to CallToolRequest and what it
// references (no protocol layer, no parts but those whose types it has).
func TestConfigsCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	tests := []struct {
		name, version string
		file          *File
	}{
		{"gosdk", "2025-03-26", parseFile(t, "gosdk.yaml")},
		{"novalidate", "draft", parseFile(t, "novalidate.yaml")},
		{"novalidate-2025-03-26", "2025-03-26", parseFile(t, "novalidate.yaml")},
		{"shapes", "draft", parseFile(t, "shapes.yaml")},
		{"shapes-2025-11-25", "2025-11-25", parseFile(t, "shapes.yaml")},
	}
	protocol := []emit.Entry{}
	for _, name := range []string{"JSONRPCMessage", "ClientRequest", "ServerRequest", "ClientNotification", "ServerNotification", "ClientResult", "ServerResult"} {
		protocol = append(protocol, emit.Entry{Name: name})
	}
	tests = append(tests, struct {
		name, version string
		file          *File
	}{"protocol-2025-03-26", "2025-03-26", &File{Config: emit.Config{Types: protocol}}})
	for _, v := range schema.Versions {
		tests = append(tests, struct {
			name, version string
			file          *File
		}{"CallToolRequest-" + v, v, &File{Config: emit.Config{Types: []emit.Entry{{Name: "CallToolRequest"}}}}})
	}
	// Shapes and names of the members the sampling rules read, which the rules once refused: they
	// stay, reading them through their readers (a stand-in without tool variants by its Unknown).
	for i, src := range []string{"oneOrMany: slice\n", "embed: [ClientCapabilities.sampling]\n",
		"fields:\n  ClientCapabilities.sampling.context: Ctx\n", "standIn:\n  SamplingMessageContentBlock: ContentBlock\n"} {
		f, err := Parse("mcpgen.yaml", []byte(src))
		require.NoError(t, err)
		tests = append(tests, struct {
			name, version string
			file          *File
		}{fmt.Sprintf("sampling-%d", i), "draft", f})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			files := generateVersion(t, tt.version, tt.file)
			if tt.file.Config.NoValidate {
				assert.NotContains(t, files, "validate.go")
				assert.NotContains(t, files, "sampling.go", "the sampling rules are validation")
				assert.Contains(t, files, "protocol.go")
				if tt.version == "2025-03-26" {
					// The batch is copied without its Validate, which the validator would need.
					assert.Contains(t, string(files["protocol_batch.go"]), "type MessageBatch []Message")
					assert.NotContains(t, string(files["protocol_batch.go"]), "Validate")
				}
			}
			if tt.file.Config.Types != nil && strings.HasPrefix(tt.name, "CallToolRequest") {
				assert.NotContains(t, files, "protocol.go", "the message unions are not selected")
			}
			if strings.HasPrefix(tt.name, "sampling") {
				assert.Contains(t, files, "sampling.go", "the sampling rules stay")
				assert.Contains(t, files, "sampling_capabilities.go", "the capability check stays")
			}
			if strings.HasPrefix(tt.name, "protocol") {
				assert.Contains(t, files, "protocol.go", "the message unions are selected")
				assert.Contains(t, string(files["protocol_batch.go"]), "type MessageBatch []Message")
			}
			dir := writeModule(t, cmpOr(tt.file.Package, "mcp"), files)
			if tt.name == "gosdk" {
				root := filepath.Dir(dir)
				require.NoError(t, os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/mysdk\n\ngo 1.24\n\nrequire "+jsonschemaGo+"\n"), 0o644))
				require.NoError(t, os.WriteFile(filepath.Join(root, "go.sum"), []byte(jsonschemaGoSum), 0o644))
				require.NoError(t, CheckSubstitutes(tt.file.Config, dir, func(name string) bool { return files[name] != nil }))
			}
			goTool(t, dir, "vet", ".")
		})
	}
}

// copyExamples copies the spec's examples of the declarations named by the example directories
// dirs of a version into dir/testdata/examples.
func copyExamples(t *testing.T, version, dir string, dirs ...string) {
	t.Helper()
	for _, d := range dirs {
		files, err := filepath.Glob(filepath.Join("..", "schema", version, "examples", d, "*.json"))
		require.NoError(t, err)
		require.NotEmpty(t, files, d)
		to := filepath.Join(dir, "testdata", "examples", d)
		require.NoError(t, os.MkdirAll(to, 0o755))
		for _, f := range files {
			data, err := os.ReadFile(f)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(filepath.Join(to, filepath.Base(f)), data, 0o644))
		}
	}
}

// TestDraftExamples shapes the whole draft with draft.yaml (renames of types that the
// hand-written parts and the protocol layer use, a hand-written substitute for the input schema
// of tools) and runs draft_test.go beside it: the spec's examples of the types it touches decode,
// validate and encode back to the same JSON, through the substitute's own methods; the sampling
// rules and the protocol layer work on the renamed types.
func TestDraftExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	f := parseFile(t, "draft.yaml")
	files := generateVersion(t, "draft", f)
	files["draft_schema.go"] = readFile(t, "draft_schema.go.txt")
	files["draft_test.go"] = readFile(t, "draft_test.go.txt")
	dir := writeModule(t, f.Package, files)
	copyExamples(t, "draft", dir, "Tool", "ListToolsResult", "ListToolsResultResponse", "CallToolRequest", "CallToolRequestParams",
		"CallToolResult", "CreateMessageRequest", "CreateMessageRequestParams", "CreateMessageResult", "SamplingMessage",
		"ClientCapabilities", "ServerCapabilities")
	require.NoError(t, CheckSubstitutes(f.Config, dir, func(name string) bool { return files[name] != nil && name != "draft_schema.go" }))
	goTool(t, dir, "vet", ".")
	out := goTool(t, dir, "test", "-v", "-run", "TestExamples", ".")
	t.Log(strings.TrimSpace(out))
	goTool(t, dir, "test", ".")
}

// TestSharedPackage generates two outputs into one package: core.yaml's (a part of the draft,
// with the runtime) and ext.yaml's (an extension's schema, without the runtime, in files ext_*,
// substituting the package's own Tool), and runs ext_test.go beside them.
func TestSharedPackage(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	core := generateVersion(t, "draft", parseFile(t, filepath.Join("ext", "core.yaml")))
	ext, f := generate(t, filepath.Join("testdata", "ext", "ext.ts"), "ext-1", filepath.Join("testdata", "ext", "ext.yaml"))
	for name := range ext {
		assert.True(t, strings.HasPrefix(name, "ext_"), name)
		assert.NotContains(t, core, name)
	}
	assert.NotContains(t, ext, "ext_wire.go")
	files := map[string][]byte{"ext_test.go": readFile(t, filepath.Join("ext", "ext_test.go.txt"))}
	for _, out := range []map[string][]byte{core, ext} {
		for name, data := range out {
			files[name] = data
		}
	}
	dir := writeModule(t, "mcp", files)
	require.NoError(t, CheckSubstitutes(f.Config, dir, func(name string) bool { return ext[name] != nil }))
	goTool(t, dir, "vet", ".")
	goTool(t, dir, "test", ".")
}

// TestSubstituteKeepsPart: substituting the type of a member that a hand-written part reads (the
// capability check of sampling compares includeContext with "none") keeps the part, which reads
// the member through a reader planned for the string; the package compiles and vets, with
// validators and without.
func TestSubstituteKeepsPart(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	src := "substitute:\n  CreateMessageRequestParams.includeContext: string\n"
	for _, extra := range []string{"", "validate: false\n"} {
		f, err := Parse("mcpgen.yaml", []byte(src+extra))
		require.NoError(t, err)
		files := generateVersion(t, "2026-07-28", f)
		_, capabilities := files["sampling_capabilities.go"]
		assert.Equal(t, extra == "", capabilities, "the capability check is copied exactly with validators")
		goTool(t, writeModule(t, "mcp", files), "vet", ".")
	}
}
