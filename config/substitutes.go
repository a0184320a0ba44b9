package config

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/emit"
	"github.com/mcpgen/mcpgen/model"
)

// CheckSubstitutes checks that the Go type of every substitute exists, so that a typo is an
// error naming its line rather than a compile error in generated code. A type with an import path
// is looked for in that package's files, found as the go command finds it from dir (the output
// directory, or the nearest directory above it that exists, in the user's module). A type
// without one is predeclared (any) or declared in the files of dir that the output does not
// write (own reports those it writes): a hand-written file, or another output sharing the
// package; or by the output itself, in the files written (a member typed by another
// declaration's Go type, coded through its MarshalJSON and UnmarshalJSON).
func CheckSubstitutes(c emit.Config, dir string, own func(file string) bool, written ...map[string][]byte) error {
	from := existing(dir)
	declared := writtenTypes(written)
	var errs model.ErrorList
	for _, key := range slices.Sorted(maps.Keys(c.Substitutes)) {
		sub := c.Substitutes[key]
		if sub.Path == "" && predeclared[sub.Name] {
			continue
		}
		if sub.Path == "" && declared[sub.Name] {
			errs.Add(notHandWritten(c, key, sub, dir, own, written))
			continue
		}
		if err := checkSubstitute(sub, dir, from, own, declared); err != nil {
			errs.Add(sub.Pos.Errorf("substitute: %s: %v", key, err))
		}
	}
	return errs.Err()
}

// checkSubstitute checks that the Go type of one substitute exists (CheckSubstitutes).
func checkSubstitute(sub emit.Substitute, dir, from string, own func(file string) bool, declared map[string]bool) error {
	if sub.Composite {
		return checkComposite(sub, dir, own, declared)
	}
	_, files, err := packageFiles(sub.Path, dir, from, own)
	if err != nil {
		return err
	}
	found, err := declaresType(files, sub.Name)
	if err != nil || found {
		return err
	}
	if sub.Path == "" {
		return fmt.Errorf("no type %s in the files of %s that the output does not write", sub.Name, dir)
	}
	return fmt.Errorf("no type %s in package %s", sub.Name, sub.Path)
}

// predeclared are the predeclared types a substitute may name without a package.
var predeclared = map[string]bool{"any": true, "string": true, "bool": true, "[]byte": true,
	"int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true, "float32": true, "float64": true}

// basic are the predeclared types that a named substitute's type may be defined by, which its
// Kind then names.
var basic = map[string]bool{"string": true, "bool": true, "int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true, "float32": true, "float64": true}

// existing returns dir, or the nearest directory above it that exists.
func existing(dir string) string {
	for {
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return dir
		}
		dir = parent
	}
}

// packageFiles returns the directory and the Go files (tests excluded) of the package path as
// the go command finds it from the directory from, or, for an empty path, of dir without the
// files the output writes.
func packageFiles(path, dir, from string, own func(string) bool) (string, []string, error) {
	if path == "" {
		entries, err := os.ReadDir(dir)
		if err != nil && !os.IsNotExist(err) {
			return "", nil, err
		}
		var files []string
		for _, e := range entries {
			name := e.Name()
			if !e.IsDir() && strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") && !own(name) {
				files = append(files, filepath.Join(dir, name))
			}
		}
		return dir, files, nil
	}
	abs, err := filepath.Abs(from)
	if err != nil {
		return "", nil, err
	}
	pkg, err := build.Default.Import(path, abs, 0)
	if err != nil {
		return "", nil, fmt.Errorf("cannot find package %s (does your module require it? go get it): %v", path, firstLine(err))
	}
	var files []string
	for _, f := range pkg.GoFiles {
		files = append(files, filepath.Join(pkg.Dir, f))
	}
	return pkg.Dir, files, nil
}

func firstLine(err error) string {
	line, _, _ := strings.Cut(err.Error(), "\n")
	return line
}

// declaresType reports whether one of the files declares the type name at package level.
func declaresType(files []string, name string) (bool, error) {
	pos, err := typePos(files, name)
	return pos.IsValid(), err
}

// typePos returns the position of the declaration of the type name at package level in one of
// the files, invalid when none declares it.
func typePos(files []string, name string) (token.Position, error) {
	fset := token.NewFileSet()
	for _, file := range files {
		f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
		if err != nil {
			return token.Position{}, err
		}
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, s := range gd.Specs {
				if id := s.(*ast.TypeSpec).Name; id.Name == name {
					return fset.Position(id.Pos()), nil
				}
			}
		}
	}
	return token.Position{}, nil
}

// notHandWritten fails when a rename gives a declaration of the output the name of a type of
// the package that the substitute key names and that a hand-written file of dir declares as
// another kind of type (a map, where the output declares a struct): the substitute's member
// would be coded as the one, and the package would declare both. A declaration of the same kind
// may replace a hand-written one (an SDK's types generated into its own package, its own
// declarations then removed), and is not refused.
func notHandWritten(c emit.Config, key string, sub emit.Substitute, dir string, own func(string) bool, written []map[string][]byte) error {
	_, files, err := packageFiles("", dir, dir, own)
	if err != nil {
		return sub.Pos.Errorf("substitute: %s: %v", key, err)
	}
	pos, err := typePos(files, sub.Name)
	if err != nil || !pos.IsValid() {
		return err
	}
	hand, out := typeKind(files, sub.Name), writtenKind(written, sub.Name)
	if hand == out {
		return nil
	}
	for _, from := range slices.Sorted(maps.Keys(c.Names)) {
		if e := c.Names[from]; e.Name == sub.Name {
			return e.Pos.Errorf("rename: %s: Go name %s is the hand-written type that substitute %s names (%s:%d:%d), of kind %s, not %s: choose another",
				from, sub.Name, key, filepath.Base(pos.Filename), pos.Line, pos.Column, kindName(hand), kindName(out))
		}
	}
	return sub.Pos.Errorf("substitute: %s: %s is declared by a hand-written file (%s:%d:%d), of kind %s, and by the output, of kind %s",
		key, sub.Name, filepath.Base(pos.Filename), pos.Line, pos.Column, kindName(hand), kindName(out))
}

