package parser

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var versions = []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28", "draft"}

// loadVersion loads ../schema/<version>/schema.ts.
func loadVersion(t testing.TB, version string) *model.Schema {
	t.Helper()
	name := filepath.Join("..", "schema", version, "schema.ts")
	src, err := os.ReadFile(name)
	require.NoError(t, err)
	s, err := Load(name, src)
	require.NoError(t, err)
	return s
}

func TestLoadAll(t *testing.T) {
	declLine := regexp.MustCompile(`(?m)^export (interface|type) `)
	constLine := regexp.MustCompile(`(?m)^export const `)
	for _, v := range versions {
		t.Run(v, func(t *testing.T) {
			s := loadVersion(t, v)
			src, err := os.ReadFile(filepath.Join("..", "schema", v, "schema.ts"))
			require.NoError(t, err)
			assert.Len(t, s.Decls, len(declLine.FindAll(src, -1)))
			assert.Len(t, s.Consts, len(constLine.FindAll(src, -1)))
			assert.Empty(t, s.Version)
		})
	}
	assert.Len(t, loadVersion(t, "draft").Decls, 155)
}

// TestExamplesExist checks that every @includeCode file exists next to the schema.
func TestExamplesExist(t *testing.T) {
	for _, v := range []string{"draft", "2026-07-28"} {
		n := 0
		for _, d := range loadVersion(t, v).Decls {
			for _, e := range d.Doc.Examples {
				assert.NotEmpty(t, e.Title, "%s: %s", v, d.Name)
				assert.FileExists(t, filepath.Join("..", "schema", v, e.File), "%s: %s", v, d.Name)
				n++
			}
		}
		assert.NotZero(t, n, v)
	}
}

// member returns the member path[1:] of declaration path[0], descending into inline objects.
func member(t *testing.T, s *model.Schema, path ...string) *model.Member {
	t.Helper()
	d := s.Decl(path[0])
	require.NotNil(t, d, path[0])
	typ := d.Type
	var m *model.Member
	for _, name := range path[1:] {
		require.Equal(t, model.Object, typ.Kind, "%v: %s", path, name)
		m = typ.Object.Member(name)
		require.NotNil(t, m, "%v: %s", path, name)
		typ = m.Type
	}
	return m
}

func memberNames(o *model.ObjectType) []string {
	var names []string
	for _, m := range o.Members {
		names = append(names, m.Name)
	}
	return names
}

func TestDraftFacts(t *testing.T) {
	s := loadVersion(t, "draft")

	assert.Equal(t, model.Integer, member(t, s, "CreateMessageRequestParams", "maxTokens").Type.Kind)
	assert.Equal(t, model.Number, member(t, s, "CreateMessageRequestParams", "temperature").Type.Kind)

	call := s.Decl("CallToolRequest")
	require.Equal(t, model.Object, call.Type.Kind)
	assert.Equal(t, []string{"method", "params", "jsonrpc", "id"}, memberNames(call.Type.Object))
	assert.Equal(t, model.Value{Kind: model.String, Str: "tools/call"}, call.Type.Object.Member("method").Type.Literal)
	assert.Equal(t, model.Value{Kind: model.String, Str: "2.0"}, call.Type.Object.Member("jsonrpc").Type.Literal)

	errMember := member(t, s, "HeaderMismatchError", "error")
	assert.Equal(t, model.Object, errMember.Type.Kind)
	code := member(t, s, "HeaderMismatchError", "error", "code")
	assert.Equal(t, model.Literal, code.Type.Kind)
	assert.Equal(t, model.Value{Kind: model.Integer, Num: "-32020"}, code.Type.Literal)
	assert.Equal(t, "The error type that occurred.", code.Doc.Text, "inherited doc")

	meta := s.Decl("MetaObject").Type
	assert.Equal(t, model.Map, meta.Kind)
	assert.Equal(t, model.Any, meta.Elem.Kind)
	reqMeta := s.Decl("RequestMetaObject").Type
	require.Equal(t, model.Object, reqMeta.Kind)
	require.NotNil(t, reqMeta.Object.Rest)
	assert.Equal(t, model.Any, reqMeta.Object.Rest.Kind)
	assert.NotNil(t, reqMeta.Object.Member("io.modelcontextprotocol/protocolVersion"))

	msg := s.Decl("JSONRPCMessage").Type
	require.Equal(t, model.Union, msg.Kind)
	require.Len(t, msg.Union.Variants, 3)
	assert.Equal(t, "JSONRPCRequest", msg.Union.Variants[0].Ref)

	c := s.Consts[0]
	assert.Equal(t, "LATEST_PROTOCOL_VERSION", c.Name)
	assert.True(t, c.Doc.Internal)

	parse := s.Decl("ParseError")
	require.NotEmpty(t, parse.Doc.Examples)
	assert.Equal(t, model.Example{Title: "Invalid JSON", File: "./examples/ParseError/invalid-json.json"}, parse.Doc.Examples[0])
	assert.Equal(t, "Errors", parse.Doc.Category)
}

