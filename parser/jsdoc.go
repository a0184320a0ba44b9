package parser

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/mcpgen/mcpgen/model"
)

// JSDoc is a parsed `/** ... */` comment.
type JSDoc struct {
	Doc model.Doc
	// Constraints are the @minimum, @maximum, @format, @minItems, @maxItems, @minLength,
	// @maxLength and @pattern tags.
	Constraints model.Constraints
	// TJSType is the @TJS-type tag ("number"), or "".
	TJSType string
}

// docTag is one block tag: its name without '@', its text (continuation lines joined by '\n')
// and its position.
type docTag struct {
	name string
	text string
	pos  model.Pos
}

// parseJSDoc parses a JSDoc comment; a nil comment gives the zero JSDoc.
func parseJSDoc(c *comment) (JSDoc, error) {
	if c == nil {
		return JSDoc{}, nil
	}
	var d JSDoc
	desc, tags := splitJSDoc(c)
	var other []string // the tags kept as text
	for _, t := range tags {
		keep, err := d.apply(t)
		if err != nil {
			return d, err
		}
		if keep != "" {
			other = append(other, keep)
		}
	}
	d.Doc.Text = desc
	if len(other) > 0 {
		d.Doc.Text = strings.TrimSpace(desc + "\n\n" + strings.Join(other, "\n"))
	}
	return d, nil
}

// splitJSDoc strips the comment markers and splits the comment into its description and tags.
func splitJSDoc(c *comment) (string, []docTag) {
	var desc []string
	var tags []docTag
	lines := strings.Split(lineBreaks.Replace(model.CleanText(c.text[3:len(c.text)-2])), "\n")
	for i, raw := range lines {
		line, off := cleanLine(raw, i == 0)
		if isTagStart(line) {
			n := 1
			for n < len(line) && (isIdentPart(line[n]) || line[n] == '-') {
				n++
			}
			pos := model.Pos{File: c.pos.File, Line: c.pos.Line + i, Col: off + 1}
			if i == 0 {
				pos.Col += c.pos.Col - 1 + len("/**")
			}
			tags = append(tags, docTag{name: line[1:n], text: strings.TrimSpace(line[n:]), pos: pos})
			continue
		}
		if len(tags) > 0 {
			t := &tags[len(tags)-1]
			t.text += "\n" + line
			continue
		}
		desc = append(desc, line)
	}
	for i := range tags {
		// Trimmed, but for a line break before the text (`@example` then a code block).
		tags[i].text = strings.TrimLeft(strings.TrimRightFunc(tags[i].text, unicode.IsSpace), " \t")
	}
	return strings.TrimSpace(strings.Join(desc, "\n")), tags
}

// lineBreaks replaces the line breaks of JavaScript by \n, as the lexer counts them.
var lineBreaks = strings.NewReplacer("\r\n", "\n", "\r", "\n", "\u2028", "\n", "\u2029", "\n")

// cleanLine strips a comment line of its leading white space and ` * ` and of trailing white
// space. It returns the text and its byte offset in the line.
func cleanLine(raw string, first bool) (string, int) {
	s := strings.TrimLeft(raw, " \t")
	if !first && strings.HasPrefix(s, "*") {
		s = strings.TrimPrefix(s[1:], " ")
	}
	return strings.TrimRight(s, " \t\r"), len(raw) - len(s)
}

func isTagStart(line string) bool {
	return len(line) > 1 && line[0] == '@' && isIdentStart(line[1])
}

// apply records one block tag. It returns the text to keep in the doc text: unknown tags
// (@default, @param, @remarks...) are kept whole, and so is an @example without a {@includeCode}
// file; a known tag followed by several lines takes its value from the first and keeps the
// others. A known tag with a malformed value is an error.
func (d *JSDoc) apply(t docTag) (keep string, err error) {
	whole := "@" + t.name + " " + t.text
	if t.text == "" || t.text[0] == '\n' {
		whole = "@" + t.name + t.text
	}
	if t.name != "example" {
		t.text = strings.TrimSpace(t.text)
	}
	switch t.name {
	case "deprecated":
		d.Doc.Deprecated, d.Doc.DeprecatedText = true, t.text
		return "", nil
	case "see":
		d.Doc.See = append(d.Doc.See, t.text)
		return "", nil
	case "example":
		if d.example(t) {
			return "", nil
		}
		return whole, nil
	case "typescript-eslint":
		return "", nil
	case "internal", "nullable":
		// @nullable only repeats the `| null` of the type. Text after either is kept.
		d.Doc.Internal = d.Doc.Internal || t.name == "internal"
		if t.text != "" {
			return whole, nil
		}
		return "", nil
	case "category", "TJS-type", "format", "minimum", "maximum", "minItems", "maxItems", "minLength", "maxLength", "pattern":
	default:
		return whole, nil
	}
	t.text, keep, _ = strings.Cut(t.text, "\n")
	keep = strings.TrimSpace(keep)
	switch t.name {
	case "category":
		d.Doc.Category = t.text
	case "TJS-type":
		switch t.text {
		case "number":
			d.TJSType = t.text
		case "integer": // what a number is without the tag
		default:
			return "", t.pos.Errorf("found @TJS-type %q, expected @TJS-type number", model.Shorten(t.text))
		}
	case "format":
		d.Constraints.Format = t.text
	case "minimum":
		d.Constraints.Minimum, err = parseFloatTag(t)
	case "maximum":
		d.Constraints.Maximum, err = parseFloatTag(t)
	case "minItems":
		d.Constraints.MinItems, err = parseIntTag(t)
	case "maxItems":
		d.Constraints.MaxItems, err = parseIntTag(t)
	case "minLength":
		d.Constraints.MinLength, err = parseIntTag(t)
	case "maxLength":
		d.Constraints.MaxLength, err = parseIntTag(t)
	case "pattern":
		d.Constraints.Pattern = t.text
	}
	return keep, err
}

// example records `@example Title` followed by `{@includeCode ./file}` and reports whether it
// had that form.
func (d *JSDoc) example(t docTag) bool {
	title, rest, _ := strings.Cut(t.text, "\n")
	file, ok := strings.CutPrefix(strings.TrimSpace(rest), "{@includeCode ")
	file, ok2 := strings.CutSuffix(file, "}")
	if !ok || !ok2 || strings.ContainsAny(file, "\n{}") {
		return false
	}
	d.Doc.Examples = append(d.Doc.Examples, model.Example{Title: strings.TrimSpace(title), File: strings.TrimSpace(file)})
	return true
}

func parseFloatTag(t docTag) (*float64, error) {
	f, err := strconv.ParseFloat(t.text, 64)
	if err != nil {
		return nil, t.pos.Errorf("found %q after @%s, expected a number", model.Shorten(t.text), t.name)
	}
	return &f, nil
}

func parseIntTag(t docTag) (*int, error) {
	n, err := strconv.Atoi(t.text)
	if err != nil {
		return nil, t.pos.Errorf("found %q after @%s, expected an integer", model.Shorten(t.text), t.name)
	}
	return &n, nil
}
