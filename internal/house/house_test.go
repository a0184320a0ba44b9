// Package house holds the whole repository to its house rules: every module of go.work, read
// from the repository's root, so that no module is left out because it has no test of its own.
package house

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// maxFuncLines is the most lines a hand-written function may have, from its func keyword to
// its closing brace, function literals and tests included: a longer one is split by concern.
const maxFuncLines = 80

// maxMethods is the most methods a hand-written type may have: a type with more is one object
// doing every job, which is split by job (planning's passes, say).
const maxMethods = 40

// minFiles is the fewest Go files each module of go.work must have had read, so that a wrong
// root or a walk that skips too much cannot make the rules pass.
const minFiles = 3

// root is the repository's root, seen from this package's directory.
const root = "../.."

// TestHouseRules walks every module of go.work and reports every function over maxFuncLines
// and every import block not grouped as goimports groups it, generated files and testdata
// left out.
func TestHouseRules(t *testing.T) {
	modules := workModules(t)
	counts := map[string]int{}
	seen := map[string]bool{}
	methods := map[string]int{} // by package directory and receiver type
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "testdata", "node_modules", ".git":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		if ast.IsGenerated(f) {
			return nil
		}
		counts[moduleOf(modules, path)]++
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		checkFuncLengths(t, fset, f, filepath.ToSlash(rel), seen)
		checkImportGroups(t, fset, f)
		countMethods(f, filepath.ToSlash(filepath.Dir(rel)), methods)
		return nil
	})
	require.NoError(t, err)
	for key := range overLong {
		if !seen[key] {
			t.Errorf("%s is within %d lines now, or gone: take it out of overLong", key, maxFuncLines)
		}
	}
	checkMethodCounts(t, methods)
	for key := range manyMethods {
		if methods[key] <= maxMethods {
			t.Errorf("%s has %d methods now, within %d: take it out of manyMethods", key, methods[key], maxMethods)
		}
	}
	for _, m := range modules {
		require.Greater(t, counts[m], minFiles, "the walk read too few hand-written files of module %s", m)
	}
}

// workModules reads the directories that go.work uses, cleaned and joined to root.
func workModules(t *testing.T) []string {
	data, err := os.ReadFile(filepath.Join(root, "go.work"))
	require.NoError(t, err, "the root must hold go.work")
	var modules []string
	inUse := false
	for line := range strings.Lines(string(data)) {
		line = strings.TrimSpace(line)
		switch {
		case line == "use (":
			inUse = true
		case inUse && line == ")":
			inUse = false
		case inUse && line != "":
			modules = append(modules, filepath.Join(root, line))
		case strings.HasPrefix(line, "use "):
			modules = append(modules, filepath.Join(root, strings.TrimSpace(strings.TrimPrefix(line, "use "))))
		}
	}
	require.Greater(t, len(modules), 1, "go.work lists too few modules")
	// The deepest directory first, so that moduleOf finds a file's own module.
	sort.Slice(modules, func(i, j int) bool { return len(modules[i]) > len(modules[j]) })
	return modules
}

// moduleOf is the module of go.work whose directory holds path most closely.
func moduleOf(modules []string, path string) string {
	for _, m := range modules {
		if rel, err := filepath.Rel(m, path); err == nil && !strings.HasPrefix(rel, "..") {
			return m
		}
	}
	return ""
}

// overLong are the hand-written functions that were over maxFuncLines when the rule came to
// every module, with their lengths then, by file and name ("F literal" for a function literal in
// F). Each may only get shorter, and the test fails once it is within the rule until it leaves
// the list, so that the list only shrinks; no other function may be over. All of them have been
// split since, so it is empty: a function over the rule is split, not listed.
var overLong = map[string]int{}

// reporter is where the checks report what breaks the rules: the test, or a recorder of
// TestFuncLengthCheck.
type reporter interface {
	Errorf(format string, args ...any)
}

