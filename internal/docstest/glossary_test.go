package docstest

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// glossary is what docs/glossary.md defines: each word's pattern, and the anchor of its entry.
var glossary = []struct {
	word   *regexp.Regexp
	anchor string
}{
	{regexp.MustCompile(`(?i)\bsampling with tools\b`), "sampling-with-tools"},
	{regexp.MustCompile(`(?i)\btool loop\b`), "tool-loop"},
	{regexp.MustCompile(`\bSEP-1577\b`), "sep-1577"},
	{regexp.MustCompile(`\bSEP-2577\b`), "sep-2577"},
	{regexp.MustCompile(`\bMRTR\b|(?i)\bmulti round-trip requests?\b`), "mrtr"},
	{regexp.MustCompile(`\binput_required\b`), "input_required"},
	{regexp.MustCompile(`\brequestState\b`), "requeststate"},
	{regexp.MustCompile(`(?i)\breplay guard\b`), "replay-guard"},
	// The key standIn is defined by its row in the table of docs/sdk-shapes.md, which the tables
	// of keys (config's TestKeysDocumented) need as it is; the word in prose is the glossary's.
	{regexp.MustCompile(`(?i)\bstand-in\b`), "standin"},
	{regexp.MustCompile(`(?i)\bfloors?\b`), "floor"},
}

var (
	fencedBlock = regexp.MustCompile("(?ms)^ *```.*?^ *```[^\n]*$")
	htmlComment = regexp.MustCompile(`(?s)<!--.*?-->`)
	heading     = regexp.MustCompile(`(?m)^#.*$`)
	// mdLink is a Markdown link: its text, then its target.
	mdLink = regexp.MustCompile(`\[((?:[^\[\]]|\[[^\]]*\])*)\]\(([^)\s]+)\)`)
)

// prose is a page's text as a reader meets it, code blocks, comments and headings blanked out
// (keeping the offsets of the rest).
func prose(text string) string {
	blank := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r == '\n' {
				return r
			}
			return ' '
		}, s)
	}
	for _, re := range []*regexp.Regexp{fencedBlock, htmlComment, heading} {
		text = re.ReplaceAllStringFunc(text, blank)
	}
	return text
}

// TestGlossaryLinked: on every page (README.md, the docs/ pages, the modules' READMEs), the first
// use of a word of the glossary is a link to its entry in docs/glossary.md, which defines it; the
// glossary has an entry for every word.
func TestGlossaryLinked(t *testing.T) {
	entries := readPage(t, filepath.Join(root, "docs", "glossary.md")).anchors
	for _, g := range glossary {
		require.True(t, entries[g.anchor], "docs/glossary.md has an entry #%s", g.anchor)
	}
	for _, name := range pages(t) {
		if name == "docs/glossary.md" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
		require.NoError(t, err)
		text := prose(string(data))
		links := mdLink.FindAllStringSubmatchIndex(text, -1)
		for _, g := range glossary {
			use := g.word.FindStringIndex(text)
			if use == nil {
				continue
			}
			linked := false
			for _, l := range links {
				if l[0] <= use[0] && use[1] <= l[3] {
					target := text[l[4]:l[5]]
					file, fragment, _ := strings.Cut(target, "#")
					linked = fragment == g.anchor && path.Join(path.Dir(name), file) == "docs/glossary.md"
				}
			}
			line := 1 + strings.Count(text[:use[0]], "\n")
			assert.True(t, linked, "%s:%d: the first use of %q is not a link to docs/glossary.md#%s", name, line, text[use[0]:use[1]], g.anchor)
		}
	}
}