func TestOlderFacts(t *testing.T) {
	s := loadVersion(t, "2025-11-25")
	task := s.Decl("GetTaskResult").Type
	require.Equal(t, model.Object, task.Kind, "Result & Task")
	assert.NotNil(t, task.Object.Member("_meta"))
	assert.NotNil(t, task.Object.Member("taskId"))
	ttl := member(t, s, "Task", "ttl").Type
	require.Equal(t, model.Union, ttl.Kind)
	assert.Equal(t, model.Integer, ttl.Union.Variants[0].Kind)
	assert.Equal(t, model.Null, ttl.Union.Variants[1].Kind)

	params := member(t, s, "Request", "params").Type
	assert.Equal(t, model.Map, params.Kind)
	assert.Equal(t, model.Any, params.Elem.Kind)

	old := loadVersion(t, "2024-11-05")
	progress := member(t, old, "ProgressNotification", "params", "progress")
	assert.Equal(t, model.Number, progress.Type.Kind)
	sampling := member(t, old, "ClientCapabilities", "sampling")
	assert.Equal(t, model.Object, sampling.Type.Kind, "object keyword")
	assert.Empty(t, sampling.Type.Object.Members)
}

// TestPositions checks the positions of declarations, members and types.
func TestPositions(t *testing.T) {
	src := `/** Doc. */
export interface A extends B {
  "quoted"?: (string | number)[];
  b: | "x" | "y";
}
interface B { c: -1 }
`
	s, err := Load("p.ts", []byte(src))
	require.NoError(t, err)
	pos := func(line, col int) model.Pos { return model.Pos{File: "p.ts", Line: line, Col: col} }

	a := s.Decl("A")
	assert.Equal(t, pos(2, 18), a.Pos)
	assert.Equal(t, "Doc.", a.Doc.Text)
	o := a.Type.Object
	assert.Equal(t, []string{"c", "quoted", "b"}, memberNames(o))

	c := o.Member("c")
	assert.Equal(t, pos(6, 15), c.Pos)
	assert.Equal(t, pos(6, 18), c.Type.Pos, "at the minus sign")
	assert.Equal(t, model.Value{Kind: model.Integer, Num: "-1"}, c.Type.Literal)

	q := o.Member("quoted")
	assert.Equal(t, pos(3, 3), q.Pos)
	assert.Equal(t, pos(3, 14), q.Type.Pos, "array at its parenthesis")
	assert.Equal(t, pos(3, 15), q.Type.Elem.Pos, "parentheses vanish")
	assert.Equal(t, pos(3, 24), q.Type.Elem.Union.Variants[1].Pos)

	b := o.Member("b")
	assert.Equal(t, pos(4, 6), b.Type.Pos, "union at its leading |")
	assert.Equal(t, pos(4, 8), b.Type.Union.Variants[0].Pos)
}

