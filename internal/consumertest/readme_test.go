package consumertest

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/docstest"
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
	// pass is the install the step belongs to: "" for both, passClone or passRelease.
	pass string
	text string
}

// The two installs the pages describe, which TestREADME follows one after the other: mcpgen as
// it can be had today, from a clone of the repository, and as it will be after the first
// release, from the module proxy.
const (
	passClone   = "from a clone"
	passRelease = "after the release"
)

var (
	// readmeMarker is the line before a code block that says what TestREADME does with it: run
	// it (in both installs, or in one), write it to a file, compare it with what the run before
	// printed, or nothing, and why.
	readmeMarker = regexp.MustCompile(`^<!-- README test: (run|run from a clone|run after the release|output|write (\S+)|not run: (\S.*\S)) -->$`)
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

// readmeSteps reads the code blocks of a page that a README test marker precedes (see
// readmeMarker), and returns those that TestREADME runs, writes or compares.
func readmeSteps(t *testing.T, page string) []readmeStep {
	t.Helper()
	f, err := os.Open(filepath.Join(repoRoot, filepath.FromSlash(page)))
	require.NoError(t, err)
	defer f.Close()
	var steps []readmeStep
	var cur *readmeStep
	notRun := false
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case cur != nil && cur.line == 0:
			require.True(t, strings.HasPrefix(strings.TrimSpace(line), "```"), "%s:%d: a README test marker must precede a code block", page, n)
			cur.line = n
		case cur != nil && strings.TrimSpace(line) == "```":
			if cur.output {
				require.True(t, len(steps) > 0 && steps[len(steps)-1].write == "" && !steps[len(steps)-1].output,
					"%s:%d: an output block must follow a run block", page, cur.line)
			}
			if !notRun {
				steps = append(steps, *cur)
			}
			cur = nil
		case cur != nil:
			cur.text += line + "\n"
		default:
			if m := readmeMarker.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
				cur = &readmeStep{page: page, write: m[2], output: m[1] == "output"}
				notRun = m[3] != ""
				if p, ok := strings.CutPrefix(m[1], "run "); ok {
					cur.pass = p
				}
			}
		}
	}
	require.NoError(t, sc.Err())
	require.Nil(t, cur, "%s ends in a code block", page)
	return steps
}

// TestREADME runs the commands of README.md and of the docs/ pages, as written, in a fresh module
// (example.com/mysdk) outside the repository, twice: as mcpgen can be had today, from a clone of
// the repository beside the module (the clone's git clone fetches the repository as it is on
// disk), and as it will be after the first release, with the modules served by a module proxy
// built from the repository. Each time it runs the steps of that install and those of both: go get
// of gen, go install of mcpgen and its commands, the front page's example and what it prints,
// mcpgen as a tool, the go:generate line and go generate, the configuration files. Then it checks
// the outcome: both generated packages are the checked-in gen/mcp20251125 byte for byte, the
// configured ones have the configured types, and the module builds and vets.
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
		"go get -tool github.com/mcpgen/mcpgen/cmd/mcpgen@latest", "//go:generate go tool mcpgen", "go generate ./...",
		"git clone https://github.com/mcpgen/mcpgen ../mcpgen", "go mod edit -replace github.com/mcpgen/mcpgen/gen=../mcpgen/gen",
		"-tool github.com/mcpgen/mcpgen/cmd/mcpgen"} {
		require.Contains(t, all.String(), want, "the README's tested commands")
	}
	require.True(t, slices.ContainsFunc(steps, func(s readmeStep) bool { return s.output }), "the front page's example shows what it prints")
	for _, pass := range []string{passClone, passRelease} {
		t.Run(pass, func(t *testing.T) {
			require.True(t, slices.ContainsFunc(steps, func(s readmeStep) bool { return s.pass == pass }), "the pages have steps %s", pass)
			runREADME(t, steps, pass)
		})
	}
}

