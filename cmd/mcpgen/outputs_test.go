package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBaseOfAnotherOutput: a second output of a package embeds a base that the first output
// declares (embed: [Result] with substitute: {Result: Result}), its structs reaching the base's
// fields promoted, and the package builds and codes them.
func TestBaseOfAnotherOutput(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "go.mod"), "module example.com/two\n\ngo 1.23\n")
	out := filepath.Join(dir, "mcp")
	first := writeFile(t, filepath.Join(dir, "first.yaml"), "types: [Result]\nsubstitute:\n  ResultMetaObject: map[string]any\n")
	second := writeFile(t, filepath.Join(dir, "second.yaml"), `types: [InitializeResult]
embed: [Result]
substitute:
  Result: Result                # the first output's, which has resultType besides
  Result._meta: map[string]any
runtime: false
constants: false
filePrefix: old_
doc: ""
rename:
  SchemaVersion: oldSchemaVersion
`)
	for _, args := range [][]string{
		{"-spec", "2026-07-28", "-config", first, "-pkg", "mcp", "-o", out},
		{"-spec", "2025-11-25", "-config", second, "-pkg", "mcp", "-o", out},
	} {
		var stdout, stderr bytes.Buffer
		require.Equal(t, 0, cli(args, &stdout, &stderr), "%v: %s", args, stderr.String())
	}
	types, err := os.ReadFile(filepath.Join(out, "old_types.go"))
	require.NoError(t, err)
	require.Regexp(t, `(?m)^type InitializeResult struct \{\n(\t//.*\n)*\tResult\n`, string(types))
	writeFile(t, filepath.Join(out, "two_test.go"), `package mcp

import (
	"encoding/json"
	"testing"
)

func TestTwoOutputs(t *testing.T) {
	r := InitializeResult{Result: Result{Meta: map[string]any{"k": "v"}}, ProtocolVersion: "2025-11-25",
		ServerInfo: Implementation{Name: "s", Version: "1"}}
	b, err := json.Marshal(r)
	want := `+"`"+`{"_meta":{"k":"v"},"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}`+"`"+`
	if err != nil || string(b) != want {
		t.Errorf("encoded %s, %v\nwant %s", b, err, want)
	}
	var d InitializeResult
	if err := json.Unmarshal(b, &d); err != nil || d.Meta["k"] != "v" || d.ServerInfo.Name != "s" {
		t.Errorf("decoded %+v, %v", d, err)
	}
	if err := d.Validate(); err != nil {
		t.Error(err)
	}
}
`)
	cmd := exec.Command("go", "test", "./mcp")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	output, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", output)
}
