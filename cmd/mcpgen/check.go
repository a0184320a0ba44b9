package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// staleError is the error of -check for a stale output directory: which files differ and how,
// and what to run to update them.
func staleError(dir, schemaDesc string, files map[string][]byte, stale []string, args []string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s is stale: it is not what %s generates:", dir, schemaDesc)
	for _, name := range stale {
		name, gone := strings.CutSuffix(name, noLongerGenerated)
		want := files[name]
		if gone {
			want = nil
		}
		fmt.Fprintf(&b, "\n  %s", fileSummary(dir, name, want))
	}
	fmt.Fprintf(&b, "\n%s", advice(dir, args))
	return staleErr(b.String())
}

// staleErr is the error of -check for a stale directory: it is errStale.
type staleErr string

func (e staleErr) Error() string        { return string(e) }
func (e staleErr) Is(target error) bool { return target == errStale }

// fileSummary says how the file name in dir differs from want (nil: no longer generated).
func fileSummary(dir, name string, want []byte) string {
	got, err := os.ReadFile(filepath.Join(dir, name))
	switch {
	case want == nil:
		return name + ": no longer generated (regenerating removes it)"
	case errors.Is(err, os.ErrNotExist):
		return name + ": missing"
	case err != nil:
		return name + ": " + err.Error()
	}
	if old, new := schemaLine(got), schemaLine(want); old != new && old != "" {
		old, new = shortHash.ReplaceAllString(old, "$1…"), shortHash.ReplaceAllString(new, "$1…")
		return fmt.Sprintf("%s: records %s, not %s", name, old, new)
	}
	added, removed, changed, ok := declDiff(got, want)
	if !ok {
		return name + ": differs (and does not parse)"
	}
	var parts []string
	for _, d := range []struct {
		what  string
		names []string
	}{{"changed", changed}, {"added", added}, {"removed", removed}} {
		if len(d.names) > 0 {
			parts = append(parts, d.what+" "+shortList(d.names, 4))
		}
	}
	if len(parts) == 0 {
		return name + ": differs outside declarations (header, imports or comments)"
	}
	return name + ": " + strings.Join(parts, "; ")
}

// shortHash matches a hash, keeping its first 12 digits.
var shortHash = regexp.MustCompile(`(sha256:[0-9a-f]{12})[0-9a-f]+`)

// schemaLine is the "Schema: MCP <version> (<hash>)" record of a doc.go, without its period.
func schemaLine(src []byte) string {
	for _, l := range strings.Split(string(src), "\n") {
		if s, ok := strings.CutPrefix(l, "// Schema: "); ok {
			return strings.TrimSuffix(s, ".")
		}
	}
	return ""
}

// declDiff lists the top-level declarations that only want has, only got has, and that both have
// with a different text (doc comments included). A method is named Type.Method. ok is false when
// a file does not parse.
func declDiff(got, want []byte) (added, removed, changed []string, ok bool) {
	g, err1 := decls(got)
	w, err2 := decls(want)
	if err1 != nil || err2 != nil {
		return nil, nil, nil, false
	}
	for name, text := range w {
		switch old, ok := g[name]; {
		case !ok:
			added = append(added, name)
		case old != text:
			changed = append(changed, name)
		}
	}
	for name := range g {
		if _, ok := w[name]; !ok {
			removed = append(removed, name)
		}
	}
	slices.Sort(added)
	slices.Sort(removed)
	slices.Sort(changed)
	return added, removed, changed, true
}

// decls maps the top-level declarations of a Go file to their text, doc comments included.
func decls(src []byte) (map[string]string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	text := func(n ast.Node, doc *ast.CommentGroup) string {
		var b bytes.Buffer
		if doc != nil {
			b.WriteString(doc.Text())
		}
		printer.Fprint(&b, fset, n)
		return b.String()
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			name := d.Name.Name
			if d.Recv != nil {
				recv := d.Recv.List[0].Type
				if star, ok := recv.(*ast.StarExpr); ok {
					recv = star.X
				}
				if id, ok := recv.(*ast.Ident); ok {
					name = id.Name + "." + name
				}
			}
			out[name] = text(d, d.Doc)
		case *ast.GenDecl:
			if d.Tok == token.IMPORT {
				continue
			}
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					out[s.Name.Name] = text(s, d.Doc)
				case *ast.ValueSpec:
					for _, n := range s.Names {
						out[n.Name] = text(s, s.Doc)
					}
				}
			}
		}
	}
	return out, nil
}

