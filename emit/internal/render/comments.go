package render

import (
	"go/doc/comment"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/dave/jennifer/jen"
)

// docComment renders doc text as a Go comment in gofmt's canonical form (lists, code blocks and
// spacing as gofmt would rewrite them), with every paragraph and list item filled to
// CommentWidth, or nothing for empty text. The schema's line breaks inside a paragraph are
// dropped, as Markdown drops them; lines that define terms ("complete - the request ...") become
// a list, so that they stay apart.
func docComment(text string) jen.Code {
	// Schema strings quoted in comments (enum values, member names) may hold characters a Go
	// file cannot: CleanText replaces them, as the front ends do for doc text.
	text = cleanText(text)
	if strings.TrimSpace(text) == "" {
		return jen.Null()
	}
	var p comment.Parser
	d := p.Parse(definitionList(text))
	unwrapBlocks(d.Content)
	var pr comment.Printer
	out := strings.TrimRight(string(pr.Comment(d)), "\n")
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		lines = append(lines, wrap(l)...)
	}
	for i, l := range lines {
		switch {
		case l == "":
			lines[i] = "//"
		case strings.HasPrefix(l, "\t"):
			lines[i] = "//" + l
		default:
			lines[i] = "// " + l
		}
	}
	return jen.Comment(strings.Join(lines, "\n"))
}

// definitionLine matches a line that defines a term: "complete - the request completed ...".
var definitionLine = regexp.MustCompile(`^[\w./-]+ - \S`)

// definitionList indents two or more consecutive definition lines as a list.
func definitionList(text string) string {
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); {
		j := i
		for j < len(lines) && definitionLine.MatchString(lines[j]) {
			j++
		}
		if j-i >= 2 {
			for k := i; k < j; k++ {
				lines[k] = "  - " + lines[k]
			}
		}
		i = max(j, i+1)
	}
	return strings.Join(lines, "\n")
}

// unwrapBlocks joins the lines of every paragraph, in lists too, into one.
func unwrapBlocks(blocks []comment.Block) {
	for _, b := range blocks {
		switch b := b.(type) {
		case *comment.Paragraph:
			unwrapText(b.Text)
		case *comment.List:
			for _, item := range b.Items {
				unwrapBlocks(item.Content)
			}
		}
	}
}

func unwrapText(text []comment.Text) {
	for i, t := range text {
		switch t := t.(type) {
		case comment.Plain:
			text[i] = comment.Plain(strings.ReplaceAll(string(t), "\n", " "))
		case comment.Italic:
			text[i] = comment.Italic(strings.ReplaceAll(string(t), "\n", " "))
		case *comment.Link:
			unwrapText(t.Text)
		case *comment.DocLink:
			unwrapText(t.Text)
		}
	}
}

// CommentWidth is the width, without the "// ", up to which wrap fills the lines of a paragraph.
// It leaves room for the tab of a field or a constant in a block: no comment line is longer than
// 100 columns with a tab of 4.
const CommentWidth = 92

// ListItemLine matches the first line of a list item as go/doc/comment prints it: indented, then the
// marker.
var ListItemLine = regexp.MustCompile(`^ +([-*+]|\d+[.)]) `)

// wrap fills a line of paragraph text or a list item to CommentWidth, breaking it at spaces; a
// list item's further lines are indented by four spaces, as gofmt prints them. Code blocks
// (tab-indented) are left as they are, as is a word longer than the width (a URL).
func wrap(line string) []string {
	if len(line) <= CommentWidth || strings.HasPrefix(line, "\t") {
		return []string{line}
	}
	first, indent := "", ""
	if m := ListItemLine.FindString(line); m != "" {
		first, indent, line = m, "    ", line[len(m):]
	} else if strings.HasPrefix(line, " ") {
		return []string{line}
	}
	var lines []string
	cur := first
	for _, word := range strings.Fields(line) {
		switch {
		case cur == first || cur == indent:
			cur += word
		case len(cur)+1+len(word) > CommentWidth:
			lines = append(lines, cur)
			cur = indent + word
		default:
			cur += " " + word
		}
	}
	return append(lines, cur)
}

// cleanText returns comment text without the characters that a Go source file cannot hold or
// that only disturb it: control characters other than tab and line feed, and U+FEFF (byte order
// mark) each become U+FFFD, as does invalid UTF-8, as model.CleanText does for the schema's doc
// text (emit's TestCleanTextAgrees and FuzzCleanTextAgrees hold the two to agreement). Schema strings quoted in comments (enum values, member names) may
// hold them.
func cleanText(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0x7f || r == '\uFEFF' {
			return utf8.RuneError
		}
		return r
	}, s)
}

// CleanText is cleanText, for the test that holds it to model.CleanText.
var CleanText = cleanText
