package emit

import (
	"bytes"
	"cmp"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/emit/internal/ir"
	"github.com/mcpgen/mcpgen/model"
)

// validationOnly are the runtime's functions that need Validate methods (Unmarshal and
// UnmarshalNoCopy decode and validate, Marshal validates and encodes, validateExternal calls a
// substitute's): an output without validators (Config.NoValidate) leaves them out.
var validationOnly = []string{"Unmarshal", "UnmarshalNoCopy", "Marshal", "validateExternal"}

// partsPass plans the fixed code the output copies: the runtime of templates/wire, the parts of
// templates/parts whose declarations the output has (renamed to its names), and the readers
// that the sampling rules call (plan_sampling.go).
type partsPass struct {
	*plan
	nam *naming
}

// usesEmptyExternal reports whether a field of the plan is tested for emptiness at run time
// (emptiness emptyReflect, of a member encoded when not empty), and usesZeroExternal
// whether one is tested for its zero value (a member encoded when not zero, of a struct or a
// substituted type).
func (p *plan) usesEmptyExternal() bool {
	return p.anyField(func(f *ir.Field) bool { return f.OmitEmpty && emptiness(f.Type) == emptyReflect })
}

func (p *plan) usesZeroExternal() bool {
	return p.anyField(func(f *ir.Field) bool {
		if !f.OmitZero || hasNil(f.Type) {
			return false
		}
		scalar := f.Type.Kind == builtinKind || f.Type.Kind == enumKind
		e := emptiness(f.Type)
		return !scalar || e != emptyFalse && e != emptyString && e != emptyZero // as render's nonZero
	})
}

func (p *plan) anyField(is func(*ir.Field) bool) bool {
	for _, td := range p.types {
		if slices.ContainsFunc(td.Fields, is) {
			return true
		}
	}
	return false
}

// withoutOmitEmptyOnly cuts out of the runtime's files the functions that only some members
// need (emptyExternal, zeroExternal), unless the plan has such members or the output shares its
// package (a FilePrefix: a second output without the runtime may need them). Their names stay
// reserved.
func (pt *partsPass) withoutOmitEmptyOnly(files map[string][]byte) error {
	if pt.opts.Config.FilePrefix != "" {
		return nil // the package may hold another output (without the runtime) that needs them
	}
	var unused []string
	if !pt.usesEmptyExternal() {
		unused = append(unused, ir.EmptyExternal)
	}
	if !pt.usesZeroExternal() {
		unused = append(unused, ir.ZeroExternal)
	}
	for name, src := range files {
		if !slices.ContainsFunc(unused, func(fn string) bool { return bytes.Contains(src, []byte("func "+fn+"(")) }) {
			continue
		}
		formatted, err := format.Source([]byte(withoutFuncs(string(src), unused, false)))
		if err != nil {
			return fmt.Errorf("emit: runtime: %s: %v", name, err)
		}
		files[name] = formatted
	}
	return nil
}

// runtime returns the files of the JSON runtime (Options.Runtime) in the output package: the
// header, the package clause (what comes before it, such as a package doc or a build constraint,
// dropped), then the rest of the source as is. It reserves the files' package-level names so
// that no generated name collides with them. Without the runtime (Config.NoRuntime) the names
// are reserved all the same, for the runtime the package holds from elsewhere, and no file is
// returned.
func (pt *partsPass) runtime() (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, name := range slices.Sorted(maps.Keys(pt.opts.Runtime)) {
		src, err := pt.copySource(name, pt.opts.Runtime[name])
		if err != nil {
			return nil, err
		}
		if !pt.opts.Config.NoRuntime {
			out[name] = src
		}
	}
	return out, nil
}

