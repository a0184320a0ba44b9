package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/emit"
	"github.com/mcpgen/mcpgen/schema"
)

// TestGenerated fails when a package checked in under gen/ is not what the generator produces now.
// The packages and their versions are read from the go:generate lines of gen/generate.go.
func TestGenerated(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "gen", "generate.go"))
	require.NoError(t, err)
	lines := regexp.MustCompile(`(?m)^//go:generate go run -C \.\. \./cmd/mcpgen -spec (\S+) -o gen/(\S+)$`).FindAllStringSubmatch(string(src), -1)
	require.Len(t, lines, len(schema.Versions), "gen/generate.go should generate every embedded version")
	for _, l := range lines {
		version, pkg := l[1], l[2]
		t.Run(pkg, func(t *testing.T) {
			var stderr bytes.Buffer
			err := run([]string{"-check", "-spec", version, "-o", filepath.Join("..", "..", "gen", pkg)}, &stderr, &stderr)
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
	for _, want := range []string{"Usage:\n  mcpgen", "-spec", "-schema", "-o", "-pkg", "-check", "-diff", "-version", "draft"} {
		assert.Contains(t, out.String(), want)
	}
}

// TestVersion: -version prints mcpgen's own version and the embedded spec versions, on stdout,
// and exits 0, as Go tools do.
func TestVersion(t *testing.T) {
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, cli([]string{"-version"}, &stdout, &stderr))
	assert.Empty(t, stderr.String())
	lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
	require.Len(t, lines, 3, stdout.String())
	assert.Equal(t, "mcpgen "+emit.Version, lines[0])
	assert.Equal(t, "embedded MCP spec versions: 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28, draft (the default)", lines[1])
	assert.Contains(t, lines[2], schema.SourceCommit)
	for _, v := range schema.Versions {
		assert.Contains(t, lines[1], v)
	}

	// A build in a clone records its commit; a build of the module from the proxy does not.
	bi := &debug.BuildInfo{Main: debug.Module{Path: "github.com/mcpgen/mcpgen", Version: "(devel)"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "true"}}}
	assert.True(t, strings.HasPrefix(versionText(bi), "mcpgen "+emit.Version+" (built from commit 0123456789ab, with uncommitted changes)\n"), versionText(bi))
	bi.Settings = bi.Settings[:1]
	assert.True(t, strings.HasPrefix(versionText(bi), "mcpgen "+emit.Version+" (built from commit 0123456789ab)\n"), versionText(bi))
	bi.Main.Path = "example.com/mysdk" // mcpgen as a tool of another module: its main module is mcpgen, but not in a test
	assert.True(t, strings.HasPrefix(versionText(bi), "mcpgen "+emit.Version+"\n"), versionText(bi))
}

