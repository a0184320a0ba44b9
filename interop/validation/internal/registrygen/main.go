// Command registrygen writes the registry of the differential validation test: for every package
// of gen/ (a directory declaring the constant SchemaVersion), a decoder for each definition of
// its schema.json that has a Go type of the same name. It reads the packages with go/types, so
// the registry names exactly what the packages declare; TestRegistryUpToDate fails when the
// checked-in output differs from what this command writes now.
//
// Usage (from interop/validation, as its go:generate line does):
//
//	go run ./internal/registrygen [-gen ../../gen] [-schema ../../schema] [-o registry.go]
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/constant"
	"go/format"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

func main() {
	genDir := flag.String("gen", "../../gen", "directory of the gen module")
	schemaDir := flag.String("schema", "../../schema", "directory of the vendored schemas (schema/<version>/schema.json)")
	out := flag.String("o", "registry.go", "output file")
	flag.Parse()
	src, err := Generate(*genDir, *schemaDir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "registrygen:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "registrygen:", err)
		os.Exit(1)
	}
}

// modulePath is the import path of the gen module.
const modulePath = "github.com/mcpgen/mcpgen/gen"

// pkg is one package of gen/ as the registry sees it.
type pkg struct {
	dir, name, version string
	decoders           []decoder
	undecodable        []undecodable
}

type decoder struct{ def, expr string }

type undecodable struct{ def, why string }

// Generate returns the source of the registry for the packages in genDir and the schemas in
// schemaDir.
func Generate(genDir, schemaDir string) ([]byte, error) {
	entries, err := os.ReadDir(genDir)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	imp := importer.Default()
	var pkgs []pkg
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		p, ok, err := load(fset, imp, filepath.Join(genDir, e.Name()))
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		defs, err := definitions(filepath.Join(schemaDir, p.version, "schema.json"))
		if err != nil {
			return nil, fmt.Errorf("package %s: %w", p.name, err)
		}
		if err := p.match(defs); err != nil {
			return nil, fmt.Errorf("package %s: %w", p.name, err)
		}
		pkgs = append(pkgs, p.pkg)
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("no package in %s declares SchemaVersion", genDir)
	}
	return render(pkgs)
}

// loaded is a type-checked package of gen/.
type loaded struct {
	pkg
	scope *types.Scope
}

// load type-checks the package in dir (test files excluded). ok is false when it is not a
// generated package (no SchemaVersion constant).
func load(fset *token.FileSet, imp types.Importer, dir string) (loaded, bool, error) {
	matches, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return loaded{}, false, err
	}
	var files []*ast.File
	for _, m := range matches {
		if strings.HasSuffix(m, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, m, nil, parser.SkipObjectResolution)
		if err != nil {
			return loaded{}, false, err
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		return loaded{}, false, nil
	}
	name := files[0].Name.Name
	conf := types.Config{Importer: imp}
	tp, err := conf.Check(modulePath+"/"+filepath.Base(dir), fset, files, nil)
	if err != nil {
		return loaded{}, false, fmt.Errorf("type-checking %s: %w", dir, err)
	}
	c, ok := tp.Scope().Lookup("SchemaVersion").(*types.Const)
	if !ok || c.Val().Kind() != constant.String {
		return loaded{}, false, nil
	}
	return loaded{pkg: pkg{dir: filepath.Base(dir), name: name, version: constant.StringVal(c.Val())}, scope: tp.Scope()}, true, nil
}