// runREADME runs the steps of the pages for one install (pass) in a new module, and checks the
// outcome.
func runREADME(t *testing.T, steps []readmeStep, pass string) {
	home := t.TempDir()
	dir := filepath.Join(home, "mysdk")
	require.NoError(t, os.Mkdir(dir, 0o755))
	var env []string
	if pass == passRelease {
		env = consumerEnv(t, buildProxy(t), "local", home)
	} else {
		// No proxy serves mcpgen's modules, and no GOWORK is set: the clone's own go.work is used
		// in the clone, as it would be for a user.
		env = withoutVar(consumerEnv(t, "", "local", home), "GOWORK")
		env = append(env, "GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=url."+gitRepo(t)+".insteadOf",
			"GIT_CONFIG_VALUE_0=https://github.com/mcpgen/mcpgen")
	}
	command(t, dir, env, "go", "mod", "init", "example.com/mysdk")
	var output strings.Builder
	var last string // the output of the last run step
	for _, s := range steps {
		switch {
		case s.pass != "" && s.pass != pass:
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
	if pass == passClone {
		// The front page's first command, in the clone: it rewrites gen/mcpdraft, with no diff.
		clone := filepath.Join(home, "mcpgen")
		command(t, clone, env, "go", "run", "./cmd/mcpgen", "-o", "gen/mcpdraft")
		assert.Empty(t, command(t, clone, env, "git", "status", "--porcelain"), "the front page's first command changes nothing in a clone")
	}
	checkREADME(t, pass, dir, env, output.String())
}

// checkREADME checks what the pages' commands made of the module in dir.
func checkREADME(t *testing.T, pass, dir string, env []string, output string) {
	gomod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	require.NoError(t, err)
	assert.Contains(t, string(gomod), "\ntool "+rootModule+"/cmd/mcpgen\n")
	assert.Contains(t, output, "Go API changes from MCP 2025-11-25 (package mcp20251125) to MCP 2026-07-28")
	// mcpgen -version: built in a clone, mcpgen says from which commit.
	built := ""
	if pass == passClone {
		built = ` \(built from commit [0-9a-f]{12}\)`
	}
	assert.Regexp(t, `(?m)^mcpgen `+regexp.QuoteMeta(version)+built+`$`, output, "mcpgen -version")

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
	// The SDK shapes' example.
	shapes := goFiles(t, filepath.Join(dir, "shapes"))
	assert.Regexp(t, "\n\tTools +\\[\\]\\*Tool +`json:\"tools\"`\n", shapes["types.go"])
	assert.Regexp(t, "\n\tContent +\\[\\]Content +`json:\"content\"`\n", shapes["types.go"])
	assert.Regexp(t, "\ntype ListToolsResult struct {\n\tMeta `json:\"_meta,omitempty\"`\n", shapes["types.go"])
	command(t, dir, env, "go", "build", "./...")
	command(t, dir, env, "go", "vet", "./...")
}

// withoutVar is env without the variable name.
func withoutVar(env []string, name string) []string {
	var out []string
	for _, kv := range env {
		if n, _, _ := strings.Cut(kv, "="); n != name {
			out = append(out, kv)
		}
	}
	return out
}

// gitRepo makes a git repository of the repository's files as they are on disk (tracked, or
// untracked and not ignored), committed, and returns its directory: what a clone of the
// repository would get, with the changes not committed yet.
func gitRepo(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "repo")
	for _, f := range repoFiles(t) {
		src := filepath.Join(repoRoot, filepath.FromSlash(f))
		fi, err := os.Stat(src)
		require.NoError(t, err)
		data, err := os.ReadFile(src)
		require.NoError(t, err)
		dst := filepath.Join(dir, filepath.FromSlash(f))
		require.NoError(t, os.MkdirAll(filepath.Dir(dst), 0o755))
		require.NoError(t, os.WriteFile(dst, data, fi.Mode().Perm()))
	}
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=test", "-c", "user.email=test@example.com"}, args...)...)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "git %v: %s", args, out)
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-q", "-m", "the repository as it is on disk")
	return dir
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

// checkedLanguages are the code blocks that a page must say what is done with: commands, Go,
// YAML.
var checkedLanguages = []string{"sh", "bash", "shell", "console", "go", "yaml", "yml"}

// TestCodeBlocksMarked: every sh, Go and YAML code block of README.md, of the docs/ pages and of
// the modules' READMEs is preceded by a README test marker: TestREADME runs it, writes it or
// compares it (README.md and docs/ only), or it is marked "not run" with the reason. Pages
// vendored from elsewhere (a directory with a SOURCE-COMMIT), testdata and node_modules are
// left out.
func TestCodeBlocksMarked(t *testing.T) {
	pages, err := docstest.Pages(repoRoot)
	require.NoError(t, err)
	require.Contains(t, pages, "backfill/README.md")
	require.Contains(t, pages, "docs/generator.md")
	blocks, unmarked := 0, 0
	for _, page := range pages {
		front := page == "README.md" || strings.HasPrefix(page, "docs/")
		data, err := os.ReadFile(filepath.Join(repoRoot, filepath.FromSlash(page)))
		require.NoError(t, err)
		lines := strings.Split(string(data), "\n")
		fenced := false
		for i, line := range lines {
			fence, ok := strings.CutPrefix(strings.TrimSpace(line), "```")
			if !ok {
				continue
			}
			if fenced = !fenced; !fenced || !slices.Contains(checkedLanguages, fence) {
				continue
			}
			blocks++
			var marker []string
			if i > 0 {
				marker = readmeMarker.FindStringSubmatch(strings.TrimSpace(lines[i-1]))
			}
			switch {
			case marker == nil:
				unmarked++
				t.Errorf("%s:%d: a %s block without a README test marker before it (<!-- README test: not run: why -->, or run, write, output)", page, i+1, fence)
			case !front && marker[3] == "":
				t.Errorf("%s:%d: TestREADME runs README.md and docs/ only: a block here can only be marked not run, with the reason", page, i+1)
			}
		}
	}
	t.Logf("%d code blocks on %d pages, %d unmarked", blocks, len(pages), unmarked)
}
