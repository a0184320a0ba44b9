package emit_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/config"
	"github.com/mcpgen/mcpgen/emit"
	"github.com/mcpgen/mcpgen/schema"
	"github.com/mcpgen/mcpgen/templates"
)

// samplingShapes are configurations of the sampling types of 2026-07-28 that change the shapes
// or the names of the members the sampling rules read. keepsForm is set when the shapes keep what
// the package decodes (not so: a list of one block sent as the block, an empty capability object
// held as a zero struct value); without it, the verdicts are compared on what the package sends.
var samplingShapes = []struct {
	name, yaml string
	keepsForm  bool
}{
	{"defaults", "", true},
	{"omitempty_pointers", `optional: omitempty
elements: pointer
objects: pointer
`, true},
	{"omitzero", `optional: omitzero
`, false},
	{"oneormany_slice", `oneOrMany: slice
`, false},
	{"renamed_fields", `fields:
  ToolUseContent.id: UseID
  ToolResultContent.toolUseId: AnswersID
  SamplingMessage.content: Blocks
  SamplingMessage.role: From
  ClientCapabilities.sampling: SamplingCapability
`, true},
	{"standin", `literals: implicit
unknown: drop
decode: lenient
declarations: |
  export type Content =
    | TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource
    | ToolUseContent | ToolResultContent;
standIn:
  ContentBlock: Content
  SamplingMessageContentBlock: Content
`, true},
	{"substitute_any", `optional: omitempty
substitute:
  SamplingMessage.content: any
  CreateMessageResult.content: any
  Role: string
  CreateMessageRequestParams.includeContext: string
  ClientCapabilities.sampling.tools: "map[string]any"
`, true},
}

// TestSamplingRulesUnderShapes generates the sampling types under each of samplingShapes and
// runs, in each package, the table of the sampling rules and CheckCapabilities
// (gen/internal/samplingtest) where the shapes keep the content's form, and, for every case and
// every sampling example of 2026-07-28 (gen/testdata/examples), compares the package's problems
// with those of gen's mcp20260728 on the JSON the package sends: the same verdicts, messages and
// JSON pointers.
func TestSamplingRulesUnderShapes(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	gen, err := filepath.Abs("../gen")
	require.NoError(t, err)
	dir := t.TempDir()
	write := func(name string, data []byte) {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), data, 0o644))
	}
	write("go.mod", []byte("module example.com/shapes\n\ngo 1.26\n\nrequire github.com/mcpgen/mcpgen/gen v0.0.0\n\n"+
		"replace github.com/mcpgen/mcpgen/gen => "+gen+"\n"))
	for _, name := range []string{"cases.go", "samplingtest.go"} {
		data, err := os.ReadFile(filepath.Join(gen, "internal/samplingtest", name))
		require.NoError(t, err)
		write("samplingtest/"+name, data)
	}
	var examples []string
	for _, typ := range []string{"CreateMessageRequest", "CreateMessageRequestParams", "CreateMessageResult", "SamplingMessage"} {
		files, err := filepath.Glob(filepath.Join(gen, "testdata/examples/2026-07-28", typ, "*.json"))
		require.NoError(t, err)
		require.NotEmpty(t, files, typ)
		examples = append(examples, files...)
	}
	for _, e := range examples {
		data, err := os.ReadFile(e)
		require.NoError(t, err)
		write("testdata/"+filepath.Base(filepath.Dir(e))+"/"+filepath.Base(e), data)
	}
	test, err := os.ReadFile("testdata/sampling_shapes.test.go")
	require.NoError(t, err)
	for _, shape := range samplingShapes {
		for name, data := range generateSampling(t, shape.name, shape.yaml) {
			write(shape.name+"/"+name, data)
		}
		src := strings.ReplaceAll(string(test), "package shapes", "package "+shape.name)
		if !shape.keepsForm {
			src = strings.Replace(src, "const keepsForm = true", "const keepsForm = false", 1)
		}
		require.NotEqual(t, shape.keepsForm, strings.Contains(src, "const keepsForm = false"))
		write(shape.name+"/sampling_test.go", []byte(src))
	}
	goTest(t, dir)
}