// parts returns the parts (Options.Parts) whose required declarations are generated
// (//mcpgen:requires), and those of the protocol layer (//mcpgen:protocol) when the output has
// it, as runtime does, and records the types that have rules. Their names are those of the
// configuration (partNames); a part that validates other than in its Validate methods is left out
// without validators. The sampling rules' readers are planned here (planSampling), and the part
// marked //mcpgen:ondemand is copied only when one of them reads content as JSON.
func (pt *partsPass) parts() (map[string][]byte, error) {
	out := map[string][]byte{}
	renames := pt.nam.partNames()
	sampling, err := pt.planSampling()
	if err != nil {
		return nil, err
	}
	pt.sampling = sampling
	for _, name := range slices.Sorted(maps.Keys(pt.opts.Parts)) {
		src := pt.opts.Parts[name]
		if _, dup := pt.opts.Runtime[name]; dup {
			return nil, fmt.Errorf("emit: part %s has the name of a runtime file", name)
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
		if err != nil {
			return nil, fmt.Errorf("emit: part: %v", err)
		}
		if pt.proto == nil && strings.Contains(src, "\n//mcpgen:protocol\n") {
			continue // a helper of the protocol layer, which this output has not
		}
		if !pt.generatesAll(requires(src)) {
			pt.reportLeftOut(name, f, requires(src))
			continue
		}
		if pt.opts.Config.NoValidate && needsValidator(name, src) {
			continue
		}
		if strings.Contains(src, "\n//mcpgen:ondemand\n") && !pt.samplingJSON {
			continue // the readers of content as JSON, which no planned reader calls
		}
		if err := pt.checkPartShapes(name, f); err != nil {
			return nil, err
		}
		if renames != nil {
			if err := renames.apply(name, f); err != nil {
				return nil, err
			}
			var buf bytes.Buffer
			if err := format.Node(&buf, fset, f); err != nil {
				return nil, fmt.Errorf("emit: part %s: %v", name, err)
			}
			src = buf.String()
		}
		data, err := pt.copySource(name, src)
		if err != nil {
			return nil, err
		}
		out[name] = data
		pt.copiedParts[name] = true
	}
	return out, nil
}

// checkPartShapes fails when the part f uses a field whose type or presence the configuration
// changes (a substitute, a shape, an embedded field, a member left out: field.shaped) in a struct the part names or
// requires, or in an inline type of one: the part is written for the default shapes, and would
// not compile. The error names the configuration entry.
func (pt *partsPass) checkPartShapes(file string, f *ast.File) error {
	named := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			named[id.Name] = true
		}
		return true
	})
	for _, r := range requires(partSource(f)) {
		named[goName(r)] = true
	}
	used := map[string]bool{} // the field names the part selects
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			used[sel.Sel.Name] = true
		}
		return true
	})
	for _, d := range pt.s.Decls {
		if !named[goName(d.Name)] || pt.byDecl[d.Name] == nil {
			continue
		}
		for _, td := range pt.after[d.Name] {
			for _, fd := range slices.Concat(td.Fields, pt.src(td).omitted) {
				for _, name := range []string{fd.Name, pt.fsrc(fd).unembedded} {
					if pt.fsrc(fd).shaped.Line > 0 && used[name] {
						return pt.fsrc(fd).shaped.Errorf("the configuration changes the type or presence of %s (the field %s.%s), which the hand-written part %s uses as generated by default; remove this entry to keep the member's default shape, or leave the part out (it is copied only when every declaration it requires is generated)", cmp.Or(pt.src(td).path, td.Name)+"."+fd.JSONName, td.Name, name, file)
					}
				}
			}
		}
	}
	return nil
}

// reportLeftOut tells Options.Report that the part name (parsed as f) is left out because of
// the configuration: the schema declares every declaration it requires, and the output generates
// the first one, the type the part is about, but not all the others (a selection without
// ClientCapabilities leaves out the capability check of sampling, not the rules). A part whose
// type is not generated, or whose declarations the schema lacks (a version without sampling with
// tools), is not reported.
func (pt *partsPass) reportLeftOut(name string, f *ast.File, required []string) {
	if pt.opts.Report == nil || len(required) == 0 || pt.byDecl[required[0]] == nil {
		return
	}
	var missing []string
	for _, r := range required {
		switch {
		case pt.s.Decl(r) == nil:
			return
		case pt.byDecl[r] == nil:
			missing = append(missing, r)
		}
	}
	var what []string
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || !fn.Name.IsExported() && fn.Name.Name != "validateRules" {
			continue
		}
		if fn.Recv != nil && len(fn.Recv.List) == 1 {
			t := fn.Recv.List[0].Type
			if star, ok := t.(*ast.StarExpr); ok {
				t = star.X
			}
			if id, ok := t.(*ast.Ident); ok {
				what = append(what, id.Name+"."+fn.Name.Name)
				continue
			}
		}
		what = append(what, fn.Name.Name)
	}
	if len(what) > 4 {
		what = append(what[:4], "...")
	}
	verb := "are"
	if len(missing) == 1 {
		verb = "is"
	}
	pt.opts.Report(fmt.Sprintf("left out %s (%s): it needs %s, which %s not generated",
		name, strings.Join(what, ", "), strings.Join(missing, ", "), verb))
}

