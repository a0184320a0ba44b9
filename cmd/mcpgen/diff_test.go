package main

import (
	"bytes"
	"flag"
	"go/ast"
	"go/constant"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/config"
	"github.com/mcpgen/mcpgen/internal/apidiff"
	"github.com/mcpgen/mcpgen/schema"
)

var update = flag.Bool("update", false, "rewrite testdata/diff/*.txt and testdata/mistakes/errors.txt")

// TestDiffGolden runs mcpgen -diff on every pair of consecutive embedded versions and compares
// the output with testdata/diff/OLD_NEW.txt (rewrite with -update).
func TestDiffGolden(t *testing.T) {
	for i := 1; i < len(schema.Versions); i++ {
		old, new := schema.Versions[i-1], schema.Versions[i]
		t.Run(old+"_"+new, func(t *testing.T) {
			var out bytes.Buffer
			require.NoError(t, run([]string{"-diff", old, new}, &out, &out))
			golden := filepath.Join("testdata", "diff", old+"_"+new+".txt")
			if *update {
				require.NoError(t, os.MkdirAll(filepath.Dir(golden), 0o755))
				require.NoError(t, os.WriteFile(golden, out.Bytes(), 0o644))
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err)
			assert.Equal(t, string(want), out.String())
		})
	}
}

func TestDiffArguments(t *testing.T) {
	var out bytes.Buffer
	err := run([]string{"-diff", "draft"}, &out, &out)
	require.ErrorContains(t, err, "-diff takes two schemas")
	assert.Equal(t, 2, exitCode(err))

	err = run([]string{"-diff", "nowhere", "draft"}, &out, &out)
	require.ErrorContains(t, err, "nowhere is neither an embedded version")

	// A file and an embedded version: the file's version is told from its directory.
	dir := filepath.Join(t.TempDir(), "2025-11-25")
	require.NoError(t, os.Mkdir(dir, 0o755))
	_, src, err := schema.File("2025-11-25", "schema.ts")
	require.NoError(t, err)
	file := filepath.Join(dir, "schema.ts")
	require.NoError(t, os.WriteFile(file, src, 0o644))
	out.Reset()
	require.NoError(t, run([]string{"-diff", file, "2025-11-25"}, &out, &out))
	assert.Contains(t, out.String(), "(MCP 2025-11-25, package mcp20251125) to MCP 2025-11-25")
	assert.Contains(t, out.String(), "No change.")
}

// TestDiffAgreesWithGoTypes checks the diff of every pair of consecutive embedded versions
// against what the type checker says the two packages in gen/ export: the types, struct fields
// (their types and json tags), union implementations, enum values, constants and functions that
// one has and the other has not, or has differently, are exactly the changes the report lists.
func TestDiffAgreesWithGoTypes(t *testing.T) {
	pkgs := map[string]*exports{}
	for _, v := range schema.Versions {
		pkgs[v] = loadExports(t, filepath.Join("..", "..", "gen", packageFor(v)))
	}
	for i := 1; i < len(schema.Versions); i++ {
		oldV, newV := schema.Versions[i-1], schema.Versions[i]
		t.Run(oldV+"_"+newV, func(t *testing.T) {
			r := compareEmbedded(t, oldV, newV)
			old, new := pkgs[oldV], pkgs[newV]
			checkTypes(t, r, old, new)
			checkConsts(t, r, old, new)
			assert.ElementsMatch(t, minus(keys(old.funcs), keys(new.funcs)), r.FuncsRemoved, "removed functions")
			assert.ElementsMatch(t, minus(keys(new.funcs), keys(old.funcs)), r.FuncsAdded, "added functions")
		})
	}
}

// checkTypes checks the types that report r lists as removed, added, renamed and changed
// against those of old and new.
func checkTypes(t *testing.T, r *apidiff.Report, old, new *exports) {
	t.Helper()
	var removed, added []string
	for _, ty := range r.Removed {
		removed = append(removed, ty.Name)
	}
	for _, ty := range r.Added {
		added = append(added, ty.Name)
	}
	pairs := map[string]string{} // new name → old name
	for name := range new.types {
		if _, ok := old.types[name]; ok {
			pairs[name] = name
		}
	}
	for _, rn := range r.Renamed {
		removed = append(removed, rn.Old)
		added = append(added, rn.New)
		pairs[rn.New] = rn.Old
	}
	assert.ElementsMatch(t, minus(keys(old.types), keys(new.types)), removed, "removed types")
	assert.ElementsMatch(t, minus(keys(new.types), keys(old.types)), added, "added types")

	// What go/types says changed in each type of both, as the report's lines would say it.
	var want []string
	for newName, oldName := range pairs {
		want = append(want, typeChanges(old.types[oldName], new.types[newName])...)
	}
	assert.ElementsMatch(t, want, reportedChanges(r), "changes of the types of both")
}