// generateSampling generates the sampling types of 2026-07-28 as package pkg, shaped by the
// configuration yaml.
func generateSampling(t *testing.T, pkg, yaml string) map[string][]byte {
	t.Helper()
	files, err := generateConfigured(t, "2026-07-28", "package: "+pkg+"\n"+
		"types: [CreateMessageRequest, CreateMessageRequestParams, CreateMessageResult, ClientCapabilities, SamplingMessage, ToolUseContent, ToolResultContent]\n"+yaml)
	require.NoError(t, err, pkg)
	return files
}

// generateConfigured generates a version with the configuration file mcpgen.yaml of text yaml.
func generateConfigured(t *testing.T, version, yaml string) (map[string][]byte, error) {
	t.Helper()
	f, err := config.Parse("mcpgen.yaml", []byte(yaml))
	require.NoError(t, err)
	name, src, err := schema.File(version, "schema.ts")
	require.NoError(t, err)
	s, err := f.Load(name, src)
	require.NoError(t, err)
	s.Version = version
	return emit.Generate(s, emit.Options{Package: f.Package, Version: s.Version, SchemaHash: "sha256:0123",
		Runtime: templates.Runtime(), Parts: templates.Parts(), PackageDoc: f.PackageDoc(), Config: f.Config})
}

// TestSamplingRulesUnreadable: a member the sampling rules read, left out or substituted by a type
// that is no string, is refused at its entry.
func TestSamplingRulesUnreadable(t *testing.T) {
	for _, tt := range []struct{ yaml, want string }{
		{"omit: [SamplingMessage.role]\n",
			"mcpgen.yaml:3:8: the configuration leaves out SamplingMessage.Role, which the sampling rules read; keep the member, or leave the rules out (validate: false)"},
		{"substitute:\n  ToolUseContent.id: int\n",
			"mcpgen.yaml:4:22: the configuration makes ToolUseContent.ID int, which the sampling rules cannot read (they need a string); keep the member's type, or leave the rules out (validate: false)"},
	} {
		_, err := generateConfigured(t, "2026-07-28", "package: mcp\ntypes: [CreateMessageRequestParams]\n"+tt.yaml)
		require.EqualError(t, err, tt.want)
	}
}

// TestNullableSubstitute: a member that admits null (Task.ttl: number | null), substituted by a
// pointer, is valid nil, as the null it stands for; decoded from null and from a number.
func TestNullableSubstitute(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	files, err := generateConfigured(t, "2025-11-25", "package: tasks\ntypes: [Task]\nsubstitute:\n  Task.ttl: \"*int64\"\n")
	require.NoError(t, err)
	files["task_test.go"] = []byte(`package tasks

import "testing"

func TestNullTTL(t *testing.T) {
	for _, ttl := range []string{"null", "60000"} {
		var task Task
		data := ` + "`" + `{"taskId":"t1","status":"working","createdAt":"2025-11-25T10:30:00Z","lastUpdatedAt":"2025-11-25T10:30:00Z","ttl":` + "`" + ` + ttl + "}"
		if err := Unmarshal([]byte(data), &task); err != nil {
			t.Errorf("ttl %s: %v", ttl, err)
		}
		if (task.TTL == nil) != (ttl == "null") {
			t.Errorf("ttl %s: decoded as %v", ttl, task.TTL)
		}
	}
}
`)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/tasks\n\ngo 1.26\n"), 0o644))
	for name, data := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), data, 0o644))
	}
	goTest(t, dir)
}

// goTest runs go test ./... in the module dir and fails with its output on error.
func goTest(t *testing.T, dir string) {
	t.Helper()
	cmd := exec.Command("go", "test", "-count=1", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "go test:\n%s", out)
	t.Logf("go test:\n%s", out)
}
