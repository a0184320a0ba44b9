package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/schema"
)

// TestGenerated fails when a package checked in under gen/ is not what the generator produces now.
// The packages and their versions are read from the go:generate lines of gen/generate.go.
func TestGenerated(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "gen", "generate.go"))
	require.NoError(t, err)
	lines := regexp.MustCompile(`(?m)^//go:generate go run -C \.\. \./cmd/mcpgen -version (\S+) -o gen/(\S+)$`).FindAllStringSubmatch(string(src), -1)
	require.Len(t, lines, len(schema.Versions), "gen/generate.go should generate every embedded version")
	for _, l := range lines {
		version, pkg := l[1], l[2]
		t.Run(pkg, func(t *testing.T) {
			var stderr bytes.Buffer
			err := run([]string{"-check", "-version", version, "-o", filepath.Join("..", "..", "gen", pkg)}, &stderr, &stderr)
			if err != nil {
				t.Fatalf("%v\nRun: cd gen && go generate ./...", err)
			}
		})
	}
}

func TestHelp(t *testing.T) {
	var out bytes.Buffer
	err := run([]string{"-h"}, &out, &out)
	require.ErrorIs(t, err, flag.ErrHelp)
	assert.Equal(t, 0, exitCode(err))
	for _, want := range []string{"Usage: mcpgen", "-version", "-schema", "-o", "-pkg", "-check", "draft"} {
		assert.Contains(t, out.String(), want)
	}
}

func TestWriteCheckAndRemove(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer

	// -check on an empty directory reports every file as stale.
	err := run([]string{"-check", "-o", dir}, &out, &out)
	require.Error(t, err)
	assert.Equal(t, 1, exitCode(err))
	assert.Contains(t, err.Error(), "types.go")

	require.NoError(t, run([]string{"-o", dir}, &out, &out))
	require.NoError(t, run([]string{"-check", "-o", dir}, &out, &out))

	// A hand-written file is left alone; an edited generated file is stale; a generated file the
	// schema no longer produces is stale and then removed.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "extra.go"), []byte("package mcpdraft\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "old.go"), []byte(header+"\n\npackage mcpdraft\n"), 0o644))
	types := filepath.Join(dir, "types.go")
	orig, err := os.ReadFile(types)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(types, append(orig, "// edited\n"...), 0o644))

	err = run([]string{"-check", "-o", dir}, &out, &out)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "old.go (no longer generated)")
	assert.Contains(t, err.Error(), "types.go")
	assert.NotContains(t, err.Error(), "extra.go")

	require.NoError(t, run([]string{"-o", dir}, &out, &out))
	assert.NoFileExists(t, filepath.Join(dir, "old.go"))
	assert.FileExists(t, filepath.Join(dir, "extra.go"))
	got, err := os.ReadFile(types)
	require.NoError(t, err)
	assert.Equal(t, string(orig), string(got))
	assertNoTemps(t, dir)
}

// TestFailedRunLeavesOutput checks that a schema error writes nothing.
func TestFailedRunLeavesOutput(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer
	require.NoError(t, run([]string{"-o", dir}, &out, &out))
	before := snapshot(t, dir)

	bad := filepath.Join(t.TempDir(), "schema.ts")
	require.NoError(t, os.WriteFile(bad, []byte("export interface A {\n  b: Missing;\n}\n"), 0o644))
	err := run([]string{"-schema", bad, "-o", dir}, &out, &out)
	require.Error(t, err)
	assert.Contains(t, err.Error(), bad+":2:6")
	assert.Equal(t, 2, exitCode(err))
	assert.Equal(t, before, snapshot(t, dir))
	assertNoTemps(t, dir)
}

func TestBadFlags(t *testing.T) {
	var out bytes.Buffer
	err := run([]string{"-version", "1999-01-01"}, &out, &out)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `unknown schema version "1999-01-01"`)

	err = run([]string{"stray"}, &out, &out)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "unexpected arguments")
}

// TestWriteTargetNotRegular checks that a target that is not a regular file fails the run before
// anything is changed.
func TestWriteTargetNotRegular(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer
	require.NoError(t, run([]string{"-o", dir}, &out, &out))
	messUp(t, dir)
	types := filepath.Join(dir, "types.go")
	require.NoError(t, os.Remove(types))
	require.NoError(t, os.Mkdir(types, 0o755))
	before := snapshot(t, dir)

	err := run([]string{"-o", dir}, &out, &out)
	require.Error(t, err)
	assert.Equal(t, "cannot replace "+types+": it is not a regular file", err.Error())
	assert.Equal(t, 2, exitCode(err))
	assert.Equal(t, before, snapshot(t, dir))
}