// reportedChanges lists the changes of the types of both versions that report r lists, in
// the terms of typeChanges.
func reportedChanges(r *apidiff.Report) []string {
	var got []string
	for _, c := range r.Changed {
		if c.Kind != nil {
			got = append(got, c.Name+": kind "+c.Kind[0]+" → "+c.Kind[1])
			continue
		}
		for _, m := range c.Members {
			switch m.Op {
			case apidiff.FieldAdded, apidiff.VariantAdded, apidiff.ValueAdded:
				got = append(got, c.Name+": + "+m.Name)
			case apidiff.FieldRemoved, apidiff.VariantRemoved, apidiff.ValueRemoved:
				got = append(got, c.Name+": - "+m.Name)
			case apidiff.FieldRenamed:
				got = append(got, c.Name+": - "+m.Old, c.Name+": + "+m.New)
			case apidiff.FieldType:
				got = append(got, c.Name+": "+m.Name+" type")
			case apidiff.MadeRequired, apidiff.MadeOptional:
				got = append(got, c.Name+": "+m.Name+" tag")
				if m.Old != "" {
					got = append(got, c.Name+": "+m.Name+" type")
				}
			case apidiff.FieldJSON:
				got = append(got, c.Name+": "+m.Name+" tag")
			}
		}
	}
	return got
}

// checkConsts checks the constants that report r lists as removed, added, renamed and
// changed against those of old and new.
func checkConsts(t *testing.T, r *apidiff.Report, old, new *exports) {
	t.Helper()
	var constsRemoved, constsAdded, constsChanged []string
	for _, c := range r.ConstsRemoved {
		constsRemoved = append(constsRemoved, c.Name)
	}
	for _, c := range r.ConstsAdded {
		constsAdded = append(constsAdded, c.Name)
	}
	for _, c := range r.ConstsRenamed {
		constsRemoved = append(constsRemoved, c[0].Name)
		constsAdded = append(constsAdded, c[1].Name)
	}
	for _, c := range r.ConstsChanged {
		constsChanged = append(constsChanged, c[1].Name)
	}
	assert.ElementsMatch(t, minus(keys(old.consts), keys(new.consts)), constsRemoved, "removed constants")
	assert.ElementsMatch(t, minus(keys(new.consts), keys(old.consts)), constsAdded, "added constants")
	var changed []string
	for name, v := range new.consts {
		if ov, ok := old.consts[name]; ok && ov != v {
			changed = append(changed, name)
		}
	}
	assert.ElementsMatch(t, changed, constsChanged, "changed constants")
}

// compareEmbedded is the report of -diff old new, before its changelog is matched.
func compareEmbedded(t *testing.T, old, new string) *apidiff.Report {
	var apis [2]*apidiff.API
	for i, v := range []string{old, new} {
		in, err := openInput("", v)
		require.NoError(t, err)
		files, err := in.generate(packageFor(v), &config.File{})
		require.NoError(t, err)
		apis[i], err = apidiff.Read(files)
		require.NoError(t, err)
	}
	return apidiff.Compare(apis[0], apis[1])
}

// exports is the exported API of a package as go/types sees it.
type exports struct {
	types  map[string]*typeInfo
	consts map[string]string // non-enum constants: name → exact value
	funcs  map[string]bool
}

type typeInfo struct {
	name     string
	kind     string            // "struct", "union", "enum", "alias of X" or the underlying type
	fields   map[string]string // struct: field → type
	tags     map[string]string // struct: field → json tag
	variants []string          // union: "*T" or "T" implementing it
	values   []string          // enum
}

// loadExports type-checks the non-test files of the package in dir.
func loadExports(t *testing.T, dir string) *exports {
	t.Helper()
	pkg := typeCheck(t, dir)
	qual := func(p *types.Package) string {
		if p == pkg {
			return ""
		}
		return p.Name()
	}
	ex := &exports{types: map[string]*typeInfo{}, consts: map[string]string{}, funcs: map[string]bool{}}
	scope := pkg.Scope()
	var named []*types.TypeName
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		switch obj := obj.(type) {
		case *types.TypeName:
			named = append(named, obj)
			ex.types[name] = newTypeInfo(obj, qual)
		case *types.Func:
			ex.funcs[name] = true
		}
	}
	ex.addConsts(scope)
	ex.addVariants(named)
	return ex
}