// TestMergeOptional checks the optionality of a member declared by several parts: an
// intersection requires it if any part does, `extends` lets the later declaration win.
func TestMergeOptional(t *testing.T) {
	tests := []struct {
		name     string
		src      string // declares T with a member a
		optional bool
	}{
		{"intersection, required then optional", "type T = { a: string } & { a?: string };", false},
		{"intersection, optional then required", "type T = { a?: string } & { a: string };", false},
		{"intersection, both optional", "type T = { a?: string } & { a?: string };", true},
		{"intersection, required in the middle", "type T = { a?: string } & { a: string } & { a?: string };", false},
		{"intersection of declarations", "interface A { a: string }\ninterface B { a?: string }\ntype T = A & B;", false},
		{"intersection in extends", "interface A { a: string }\ntype B = A & { a?: string };\ninterface T extends B {}", false},
		{"intersection with an Omit", "interface A { a: string; b: string }\ntype T = Omit<A, \"b\"> & { a?: string };", false},
		{"extends, required then optional", "interface A { a: string }\ninterface T extends A { a?: string }", true},
		{"extends, optional then required", "interface A { a?: string }\ninterface T extends A { a: string }", false},
		{"two extends, required then optional", "interface A { a: string }\ninterface B { a?: string }\ninterface T extends A, B {}", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Load("m.ts", []byte(tt.src))
			require.NoError(t, err)
			assert.Equal(t, tt.optional, member(t, s, "T", "a").Optional)
		})
	}
}

func BenchmarkLoadDraft(b *testing.B) {
	name := filepath.Join("..", "schema", "draft", "schema.ts")
	src, err := os.ReadFile(name)
	require.NoError(b, err)
	for b.Loop() {
		if _, err := Load(name, src); err != nil {
			b.Fatal(err)
		}
	}
}

// TestMergeRedeclaredMembers: an interface declared again may declare a member again with the
// same type, as TypeScript sees it (through aliases, unions in any order), and optionality; with
// another, it is an error naming both positions.
func TestMergeRedeclaredMembers(t *testing.T) {
	same := []string{
		"a: string | number;\n} & {\n  a: number | string;",
		"a: Cursor;\n} & {\n  a: string;",
		"a?: { x: string[]; y?: Cursor };\n} & {\n  a?: { y?: string; x: Array<string> };",
	}
	for _, body := range same {
		parts := strings.Split(body, "\n} & {\n  ")
		src := "type Cursor = string;\ninterface T {\n  " + parts[0] + "\n}\ninterface T {\n  " + parts[1] + "\n  b: boolean;\n}\n"
		s, err := Load("m.ts", []byte(src))
		if assert.NoError(t, err, src) {
			assert.Len(t, s.Decl("T").Type.Object.Members, 2, src)
		}
	}
	tests := []struct{ src, want string }{
		{"interface T {\n  a: string;\n}\ninterface T {\n  a: number;\n}\n",
			`m.ts:5:3: found member "a" of T declared again with another type than at m.ts:2:3, expected the same (subsequent property declarations must have the same type)`},
		{"interface T {\n  a: string;\n}\ninterface T {\n  a?: string;\n}\n",
			`m.ts:5:3: found member "a" of T declared again with another optionality than at m.ts:2:3, expected the same (all declarations of a property must have identical modifiers)`},
		{"interface T {\n  /** @TJS-type number */\n  a: number;\n}\ninterface T {\n  a: number;\n}\n",
			`m.ts:6:3: found member "a" of T declared again with another type than at m.ts:3:3`},
		{"type A = A[];\ninterface T {\n  a: A;\n}\ninterface T {\n  a: A[];\n}\n",
			`m.ts:6:3: found member "a" of T declared again with another type than at m.ts:3:3`},
	}
	for _, tt := range tests {
		_, err := Load("m.ts", []byte(tt.src))
		if assert.Error(t, err, tt.src) {
			assert.Contains(t, err.Error(), tt.want)
		}
	}
}

