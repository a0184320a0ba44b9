package speclint

import (
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/model"
)

// Docs naming what the version does not have: a {@link X} of schema.ts whose X the version does
// not declare, and a type name in backticks, in the JSDoc of schema.ts or in the spec's text
// (docs/specification/<version>/**/*.mdx, outside fenced code), that the version does not
// declare. A name in backticks is taken for a type's when another version of the repository
// declares it, or when it is a compound name ending like the schema's type names do (Request,
// Result, Content...): an HTTP header (`Authorization`) or a signal (`SIGTERM`) is neither. The
// changelog of a version may name what the version before it declared: that is what it removed.

// docs adds the findings of the docs of v; prev is the version before it, or nil.
func (l *linter) docs(v *version, prev *version) {
	names := l.knownNames()
	l.links(v, names)
	l.jsdocNames(v, names)
	dir := path.Join("docs", "specification", v.name)
	_ = fs.WalkDir(l.fsys, dir, func(file string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || !strings.HasSuffix(file, ".mdx") {
			return nil
		}
		data, err := fs.ReadFile(l.fsys, file)
		if err != nil {
			return nil
		}
		also := (*version)(nil)
		if path.Base(file) == "changelog.mdx" && path.Dir(file) == dir {
			also = prev
		}
		l.mdxNames(v, also, file, string(data), names)
		return nil
	})
}

// knownNames maps every name a version of the repository declares to the versions declaring it.
func (l *linter) knownNames() map[string][]string {
	out := map[string][]string{}
	for _, v := range l.versions {
		if v.raw == nil {
			continue
		}
		for _, d := range v.raw.Decls {
			out[d.Name] = append(out[d.Name], v.name)
		}
	}
	return out
}

// declares reports whether v declares name (a declaration or a constant).
func declares(v *version, name string) bool {
	if v == nil || v.raw == nil {
		return false
	}
	return v.raw.Decl(name) != nil || slices.ContainsFunc(v.raw.Consts, func(c *model.Const) bool { return c.Name == name })
}

var linkRE = regexp.MustCompile(`\{@link\s+([^\s}|]+)`)

// links checks the {@link} targets of schema.ts: a declaration, or a member of one (X.y).
func (l *linter) links(v *version, names map[string][]string) {
	for i, line := range strings.Split(string(v.tsSrc), "\n") {
		for _, m := range linkRE.FindAllStringSubmatchIndex(line, -1) {
			target := line[m[2]:m[3]]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "#") {
				continue
			}
			name, _, _ := strings.Cut(target, ".")
			name, _, _ = strings.Cut(name, "#")
			if !declares(v, name) {
				l.add(model.Pos{File: v.tsFile, Line: i + 1, Col: m[2] + 1}, DocName, name,
					"{@link %s} names what this version's schema does not declare%s%s", model.Shorten(target), declaredBy(names[name]), l.suggest(v, name))
			}
		}
	}
}

var codeSpanRE = regexp.MustCompile("`([^`\n]+)`")

// typeNameRE matches a name written like the schema's type names.
var typeNameRE = regexp.MustCompile(`^[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)*$`)

// jsdocNames checks the names in backticks of the comments of schema.ts.
func (l *linter) jsdocNames(v *version, names map[string][]string) {
	for i, line := range strings.Split(string(v.tsSrc), "\n") {
		trimmed := strings.TrimSpace(line)
		if !strings.HasPrefix(trimmed, "*") && !strings.HasPrefix(trimmed, "/*") && !strings.HasPrefix(trimmed, "//") {
			continue
		}
		l.codeSpans(v, nil, v.tsFile, i+1, line, names)
	}
}

// mdxNames checks the names in backticks of a page of the spec's text, outside fenced code
// blocks. also is a version whose names the page may name too (the changelog's previous
// version), or nil.
func (l *linter) mdxNames(v, also *version, file, text string, names map[string][]string) {
	fence := ""
	for i, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			fence = trimmed[:3]
			continue
		}
		l.codeSpans(v, also, file, i+1, line, names)
	}
}

// codeSpans checks the code spans of one line.
func (l *linter) codeSpans(v, also *version, file string, line int, text string, names map[string][]string) {
	for _, m := range codeSpanRE.FindAllStringSubmatchIndex(text, -1) {
		name := text[m[2]:m[3]]
		if !typeNameRE.MatchString(name) || declares(v, name) || declares(also, name) || !l.typeLike(name, names) {
			continue
		}
		l.add(model.Pos{File: file, Line: line, Col: m[2] + 1}, DocName, name,
			"names the type %s, which this version's schema does not declare%s%s", name, declaredBy(names[name]), l.suggest(v, name))
	}
}

// declaredBy says which other versions declare a name, for a message.
func declaredBy(versions []string) string {
	switch len(versions) {
	case 0:
		return ""
	case 1:
		return " (" + versions[0] + " declares it)"
	}
	return " (" + joinNames(versions) + " declare it)"
}

// typeLike reports whether a name in backticks is a type's: another version declares it, or it
// is a compound name whose last word ends three or more of the repository's type names.
func (l *linter) typeLike(name string, names map[string][]string) bool {
	if len(names[name]) > 0 {
		return true
	}
	words := humps(name)
	if len(words) < 2 {
		return false
	}
	last := words[len(words)-1]
	n := 0
	for known := range names {
		if w := humps(known); len(w) > 1 && w[len(w)-1] == last {
			n++
		}
	}
	return n >= 3
}

// humps splits a CamelCase name into its words.
func humps(name string) []string {
	var words []string
	start := 0
	for i := 1; i < len(name); i++ {
		if 'A' <= name[i] && name[i] <= 'Z' && !('A' <= name[i-1] && name[i-1] <= 'Z') {
			words = append(words, name[start:i])
			start = i
		}
	}
	return append(words, name[start:])
}

// suggest names the declaration of v that name most likely means: the shortest whose words
// hold name's words in order (ResourceReference: ResourceTemplateReference).
func (l *linter) suggest(v *version, name string) string {
	words := humps(name)
	best := ""
	for _, d := range v.raw.Decls {
		if subsequence(words, humps(d.Name)) && (best == "" || len(d.Name) < len(best)) {
			best = d.Name
		}
	}
	if best == "" {
		return ""
	}
	return "; it declares " + best
}

func subsequence(words, in []string) bool {
	i := 0
	for _, w := range in {
		if i < len(words) && w == words[i] {
			i++
		}
	}
	return i == len(words)
}
