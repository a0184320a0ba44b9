package docstest

import (
	"bufio"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// root is the repository's root, from this package's directory.
const root = "../.."

// pages are the Markdown pages whose links are checked, relative to the root: README.md, the
// docs/ pages and the modules' READMEs (Pages).
func pages(t *testing.T) []string {
	t.Helper()
	list, err := Pages(root)
	require.NoError(t, err)
	require.Contains(t, list, "README.md")
	require.Contains(t, list, "docs/generator.md")
	require.Contains(t, list, "backfill/README.md")
	return list
}

// link is a Markdown link or image of a page: [text](target).
var link = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// page is what the checks need of a Markdown file: its links, with their lines, and the anchors
// of its headings.
type page struct {
	links   []pageLink
	anchors map[string]bool
}

type pageLink struct {
	line   int
	target string
}

// readPage reads a Markdown file, leaving out what is inside fenced code blocks and inline code.
func readPage(t *testing.T, file string) page {
	t.Helper()
	f, err := os.Open(file)
	require.NoError(t, err)
	defer f.Close()
	p := page{anchors: map[string]bool{}}
	seen := map[string]int{}
	fenced := false
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		if title, ok := strings.CutPrefix(line, "#"); ok {
			a := anchor(strings.TrimLeft(title, "#"))
			if k := seen[a]; k > 0 {
				p.anchors[a+"-"+strconv.Itoa(k)] = true
			} else {
				p.anchors[a] = true
			}
			seen[a]++
		}
		for _, m := range link.FindAllStringSubmatch(stripCode(line), -1) {
			p.links = append(p.links, pageLink{n, m[1]})
		}
	}
	require.NoError(t, sc.Err())
	require.False(t, fenced, "%s ends in a code block", file)
	return p
}

// stripCode removes the inline code spans of a line, where a link is not one.
func stripCode(line string) string {
	parts := strings.Split(line, "`")
	var b strings.Builder
	for i := 0; i < len(parts); i += 2 {
		b.WriteString(parts[i])
	}
	return b.String()
}

// anchor is the fragment that GitHub gives a heading: lower case, spaces as hyphens, and
// nothing but letters, digits, hyphens and underscores.
func anchor(title string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(title)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestAnchor(t *testing.T) {
	for title, want := range map[string]string{
		"Generating an SDK's own API":               "generating-an-sdks-own-api",
		"A host that adds servers by URL (-listen)": "a-host-that-adds-servers-by-url--listen",
		"The protocol layer":                        "the-protocol-layer",
		" From go-sdk's declarations table":         "from-go-sdks-declarations-table",
	} {
		assert.Equal(t, want, anchor(title), title)
	}
}

// TestLinks: every relative link of README.md, of the docs/ pages and of the modules' READMEs
// reaches a file or a directory of the repository, and a link with a #fragment into a Markdown page (the page itself
// when it names no file) reaches one of that page's headings.
func TestLinks(t *testing.T) {
	for _, name := range pages(t) {
		file := filepath.Join(root, filepath.FromSlash(name))
		p := readPage(t, file)
		for _, l := range p.links {
			if strings.Contains(l.target, "://") || strings.HasPrefix(l.target, "mailto:") {
				continue
			}
			target, fragment, _ := strings.Cut(l.target, "#")
			dest := name
			if target != "" {
				require.False(t, path.IsAbs(target), "%s:%d: %s: a link within the repository is relative", name, l.line, l.target)
				dest = path.Join(path.Dir(name), target)
				if strings.HasPrefix(dest, "../") {
					t.Errorf("%s:%d: %s leaves the repository", name, l.line, l.target)
					continue
				}
				if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(dest))); err != nil {
					t.Errorf("%s:%d: %s: no such file or directory %s", name, l.line, l.target, dest)
					continue
				}
			}
			if fragment == "" {
				continue
			}
			if !strings.HasSuffix(dest, ".md") {
				t.Errorf("%s:%d: %s: a fragment of a page that is not Markdown", name, l.line, l.target)
				continue
			}
			if !readPage(t, filepath.Join(root, filepath.FromSlash(dest))).anchors[fragment] {
				t.Errorf("%s:%d: %s: %s has no heading #%s", name, l.line, l.target, dest, fragment)
			}
		}
	}
}

// TestFrontPageLinksEveryPage: each page of docs/ is linked from README.md, so that none is out of
// a reader's reach.
func TestFrontPageLinksEveryPage(t *testing.T) {
	front := readPage(t, filepath.Join(root, "README.md"))
	linked := map[string]bool{}
	for _, l := range front.links {
		target, _, _ := strings.Cut(l.target, "#")
		linked[target] = true
	}
	for _, name := range pages(t) {
		if !strings.HasPrefix(name, "docs/") {
			continue
		}
		assert.True(t, linked[name], "README.md does not link %s", name)
	}
}

// TestFrontPageStartsWithTheCommands: the first lines of README.md, under its title, are the two
// commands a newcomer needs in a clone: the generator on the embedded default schema, the draft,
// into gen/mcpdraft, and every test of every module. (The README test marker between the title
// and the block is an HTML comment, which a reader of the page does not see.)
func TestFrontPageStartsWithTheCommands(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(root, "README.md"))
	require.NoError(t, err)
	lines := strings.SplitN(string(data), "\n", 7)
	require.Len(t, lines, 7)
	assert.Equal(t, []string{"# mcpgen", ""}, lines[:2])
	assert.Regexp(t, `^<!-- README test: not run: .* -->$`, lines[2])
	assert.Equal(t, "```sh", lines[3])
	assert.Regexp(t, `^go run \./cmd/mcpgen -o gen/mcpdraft +#`, lines[4])
	assert.Regexp(t, `^go test github\.com/mcpgen/mcpgen/\.\.\. +#`, lines[5])
	assert.True(t, strings.HasPrefix(lines[6], "```\n"), "the block ends after the two commands")
}

// TestCIRunsTheFrontPage: .ci/run runs the front page's test command, and first the three
// commands that the front page says install what the skipped tests need.
func TestCIRunsTheFrontPage(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	require.NoError(t, err)
	ci, err := os.ReadFile(filepath.Join(root, ".ci", "run"))
	require.NoError(t, err)
	assert.Contains(t, string(ci), "\nall=github.com/mcpgen/mcpgen/...\n")
	tests := strings.Index(string(ci), "\ngo test $all\n")
	require.Positive(t, tests, ".ci/run runs go test github.com/mcpgen/mcpgen/...")
	for _, c := range []struct{ readme, ci string }{
		{"apt-get install redis-server", "apt-get install -y -qq redis-server"},
		{"(cd examples/sampling-agent/tsclient && npm ci)", "(cd examples/sampling-agent/tsclient && npm ci "},
		{"\nbackfill/conformance/install.sh ", "\nbackfill/conformance/install.sh\n"},
	} {
		assert.Contains(t, string(readme), c.readme, "README.md names the command")
		i := strings.Index(string(ci), c.ci)
		assert.True(t, i > 0 && i < tests, ".ci/run runs %q before the tests", c.ci)
	}
}

// TestFrontPagesShort: the front pages of the modules with the most to say stay front pages,
// at most 200 lines as README.md is; their reference and measurements are docs/ pages.
func TestFrontPagesShort(t *testing.T) {
	for _, page := range []string{"README.md", "backfill/README.md", "bench/README.md", "examples/sampling-agent/README.md"} {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(page)))
		require.NoError(t, err)
		n := strings.Count(string(data), "\n")
		assert.LessOrEqual(t, n, 200, "%s has %d lines", page, n)
	}
}