// typeCheck parses and type-checks the non-test files of the package in dir.
func typeCheck(t *testing.T, dir string) *types.Package {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	require.NoError(t, err)
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		require.NoError(t, err)
		files = append(files, f)
	}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check(dir, fset, files, nil)
	require.NoError(t, err)
	return pkg
}

// newTypeInfo describes the exported type obj, with the types of its fields written by qual;
// its enum values and union variants are left to addConsts and addVariants.
func newTypeInfo(obj *types.TypeName, qual types.Qualifier) *typeInfo {
	ti := &typeInfo{name: obj.Name(), fields: map[string]string{}, tags: map[string]string{}}
	switch u := obj.Type().Underlying().(type) {
	case *types.Struct:
		ti.kind = "struct"
		for i := range u.NumFields() {
			f := u.Field(i)
			if f.Exported() {
				ti.fields[f.Name()] = types.TypeString(f.Type(), qual)
				ti.tags[f.Name()] = reflect.StructTag(u.Tag(i)).Get("json")
			}
		}
	case *types.Interface:
		ti.kind = "union"
	default:
		ti.kind = types.TypeString(u, qual)
	}
	if a, ok := obj.Type().(*types.Alias); ok {
		// An alias's members are its target's, which the target's changes list.
		ti.kind = "alias of " + types.TypeString(a.Rhs(), qual)
		ti.fields, ti.tags = nil, nil
	}
	return ti
}

// addConsts adds the exported constants of scope: as the values of an enum when their type
// is one of ex's types, else as constants of their own.
func (ex *exports) addConsts(scope *types.Scope) {
	for _, name := range scope.Names() {
		c, ok := scope.Lookup(name).(*types.Const)
		if !ok || !c.Exported() {
			continue
		}
		if n, ok := c.Type().(*types.Named); ok && ex.types[n.Obj().Name()] != nil {
			ti := ex.types[n.Obj().Name()]
			ti.kind = "enum"
			ti.values = append(ti.values, constant.StringVal(c.Val()))
			continue
		}
		ex.consts[name] = c.Val().ExactString()
	}
}

// addVariants adds to each sealed union of named, the exported types of the package, the
// types of named that implement it, or whose pointers do.
func (ex *exports) addVariants(named []*types.TypeName) {
	for _, u := range named {
		iface, ok := u.Type().Underlying().(*types.Interface)
		if !ok || u.IsAlias() || ex.types[u.Name()].kind != "union" || !sealed(iface, u.Name()) {
			continue // an interface without a marker (Params) is implemented by anything with its methods
		}
		for _, v := range named {
			if v.IsAlias() {
				continue
			}
			switch {
			case types.Implements(v.Type(), iface):
				ex.types[u.Name()].variants = append(ex.types[u.Name()].variants, v.Name())
			case types.Implements(types.NewPointer(v.Type()), iface):
				ex.types[u.Name()].variants = append(ex.types[u.Name()].variants, "*"+v.Name())
			}
		}
	}
}

// typeChanges lists what changed from t to u, in the terms of the test: kind, fields added and
// removed, field types and json tags, union variants and enum values added and removed.
func typeChanges(t, u *typeInfo) []string {
	if t.kind != u.kind {
		return []string{u.name + ": kind " + t.kind + " → " + u.kind}
	}
	var out []string
	for _, f := range minus(keys(u.fields), keys(t.fields)) {
		out = append(out, u.name+": + "+f)
	}
	for _, f := range minus(keys(t.fields), keys(u.fields)) {
		out = append(out, u.name+": - "+f)
	}
	for f, typ := range u.fields {
		if old, ok := t.fields[f]; ok {
			if old != typ {
				out = append(out, u.name+": "+f+" type")
			}
			if t.tags[f] != u.tags[f] {
				out = append(out, u.name+": "+f+" tag")
			}
		}
	}
	for _, v := range minus(u.variants, t.variants) {
		out = append(out, u.name+": + "+v)
	}
	for _, v := range minus(t.variants, u.variants) {
		out = append(out, u.name+": - "+v)
	}
	for _, v := range minus(u.values, t.values) {
		out = append(out, u.name+": + "+v)
	}
	for _, v := range minus(t.values, u.values) {
		out = append(out, u.name+": - "+v)
	}
	return out
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// minus lists the elements of a that b does not have.
func minus(a, b []string) []string {
	var out []string
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

// sealed reports whether an interface has the unexported marker method isX of a union.
func sealed(iface *types.Interface, name string) bool {
	for i := range iface.NumMethods() {
		if iface.Method(i).Name() == "is"+name {
			return true
		}
	}
	return false
}