// shortList names at most n of names, exported declarations first (not methods), and counts the
// rest: "Tool, Resource", or "79: AudioContent, BaseMetadata, ... and 75 more".
func shortList(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	// A method stands for its type.
	var shown []string
	for _, name := range names {
		name, _, _ = strings.Cut(name, ".")
		if !slices.Contains(shown, name) {
			shown = append(shown, name)
		}
	}
	exported := func(name string) bool { return name[0] >= 'A' && name[0] <= 'Z' }
	slices.SortStableFunc(shown, func(a, b string) int {
		switch ea, eb := exported(a), exported(b); {
		case ea && !eb:
			return -1
		case !ea && eb:
			return 1
		}
		return 0
	})
	return fmt.Sprintf("%d, in %s", len(names), strings.Join(shown[:min(n, len(shown))], ", ")) + more(len(shown)-n)
}

// more is " and n more" for n > 0.
func more(n int) string {
	if n <= 0 {
		return ""
	}
	return fmt.Sprintf(" and %d more", n)
}

// generateLine matches a go:generate directive.
var generateLine = regexp.MustCompile(`^//go:generate\s+(.*)$`)

// advice says what to run to update dir: go generate, where a go:generate directive of the
// current directory, of dir or of its parent runs mcpgen into dir; and the command that was
// checked, without -check.
func advice(dir string, args []string) string {
	var cmd []string
	for _, a := range args {
		if a != "-check" && a != "--check" && a != "-check=true" && a != "--check=true" {
			cmd = append(cmd, quoteArg(a))
		}
	}
	run := "mcpgen " + strings.Join(cmd, " ")
	if file, line, pkgDir, ok := findDirective(dir); ok {
		return fmt.Sprintf("To update it, run: go generate %s\n(the go:generate line at %s:%d runs mcpgen for it), or: %s", pkgDir, file, line, run)
	}
	return "To update it, run the same command without -check: " + run
}

// findDirective looks for a go:generate directive that runs mcpgen with -o dir, in the Go files
// of the current directory, of dir's parent and of dir. It returns the file, the line and the
// directory to pass to go generate, relative to the current directory.
func findDirective(dir string) (file string, line int, pkgDir string, ok bool) {
	target, err := filepath.Abs(dir)
	if err != nil {
		return "", 0, "", false
	}
	seen := map[string]bool{}
	for _, d := range []string{".", filepath.Dir(dir), dir} {
		abs, err := filepath.Abs(d)
		if err != nil || seen[abs] {
			continue
		}
		seen[abs] = true
		names, _ := filepath.Glob(filepath.Join(d, "*.go"))
		slices.Sort(names)
		for _, name := range names {
			if n, ok := directiveFor(name, abs, target); ok {
				rel := d
				if !filepath.IsAbs(rel) && rel != "." && !strings.HasPrefix(rel, "..") {
					rel = "." + string(filepath.Separator) + rel
				}
				return name, n, rel, true
			}
		}
	}
	return "", 0, "", false
}

// directiveFor returns the line of a go:generate directive in file (in directory dir) that runs
// mcpgen with its output in target. A directive's -o is relative to dir, or to the directory
// that `go run -C` changes to.
func directiveFor(file, dir, target string) (int, bool) {
	f, err := os.Open(file)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		m := generateLine.FindStringSubmatch(sc.Text())
		if m == nil || !strings.Contains(m[1], "mcpgen") {
			continue
		}
		words := strings.Fields(m[1])
		base, out := dir, ""
		for i := 0; i < len(words); i++ {
			w := words[i]
			switch {
			case w == "-C" && i+1 < len(words):
				base = filepath.Join(dir, words[i+1])
				i++
			case (w == "-o" || w == "--o") && i+1 < len(words):
				out = words[i+1]
				i++
			case strings.HasPrefix(w, "-o="):
				out = strings.TrimPrefix(w, "-o=")
			}
		}
		if out != "" && filepath.Join(base, out) == target {
			return n, true
		}
	}
	return 0, false
}

// quoteArg quotes a command-line argument for a shell when it needs it.
func quoteArg(a string) string {
	if a != "" && !strings.ContainsAny(a, " \t\n'\"\\$`*?[]{}()<>|&;#~") {
		return a
	}
	return "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
}