// TestRedeclaredInheritedMember: a derived interface may narrow an inherited member (a literal
// over a string, fewer kinds of a union, anything over unknown), not give it another JSON kind.
func TestRedeclaredInheritedMember(t *testing.T) {
	for _, own := range []string{`a: "x"`, `b: number`, `c: { d: string }`, `e: string`} {
		src := "interface Base {\n  a: string;\n  b: string | number | null;\n  c: unknown;\n  e?: string;\n}\ninterface T extends Base {\n  " + own + ";\n}\n"
		_, err := Load("m.ts", []byte(src))
		assert.NoError(t, err, src)
	}
	src := "interface Base {\n  b: string | null;\n}\ninterface T extends Base {\n  x: string;\n}\ninterface T {\n  b: boolean[];\n}\n"
	_, err := Load("m.ts", []byte(src))
	assert.EqualError(t, err, `m.ts:8:3: found member "b" of T of type array, which the member it redeclares, at m.ts:2:3, of type string or null, cannot hold, expected the same type or a narrower one`)
}

// TestDeclaredIn: every member says which declaration declares it, through extends,
// intersections, Omit, Pick, Partial, aliases of objects and declaration merging (a second
// declaration after another one), and a Record's members are its user's, wherever its keys are
// spelled.
func TestDeclaredIn(t *testing.T) {
	src := `interface Base {
  a: string;
  b?: { c: string };
}
type Extra = { e: number };
type Keys = "k1" | "k2";
interface T extends Omit<Base, "b">, Partial<Pick<Base, "b">> {
  own: string;
  rec: Record<Keys, string>;
}
type U = Base & Extra & { u: boolean };
interface V extends Extra {}
interface T {
  later: string;
}
`
	s, err := Load("m.ts", []byte(src))
	require.NoError(t, err)
	tests := []struct{ decl, member, want string }{
		{"Base", "a", "Base"},
		{"Base", "b", "Base"},
		{"T", "a", "Base"},
		{"T", "b", "Base"},
		{"T", "own", "T"},
		{"T", "later", "T"},
		{"U", "a", "Base"},
		{"U", "e", "Extra"},
		{"U", "u", "U"},
		{"V", "e", "Extra"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, member(t, s, tt.decl, tt.member).DeclaredIn, "%s.%s", tt.decl, tt.member)
	}
	c := member(t, s, "T", "b").Type.Object.Member("c")
	assert.Equal(t, "Base", c.DeclaredIn, "a member of an inline object")
	for _, k := range member(t, s, "T", "rec").Type.Object.Members {
		assert.Equal(t, "T", k.DeclaredIn, "Record key %s", k.Name)
	}
}

// TestExtends: a declaration records the declarations it extends by name, those of a second
// declaration after the first's, with their positions; a generic part (Omit, Pick) and an
// alias are not among them.
func TestExtends(t *testing.T) {
	src := `interface Base {
  a: string;
}
interface Annotated {
  note?: string;
}
interface D extends Base, Omit<Annotated, "note"> {
  a: string;
}
interface D extends Annotated {}
type U = Base & { u: boolean };
`
	s, err := Load("m.ts", []byte(src))
	require.NoError(t, err)
	var got []string
	for _, e := range s.Decl("D").Extends {
		assert.Equal(t, model.Ref, e.Kind)
		got = append(got, e.Ref+"@"+e.Pos.String())
	}
	assert.Equal(t, []string{"Base@m.ts:7:21", "Annotated@m.ts:10:21"}, got)
	assert.Nil(t, s.Decl("Base").Extends)
	assert.Nil(t, s.Decl("U").Extends, "an intersection is not an extends clause")
	assert.Equal(t, "D", member(t, s, "D", "a").DeclaredIn, "a member declared again is the declaration's own")
}