// copySource puts a runtime file or a part into the output package, reserving its names and
// recording its rules.
func (pt *partsPass) copySource(name, src string) ([]byte, error) {
	if pt.opts.Config.NoValidate {
		src = withoutFuncs(src, validationOnly, true)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
	if err != nil {
		return nil, fmt.Errorf("emit: runtime: %v", err)
	}
	for _, d := range f.Decls {
		for _, id := range declNames(d) {
			// A part is copied after the declarations are named: a rename onto one of its
			// names is refused at the configuration's entry, as one onto a derived name.
			if err := pt.nam.reserve(id, "runtime identifier", posOf(fset, d.Pos())); err != nil {
				return nil, err
			}
		}
		if recv := rulesReceiver(d); recv != "" {
			pt.rules[recv] = true
		}
	}
	rest := src[fset.Position(f.Name.End()).Offset:]
	text := pt.headerText() + "package " + pt.opts.Package + rest
	formatted, err := format.Source([]byte(text))
	if err != nil {
		return nil, fmt.Errorf("emit: runtime: %s: %v", name, err)
	}
	return formatted, nil
}

// withoutFuncs returns src without the functions named, doc comments included, and, with
// validate set, without what needs Validate methods: the methods named Validate, and the
// Validate methods of interfaces (the protocol layer's Params is then any params). It cuts them
// out of the text, so that every other comment stays where it is.
func withoutFuncs(src string, names []string, validate bool) string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments)
	if err != nil {
		return src // copySource reports it
	}
	type span struct{ from, to int }
	var cut []span
	add := func(doc *ast.CommentGroup, from, to token.Pos) {
		if doc != nil {
			from = doc.Pos()
		}
		cut = append(cut, span{fset.Position(from).Offset, fset.Position(to).Offset})
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			if n.Recv == nil && slices.Contains(names, n.Name.Name) || validate && n.Recv != nil && n.Name.Name == "Validate" {
				add(n.Doc, n.Pos(), n.End())
			}
			return false
		case *ast.InterfaceType:
			for _, m := range n.Methods.List {
				if !validate {
					break
				}
				if len(m.Names) == 1 && m.Names[0].Name == "Validate" {
					add(m.Doc, m.Pos(), m.End())
				}
			}
		}
		return true
	})
	slices.SortFunc(cut, func(a, b span) int { return a.from - b.from })
	for i := len(cut) - 1; i >= 0; i-- {
		src = src[:cut[i].from] + src[cut[i].to:]
	}
	return withoutUnusedImports(src)
}

// withoutUnusedImports returns src without the imports it no longer uses.
func withoutUnusedImports(src string) string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments)
	if err != nil {
		return src
	}
	used := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				used[id.Name] = true
			}
		}
		return true
	})
	for i := len(f.Imports) - 1; i >= 0; i-- {
		spec := f.Imports[i]
		path, _ := strconv.Unquote(spec.Path.Value)
		name := path[strings.LastIndexByte(path, '/')+1:]
		if spec.Name != nil {
			name = spec.Name.Name
		}
		if used[name] || name == "_" || name == "." {
			continue
		}
		from, to := fset.Position(spec.Pos()).Offset, fset.Position(spec.End()).Offset
		// The spec's whole line goes, when it is alone on it.
		start := strings.LastIndexByte(src[:from], '\n') + 1
		if end := strings.IndexByte(src[to:], '\n'); end >= 0 && strings.TrimSpace(src[start:from]) == "" && strings.TrimSpace(src[to:to+end]) == "" {
			from, to = start, to+end+1
		}
		src = src[:from] + src[to:]
	}
	return src
}

// needsValidator reports whether a part uses the validator once copySource has cut its Validate
// methods out (Config.NoValidate): such a part (the sampling rules) is left out, another one (the
// batch of the protocol layer) is copied without its Validate.
func needsValidator(name, src string) bool {
	f, err := parser.ParseFile(token.NewFileSet(), name, withoutFuncs(src, validationOnly, true), 0)
	return err != nil || usesIdent(f, "validator")
}

// usesIdent reports whether the file f mentions the identifier name.
func usesIdent(f *ast.File, name string) bool {
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == name {
			found = true
		}
		return !found
	})
	return found
}

// requires lists the schema declarations a part names in its "//mcpgen:requires" lines.
func requires(src string) []string {
	var names []string
	for _, line := range strings.Split(src, "\n") {
		if rest, ok := strings.CutPrefix(line, "//mcpgen:requires "); ok {
			names = append(names, strings.Fields(rest)...)
		}
	}
	return names
}

// generatesAll reports whether every one of the declarations names is generated: declared by
// the schema, selected, not substituted.
func (pt *partsPass) generatesAll(names []string) bool {
	for _, name := range names {
		if pt.byDecl[name] == nil {
			return false
		}
	}
	return true
}

// rulesReceiver returns T for a method `func (v *T) validateRules(c *validator)`, or "".
func rulesReceiver(d ast.Decl) string {
	fn, ok := d.(*ast.FuncDecl)
	if !ok || fn.Recv == nil || fn.Name.Name != "validateRules" || len(fn.Recv.List) != 1 {
		return ""
	}
	t := fn.Recv.List[0].Type
	if star, ok := t.(*ast.StarExpr); ok {
		t = star.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// declNames lists the package-level names a declaration declares (none for a method).
func declNames(d ast.Decl) []string {
	var names []string
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil {
			names = append(names, d.Name.Name)
		}
	case *ast.GenDecl:
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.TypeSpec:
				names = append(names, s.Name.Name)
			case *ast.ValueSpec:
				for _, n := range s.Names {
					if n.Name != "_" {
						names = append(names, n.Name)
					}
				}
			}
		}
	}
	return names
}

func posOf(fset *token.FileSet, p token.Pos) model.Pos {
	pos := fset.Position(p)
	return model.Pos{File: "runtime " + pos.Filename, Line: pos.Line, Col: pos.Column}
}
