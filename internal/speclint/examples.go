package speclint

import (
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/model"
)

// Examples read as schema.ts reads them: each file examples/<Type>/*.json of a version read as
// its Type (read.go), and each @example of schema.ts naming a file that exists.

// maxProblemsPerExample bounds the findings of one example.
const maxProblemsPerExample = 20

// examples adds the findings of v's examples.
func (l *linter) examples(v *version) {
	l.includes(v)
	if v.read == nil {
		return // model.Protocol refused the schema: a Refused finding says so
	}
	dir := path.Join(v.dir, "examples")
	types, err := fs.ReadDir(l.fsys, dir)
	if err != nil {
		return // no examples
	}
	for _, t := range types {
		if st, err := fs.Stat(l.fsys, path.Join(dir, t.Name())); err != nil || !st.IsDir() {
			continue // a file, or a link to nothing
		}
		files, err := fs.Glob(l.fsys, path.Join(dir, globEscape(t.Name()), "*.json"))
		if err != nil || len(files) == 0 {
			continue
		}
		slices.Sort(files)
		if v.read.Decl(t.Name()) == nil {
			l.add(model.Pos{File: files[0], Line: 1, Col: 1}, Example, t.Name(),
				"the examples of %s are of a type that schema.ts does not declare", model.Shorten(t.Name()))
			continue
		}
		for _, file := range files {
			l.example(v, file, t.Name())
		}
	}
}

// globEscape escapes the pattern characters of a directory name for fs.Glob.
func globEscape(name string) string {
	return strings.NewReplacer(`\`, `\\`, "*", `\*`, "?", `\?`, "[", `\[`).Replace(name)
}

// example reads one example file as the declaration typ.
func (l *linter) example(v *version, file, typ string) {
	data, err := fs.ReadFile(l.fsys, file)
	if err != nil {
		l.add(model.Pos{File: file, Line: 1, Col: 1}, Example, "(file)", "cannot be read: %v", err)
		return
	}
	at := model.NewLines(file, data).Pos
	n, err := parseJSON(data)
	if err != nil {
		je := err.(*jsonError)
		l.add(at(je.off), Example, "(syntax)", "not JSON: %s", je.msg)
		return
	}
	r := newReader(v.read)
	r.value(n, &model.Type{Kind: model.Ref, Ref: typ})
	for i, p := range r.probs {
		if i == maxProblemsPerExample {
			l.add(at(n.off), Example, "(more)", "and %d more problems", len(r.probs)-i)
			break
		}
		subject := p.pointer
		if subject == "" {
			subject = "(root)"
		}
		l.add(at(p.off), Example, subject, "%s", p.msg)
	}
}

// includes adds a finding for every @example of schema.ts whose {@includeCode} names a file the
// version does not have.
func (l *linter) includes(v *version) {
	for _, d := range v.raw.Decls {
		for _, e := range d.Doc.Examples {
			if e.File == "" {
				continue
			}
			file := path.Join(v.dir, e.File)
			if _, err := fs.Stat(l.fsys, file); err != nil {
				l.add(l.tsPos(v, "{@includeCode "+e.File, d.Pos), Example, d.Name,
					"the @example %s names %s, which does not exist", quoteCut(e.Title), e.File)
			}
		}
	}
}

// tsPos finds text in schema.ts after the position from (a declaration's doc comment comes
// before it: the search starts at the start of the comment that ends before from), or returns
// from.
func (l *linter) tsPos(v *version, text string, from model.Pos) model.Pos {
	lines := strings.Split(string(v.tsSrc), "\n")
	start := from.Line - 1
	for start > 0 && !strings.Contains(lines[start-1], "/**") && start > from.Line-200 {
		start--
	}
	for i := max(start-1, 0); i < len(lines) && i < from.Line; i++ {
		if col := strings.Index(lines[i], text); col >= 0 {
			return model.Pos{File: v.tsFile, Line: i + 1, Col: col + 1}
		}
	}
	return from
}
