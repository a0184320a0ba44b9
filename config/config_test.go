package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/emit"
	"github.com/mcpgen/mcpgen/model"
)

func at(line, col int) model.Pos { return model.Pos{File: "mcpgen.yaml", Line: line, Col: col} }

// yamlFile sets every key of the configuration, in YAML.
const yamlFile = `# The shape of example.com/mysdk's MCP package.
package: mcp
doc: |
  Package mcp holds the MCP types of example.com/mysdk.

  It is generated.
types:
  - CallToolRequestParams
  - InitializeRequest.params
rename:
  CallToolRequestParams: CallToolParams
  ClientCapabilities.sampling: SamplingCapabilities
fields:
  Tool._meta: Metadata
substitute:
  Tool.inputSchema: "*github.com/google/jsonschema-go/jsonschema.Schema"
  ProgressToken: any
  RequestId: ID
initialisms: [MIME, SSE]
validate: false
runtime: false
filePrefix: ext_
`

// jsonFile sets the same keys as yamlFile, in JSON.
const jsonFile = `{
	"package": "mcp",
	"doc": "Package mcp holds the MCP types of example.com/mysdk.\n\nIt is generated.\n",
	"types": ["CallToolRequestParams", "InitializeRequest.params"],
	"rename": {"CallToolRequestParams": "CallToolParams", "ClientCapabilities.sampling": "SamplingCapabilities"},
	"fields": {"Tool._meta": "Metadata"},
	"substitute": {
		"Tool.inputSchema": "*github.com/google/jsonschema-go/jsonschema.Schema",
		"ProgressToken": "any",
		"RequestId": "ID"
	},
	"initialisms": ["MIME", "SSE"],
	"validate": false,
	"runtime": false,
	"filePrefix": "ext_"
}
`

// TestParse reads a file that sets every key, in YAML and in JSON, into the same configuration.
func TestParse(t *testing.T) {
	y, err := Parse("mcpgen.yaml", []byte(yamlFile))
	require.NoError(t, err)
	want := emit.Config{
		Types: []emit.Entry{{Name: "CallToolRequestParams", Pos: at(8, 5)}, {Name: "InitializeRequest.params", Pos: at(9, 5)}},
		Names: map[string]emit.Entry{
			"CallToolRequestParams":       {Name: "CallToolParams", Pos: at(11, 26)},
			"ClientCapabilities.sampling": {Name: "SamplingCapabilities", Pos: at(12, 32)},
		},
		Fields: map[string]emit.Entry{"Tool._meta": {Name: "Metadata", Pos: at(14, 15)}},
		Substitutes: map[string]emit.Substitute{
			"Tool.inputSchema": {Path: "github.com/google/jsonschema-go/jsonschema", Name: "Schema", Pointer: true, Pos: at(16, 21)},
			"ProgressToken":    {Name: "any", Pos: at(17, 18)},
			"RequestId":        {Name: "ID", Pos: at(18, 14)},
		},
		Initialisms: []emit.Entry{{Name: "MIME", Pos: at(19, 15)}, {Name: "SSE", Pos: at(19, 21)}},
		NoValidate:  true,
		NoRuntime:   true,
		FilePrefix:  "ext_",
	}
	assert.Equal(t, want, y.Config)
	assert.Equal(t, "mcp", y.Package)
	assert.True(t, y.HasDoc)
	assert.Equal(t, "Package mcp holds the MCP types of example.com/mysdk.\n\nIt is generated.\n", y.Doc)

	j, err := Parse("mcpgen.json", []byte(jsonFile))
	require.NoError(t, err)
	assert.Equal(t, y.Package, j.Package)
	assert.Equal(t, y.Doc, j.Doc)
	// The same entries, at the JSON file's positions.
	stripPos := func(c emit.Config) emit.Config {
		for i := range c.Types {
			c.Types[i].Pos = model.Pos{}
		}
		for i := range c.Initialisms {
			c.Initialisms[i].Pos = model.Pos{}
		}
		for _, m := range []map[string]emit.Entry{c.Names, c.Fields} {
			for k, e := range m {
				e.Pos = model.Pos{}
				m[k] = e
			}
		}
		for k, s := range c.Substitutes {
			s.Pos = model.Pos{}
			c.Substitutes[k] = s
		}
		return c
	}
	assert.Equal(t, model.Pos{File: "mcpgen.json", Line: 6, Col: 27}, j.Config.Fields["Tool._meta"].Pos)
	assert.Equal(t, stripPos(y.Config), stripPos(j.Config))
}

