package consumertest

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readmeStep is a code block of the README that the test runs (a sh script) or writes (a file).
type readmeStep struct {
	line  int    // where the block starts in README.md
	write string // the file to write the block to, or "" to run it
	text  string
}

var readmeMarker = regexp.MustCompile(`^<!-- README test: (run|write (\S+)) -->$`)

// readmeSteps reads the code blocks of README.md marked with a line <!-- README test: run --> or
// <!-- README test: write path --> just before them.
func readmeSteps(t *testing.T) []readmeStep {
	t.Helper()
	f, err := os.Open(filepath.Join(repoRoot, "README.md"))
	require.NoError(t, err)
	defer f.Close()
	var steps []readmeStep
	var cur *readmeStep
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case cur != nil && cur.line == 0:
			require.True(t, strings.HasPrefix(line, "```"), "README.md:%d: a README test marker must precede a code block", n)
			cur.line = n
		case cur != nil && line == "```":
			steps = append(steps, *cur)
			cur = nil
		case cur != nil:
			cur.text += line + "\n"
		default:
			if m := readmeMarker.FindStringSubmatch(line); m != nil {
				cur = &readmeStep{write: m[2]}
			}
		}
	}
	require.NoError(t, sc.Err())
	require.Nil(t, cur, "README.md ends in a code block")
	return steps
}

// TestREADME runs the commands of the README's sections for users, as written, in a fresh module
// (example.com/mysdk) outside the repository, with the modules served by a proxy built from the
// repository: go get of gen, go install of mcpgen and its commands, go get -tool, the go:generate
// line and go generate, the configuration file. Then it checks the outcome: both generated packages
// are the checked-in gen/mcp20251125 byte for byte, the configured one has the configured types,
// and the module builds and vets.
func TestREADME(t *testing.T) {
	skipSlow(t)
	steps := readmeSteps(t)
	var all strings.Builder
	for _, s := range steps {
		all.WriteString(s.text)
	}
	for _, want := range []string{"go get github.com/mcpgen/mcpgen/gen@latest", "go install github.com/mcpgen/mcpgen/cmd/mcpgen@latest",
		"go get -tool github.com/mcpgen/mcpgen/cmd/mcpgen@latest", "//go:generate go tool mcpgen", "go generate ./..."} {
		require.Contains(t, all.String(), want, "the README's tested commands")
	}

	home := t.TempDir()
	dir := filepath.Join(home, "mysdk")
	require.NoError(t, os.Mkdir(dir, 0o755))
	env := consumerEnv(t, buildProxy(t), "local", home)
	command(t, dir, env, "go", "mod", "init", "example.com/mysdk")
	var output strings.Builder
	for _, s := range steps {
		if s.write != "" {
			path := filepath.Join(dir, filepath.FromSlash(s.write))
			require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
			require.NoError(t, os.WriteFile(path, []byte(s.text), 0o644))
			continue
		}
		t.Logf("README.md:%d:\n%s", s.line, s.text)
		output.WriteString(command(t, dir, env, "sh", "-c", "set -e\n"+s.text))
	}

	gomod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	require.NoError(t, err)
	assert.Contains(t, string(gomod), "\ntool "+rootModule+"/cmd/mcpgen\n")
	assert.Contains(t, output.String(), "Go API changes from MCP 2025-11-25 (package mcp20251125) to MCP 2026-07-28")

	want := goFiles(t, filepath.Join(repoRoot, "gen", "mcp20251125"))
	for _, out := range []string{"mcp", filepath.Join("protocol", "mcp")} {
		got := goFiles(t, filepath.Join(dir, out))
		assert.Equal(t, len(want), len(got), out)
		for name, data := range want {
			assert.Equal(t, data, got[name], "%s/%s is gen/mcp20251125/%s", out, name, name)
		}
	}
	// The configuration file's example: selected, renamed, substituted.
	sdk := goFiles(t, filepath.Join(dir, "sdk"))
	assert.Contains(t, sdk["types.go"], "\ntype CallToolParams struct {\n")
	assert.Regexp(t, `\n\tInputSchema +\*jsonschema\.Schema +`+"`"+`json:"inputSchema"`+"`", sdk["types.go"])
	assert.NotContains(t, sdk["types.go"], "\ntype CallToolRequest struct {\n", "not selected")
	assert.Contains(t, sdk["doc.go"], "// Package sdk holds the MCP types of example.com/mysdk")
	command(t, dir, env, "go", "build", "./...")
	command(t, dir, env, "go", "vet", "./...")
}

// goFiles reads the non-test Go files of dir.
func goFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	require.NoError(t, err)
	files := map[string]string{}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		data, err := os.ReadFile(name)
		require.NoError(t, err)
		files[filepath.Base(name)] = string(data)
	}
	require.NotEmpty(t, files, dir)
	return files
}
