package consumertest

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readmeStep is a code block of the README or of a docs/ page that the test runs (a sh script),
// writes (a file), or compares with what the run before it printed (its output).
type readmeStep struct {
	page   string // the file, relative to the repository's root
	line   int    // where the block starts in page
	write  string // the file to write the block to
	output bool   // the block is the end of the output of the run step before it
	text   string
}

var (
	readmeMarker = regexp.MustCompile(`^<!-- README test: (run|output|write (\S+)) -->$`)
	docsLink     = regexp.MustCompile(`\]\((docs/[^)#\s]+\.md)[)#]`)
)

// readmePages returns the pages whose marked blocks TestREADME runs, in order: README.md, then the
// docs/ pages in the order of the front page's reading list (its section "Where to go next"),
// so that a page's commands can rely on those of the pages before it. The list names every page
// of docs/.
func readmePages(t *testing.T) []string {
	t.Helper()
	front, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	require.NoError(t, err)
	_, next, ok := strings.Cut(string(front), "\n## Where to go next\n")
	require.True(t, ok, "README.md has a section \"Where to go next\"")
	next, _, _ = strings.Cut(next, "\n## ")
	pages := []string{"README.md"}
	for _, m := range docsLink.FindAllStringSubmatch(next, -1) {
		if !slices.Contains(pages, m[1]) {
			pages = append(pages, m[1])
		}
	}
	all, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	require.NoError(t, err)
	for _, file := range all {
		page := "docs/" + filepath.Base(file)
		require.Contains(t, pages, page, "README.md's \"Where to go next\" lists every page of docs/")
	}
	return pages
}

// readmeSteps reads the code blocks of a page marked with a line <!-- README test: run -->,
// <!-- README test: output --> or <!-- README test: write path --> just before them.
func readmeSteps(t *testing.T, page string) []readmeStep {
	t.Helper()
	f, err := os.Open(filepath.Join(repoRoot, filepath.FromSlash(page)))
	require.NoError(t, err)
	defer f.Close()
	var steps []readmeStep
	var cur *readmeStep
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case cur != nil && cur.line == 0:
			require.True(t, strings.HasPrefix(line, "```"), "%s:%d: a README test marker must precede a code block", page, n)
			cur.line = n
		case cur != nil && line == "```":
			if cur.output {
				require.True(t, len(steps) > 0 && steps[len(steps)-1].write == "" && !steps[len(steps)-1].output,
					"%s:%d: an output block must follow a run block", page, cur.line)
			}
			steps = append(steps, *cur)
			cur = nil
		case cur != nil:
			cur.text += line + "\n"
		default:
			if m := readmeMarker.FindStringSubmatch(line); m != nil {
				cur = &readmeStep{page: page, write: m[2], output: m[1] == "output"}
			}
		}
	}
	require.NoError(t, sc.Err())
	require.Nil(t, cur, "%s ends in a code block", page)
	return steps
}

// TestREADME runs the commands of README.md and of the docs/ pages, as written, in a fresh module
// (example.com/mysdk) outside the repository, with the modules served by a proxy built from the
// repository: go get of gen, go install of mcpgen and its commands, the front page's example and
// what it prints, go get -tool, the go:generate line and go generate, the configuration file. Then
// it checks the outcome: both generated packages are the checked-in gen/mcp20251125 byte for byte,
// the configured one has the configured types, and the module builds and vets.
func TestREADME(t *testing.T) {
	skipSlow(t)
	var steps []readmeStep
	for _, page := range readmePages(t) {
		steps = append(steps, readmeSteps(t, page)...)
	}
	var all strings.Builder
	for _, s := range steps {
		all.WriteString(s.text)
	}
	for _, want := range []string{"go get github.com/mcpgen/mcpgen/gen@latest", "go install github.com/mcpgen/mcpgen/cmd/mcpgen@latest",
		"go get -tool github.com/mcpgen/mcpgen/cmd/mcpgen@latest", "//go:generate go tool mcpgen", "go generate ./..."} {
		require.Contains(t, all.String(), want, "the README's tested commands")
	}
	require.True(t, slices.ContainsFunc(steps, func(s readmeStep) bool { return s.output }), "the front page's example shows what it prints")

	home := t.TempDir()
	dir := filepath.Join(home, "mysdk")
	require.NoError(t, os.Mkdir(dir, 0o755))
	env := consumerEnv(t, buildProxy(t), "local", home)
	command(t, dir, env, "go", "mod", "init", "example.com/mysdk")
	var output strings.Builder
	var last string // the output of the last run step
	for _, s := range steps {
		switch {
		case s.write != "":
			path := filepath.Join(dir, filepath.FromSlash(s.write))
			require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
			require.NoError(t, os.WriteFile(path, []byte(s.text), 0o644))
		case s.output:
			assert.True(t, strings.HasSuffix(last, s.text), "%s:%d: the run before prints\n%s\nnot, at its end,\n%s", s.page, s.line, last, s.text)
		default:
			t.Logf("%s:%d:\n%s", s.page, s.line, s.text)
			last = command(t, dir, env, "sh", "-c", "set -e\n"+s.text)
			output.WriteString(last)
		}
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