// definitions returns the sorted names of the definitions of a schema.json ($defs or definitions).
func definitions(file string) ([]string, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Defs        map[string]json.RawMessage `json:"$defs"`
		Definitions map[string]json.RawMessage `json:"definitions"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	defs := doc.Defs
	if defs == nil {
		defs = doc.Definitions
	}
	if len(defs) == 0 {
		return nil, fmt.Errorf("%s: no $defs or definitions", file)
	}
	names := make([]string, 0, len(defs))
	for n := range defs {
		names = append(names, n)
	}
	slices.Sort(names)
	return names, nil
}

// match finds the Go type of every definition. The generator applies Go initialisms to
// declaration names (RequestId → RequestID), which only changes letter case, so a definition's
// type is the exported type whose name equals it ignoring case; two such types are an error.
func (l *loaded) match(defs []string) error {
	byFold := map[string][]*types.TypeName{}
	for _, n := range l.scope.Names() {
		if tn, ok := l.scope.Lookup(n).(*types.TypeName); ok && tn.Exported() {
			k := strings.ToLower(n)
			byFold[k] = append(byFold[k], tn)
		}
	}
	for _, def := range defs {
		cands := byFold[strings.ToLower(def)]
		switch {
		case len(cands) == 0:
			l.undecodable = append(l.undecodable, undecodable{def, "no Go type of that name"})
			continue
		case len(cands) > 1:
			return fmt.Errorf("definition %s matches Go types %s and %s", def, cands[0].Name(), cands[1].Name())
		}
		tn := cands[0]
		if !types.IsInterface(tn.Type()) {
			l.decoders = append(l.decoders, decoder{def, fmt.Sprintf("decodeInto[%s.%s]", l.name, tn.Name())})
			continue
		}
		fn := l.unmarshalFunc(tn)
		if fn == "" {
			l.undecodable = append(l.undecodable, undecodable{def, fmt.Sprintf("union %s has no func Unmarshal%s([]byte) (%s, error)", tn.Name(), tn.Name(), tn.Name())})
			continue
		}
		l.decoders = append(l.decoders, decoder{def, fmt.Sprintf("decodeUnion(%s.%s)", l.name, fn)})
	}
	return nil
}

// unmarshalFunc returns the name of the package's func([]byte) (T, error) for the union type
// tn: Unmarshal<Name>, or for an alias of a union, Unmarshal<Target>.
func (l *loaded) unmarshalFunc(tn *types.TypeName) string {
	names := []string{"Unmarshal" + tn.Name()}
	if named, ok := types.Unalias(tn.Type()).(*types.Named); ok {
		names = append(names, "Unmarshal"+named.Obj().Name())
	}
	for _, n := range names {
		f, ok := l.scope.Lookup(n).(*types.Func)
		if !ok {
			continue
		}
		sig := f.Signature()
		if sig.Params().Len() == 1 && sig.Results().Len() == 2 &&
			types.Identical(sig.Params().At(0).Type(), types.NewSlice(types.Typ[types.Byte])) &&
			types.Identical(sig.Results().At(0).Type(), tn.Type()) &&
			types.Identical(sig.Results().At(1).Type(), types.Universe.Lookup("error").Type()) {
			return n
		}
	}
	return ""
}

func render(pkgs []pkg) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("// Code generated by registrygen. DO NOT EDIT.\n\n")
	b.WriteString("//lint:file-ignore SA1019 the registry names every type of the schema, the deprecated ones too\n\n")
	b.WriteString("package validation\n\nimport (\n")
	for _, p := range pkgs {
		fmt.Fprintf(&b, "\t%q\n", modulePath+"/"+p.dir)
	}
	b.WriteString(")\n\n")
	b.WriteString("// packages are the packages of gen/, each with a decoder per schema definition that has a Go\n")
	b.WriteString("// type, and the definitions that have none.\n")
	b.WriteString("var packages = []genPackage{\n")
	for _, p := range pkgs {
		fmt.Fprintf(&b, "\t{\n\t\tversion: %q,\n\t\tpath:    %q,\n\t\tdecoders: map[string]decoder{\n", p.version, modulePath+"/"+p.dir)
		for _, d := range p.decoders {
			fmt.Fprintf(&b, "\t\t\t%q: %s,\n", d.def, d.expr)
		}
		b.WriteString("\t\t},\n\t\tundecodable: map[string]string{\n")
		for _, u := range p.undecodable {
			fmt.Fprintf(&b, "\t\t\t%q: %q,\n", u.def, u.why)
		}
		b.WriteString("\t\t},\n\t},\n")
	}
	b.WriteString("}\n")
	src, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("formatting the registry: %w\n%s", err, b.Bytes())
	}
	return src, nil
}