// TestWriteRollback makes each rename of a write fail in turn, and checks that every failure
// leaves the directory exactly as it was.
func TestWriteRollback(t *testing.T) {
	dir := t.TempDir()
	files, err := generate("", schema.Default, "mcpdraft")
	require.NoError(t, err)
	require.NoError(t, write(dir, files))
	messUp(t, dir)
	require.NoError(t, os.Remove(filepath.Join(dir, "consts.go"))) // a new file with no original
	before := snapshot(t, dir)

	t.Cleanup(func() { rename = os.Rename })
	for fail := 1; ; fail++ {
		calls := 0
		rename = func(from, to string) error {
			if calls++; calls == fail {
				return errors.New("injected failure")
			}
			return os.Rename(from, to)
		}
		err := write(dir, files)
		if err == nil {
			require.Greater(t, fail, len(files), "every rename should have been made to fail once")
			break
		}
		require.EqualError(t, err, "injected failure", "rename %d", fail)
		require.Equal(t, before, snapshot(t, dir), "rename %d", fail)
	}
	got := snapshot(t, dir)
	assert.NotContains(t, got, "old.go")
	assert.Equal(t, string(files["unions.go"]), got["unions.go"])
	assert.Equal(t, string(files["consts.go"]), got["consts.go"])
}

// messUp makes the next write of dir do everything it can: it adds a generated file the schema no
// longer produces, a hand-written file, and edits a generated file.
func messUp(t *testing.T, dir string) {
	t.Helper()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "old.go"), []byte(header+"\n\npackage mcpdraft\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "extra.go"), []byte("package mcpdraft\n"), 0o644))
	unions := filepath.Join(dir, "unions.go")
	data, err := os.ReadFile(unions)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(unions, append(data, "// edited\n"...), 0o644))
}

func TestPackageName(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	jsonSchema := filepath.Join("..", "..", "schema", "draft", "schema.json")
	var out bytes.Buffer
	err := run([]string{"-schema", jsonSchema, "-version", "1.0", "-o", dir}, &out, &out)
	require.Error(t, err)
	assert.Equal(t, `the default package name "mcp1.0" (from -version "1.0") is not a valid Go package name; pass -pkg`, err.Error())
	for _, pkg := range []string{"type", "_", "1x", "my-pkg"} {
		err := run([]string{"-schema", jsonSchema, "-version", "1.0", "-pkg", pkg, "-o", dir}, &out, &out)
		require.Error(t, err, pkg)
		assert.Contains(t, err.Error(), fmt.Sprintf("-pkg %q is not a valid Go package name", pkg))
	}
	assert.NoDirExists(t, dir)
	require.NoError(t, run([]string{"-schema", jsonSchema, "-version", "1.0", "-pkg", "mcp1", "-o", dir}, &out, &out))
}

// TestCLIErrors checks what the command prints and its exit status.
func TestCLIErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string // printed to stderr exactly once
	}{
		{[]string{"-bogus"}, 2, "flag provided but not defined: -bogus\n"},
		{[]string{"-check", "maybe"}, 2, "unexpected arguments"},
		{[]string{"-version", "1999-01-01"}, 2, `mcpgen: unknown schema version "1999-01-01"`},
		{[]string{"-h"}, 0, "Usage: mcpgen"},
	} {
		var stdout, stderr bytes.Buffer
		assert.Equal(t, tc.code, cli(tc.args, &stdout, &stderr), tc.args)
		assert.Equal(t, 1, strings.Count(stderr.String(), tc.want), "%v printed:\n%s", tc.args, stderr.String())
		assert.NotContains(t, stderr.String(), "help requested", tc.args)
		assert.Empty(t, stdout.String(), tc.args)
	}
}

// snapshot returns the content of each file in dir, and "(directory)" for a directory.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range entries {
		if e.IsDir() {
			files[e.Name()] = "(directory)"
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		require.NoError(t, err)
		files[e.Name()] = string(data)
	}
	return files
}

func assertNoTemps(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range entries {
		assert.False(t, strings.HasSuffix(e.Name(), ".tmp"), "temporary file left: %s", e.Name())
	}
}

// TestSchemaJSON generates from schema.json, the second front end.
func TestSchemaJSON(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer
	require.NoError(t, run([]string{"-schema", filepath.Join("..", "..", "schema", "draft", "schema.json"), "-o", dir, "-pkg", "mcp"}, &out, &out))
	types, err := os.ReadFile(filepath.Join(dir, "types.go"))
	require.NoError(t, err)
	assert.Contains(t, string(types), "\npackage mcp\n")
	assert.Contains(t, string(types), "\ntype CreateMessageRequestParams struct {\n")
	unions, err := os.ReadFile(filepath.Join(dir, "unions.go"))
	require.NoError(t, err)
	assert.Contains(t, string(unions), "\ntype SamplingMessageContentBlock interface {\n")
}