// kindName is a kind of typeKind, for messages.
func kindName(kind string) string {
	return cmp.Or(kind, "named type")
}

// checkComposite checks that the names of a composite substitute's type expression are
// predeclared or declared in the files of dir that the output does not write.
func checkComposite(sub emit.Substitute, dir string, own func(string) bool, declared map[string]bool) error {
	e, err := parser.ParseExpr(sub.Name)
	if err != nil {
		return err
	}
	var names []string
	fieldNames := map[*ast.Ident]bool{} // the names of struct fields and interface methods
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Field:
			for _, id := range n.Names {
				fieldNames[id] = true
			}
		case *ast.Ident:
			if !fieldNames[n] && !predeclared[n.Name] && !declared[n.Name] && n.Name != "error" && n.Name != "byte" && n.Name != "rune" {
				names = append(names, n.Name)
			}
		}
		return true
	})
	if len(names) == 0 {
		return nil
	}
	_, files, err := packageFiles("", dir, dir, own)
	if err != nil {
		return err
	}
	for _, name := range names {
		found, err := declaresType(files, name)
		if err != nil {
			return err
		}
		if !found {
			return fmt.Errorf("no type %s in the files of %s that the output does not write", name, dir)
		}
	}
	return nil
}

// writtenTypes are the package-level types that the Go files of written declare.
func writtenTypes(written []map[string][]byte) map[string]bool {
	out := map[string]bool{}
	fset := token.NewFileSet()
	for _, files := range written {
		for name, src := range files {
			if !strings.HasSuffix(name, ".go") {
				continue
			}
			f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
			if err != nil {
				continue
			}
			for _, d := range f.Decls {
				if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.TYPE {
					for _, s := range gd.Specs {
						out[s.(*ast.TypeSpec).Name.Name] = true
					}
				}
			}
		}
	}
	return out
}

// SubstituteKinds fills in the Kind of the named substitutes (not pointers, not composite) whose
// type it finds, as CheckSubstitutes finds them from dir, in any file of dir for a type of the
// output's package: a named map, slice or interface then gains no pointer when optional
// (emit.Substitute). A type it does not find keeps an unknown kind; CheckSubstitutes reports it.
func SubstituteKinds(c *emit.Config, dir string) {
	from := existing(dir)
	for _, key := range slices.Sorted(maps.Keys(c.Substitutes)) {
		sub := c.Substitutes[key]
		if sub.Composite || sub.Pointer || sub.Kind != "" || sub.Path == "" && predeclared[sub.Name] {
			continue
		}
		_, files, err := packageFiles(sub.Path, dir, from, func(string) bool { return false })
		if err != nil {
			continue
		}
		if kind := typeKind(files, sub.Name); kind != "" {
			sub.Kind = kind
			c.Substitutes[key] = sub
		}
	}
}

// typeKind returns the kind of the type name declared at package level in one of the files, ""
// when none declares it, or declares it as another named type.
func typeKind(files []string, name string) string {
	fset := token.NewFileSet()
	for _, file := range files {
		f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		if kind, ok := specKind(f, name); ok {
			return kind
		}
	}
	return ""
}

// writtenKind is typeKind for the Go files of written.
func writtenKind(written []map[string][]byte, name string) string {
	fset := token.NewFileSet()
	for _, files := range written {
		for file, src := range files {
			f, err := parser.ParseFile(fset, file, src, parser.SkipObjectResolution)
			if err != nil || !strings.HasSuffix(file, ".go") {
				continue
			}
			if kind, ok := specKind(f, name); ok {
				return kind
			}
		}
	}
	return ""
}

// specKind returns the kind of the type name if the file declares it at package level.
func specKind(f *ast.File, name string) (string, bool) {
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, s := range gd.Specs {
			if ts := s.(*ast.TypeSpec); ts.Name.Name == name {
				if id, ok := ts.Type.(*ast.Ident); ok && basic[id.Name] && !ts.Assign.IsValid() {
					return id.Name, true // type Cursor string: tested for emptiness as a string
				}
				return kindOf(ts.Type), true
			}
		}
	}
	return "", false
}

// HandWritten fills in Config.Methods: the methods that the Go files of dir (tests excluded) not
// written by mcpgen (emit.GeneratedLine) declare, as "Type.Method". A file that does not parse
// is left to the compiler.
func HandWritten(c *emit.Config, dir string) {
	_, files, err := packageFiles("", dir, dir, func(string) bool { return false })
	if err != nil {
		return
	}
	fset := token.NewFileSet()
	for _, file := range files {
		f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
		if err != nil || len(f.Comments) > 0 && fset.Position(f.Comments[0].Pos()).Line == 1 && emit.GeneratedLine.MatchString(f.Comments[0].List[0].Text) {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || len(fd.Recv.List) != 1 {
				continue
			}
			if recv := receiverName(fd.Recv.List[0].Type); recv != "" {
				if c.Methods == nil {
					c.Methods = map[string]bool{}
				}
				c.Methods[recv+"."+fd.Name.Name] = true
			}
		}
	}
}

// receiverName is the name of a method's receiver type (T of *T, T[K]), "" for none.
func receiverName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return receiverName(t.X)
	case *ast.IndexExpr:
		return receiverName(t.X)
	case *ast.IndexListExpr:
		return receiverName(t.X)
	case *ast.Ident:
		return t.Name
	}
	return ""
}