// TestParseDefaults: an empty file configures nothing; validate and runtime default to true.
func TestParseDefaults(t *testing.T) {
	for _, src := range []string{"", "# nothing\n", "validate: true\nruntime: true\n"} {
		f, err := Parse("mcpgen.yaml", []byte(src))
		require.NoError(t, err, src)
		assert.Equal(t, emit.Config{}, f.Config, src)
		assert.False(t, f.HasDoc, src)
	}
	f, err := Parse("mcpgen.yaml", []byte("types: []\ndoc: ''\n"))
	require.NoError(t, err)
	assert.NotNil(t, f.Config.Types, "an empty list selects no declaration, unlike no list")
	assert.True(t, f.HasDoc)
	assert.Empty(t, f.Doc)
}

// TestParseErrors checks that every mistake in a file is an error naming its line and column.
func TestParseErrors(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"unknown key", "package: mcp\ntpyes: [Tool]\n", `mcpgen.yaml:2:1: unknown key "tpyes" (did you mean types?); the keys are package, doc, types, rename, fields, substitute, initialisms, validate, runtime, filePrefix, optional, elements, objects, oneOrMany, embed, declarations, standIn, constants, addFields, unknown, decode, literals, order, tagCodecs, nilAs, omit, defined`},
		{"key twice", "validate: true\nvalidate: false\n", "mcpgen.yaml:2:1: validate is set twice (first at line 1)"},
		{"not a mapping", "- Tool\n", "mcpgen.yaml:1:1: expected a mapping of package, doc, types, rename, fields, substitute, initialisms, validate, runtime, filePrefix, optional, elements, objects, oneOrMany, embed, declarations, standIn, constants, addFields, unknown, decode, literals, order, tagCodecs, nilAs, omit, defined, found a list"},
		{"yaml syntax", "types: [Tool\nrename: x\n", "mcpgen.yaml:1: did not find expected ',' or ']'"},
		{"package keyword", "package: func\n", `mcpgen.yaml:1:10: package: "func" is not a valid Go package name`},
		{"package number", "package: 12\n", "mcpgen.yaml:1:10: package: expected a string, found a number"},
		{"types not a list", "types: Tool\n", `mcpgen.yaml:1:8: types: expected a list, found the string "Tool"`},
		{"types bad name", "types:\n  - Tool\n  - 2Tool\n", `mcpgen.yaml:3:5: types: "2Tool" does not name a declaration (Tool) or a member (Tool.inputSchema)`},
		{"types twice", "types: [Tool, Tool]\n", "mcpgen.yaml:1:15: types: Tool is listed twice (first at line 1)"},
		{"types empty member", "types: [Tool.]\n", `mcpgen.yaml:1:9: types: "Tool." names no member after the dot`},
		{"rename not identifier", "rename:\n  Tool: my-tool\n", `mcpgen.yaml:2:9: rename: Tool: "my-tool" is not a Go identifier`},
		{"rename not a mapping", "rename: [Tool]\n", "mcpgen.yaml:1:9: rename: expected a mapping, found a list"},
		{"rename twice", "rename:\n  Tool: A\n  Tool: B\n", "mcpgen.yaml:3:3: rename: Tool is set twice (first at line 2)"},
		{"fields without member", "fields:\n  Tool: Name\n", `mcpgen.yaml:2:3: fields: "Tool" names no member: write Declaration.member (Tool.inputSchema)`},
		{"substitute bad type", "substitute:\n  Tool: \"github.com/x/y\"\n", `mcpgen.yaml:2:9: substitute: Tool: "github.com/x/y" is not a Go type written as [*]importpath.Name (*github.com/google/jsonschema-go/jsonschema.Schema), Name (a type of the output's package), a predeclared type (any, int, ...), or a type expression of those without import paths (map[string]any, []string)`},
		{"substitute unexported", "substitute:\n  Tool: example.com/x.tool\n", "mcpgen.yaml:2:9: substitute: Tool: tool is not exported from example.com/x"},
		{"substitute bad path", "substitute:\n  Tool: example.com//x.Tool\n", `mcpgen.yaml:2:9: substitute: Tool: "example.com//x" is not an import path`},
		{"substitute not a string", "substitute:\n  Tool: {path: x}\n", "mcpgen.yaml:2:9: substitute: Tool: expected a string, found a mapping"},
		{"initialism not identifier", "initialisms: [MIME, 2D]\n", `mcpgen.yaml:1:21: initialisms: "2D" is not a Go identifier`},
		{"validate not a boolean", "validate: no\n", `mcpgen.yaml:1:11: validate: expected true or false, found the string "no"`},
		{"runtime without prefix", "runtime: false\n", "mcpgen.yaml:1:1: runtime: false needs a filePrefix: the output shares its directory with the output that has the runtime"},
		{"prefix without underscore", "filePrefix: ext\n", `mcpgen.yaml:1:13: filePrefix: "ext" is not lower-case letters, digits and _, starting with a letter or digit and ending with _ (ext_)`},
		{"prefix ignored by go", "filePrefix: _ext_\n", `mcpgen.yaml:1:13: filePrefix: "_ext_" is not lower-case letters, digits and _, starting with a letter or digit and ending with _ (ext_)`},
		{"optional value", "optional: maybe\n", `mcpgen.yaml:1:11: optional: "maybe" is not one of pointer, omitempty, omitzero, value`},
		{"optional member value", "optional:\n  default: omitempty\n  Tool.title: values\n", `mcpgen.yaml:3:15: optional: Tool.title: "values" is not one of pointer, omitempty, omitzero, value`},
		{"elements without member", "elements:\n  Tool: pointer\n", `mcpgen.yaml:2:3: elements: "Tool" names no member: write Declaration.member (Tool.inputSchema)`},
		{"objects a list", "objects: [pointer]\n", "mcpgen.yaml:1:10: objects: expected one of value, pointer, or a mapping of default and members to one of them, found a list"},
		{"embed not a list", "embed: Result._meta\n", `mcpgen.yaml:1:8: embed: expected a list, found the string "Result._meta"`},
		{"omit of a declaration", "omit: [Tool]\n", `mcpgen.yaml:1:8: omit: "Tool" names no member: write Declaration.member (SamplingMessage._meta)`},
		{"standIn of a member", "standIn:\n  Tool.name: X\n", "mcpgen.yaml:2:3: standIn: Tool.name: a declaration stands in for a declaration, not a member"},
		{"standIn chain", "standIn:\n  A: B\n  B: C\n", "mcpgen.yaml:2:6: standIn: B stands in for A, and is stood in for itself"},
		{"declarations not a string", "declarations: [x]\n", "mcpgen.yaml:1:15: declarations: expected a string, found a list"},
		{"composite substitute with a call", "substitute:\n  Tool: \"[len(x)]int\"\n", `mcpgen.yaml:2:9: substitute: Tool: "[len(x)]int" is not a Go type written as [*]importpath.Name (*github.com/google/jsonschema-go/jsonschema.Schema), Name (a type of the output's package), a predeclared type (any, int, ...), or a type expression of those without import paths (map[string]any, []string)`},
		{"unknown per member", "unknown:\n  default: drop\n  Tool.x: keep\n", "mcpgen.yaml:2:3: unknown: expected keep or drop, for the whole output"},
		{"unknown value", "unknown: lose\n", `mcpgen.yaml:1:10: unknown: "lose" is not one of keep, drop`},
		{"constants not a boolean", "constants: no\n", `mcpgen.yaml:1:12: constants: expected true or false, found the string "no"`},
		{"prefix of the runtime", "filePrefix: wire_\n", "mcpgen.yaml:1:13: filePrefix: wire_ starts the names of the runtime's files"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("mcpgen.yaml", []byte(tt.src))
			require.Error(t, err)
			assert.Equal(t, tt.want, err.Error())
		})
	}
}