// checkFuncLengths reports each function declaration or literal of f, the file at path, over
// maxFuncLines and not in overLong, or longer than overLong says; seen collects the entries of
// overLong found over the rule.
func checkFuncLengths(t reporter, fset *token.FileSet, f *ast.File, path string, seen map[string]bool) {
	for _, decl := range f.Decls {
		name := "package"
		if fd, ok := decl.(*ast.FuncDecl); ok {
			name = fd.Name.Name
			if fd.Recv != nil && len(fd.Recv.List) == 1 {
				name = recvName(fd.Recv.List[0].Type) + "." + name
			}
			checkFuncLength(t, fset, fd, path+" "+name, seen)
		}
		ast.Inspect(decl, func(n ast.Node) bool {
			if lit, ok := n.(*ast.FuncLit); ok {
				checkFuncLength(t, fset, lit, path+" "+name+" literal", seen)
			}
			return true
		})
	}
}

// recvName is the name of a receiver's type: T for T and *T, generic parameters left out.
func recvName(x ast.Expr) string {
	for {
		switch e := x.(type) {
		case *ast.StarExpr:
			x = e.X
		case *ast.IndexExpr:
			x = e.X
		case *ast.IndexListExpr:
			x = e.X
		case *ast.Ident:
			return e.Name
		default:
			return "?"
		}
	}
}

// recorder collects what a check reports.
type recorder struct{ errs []string }

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// TestFuncLengthCheck holds checkFuncLengths to the rule with overLong empty: a function of
// maxFuncLines lines passes, one a line longer is reported, unless overLong allows it as long.
func TestFuncLengthCheck(t *testing.T) {
	body := func(lines int) string { return strings.Repeat("\t_ = 0\n", lines-2) }
	src := "package x\n\nfunc within() {\n" + body(maxFuncLines) + "}\n\nfunc over() {\n" + body(maxFuncLines+1) + "}\n"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, 0)
	require.NoError(t, err)
	check := func() (*recorder, map[string]bool) {
		r, seen := &recorder{}, map[string]bool{}
		checkFuncLengths(r, fset, f, "x.go", seen)
		return r, seen
	}

	r, seen := check()
	require.Len(t, r.errs, 1)
	require.Contains(t, r.errs[0], fmt.Sprintf("x.go over has %d lines, more than %d", maxFuncLines+1, maxFuncLines))
	require.Equal(t, map[string]bool{"x.go over": true}, seen)

	saved := overLong
	t.Cleanup(func() { overLong = saved })
	overLong = map[string]int{"x.go over": maxFuncLines + 1}
	r, _ = check()
	require.Empty(t, r.errs, "overLong allows a listed function as long as it was")
	overLong = map[string]int{"x.go over": maxFuncLines}
	r, _ = check()
	require.Len(t, r.errs, 1)
	require.Contains(t, r.errs[0], fmt.Sprintf("more than the %d it had", maxFuncLines))
}

// checkFuncLength reports the function n, named key, when it is over maxFuncLines beyond what
// overLong allows it.
func checkFuncLength(t reporter, fset *token.FileSet, n ast.Node, key string, seen map[string]bool) {
	lines := fset.Position(n.End()).Line - fset.Position(n.Pos()).Line + 1
	if lines <= maxFuncLines {
		return
	}
	allowed, listed := overLong[key]
	switch {
	case !listed:
		t.Errorf("%s: %s has %d lines, more than %d", fset.Position(n.Pos()), key, lines, maxFuncLines)
	case lines > allowed:
		t.Errorf("%s: %s has %d lines, more than the %d it had when it was listed in overLong", fset.Position(n.Pos()), key, lines, allowed)
	}
	seen[key] = true
}

// checkImportGroups reports each import block of f whose groups (runs of imports without a
// blank line between them) mix the standard library with other imports, or put a group of the
// standard library after a group of other imports.
func checkImportGroups(t *testing.T, fset *token.FileSet, f *ast.File) {
	for _, decl := range f.Decls {
		gen, ok := decl.(*ast.GenDecl)
		if !ok || gen.Tok != token.IMPORT || !gen.Lparen.IsValid() {
			continue
		}
		sawOther := false
		for _, group := range importGroups(fset, gen.Specs) {
			std, other := 0, 0
			for _, spec := range group {
				if isStd(spec) {
					std++
				} else {
					other++
				}
			}
			at := fset.Position(group[0].Pos())
			switch {
			case std > 0 && other > 0:
				t.Errorf("%s: an import group mixes the standard library with other imports", at)
			case std > 0 && sawOther:
				t.Errorf("%s: a group of the standard library's imports follows other imports", at)
			}
			sawOther = sawOther || other > 0
		}
	}
}

