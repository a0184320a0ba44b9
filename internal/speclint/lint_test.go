package speclint

import (
	"flag"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the testdata/*.golden files")

// render writes a report as the golden files hold it: the findings, then the silenced ones.
func render(r *Report) string {
	var b strings.Builder
	for _, f := range r.Findings {
		b.WriteString(f.String() + "\n")
	}
	for _, f := range r.Silenced {
		b.WriteString("silenced: " + f.String() + "\n")
	}
	return b.String()
}

// golden compares got with the file testdata/name.golden, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	file := filepath.Join("testdata", name+".golden")
	if *update {
		require.NoError(t, os.WriteFile(file, []byte(got), 0o644))
	}
	want, err := os.ReadFile(file)
	require.NoError(t, err, "run go test -run %s -update", t.Name())
	assert.Equal(t, string(want), got, "%s is stale: run go test -run %s -update, and read the diff", file, t.Name())
}

// cases lists the test repositories testdata/<case>/: one per kind with findings of that kind,
// and <kind>-clean with the same kind of input and none.
func cases(t *testing.T) []string {
	entries, err := os.ReadDir("testdata")
	require.NoError(t, err)
	var out []string
	for _, e := range entries {
		if e.IsDir() && e.Name() != "fuzz" {
			out = append(out, e.Name())
		}
	}
	return out
}

// TestGolden runs the checker on each test repository: its findings are those of
// testdata/<case>.golden, a case named after a kind finds that kind, and a clean case finds
// nothing.
func TestGolden(t *testing.T) {
	for _, name := range cases(t) {
		t.Run(name, func(t *testing.T) {
			r, err := Lint(os.DirFS(filepath.Join("testdata", name)))
			require.NoError(t, err)
			golden(t, name, render(r))
			if kind, clean := strings.CutSuffix(name, "-clean"); clean {
				assert.Empty(t, r.Findings, "a clean case")
				if kind != string(AllowList) {
					assert.Empty(t, r.Silenced, "a clean case")
				}
				return
			}
			assert.True(t, slices.ContainsFunc(r.Findings, func(f Finding) bool { return string(f.Kind) == name }),
				"the case %s finds no finding of its kind", name)
		})
	}
}

// TestEveryKindHasCases: each kind has a case with findings and a clean case (what the checker
// refuses has none: every clean case is one).
func TestEveryKindHasCases(t *testing.T) {
	have := cases(t)
	for _, k := range Kinds() {
		assert.Contains(t, have, string(k))
		if k != Refused {
			assert.Contains(t, have, string(k)+"-clean")
		}
	}
}

// vendored is the repository layout of the project's copy of the spec (schema/): every version's
// schema.ts, schema.json and examples, and each changelog.mdx as the spec text of its version.
func vendored(t testing.TB) fstest.MapFS {
	m := fstest.MapFS{}
	root := filepath.Join("..", "..", "schema")
	err := filepath.WalkDir(root, func(file string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, file)
		rel = filepath.ToSlash(rel)
		data, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		version, name, _ := strings.Cut(rel, "/")
		switch {
		case name == "changelog.mdx":
			m[path.Join("docs", "specification", version, name)] = &fstest.MapFile{Data: data}
		case strings.Contains(rel, "/"):
			m[path.Join("schema", rel)] = &fstest.MapFile{Data: data}
		}
		return nil
	})
	require.NoError(t, err)
	return m
}

// TestVendoredSpec runs the checker on the project's copy of the spec: its findings, the spec's
// real mistakes, are those of testdata/vendored.golden, explained in docs/lint-spec.md.
func TestVendoredSpec(t *testing.T) {
	r, err := Lint(vendored(t))
	require.NoError(t, err)
	assert.Equal(t, []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28", "draft"}, r.Versions)
	golden(t, "vendored", render(r))
}

// TestSpecCheckout runs the checker on the checkout of the spec repository that MCPGEN_SPEC_REPO
// names, which CI does not have: a checkout (schema/, docs/specification/), or a copy with the
// spec text in docs/<version>/. Its findings are recorded in testdata/spec-checkout.golden (the
// copy of the spec this project started from; -update records another's).
func TestSpecCheckout(t *testing.T) {
	dir := os.Getenv("MCPGEN_SPEC_REPO")
	if dir == "" {
		t.Skip("MCPGEN_SPEC_REPO names no checkout of the spec repository")
	}
	r, err := Lint(checkout(t, dir))
	require.NoError(t, err)
	golden(t, "spec-checkout", render(r))
}

// checkout returns the repository in dir: the directory itself, or for a copy with its spec text
// in docs/<version>/, a layout with it in docs/specification/<version>/.
func checkout(t *testing.T, dir string) fs.FS {
	if _, err := os.Stat(filepath.Join(dir, "docs", "specification")); err == nil {
		return os.DirFS(dir)
	}
	m := fstest.MapFS{}
	for _, tree := range [][2]string{{"schema", "schema"}, {"docs", "docs/specification"}} {
		root := filepath.Join(dir, tree[0])
		err := filepath.WalkDir(root, func(file string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(root, file)
			data, err := os.ReadFile(file)
			m[path.Join(tree[1], filepath.ToSlash(rel))] = &fstest.MapFile{Data: data}
			return err
		})
		require.NoError(t, err)
	}
	return m
}

// TestIntendedOverlapsExcluded: the overlaps of the clean case's JSON-RPC envelopes and result
// union are findings once their names no longer say what they are, so that the clean case
// shows the exclusions at work rather than unions that do not overlap.
func TestIntendedOverlapsExcluded(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "union-overlap-clean", "schema", "v1", "schema.ts"))
	require.NoError(t, err)
	renamed := strings.NewReplacer("JSONRPCMessage", "Message", "JSONRPCNotification", "Notification",
		"ClientResult", "SomeResult").Replace(string(src))
	r, err := Lint(fstest.MapFS{"schema/v1/schema.ts": &fstest.MapFile{Data: []byte(renamed)}})
	require.NoError(t, err)
	var subjects []string
	for _, f := range r.Findings {
		subjects = append(subjects, string(f.Kind)+" "+f.Subject)
	}
	assert.ElementsMatch(t, []string{"union-overlap Message", "union-overlap SomeResult"}, subjects)
}

// TestNotARepository: a directory without schema/<version>/schema.ts is an error, not a report.
func TestNotARepository(t *testing.T) {
	for name, fsys := range map[string]fs.FS{
		"empty":             fstest.MapFS{},
		"schema without ts": fstest.MapFS{"schema/v1/schema.json": &fstest.MapFile{Data: []byte("{}")}},
	} {
		_, err := Lint(fsys)
		assert.Error(t, err, name)
	}
}

func TestIsInteger(t *testing.T) {
	for s, want := range map[string]bool{
		"3": true, "-3": true, "3.0": true, "3e2": true, "300e-2": true, "0.5": false, "1e-1": false,
		"0e-99999999999999999999": true, "1e99999999999999999999": true, "1e-99999999999999999999": false,
		"12.50e1": true, "12.55e1": false, "-0.0": true, "10E-1": true,
	} {
		assert.Equal(t, want, isInteger(s), s)
	}
}

func TestParseJSON(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`{"a": [1, -2.5e3, true, null, "x\u00e9\ud83d\ude00\/"]}`, ""},
		{`{"a": 1,}`, "found '}', expected a member name"},
		{`{"a": 1, "a": 2}`, `found the member "a" twice`},
		{`[1 2]`, "found '2', expected ',' or ']'"},
		{`01`, "found '1' after the value, expected the end of the document"},
		{"\"\xff\"", "found the byte 0xff in a string, which is not UTF-8"},
		{"\"a\tb\"", `found the control character '\t' in a string, expected it escaped`},
		{`"\x"`, `found the escape \x, which JSON does not have`},
		{`-`, `found the end of the document, expected a digit`},
		{strings.Repeat("[", 2000), "found values nested more than 1000 deep"},
	} {
		n, err := parseJSON([]byte(tt.in))
		if tt.want == "" {
			require.NoError(t, err, tt.in)
			assert.Equal(t, "x\u00e9\U0001F600/", n.fields[0].val.elems[4].str)
			continue
		}
		if assert.Error(t, err, tt.in) {
			assert.Equal(t, tt.want, err.Error(), tt.in)
		}
	}
}

// FuzzLint: no schema, export, example or page of spec text makes the checker panic, and every
// finding has a position in a file of the repository.
func FuzzLint(f *testing.F) {
	for _, name := range []string{"export", "example", "union-overlap", "override", "doc-name", "refused"} {
		ts, _ := os.ReadFile(filepath.Join("testdata", name, "schema", "v1", "schema.ts"))
		js, _ := os.ReadFile(filepath.Join("testdata", name, "schema", "v1", "schema.json"))
		f.Add(string(ts), string(js), `{"result": {"resultType": "complete"}}`, "A `ResourceReference` and `Thing`.")
	}
	f.Fuzz(func(t *testing.T, ts, js, example, doc string) {
		m := fstest.MapFS{
			"schema/v1/schema.ts":                 &fstest.MapFile{Data: []byte(ts)},
			"schema/v2/schema.ts":                 &fstest.MapFile{Data: []byte(ts)},
			"schema/v1/schema.json":               &fstest.MapFile{Data: []byte(js)},
			"docs/specification/v1/index.mdx":     &fstest.MapFile{Data: []byte(doc)},
			"docs/specification/v2/changelog.mdx": &fstest.MapFile{Data: []byte(doc)},
			AllowFile:                             &fstest.MapFile{Data: []byte(doc)},
		}
		for _, typ := range []string{"Sample", "ReadResultResponse", "CreateMessageRequestParams", "Block", "JSONValue"} {
			m["schema/v1/examples/"+typ+"/x.json"] = &fstest.MapFile{Data: []byte(example)}
		}
		r, err := Lint(m)
		require.NoError(t, err)
		for _, f := range append(r.Findings, r.Silenced...) {
			_, ok := m[f.Pos.File]
			assert.True(t, ok && f.Pos.Line > 0 && f.Pos.Col > 0, "finding without a position: %v", f)
		}
	})
}

// BenchmarkLintVendored checks the project's copy of the spec, every version, as -lint-spec does
// (the files read from memory).
func BenchmarkLintVendored(b *testing.B) {
	repo := vendored(b)
	size := 0
	for _, f := range repo {
		size += len(f.Data)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Lint(repo); err != nil {
			b.Fatal(err)
		}
	}
}

// TestOverridesAsTypeScript holds the override findings through extends to TypeScript's own
// judgment, where a tsc is on PATH (CI has none; npx -p typescript@5 tsc gives one): tsc refuses
// exactly the interfaces the case with findings names (TS2430, "incorrectly extends"), and
// accepts the clean case.
func TestOverridesAsTypeScript(t *testing.T) {
	tsc, err := exec.LookPath("tsc")
	if err != nil {
		t.Skip("no tsc on PATH")
	}
	for name, want := range map[string][]string{"override": {"PingRequest", "ParseErrorResponse"}, "override-clean": nil} {
		file, err := filepath.Abs(filepath.Join("testdata", name, "schema", "v1", "schema.ts"))
		require.NoError(t, err)
		out, _ := exec.Command(tsc, "--noEmit", "--strict", file).CombinedOutput()
		var refused []string
		for _, m := range regexp.MustCompile(`error TS2430: Interface '(\w+)' incorrectly extends`).FindAllStringSubmatch(string(out), -1) {
			refused = append(refused, m[1])
		}
		assert.ElementsMatch(t, want, refused, "%s: tsc says\n%s", name, out)
		r, err := Lint(os.DirFS(filepath.Join("testdata", name)))
		require.NoError(t, err)
		var extends []string
		for _, f := range r.Findings {
			if f.Kind == Override && strings.Contains(f.Message, "incorrectly extends") {
				extends = append(extends, strings.Split(f.Subject, ".")[0])
			}
		}
		assert.ElementsMatch(t, want, extends, name)
	}
}