// TestMisuse: a command line mcpgen cannot run prints what is wrong on its first line, then one
// line that points to -h, never the whole usage, and exits 2.
func TestMisuse(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // the first line, after "mcpgen: "
	}{
		{[]string{"-bogus"}, "flag provided but not defined: -bogus"},
		{[]string{"-spec"}, "flag needs an argument: -spec"},
		{[]string{"-diff", "2025-11-25"}, "-diff takes two schemas, OLD and NEW (embedded versions or schema files), and no other flag"},
		{[]string{"-diff", "-o", "x", "2025-06-18", "2025-11-25"}, "-diff takes two schemas"},
		{[]string{"-check", "maybe"}, `unexpected arguments ["maybe"]`},
		{[]string{"-spec", "2025-11-25"}, "no output directory: pass -o"},
		{[]string{"-spec", "1999-01-01", "-o", "unused"}, `-spec "1999-01-01" is not an embedded spec version (those are 2024-11-05, 2025-03-26`},
		{[]string{"-pkg", "my-pkg", "-o", "unused"}, `-pkg "my-pkg" is not a valid Go package name`},
		// The flag's former meaning: the spec version.
		{[]string{"-version", "2025-11-25", "-o", "./mcp"}, "-version prints mcpgen's own version and takes nothing else; to choose the spec version, pass -spec 2025-11-25"},
		{[]string{"-version", "-o", "./mcp"}, "-version prints mcpgen's own version and takes no other flag or argument"},
		{[]string{"-lint-spec", "spec", "-o", "./mcp"}, "-lint-spec takes the directory of a spec repository checkout, and no other flag or argument"},
	} {
		var stdout, stderr bytes.Buffer
		assert.Equal(t, 2, cli(tc.args, &stdout, &stderr), tc.args)
		assert.Empty(t, stdout.String(), tc.args)
		lines := strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n")
		assert.True(t, strings.HasPrefix(lines[0], "mcpgen: "+tc.want), "%v: the first line is\n%s\nnot\nmcpgen: %s", tc.args, lines[0], tc.want)
		assert.LessOrEqual(t, len(lines), 3, "%v printed:\n%s", tc.args, stderr.String())
		assert.Equal(t, "Run 'mcpgen -h' for usage.", lines[len(lines)-1], tc.args)
		assert.NotContains(t, stderr.String(), "Usage:", tc.args)
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
	require.NoError(t, os.WriteFile(filepath.Join(dir, "old.go"), []byte("// Code generated by mcpgen v0.0.1. DO NOT EDIT.\n\npackage mcpdraft\n"), 0o644))
	types := filepath.Join(dir, "types.go")
	orig, err := os.ReadFile(types)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(types, append(orig, "// edited\n"...), 0o644))

	err = run([]string{"-check", "-o", dir}, &out, &out)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "old.go: no longer generated")
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
	err := run([]string{"-spec", "1999-01-01", "-o", t.TempDir()}, &out, &out)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `-spec "1999-01-01" is not an embedded spec version`)

	err = run([]string{"stray"}, &out, &out)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "unexpected arguments")

	// -diff takes two schemas and no other flag.
	for _, args := range [][]string{
		{"-diff", "2025-06-18"},
		{"-diff", "2025-06-18", "2025-11-25", "draft"},
		{"-diff", "-o", "x", "2025-06-18", "2025-11-25"},
		{"-diff", "-check", "2025-06-18", "2025-11-25"},
		{"-diff", "-schema", "x.ts", "2025-06-18", "2025-11-25"},
		{"-diff", "-spec", "draft", "2025-06-18", "2025-11-25"},
		{"-diff", "-pkg", "p", "2025-06-18", "2025-11-25"},
		{"-diff", "-config", "c.yaml", "2025-06-18", "2025-11-25"},
		{"-diff", "-version", "2025-06-18", "2025-11-25"},
	} {
		out.Reset()
		err := run(args, &out, &out)
		require.Error(t, err, args)
		if args[1] == "-version" {
			assert.Contains(t, err.Error(), "-version prints mcpgen's own version", args)
		} else {
			assert.Contains(t, err.Error(), "-diff takes two schemas, OLD and NEW", args)
		}
		assert.Empty(t, out.String(), args)
	}
}

func TestPackageName(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	jsonSchema := filepath.Join("..", "..", "schema", "draft", "schema.json")
	var out bytes.Buffer
	err := run([]string{"-schema", jsonSchema, "-spec", "1.0", "-o", dir}, &out, &out)
	require.Error(t, err)
	assert.Equal(t, `the default package name "mcp1.0" (from version "1.0") is not a valid Go package name; pass -pkg`, err.Error())
	for _, pkg := range []string{"type", "_", "1x", "my-pkg"} {
		err := run([]string{"-schema", jsonSchema, "-spec", "1.0", "-pkg", pkg, "-o", dir}, &out, &out)
		require.Error(t, err, pkg)
		assert.Contains(t, err.Error(), fmt.Sprintf("-pkg %q is not a valid Go package name", pkg))
	}
	assert.NoDirExists(t, dir)
	require.NoError(t, run([]string{"-schema", jsonSchema, "-spec", "1.0", "-pkg", "mcp1", "-o", dir}, &out, &out))
}

// TestCLIErrors checks what the command prints and its exit status.
func TestCLIErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string // printed to stderr exactly once
	}{
		{[]string{"-bogus"}, 2, "mcpgen: flag provided but not defined: -bogus\n"},
		{[]string{"-check", "maybe"}, 2, "unexpected arguments"},
		{[]string{"-spec", "1999-01-01", "-o", "unused"}, 2, `mcpgen: -spec "1999-01-01" is not an embedded spec version`},
		{[]string{"-h"}, 0, "Usage:\n  mcpgen"},
	} {
		var stdout, stderr bytes.Buffer
		assert.Equal(t, tc.code, cli(tc.args, &stdout, &stderr), tc.args)
		assert.Equal(t, 1, strings.Count(stderr.String(), tc.want), "%v printed:\n%s", tc.args, stderr.String())
		assert.NotContains(t, stderr.String(), "help requested", tc.args)
		assert.Empty(t, stdout.String(), tc.args)
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