// importGroups splits specs where a blank line separates two imports.
func importGroups(fset *token.FileSet, specs []ast.Spec) [][]*ast.ImportSpec {
	var groups [][]*ast.ImportSpec
	lastLine := -1
	for _, s := range specs {
		spec := s.(*ast.ImportSpec)
		start := spec.Pos()
		if spec.Doc != nil {
			start = spec.Doc.Pos()
		}
		if len(groups) == 0 || fset.Position(start).Line > lastLine+1 {
			groups = append(groups, nil)
		}
		groups[len(groups)-1] = append(groups[len(groups)-1], spec)
		lastLine = fset.Position(spec.End()).Line
	}
	return groups
}

// isStd tells an import of the standard library (its first path element has no dot).
func isStd(spec *ast.ImportSpec) bool {
	path, err := strconv.Unquote(spec.Path.Value)
	if err != nil {
		return false
	}
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// countMethods adds the methods that the file f of the package in dir declares, by receiver type
// ("emit generator").
func countMethods(f *ast.File, dir string, methods map[string]int) {
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv != nil && len(fn.Recv.List) == 1 {
			methods[dir+" "+recvName(fn.Recv.List[0].Type)]++
		}
	}
}

// manyMethods are the types outside emit/ that had more than maxMethods methods when the rule
// came to every module, with their counts then: a type listed may only lose methods, and leaves
// the list once within maxMethods. The parser is one recursive-descent parser of TypeScript,
// its methods the grammar's productions; the decoder is the generated packages' JSON runtime,
// its methods the hot path of every decode, split only with a benchmark.
var manyMethods = map[string]int{
	"parser parser":          69,
	"templates/wire decoder": 49,
}

// checkMethodCounts reports every receiver type with more than maxMethods methods, beyond what
// manyMethods allows.
func checkMethodCounts(t reporter, methods map[string]int) {
	for key, n := range methods {
		switch allowed, listed := manyMethods[key]; {
		case listed && n > allowed:
			t.Errorf("%s has %d methods, more than the %d it had", key, n, allowed)
		case !listed && n > maxMethods:
			t.Errorf("%s has %d methods, more than %d: split it by job", key, n, maxMethods)
		}
	}
}

// TestMethodCountCheck checks the rule on methods: a type with maxMethods methods passes, one
// with more is reported.
func TestMethodCountCheck(t *testing.T) {
	src := "package x\n\ntype a struct{}\n\ntype b struct{}\n\n"
	for i := range maxMethods + 1 {
		src += fmt.Sprintf("func (*b) m%d() {}\n\n", i)
		if i < maxMethods {
			src += fmt.Sprintf("func (a) m%d() {}\n\n", i)
		}
	}
	f, err := parser.ParseFile(token.NewFileSet(), "x.go", src, 0)
	require.NoError(t, err)
	methods := map[string]int{}
	countMethods(f, "x", methods)
	require.Equal(t, map[string]int{"x a": maxMethods, "x b": maxMethods + 1}, methods)
	var r recorder
	checkMethodCounts(&r, methods)
	require.Len(t, r.errs, 1)
	require.Contains(t, r.errs[0], fmt.Sprintf("x b has %d methods, more than %d", maxMethods+1, maxMethods))

	// A listed type passes at its count, and is reported with one method more.
	defer func(saved map[string]int) { manyMethods = saved }(manyMethods)
	manyMethods = map[string]int{"x b": maxMethods + 1}
	r = recorder{}
	checkMethodCounts(&r, methods)
	require.Empty(t, r.errs)
	manyMethods = map[string]int{"x b": maxMethods}
	checkMethodCounts(&r, methods)
	require.Len(t, r.errs, 1)
	require.Contains(t, r.errs[0], fmt.Sprintf("more than the %d it had", maxMethods))
}