// TestParseJSONErrors: a JSON file is held to JSON, with the line and column of a syntax error,
// and its entries are positioned as in YAML.
func TestParseJSONErrors(t *testing.T) {
	_, err := Parse("mcpgen.json", []byte("{\n  \"types\": [\"Tool\",]\n}\n"))
	require.Error(t, err)
	assert.Equal(t, "mcpgen.json:2:20: invalid character ']' looking for beginning of value", err.Error())
	_, err = Parse("mcpgen.json", []byte("{\n\t\"validate\": \"no\"\n}\n"))
	require.Error(t, err)
	assert.Equal(t, `mcpgen.json:2:14: validate: expected true or false, found the string "no"`, err.Error())
	_, err = Parse("mcpgen.json", []byte("# a comment is YAML, not JSON\n{}\n"))
	require.Error(t, err)
	assert.Equal(t, "mcpgen.json:1:1: invalid character '#' looking for beginning of value", err.Error())
}

// TestCheckSubstitutes finds the Go types of substitutes in the standard library, in the
// output's own directory, and among the predeclared types, and fails on one that does not exist.
func TestCheckSubstitutes(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "schema.go"), []byte("package mcp\n\ntype Schema struct{}\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "types.go"), []byte("package mcp\n\ntype Mine struct{}\n"), 0o644))
	own := func(name string) bool { return name == "types.go" }
	check := func(subs map[string]emit.Substitute) error {
		return CheckSubstitutes(emit.Config{Substitutes: subs}, dir, own)
	}
	require.NoError(t, check(map[string]emit.Substitute{
		"JSONValue":        {Path: "encoding/json", Name: "RawMessage"},
		"Tool.inputSchema": {Name: "Schema", Pointer: true},
		"ProgressToken":    {Name: "any"},
	}))
	err := check(map[string]emit.Substitute{"JSONValue": {Path: "encoding/json", Name: "Raw", Pos: at(3, 14)}})
	require.Error(t, err)
	assert.Equal(t, "mcpgen.yaml:3:14: substitute: JSONValue: no type Raw in package encoding/json", err.Error())
	err = check(map[string]emit.Substitute{"Tool": {Name: "Mine", Pos: at(4, 9)}})
	require.Error(t, err, "a type of the output itself is not a substitute")
	assert.Equal(t, "mcpgen.yaml:4:9: substitute: Tool: no type Mine in the files of "+dir+" that the output does not write", err.Error())
	err = check(map[string]emit.Substitute{"Tool": {Path: "example.com/no/such/package", Name: "Tool", Pos: at(5, 9)}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "mcpgen.yaml:5:9: substitute: Tool: cannot find package example.com/no/such/package (does your module require it? go get it)")
	// A type that the output writes now is a substitute: a member typed by another declaration.
	written := map[string][]byte{"types.go": []byte("package mcp\n\ntype Params struct{}\n")}
	subs := map[string]emit.Substitute{"Request.params": {Name: "Params"}, "X.y": {Name: "*struct{ P Params }", Composite: true, Kind: "pointer"}}
	require.NoError(t, CheckSubstitutes(emit.Config{Substitutes: subs}, dir, own, written))
	require.Error(t, CheckSubstitutes(emit.Config{Substitutes: subs}, dir, own), "not written")
}

// TestValidPackageName checks the rule that both the file's package key and mcpgen's -pkg
// follow.
func TestValidPackageName(t *testing.T) {
	for _, name := range []string{"mcp", "mcp20251125", "mcpdraft", "_mcp", "mcp_x", "é"} {
		assert.True(t, ValidPackageName(name), name)
	}
	for _, name := range []string{"", "_", "func", "type", "1x", "mcp1.0", "my-pkg", "a b"} {
		assert.False(t, ValidPackageName(name), name)
	}
}

// TestLoadDeclarations: the declarations of a configuration merge into the schema, and an error
// in them names the configuration file's line and column, for a block as for a one-line string;
// standIn makes references use another declaration.
func TestLoadDeclarations(t *testing.T) {
	schema := []byte("export interface Tool {\n  name: string;\n}\nexport type Block = Text;\nexport interface Text { text: string }\nexport interface Holder { block: Block }\n")
	f, err := Parse("c.yaml", []byte("package: x\ndeclarations: |\n  export interface Tool {\n    title?: string;\n  }\n  export type Wide = Text | Tool;\nstandIn:\n  Block: Wide\n"))
	require.NoError(t, err)
	s, err := f.Load("schema.ts", schema)
	require.NoError(t, err)
	tool := s.Decl("Tool")
	require.NotNil(t, tool)
	assert.NotNil(t, tool.Type.Object.Member("title"), "merged member")
	assert.Equal(t, "c.yaml:4:5", tool.Type.Object.Member("title").Pos.String())
	assert.Nil(t, s.Decl("Block"), "stood in for")
	assert.Equal(t, "Wide", s.Decl("Holder").Type.Object.Member("block").Type.Ref)

	for _, tt := range []struct{ src, want string }{
		{"declarations: |\n  export interface Tool {\n    title?: string\n    x: ;\n  }\n", "c.yaml:4:8: found `;`"},
		{"declarations: \"export type X = ;\"\n", "c.yaml:1:32: "},
		{"standIn:\n  Blok: Wide\n", "c.yaml:2:9: standIn: the schema declares no Blok"},
	} {
		f, err := Parse("c.yaml", []byte(tt.src))
		require.NoError(t, err)
		_, err = f.Load("schema.ts", schema)
		require.Error(t, err)
		assert.True(t, strings.HasPrefix(err.Error(), tt.want), "%s: got %v, want %s...", tt.src, err, tt.want)
	}
	f, err = Parse("c.yaml", []byte("declarations: \"export type X = string;\"\n"))
	require.NoError(t, err)
	_, err = f.Load("schema.json", []byte("{}"))
	assert.EqualError(t, err, "c.yaml: declarations: TypeScript can be added to a schema.ts only, and schema.json is JSON")
}

// TestLoadStandInExtends: an interface extending a declaration stood in for extends its stand-in:
// it inherits the stand-in's members (not the replaced one's), and its extends clause names the
// stand-in at the standIn entry's position.
func TestLoadStandInExtends(t *testing.T) {
	schema := []byte("export interface Paged { nextCursor?: string }\nexport interface Cached { ttl: number }\nexport interface List extends Paged { items: string[] }\n")
	f, err := Parse("c.yaml", []byte("declarations: |\n  export interface CachedPage extends Cached { nextCursor?: string }\nstandIn:\n  Paged: CachedPage\n"))
	require.NoError(t, err)
	s, err := f.Load("schema.ts", schema)
	require.NoError(t, err)
	assert.Nil(t, s.Decl("Paged"), "stood in for")
	list := s.Decl("List")
	var members []string
	for _, m := range list.Type.Object.Members {
		members = append(members, m.Name+" of "+m.DeclaredIn)
	}
	assert.Equal(t, []string{"ttl of Cached", "nextCursor of CachedPage", "items of List"}, members)
	require.Len(t, list.Extends, 1)
	assert.Equal(t, "CachedPage", list.Extends[0].Ref)
	assert.Equal(t, "c.yaml:4:10", list.Extends[0].Pos.String())
}

// TestSubstituteKinds: the kinds of named substitutes are found in the output directory's files
// and in the packages of import paths; pointers, composites and unknown types are left alone.
func TestSubstituteKinds(t *testing.T) {
	dir := t.TempDir()
	src := "package mcp\n\ntype Meta map[string]any\ntype List []int\ntype Any interface{}\ntype S struct{}\ntype N = Meta\ntype Label string\ntype Flag = bool\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "meta.go"), []byte(src), 0o644))
	c := emit.Config{Substitutes: map[string]emit.Substitute{
		"A": {Name: "Meta"}, "B": {Name: "List"}, "C": {Name: "Any"}, "D": {Name: "S"}, "E": {Name: "N"},
		"F": {Name: "Meta", Pointer: true}, "G": {Name: "Missing"}, "H": {Path: "encoding/json", Name: "RawMessage"},
		"I": {Name: "int"}, "J": {Name: "Label"}, "K": {Name: "Flag"},
	}}
	SubstituteKinds(&c, dir)
	got := map[string]string{}
	for k, s := range c.Substitutes {
		got[k] = s.Kind
	}
	assert.Equal(t, map[string]string{"A": "map", "B": "slice", "C": "interface", "D": "struct", "E": "", "F": "", "G": "", "H": "slice", "I": "", "J": "string", "K": ""}, got)
}
