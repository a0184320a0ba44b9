package emit

import (
	"go/parser"
	"go/token"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/model"
	mcpparser "github.com/mcpgen/mcpgen/parser"
	"github.com/mcpgen/mcpgen/templates"
)

// shapedSchema is a small schema for the tests of Config.
const shapedSchema = `export const LATEST_PROTOCOL_VERSION = "draft";

/** A tool the model may call. */
export interface Tool {
  name: string;
  /** The schema of the tool's input. */
  inputSchema: { type: "object"; [key: string]: unknown };
  annotations?: ToolAnnotations;
  mode?: "fast" | "slow";
  mimeType?: string;
}

export interface ToolAnnotations {
  title?: string;
}

export interface Result {
  _meta?: { [key: string]: unknown };
}

export interface CallToolResult extends Result {
  content: ContentBlock[];
  isError?: boolean;
  progressToken?: ProgressToken;
}

export type ContentBlock = TextContent | ImageContent;

export interface TextContent {
  type: "text";
  text: string;
}

export interface ImageContent {
  type: "image";
  data: string;
}

export type ProgressToken = string | number;

export interface Unrelated {
  tool: Tool;
}

export type EmptyResult = Result;
`

// cfgAt is a position in the configuration file of the tests.
func cfgAt(line int) model.Pos { return model.Pos{File: "mcpgen.yaml", Line: line, Col: 3} }

func entry(name string, line int) Entry { return Entry{Name: name, Pos: cfgAt(line)} }

func loadShaped(t *testing.T) *model.Schema {
	t.Helper()
	s, err := mcpparser.Load("shaped.ts", []byte(shapedSchema))
	require.NoError(t, err)
	s.Version = "test"
	require.NoError(t, model.Protocol(s))
	require.NoError(t, model.Classify(s))
	return s
}

func generateShaped(t *testing.T, c Config, parts map[string]string) (map[string][]byte, error) {
	t.Helper()
	return Generate(loadShaped(t), Options{Package: "mcp", Version: "test", SchemaHash: "sha256:0",
		Runtime: templates.Runtime(), Parts: parts, Config: c})
}

// configErrorCases are the configurations of TestConfigErrors.
var configErrorCases = []struct {
	name  string
	cfg   Config
	parts map[string]string
	want  string
}{{
	name: "order of an unknown member",
	cfg:  Config{Order: map[string][]Entry{"Tool": {entry("mode", 2), entry("nmae", 3)}}},
	want: `mcpgen.yaml:3:3: order: Tool has no member "nmae" (did you mean name?)`,
}, {
	name: "order of a struct not generated",
	cfg:  Config{Types: []Entry{entry("Tool", 1)}, Order: map[string][]Entry{"Unrelated": {entry("tool", 2)}}},
	want: "mcpgen.yaml:2:3: order: Unrelated is not a generated struct",
}, {
	name: "added field not Go",
	cfg:  Config{AddFields: map[string][]Entry{"Tool": {entry("err error; x int", 2)}}},
	want: `mcpgen.yaml:2:3: addFields: Tool: "err error; x int" is not one Go field without a tag (err error, or an embedded type)`,
}, {
	name: "added field taken",
	cfg:  Config{AddFields: map[string][]Entry{"Tool": {entry("Name string", 2)}}},
	want: "mcpgen.yaml:2:3: addFields: Tool: the field Name is already a field of Tool, for Tool.name",
}, {
	name: "added field to a union",
	cfg:  Config{AddFields: map[string][]Entry{"ContentBlock": {entry("x int", 2)}}},
	want: "mcpgen.yaml:2:3: addFields: ContentBlock is not an object, it has no struct to add fields to",
}, {
	name: "embedded base not generated",
	cfg:  Config{Types: []Entry{entry("Tool", 1)}, Embed: []Entry{entry("Result", 2)}},
	want: "mcpgen.yaml:2:3: embed: the base Result is not generated: add it to types",
}, {
	name: "embedded base shaped otherwise",
	cfg:  Config{Embed: []Entry{entry("Result", 2)}, Fields: map[string]Entry{"CallToolResult._meta": entry("M", 3)}},
	want: `mcpgen.yaml:2:3: embed: the member "_meta" of CallToolResult is not the field Meta of its base Result (Meta *MetaObject ` + "`json:\"_meta,omitzero\"`" + ` there, M *MetaObject ` + "`json:\"_meta,omitzero\"`" + ` here)`,
}, {
	name: "embedded base tagged otherwise",
	cfg: Config{Embed: []Entry{entry("Result", 2)},
		Substitutes: map[string]Substitute{"Result._meta": {Name: "map[string]any", Composite: true, Kind: "map", Pos: cfgAt(3)}},
		Optional:    Shape{Members: map[string]Entry{"CallToolResult._meta": entry(OmitEmpty, 4)}}},
	want: `mcpgen.yaml:2:3: embed: the member "_meta" of CallToolResult is not the field Meta of its base Result (Meta map[string]any ` + "`json:\"_meta,omitzero\"`" + ` there, Meta map[string]any ` + "`json:\"_meta,omitempty\"`" + ` here)`,
}, {
	name: "optional value of a type with nil",
	cfg:  Config{Optional: Shape{Members: map[string]Entry{"CallToolResult.progressToken": entry(Value, 3)}}},
	want: "mcpgen.yaml:3:3: optional: CallToolResult.progressToken has a type with nil, which stands for its absence: value changes nothing: remove the entry",
}, {
	name: "optional omitempty struct",
	cfg:  Config{Optional: Shape{Members: map[string]Entry{"Tool.annotations": entry(OmitEmpty, 3)}}},
	want: "mcpgen.yaml:3:3: optional: Tool.annotations is a struct, which omitempty never leaves out: remove the entry to keep it a pointer, or make it a value always encoded (value)",
}, {
	name: "embedded base substituted by another package's type",
	cfg: Config{Embed: []Entry{entry("Result", 2)},
		Substitutes: map[string]Substitute{"Result": {Path: "example.com/x", Name: "Result", Pos: cfgAt(3)}}},
	want: "mcpgen.yaml:2:3: embed: the base Result is substituted by Result (mcpgen.yaml:3:3), which is not a type of the package's own that another output declares, to embed",
}, {
	name: "defined of an interface",
	cfg:  Config{Defined: []Entry{entry("Tool", 2)}},
	want: "mcpgen.yaml:2:3: defined: Tool is not an alias of a declared interface or of string (type EmptyResult = Result), which a defined type is made of",
}, {
	name: "defined of a union",
	cfg:  Config{Defined: []Entry{entry("ProgressToken", 2)}},
	want: "mcpgen.yaml:2:3: defined: ProgressToken is not an alias of a declared interface or of string (type EmptyResult = Result), which a defined type is made of",
}, {
	name: "defined not generated",
	cfg:  Config{Types: []Entry{entry("Tool", 1)}, Defined: []Entry{entry("EmptyResult", 2)}},
	want: "mcpgen.yaml:2:3: defined: EmptyResult is not generated: it is neither in types nor referenced by a type there",
}, {
	name: "omit of a member not generated",
	cfg:  Config{Types: []Entry{entry("Tool", 1)}, Omit: []Entry{entry("Unrelated.tool", 2)}},
	want: "mcpgen.yaml:2:3: omit: Unrelated.tool is not a member of a generated struct",
}, {
	name: "omit of a declaration",
	cfg:  Config{Omit: []Entry{entry("Tool", 2)}},
	want: `mcpgen.yaml:2:3: omit: "Tool" names no member: write Declaration.member`,
}, {
	name: "omit of a member named by fields",
	cfg:  Config{Omit: []Entry{entry("Tool.name", 2)}, Fields: map[string]Entry{"Tool.name": entry("N", 3)}},
	want: "mcpgen.yaml:2:3: omit: Tool.name is named by fields too (mcpgen.yaml:3:3): a member left out has no field: remove one of the entries",
}, {
	name: "embed of a type without a name",
	cfg:  Config{Embed: []Entry{entry("Tool.mimeType", 2)}},
	want: "mcpgen.yaml:2:3: embed: Tool.mimeType: the member's type *string is not a named type, which an embedded field needs: remove the entry",
}, {
	name: "embed named by fields too",
	cfg:  Config{Embed: []Entry{entry("Tool.annotations", 2)}, Fields: map[string]Entry{"Tool.annotations": entry("A", 3)}},
	want: "mcpgen.yaml:2:3: embed: Tool.annotations is named by fields too (mcpgen.yaml:3:3): an embedded field is named by its type: remove one of the entries",
}, {
	name: "shape of a member without that choice",
	cfg:  Config{Objects: Shape{Members: map[string]Entry{"Tool.name": entry(Pointer, 4)}}},
	want: "mcpgen.yaml:4:3: objects: Tool.name is not a member of a generated struct, or its type has no such choice: remove the objects entry",
}, {
	name: "shape value",
	cfg:  Config{Elements: Shape{Default: entry("pointers", 1)}},
	want: `mcpgen.yaml:1:3: elements: "pointers" is not one of value, pointer`,
}, {
	name: "path through a declared type",
	cfg:  Config{Names: map[string]Entry{"Tool.annotations.title": entry("T", 5)}},
	want: `mcpgen.yaml:5:3: rename: the type of Tool.annotations is not an inline object, it has no member "title" (name a declared type's members by its declaration)`,
}, {
	name: "path to an unknown member",
	cfg:  Config{Fields: map[string]Entry{"Tool.inputSchema.tpye": entry("T", 5)}},
	want: `mcpgen.yaml:5:3: fields: Tool.inputSchema has no member "tpye" (did you mean type?)`,
}, {
	name: "root below the first level",
	cfg:  Config{Types: []Entry{entry("Tool.inputSchema.type", 1)}},
	want: "mcpgen.yaml:1:3: types: Tool.inputSchema.type is a member of an inline object: a root is a declaration or one of its members",
}, {
	name: "unknown declaration",
	cfg:  Config{Types: []Entry{entry("Toll", 2)}},
	want: "mcpgen.yaml:2:3: types: the schema declares no Toll (did you mean Tool?)",
}, {
	name: "unknown member",
	cfg:  Config{Types: []Entry{entry("Tool.nmae", 2)}},
	want: `mcpgen.yaml:2:3: types: Tool has no member "nmae" (did you mean name?)`,
}, {
	name: "member of a union",
	cfg:  Config{Fields: map[string]Entry{"ContentBlock.type": entry("Kind", 4)}},
	want: `mcpgen.yaml:4:3: fields: ContentBlock is not an object, it has no member "type"`,
}, {
	name: "member of an alias",
	cfg:  Config{Fields: map[string]Entry{"EmptyResult._meta": entry("Metadata", 4)}},
	want: "mcpgen.yaml:4:3: fields: EmptyResult is an alias of Result: name the member as Result._meta",
}, {
	name: "rename of an unknown declaration",
	cfg:  Config{Names: map[string]Entry{"Tools": entry("T", 3)}},
	want: "mcpgen.yaml:3:3: rename: the schema declares no Tools (did you mean Tool?)",
}, {
	name: "renames that collide",
	cfg:  Config{Names: map[string]Entry{"Tool": entry("Result", 5)}},
	want: "mcpgen.yaml:5:3: declaration Tool: Go name Result is already used by declaration Result (shaped.ts:17:18): choose another under rename",
}, {
	name: "rename of a member's type onto a declaration",
	cfg:  Config{Names: map[string]Entry{"Tool.inputSchema": entry("Result", 6)}},
	want: "mcpgen.yaml:6:3: inline type of Tool.inputSchema: Go name Result is already used by declaration Result (shaped.ts:17:18): choose another under rename",
}, {
	name: "rename of a declaration that is not generated",
	cfg:  Config{Types: []Entry{entry("Tool", 1)}, Names: map[string]Entry{"Unrelated": entry("U", 3)}},
	want: "mcpgen.yaml:3:3: rename: Unrelated is not generated: it is neither in types nor referenced by a type there",
}, {
	name: "rename of a member of a declaration that is not generated",
	cfg:  Config{Types: []Entry{entry("CallToolResult", 1)}, Names: map[string]Entry{"Tool.inputSchema": entry("Schema", 3)}},
	want: "mcpgen.yaml:3:3: rename: Tool is not generated: neither it nor Tool.inputSchema is in types, nor referenced by a type there",
}, {
	name: "rename of a member without a type of its own",
	cfg:  Config{Names: map[string]Entry{"Tool.annotations": entry("Hints", 3)}},
	want: "mcpgen.yaml:3:3: rename: Tool.annotations has no type of its own to name here (a declared type is renamed by its declaration; an inherited member's type, by the declaration that declares it; a scalar has no name)",
}, {
	name: "rename of an inherited member's type",
	cfg:  Config{Names: map[string]Entry{"CallToolResult._meta": entry("CallMeta", 3)}},
	want: "mcpgen.yaml:3:3: rename: CallToolResult._meta has no type of its own to name here (a declared type is renamed by its declaration; an inherited member's type, by the declaration that declares it; a scalar has no name)",
}, {
	name: "rename of a substitute",
	cfg: Config{Names: map[string]Entry{"ToolAnnotations": entry("Hints", 3)},
		Substitutes: map[string]Substitute{"ToolAnnotations": {Name: "Hints", Pos: cfgAt(5)}}},
	want: "mcpgen.yaml:3:3: rename: ToolAnnotations is substituted (mcpgen.yaml:5:3), it has no Go declaration to name",
}, {
	name: "field renames that collide",
	cfg:  Config{Fields: map[string]Entry{"Tool.mode": entry("Name", 7)}},
	want: `mcpgen.yaml:7:3: fields: Tool.mode: Go field name Name is already used by Tool.name: name one of them under fields`,
}, {
	name: "field rename onto Extra",
	cfg:  Config{Fields: map[string]Entry{"Tool.mode": entry("Extra", 7)}},
	want: `mcpgen.yaml:7:3: fields: Tool.mode: Go field name Extra is already used by the unknown members (Extra): name one of them under fields`,
}, {
	name: "field rename of a struct that is not generated",
	cfg:  Config{Types: []Entry{entry("CallToolResult", 1)}, Fields: map[string]Entry{"Tool.mode": entry("Speed", 7)}},
	want: "mcpgen.yaml:7:3: fields: Tool.mode is not a field of a generated struct",
}, {
	name: "substitute of a union variant",
	cfg:  Config{Substitutes: map[string]Substitute{"TextContent": {Path: "example.com/x", Name: "Text", Pos: cfgAt(9)}}},
	want: "mcpgen.yaml:9:3: substitute: TextContent is a variant of the union ContentBlock, which only a generated type can be",
}, {
	name: "substitute of an unknown member",
	cfg:  Config{Substitutes: map[string]Substitute{"Tool.schema": {Name: "any", Pos: cfgAt(9)}}},
	want: `mcpgen.yaml:9:3: substitute: Tool has no member "schema"`,
}, {
	name: "substitute of a selected type",
	cfg: Config{Types: []Entry{entry("ToolAnnotations", 2)},
		Substitutes: map[string]Substitute{"ToolAnnotations": {Name: "any", Pos: cfgAt(9)}}},
	want: "mcpgen.yaml:2:3: types: ToolAnnotations is substituted (mcpgen.yaml:9:3), it cannot be generated too: remove it from types or from substitute",
}, {
	name: "substitute nothing refers to",
	cfg: Config{Types: []Entry{entry("CallToolResult", 2)},
		Substitutes: map[string]Substitute{"ToolAnnotations": {Name: "any", Pos: cfgAt(9)}}},
	want: "mcpgen.yaml:9:3: substitute: no generated type refers to ToolAnnotations",
}, {
	name: "substitute of a member of a struct that is not generated",
	cfg: Config{Types: []Entry{entry("CallToolResult", 2)},
		Substitutes: map[string]Substitute{"Tool.inputSchema": {Name: "any", Pos: cfgAt(9)}}},
	want: "mcpgen.yaml:9:3: substitute: Tool.inputSchema is not a member of a generated struct",
}, {
	name: "initialism of two words",
	cfg:  Config{Initialisms: []Entry{entry("ToolUse", 11)}},
	want: `mcpgen.yaml:11:3: initialisms: "ToolUse" is not one word of letters and digits as Go names are split (ID, MIME)`,
}, {
	name: "SchemaVersion renamed onto a declaration",
	cfg:  Config{Names: map[string]Entry{"SchemaVersion": entry("Tool", 12)}},
	want: "mcpgen.yaml:12:3: the generated constant: Go name Tool is already used by declaration Tool (shaped.ts:4:18): choose another under rename",
}, {
	name: "constant renamed onto a declaration",
	cfg:  Config{Names: map[string]Entry{"LATEST_PROTOCOL_VERSION": entry("Tool", 12)}},
	want: "mcpgen.yaml:12:3: constant LATEST_PROTOCOL_VERSION: Go name Tool is already used by declaration Tool (shaped.ts:4:18): choose another under rename",
}, {
	name: "union made unexported",
	cfg:  Config{Names: map[string]Entry{"ContentBlock": entry("contentBlock", 14)}},
	want: "mcpgen.yaml:14:3: rename: the union contentBlock would be unexported, and the functions and types named after it (UnmarshalcontentBlock) exported; rename it, or what it is named after, with a capital",
}, {
	name: "rename onto the validate function of a union",
	cfg:  Config{Names: map[string]Entry{"Tool": entry("validateContentBlock", 15)}},
	want: "mcpgen.yaml:15:3: declaration Tool: Go name validateContentBlock is the name of the function of union ContentBlock (shaped.ts:27:13), which the output derives: choose another",
}, {
	name: "rename onto the Unmarshal function of a union",
	cfg:  Config{Names: map[string]Entry{"Tool": entry("UnmarshalProgressToken", 16)}},
	want: "mcpgen.yaml:16:3: declaration Tool: Go name UnmarshalProgressToken is the name of the function of union ProgressToken (shaped.ts:39:13), which the output derives: choose another",
}, {
	name:  "field renamed under a part",
	cfg:   Config{Fields: map[string]Entry{"Tool.name": entry("Title", 13)}},
	parts: map[string]string{"tools.go": "//go:build ignore\n\n//mcpgen:requires Tool\n\npackage parts\n\nfunc toolName(t *Tool) string { return t.Name }\n"},
	want:  "mcpgen.yaml:13:3: the configuration renames the field Name (Tool.name), which the hand-written part tools.go uses; keep its name",
}}

// TestConfigErrors checks that every configuration entry the schema contradicts, or that would
// change nothing, is an error naming the entry's line.
func TestConfigErrors(t *testing.T) {
	for _, tt := range configErrorCases {
		t.Run(tt.name, func(t *testing.T) {
			_, err := generateShaped(t, tt.cfg, tt.parts)
			require.Error(t, err)
			assert.Equal(t, tt.want, err.Error())
		})
	}
}

// typeNames lists the types, functions and constants the Go files declare, sorted.
func typeNames(t *testing.T, files map[string][]byte) []string {
	t.Helper()
	var names []string
	for name, src := range files {
		if strings.HasPrefix(name, "wire") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, src, 0)
		require.NoError(t, err, name)
		for _, d := range f.Decls {
			names = append(names, declNames(d)...)
		}
	}
	slices.Sort(names)
	return names
}

// TestConfigSelect generates a type with what it references, and nothing else.
func TestConfigSelect(t *testing.T) {
	files, err := generateShaped(t, Config{Types: []Entry{entry("Tool", 1)}}, nil)
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"LatestProtocolVersion", "SchemaVersion", "Tool", "ToolAnnotations", "ToolInputSchema",
		"ToolMode", "ToolModeFast", "ToolModeSlow"}, typeNames(t, files))

	// A member's type without its declaration, under its own name.
	files, err = generateShaped(t, Config{Types: []Entry{entry("Tool.inputSchema", 1)},
		Names: map[string]Entry{"Tool.inputSchema": entry("InputSchema", 2)}}, nil)
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"LatestProtocolVersion", "SchemaVersion", "InputSchema"}, typeNames(t, files))
	assert.Contains(t, string(files["types.go"]), `// InputSchema is the type of the member "inputSchema" of Tool in the schema.`)

	// A union with its variants, their Unknown, the result's _meta.
	files, err = generateShaped(t, Config{Types: []Entry{entry("CallToolResult", 1)}}, nil)
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"LatestProtocolVersion", "SchemaVersion", "CallToolResult", "ContentBlock", "UnmarshalContentBlock",
		"decodeContentBlock", "encodeContentBlock", "validateContentBlock", "UnknownContentBlock", "TextContent", "ImageContent",
		"MetaObject", "ProgressToken", "ProgressTokenString", "ProgressTokenNumber", "UnmarshalProgressToken",
		"decodeProgressToken", "encodeProgressToken"}, typeNames(t, files))
}

// TestConfigNames renames a declaration, a member's type, a field, a constant and SchemaVersion,
// with an initialism: the names derived from them follow, and a part written with the default
// names is renamed to match.
func TestConfigNames(t *testing.T) {
	part := "//go:build ignore\n\n//mcpgen:requires Tool\n\npackage parts\n\n" +
		"// fast reports whether the tool is fast.\nfunc fast(t *Tool) bool { return t.Mode != nil && *t.Mode == ToolModeFast }\n\n" +
		"func newTool(name string) *Tool { return &Tool{Name: name, InputSchema: ToolInputSchema{}} }\n"
	files, err := generateShaped(t, Config{
		Names: map[string]Entry{"Tool": entry("MCPTool", 1), "Tool.inputSchema": entry("Schema", 2),
			"LATEST_PROTOCOL_VERSION": entry("Latest", 3), "SchemaVersion": entry("Version", 4)},
		Fields:      map[string]Entry{"Tool.annotations": entry("Hints", 5)},
		Initialisms: []Entry{entry("MIME", 6)},
	}, map[string]string{"tools.go": part})
	require.NoError(t, err)
	names := typeNames(t, files)
	for _, want := range []string{"MCPTool", "MCPToolMode", "MCPToolModeFast", "Schema", "Latest", "Version"} {
		assert.Contains(t, names, want)
	}
	for _, gone := range []string{"Tool", "ToolMode", "ToolInputSchema", "LatestProtocolVersion", "SchemaVersion"} {
		assert.NotContains(t, names, gone)
	}
	types := squeeze(string(files["types.go"]))
	assert.Contains(t, types, "\tHints *ToolAnnotations `json:\"annotations,omitzero\"`")
	assert.Contains(t, types, "\tMIMEType *string `json:\"mimeType,omitzero\"`")
	assert.Contains(t, types, "// MCPTool is a tool the model may call.")
	assert.Contains(t, string(files["consts.go"]), "const Version = \"test\"")
	assert.Contains(t, string(files["tools.go"]),
		"func fast(t *MCPTool) bool { return t.Mode != nil && *t.Mode == MCPToolModeFast }",
		"the part's types and constants follow the renames; the field it uses is not renamed")
	assert.Contains(t, string(files["tools.go"]), "return &MCPTool{Name: name, InputSchema: Schema{}}")
	assert.Contains(t, string(files["tools.go"]), "// fast reports whether the tool is fast.")
}

// TestConfigRenameOntoDerivedName renames a declaration to the name an inline type derives
// (ToolAnnotations to ToolMode, the name of Tool.mode's enum): the declaration keeps the name
// given, the inline type takes the next free one, and a part follows both.
func TestConfigRenameOntoDerivedName(t *testing.T) {
	part := "//go:build ignore\n\n//mcpgen:requires Tool ToolAnnotations\n\npackage parts\n\n" +
		"func fast(t *Tool, _ *ToolAnnotations) bool { return t.Mode != nil && *t.Mode == ToolModeFast }\n"
	files, err := generateShaped(t, Config{Names: map[string]Entry{"ToolAnnotations": entry("ToolMode", 5)}}, map[string]string{"tools.go": part})
	require.NoError(t, err)
	names := typeNames(t, files)
	assert.Contains(t, names, "ToolMode")
	assert.Contains(t, names, "ToolMode2")
	assert.NotContains(t, names, "ToolAnnotations")
	types := squeeze(string(files["types.go"]))
	assert.Contains(t, types, "\tMode *ToolMode2 `json:\"mode,omitzero\"`")
	assert.Contains(t, types, "\tAnnotations *ToolMode `json:\"annotations,omitzero\"`")
	assert.Contains(t, string(files["tools.go"]), "func fast(t *Tool, _ *ToolMode) bool { return t.Mode != nil && *t.Mode == ToolMode2Fast }")
}

// TestConfigNamesReordered: a part follows the renames of a struct whose fields are reordered
// (Config.Order); the fields it uses keep their names.
func TestConfigNamesReordered(t *testing.T) {
	part := "//go:build ignore\n\n//mcpgen:requires Tool\n\npackage parts\n\nfunc toolName(t *Tool) string { return t.Name }\n"
	files, err := generateShaped(t, Config{
		Names: map[string]Entry{"Tool": entry("MCPTool", 1)},
		Order: map[string][]Entry{"Tool": {entry("mode", 2), entry("name", 3)}},
	}, map[string]string{"tools.go": part})
	require.NoError(t, err)
	assert.Contains(t, string(files["tools.go"]), "func toolName(t *MCPTool) string { return t.Name }")
}

// TestConfigNamesBreakPart: the part of the test above uses the field Mode, so renaming it fails.
func TestConfigNamesBreakPart(t *testing.T) {
	part := "//go:build ignore\n\n//mcpgen:requires Tool\n\npackage parts\n\nfunc fast(t *Tool) bool { return t.Mode != nil }\n"
	_, err := generateShaped(t, Config{Fields: map[string]Entry{"Tool.mode": entry("Speed", 5)}}, map[string]string{"tools.go": part})
	require.Error(t, err)
	assert.Equal(t, "mcpgen.yaml:5:3: the configuration renames the field Mode (Tool.mode), which the hand-written part tools.go uses; keep its name", err.Error())
}

// TestConfigSubstitutes replaces a declaration and a member's type: nothing is generated for them,
// and the code calls the helpers of substituted types.
func TestConfigSubstitutes(t *testing.T) {
	files, err := generateShaped(t, Config{Substitutes: map[string]Substitute{
		"ToolAnnotations":  {Path: "example.com/hints", Name: "Hints", Pointer: true, Pos: cfgAt(1)},
		"Tool.inputSchema": {Path: "github.com/google/jsonschema-go/jsonschema", Name: "Schema", Pointer: true, Pos: cfgAt(2)},
		"ProgressToken":    {Name: "any", Pos: cfgAt(3)},
	}}, nil)
	require.NoError(t, err)
	names := typeNames(t, files)
	for _, gone := range []string{"ToolAnnotations", "ToolInputSchema", "ProgressToken", "ProgressTokenString"} {
		assert.NotContains(t, names, gone)
	}
	types := squeeze(string(files["types.go"]))
	assert.Contains(t, types, "\tInputSchema *jsonschema.Schema `json:\"inputSchema\"`")
	assert.Contains(t, types, "\tAnnotations *hints.Hints `json:\"annotations,omitzero\"`")
	assert.Contains(t, types, "\tProgressToken any `json:\"progressToken,omitzero\"`")
	assert.Contains(t, string(files["json.go"]), "err = decodeExternal(d, &v.InputSchema)")
	assert.Contains(t, string(files["validate.go"]), "c.report(\"required member is nil\")")
	assert.Contains(t, string(files["validate.go"]), "validateExternal(c, v.InputSchema)")
	assert.Contains(t, string(files["json.go"]), "encodeExternal(e, v.InputSchema)")
}

// TestConfigWithoutValidators leaves out validate.go, the interfaces' Validate, and the runtime's
// functions that need it; TestConfigWithoutRuntime leaves out the runtime and prefixes the files.
func TestConfigWithoutValidators(t *testing.T) {
	files, err := generateShaped(t, Config{NoValidate: true}, nil)
	require.NoError(t, err)
	assert.NotContains(t, slices.Collect(maps.Keys(files)), "validate.go")
	assert.NotContains(t, typeNames(t, files), "Unmarshal")
	wire := string(files["wire_validate.go"])
	assert.NotContains(t, wire, "func Unmarshal(")
	assert.NotContains(t, wire, "func Marshal(")
	assert.NotContains(t, wire, "\"encoding/json\"", "the import only they used")
	assert.Contains(t, wire, "func decodedConstant[", "what the codecs need stays")
	external := string(files["wire_external.go"])
	assert.NotContains(t, external, "validateExternal")
	assert.NotContains(t, external, "\"errors\"")
	assert.Contains(t, external, "func decodeExternal(")
	for name, src := range files {
		if !strings.HasPrefix(name, "wire") {
			assert.NotContains(t, string(src), "Validate()", name)
		}
	}
}

func TestConfigWithoutRuntime(t *testing.T) {
	files, err := generateShaped(t, Config{NoRuntime: true, FilePrefix: "ext_"}, nil)
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"ext_doc.go", "ext_types.go", "ext_json.go", "ext_unions.go", "ext_consts.go", "ext_validate.go"},
		slices.Collect(maps.Keys(files)))
	assert.Contains(t, string(files["ext_doc.go"]), "\n// "+FilesLine("ext_")+"\n")
	// The runtime's names stay reserved: the package has them.
	_, err = Generate(loadShaped(t), Options{Package: "mcp", Runtime: templates.Runtime(),
		Config: Config{NoRuntime: true, FilePrefix: "ext_", Names: map[string]Entry{"Tool": entry("decoder", 4)}}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "mcpgen.yaml:4:3: declaration Tool: Go name decoder is already used by runtime identifier")
	// The output that has the runtime keeps the emptiness helpers when it shares its package (a
	// prefix): an output without the runtime may need them, unused here.
	files, err = generateShaped(t, Config{FilePrefix: "first_"}, nil)
	require.NoError(t, err)
	runtime := string(slices.Concat(slices.Collect(maps.Values(files))...))
	assert.Contains(t, runtime, "func emptyExternal(")
	assert.Contains(t, runtime, "func zeroExternal(")
	files, err = generateShaped(t, Config{}, nil)
	require.NoError(t, err)
	assert.NotContains(t, string(slices.Concat(slices.Collect(maps.Values(files))...)), "func zeroExternal(")
}

// TestRenameOntoProtocol checks that a rename onto a name of the protocol layer is refused at
// its entry, as every name the output derives is: the decoders of messages and their NoCopy
// forms, which rendering writes after planning.
func TestRenameOntoProtocol(t *testing.T) {
	s := load(t, "../schema/draft/schema.ts", "draft")
	for _, name := range []string{"DecodeClientMessageNoCopy", "DecodeServerMessageNoCopy", "decodeClientMessage", "Methods",
		"Message", "NewErrorResponse"} {
		_, err := Generate(s, Options{Package: "mcp", Version: "draft", Runtime: templates.Runtime(), Parts: templates.Parts(),
			Config: Config{Names: map[string]Entry{"Tool": entry(name, 2)}}})
		require.Error(t, err, name)
		assert.Equal(t, "mcpgen.yaml:2:3: declaration Tool: Go name "+name+" is the name of the protocol layer, which the output derives: choose another", err.Error())
	}
}

// TestConfigRenamesProtocol renames what the protocol layer's error response is written with,
// the declarations (the request id, the error response, its error object) and their fields, and
// checks that the output compiles and passes go vet, the layer following the names.
func TestConfigRenamesProtocol(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	s := load(t, "../schema/draft/schema.ts", "draft")
	files, err := Generate(s, Options{Package: "mcp", Version: "draft", Runtime: templates.Runtime(), Parts: templates.Parts(),
		Config: Config{
			Names: map[string]Entry{"RequestId": entry("MessageID", 1), "JSONRPCErrorResponse": entry("ErrorReply", 2),
				"Error": entry("Failure", 3)},
			Fields: map[string]Entry{"JSONRPCErrorResponse.id": entry("Answers", 4), "JSONRPCErrorResponse.error": entry("Failure", 5),
				"Error.data": entry("Details", 6)},
		}})
	require.NoError(t, err)
	protocol := strings.Join(strings.Fields(string(files["protocol.go"])), " ")
	for _, want := range []string{"func NewErrorResponse(id MessageID, err error) *ErrorReply {",
		"return &ErrorReply{ Answers: id, Failure: errorObject(err), }", "Code: code, Details: data, Message: message,",
		"return Failure{ Code: -32603, Message: err.Error(), }"} {
		assert.True(t, strings.Contains(protocol, want), "protocol.go has %s", want)
	}
	goTool(t, writeModule(t, "mcp", files), "vet", "./...")
}

// TestRenameOntoLaterNames checks that a rename onto a name declared after the declarations
// are named (a part's, a schema constant's) is refused at its entry too, not at the other name.
func TestRenameOntoLaterNames(t *testing.T) {
	s := load(t, "../schema/draft/schema.ts", "draft")
	for name, what := range map[string]string{
		"MethodInfo":     "runtime identifier (runtime protocol_helpers.go:",
		"convertError":   "runtime identifier (runtime protocol_helpers.go:",
		"CodeParseError": "constant PARSE_ERROR (schema.ts:",
	} {
		_, err := Generate(s, Options{Package: "mcp", Version: "draft", Runtime: templates.Runtime(), Parts: templates.Parts(),
			Config: Config{Names: map[string]Entry{"Tool": entry(name, 2)}}})
		require.Error(t, err, name)
		assert.True(t, strings.HasPrefix(err.Error(), "mcpgen.yaml:2:3: declaration Tool: Go name "+name+" is the name of the "+what), err.Error())
	}
}

// squeeze replaces the runs of spaces that gofmt aligns fields with by one space.
func squeeze(src string) string {
	return regexp.MustCompile(` +`).ReplaceAllString(src, " ")
}

// TestConfigShapesBreakPart: a part uses a field as generated by default; a configuration that
// changes its type (a substitute) or its presence (a shape) is refused at its entry, rather than
// writing a part that does not compile.
func TestConfigShapesBreakPart(t *testing.T) {
	part := "//go:build ignore\n\n//mcpgen:requires Tool\n\npackage parts\n\nfunc fast(t *Tool) bool { return t.Mode != nil && *t.Mode == ToolModeFast }\n"
	for _, c := range []Config{
		{Substitutes: map[string]Substitute{"Tool.mode": {Name: "string", Pos: cfgAt(5)}}},
		{Optional: Shape{Members: map[string]Entry{"Tool.mode": entry(OmitEmpty, 5)}}},
		{Optional: Shape{Default: entry(OmitEmpty, 5)}},
		{Omit: []Entry{entry("Tool.mode", 5)}},
	} {
		_, err := generateShaped(t, c, map[string]string{"tools.go": part})
		require.Error(t, err)
		assert.Equal(t, "mcpgen.yaml:5:3: the configuration changes the type or presence of Tool.mode (the field Tool.Mode), which the hand-written part tools.go uses "+
			"as generated by default; remove this entry to keep the member's default shape, or leave the part out (it is copied only when every declaration it requires is generated)", err.Error())
	}
	// A shape the part does not see is fine.
	_, err := generateShaped(t, Config{Optional: Shape{Members: map[string]Entry{"Tool.mimeType": entry(OmitEmpty, 5)}}}, map[string]string{"tools.go": part})
	require.NoError(t, err)
}

// TestConfigNoConstants: constants: false leaves out the schema's constants (a second output in
// the package of the first would declare them again), keeping SchemaVersion.
func TestConfigNoConstants(t *testing.T) {
	files, err := generateShaped(t, Config{}, nil)
	require.NoError(t, err)
	assert.Contains(t, string(files["consts.go"]), "LatestProtocolVersion")
	files, err = generateShaped(t, Config{NoConstants: true}, nil)
	require.NoError(t, err)
	assert.NotContains(t, string(files["consts.go"]), "LatestProtocolVersion")
	assert.Contains(t, string(files["consts.go"]), "SchemaVersion")
	_, err = generateShaped(t, Config{NoConstants: true, Names: map[string]Entry{"LATEST_PROTOCOL_VERSION": entry("Latest", 4)}}, nil)
	assert.EqualError(t, err, "mcpgen.yaml:4:3: rename: LATEST_PROTOCOL_VERSION is a constant, and constants: false leaves the constants out")
}

// TestConfigEmbedOverridden: a fields entry on a declaration that inherits an embedded member
// names a field of its own there; the other inheriting declarations embed it.
func TestConfigEmbedOverridden(t *testing.T) {
	files, err := generateShaped(t, Config{Embed: []Entry{entry("Result._meta", 2)}, Fields: map[string]Entry{"CallToolResult._meta": entry("Meta", 3)}}, nil)
	require.NoError(t, err)
	types := string(files["types.go"])
	assert.Regexp(t, `(?m)^type Result struct \{\n(\t//.*\n)*\t\*MetaObject `, types)
	assert.Regexp(t, `(?m)^type CallToolResult struct \{\n(\t//.*\n)*\tMeta +\*MetaObject `, types)
}

// TestConfigSubstituteKinds: a named substitute whose kind has nil (a map, as SubstituteKinds
// finds it) gains no pointer when optional, and is absent when nil; with omitempty, a map is
// encoded when not empty.
func TestConfigSubstituteKinds(t *testing.T) {
	sub := map[string]Substitute{"Result._meta": {Name: "Meta", Kind: "map", Pos: cfgAt(2)}}
	files, err := generateShaped(t, Config{Substitutes: sub}, nil)
	require.NoError(t, err)
	assert.Regexp(t, `\tMeta Meta `+"`"+`json:"_meta,omitzero"`, string(files["types.go"]))
	assert.Contains(t, string(files["json.go"]), "if v.Meta != nil {")
	files, err = generateShaped(t, Config{Substitutes: sub, Optional: Shape{Default: entry(OmitEmpty, 1)}}, nil)
	require.NoError(t, err)
	assert.Contains(t, string(files["json.go"]), "if len(v.Meta) > 0 {")
	// A type defined by a predeclared one is tested as that one, not at run time.
	sub["Tool.mimeType"] = Substitute{Name: "Label", Kind: "string", Pos: cfgAt(3)}
	files, err = generateShaped(t, Config{Substitutes: sub, Optional: Shape{Default: entry(OmitEmpty, 1)}}, nil)
	require.NoError(t, err)
	assert.Contains(t, string(files["json.go"]), `if v.MimeType != "" {`)
	assert.NotContains(t, string(files["json.go"]), "emptyExternal(")
}

// TestConfigUnexportedField: a field renamed to an unexported name has no json tag, which
// encoding/json would ignore and go vet reports.
func TestConfigUnexportedField(t *testing.T) {
	files, err := generateShaped(t, Config{Fields: map[string]Entry{"Tool.mimeType": entry("mimeType", 2)}}, nil)
	require.NoError(t, err)
	assert.Regexp(t, `\n\tmimeType +\*string\n`, string(files["types.go"]))
}

// TestConfigErrorsTogether: independent mistakes of a configuration are reported in one error,
// one a line, sorted by the entries' positions: names the schema lacks, collisions, shapes,
// embeds and substitutes; and the names the output derives, taken by two renames, both.
func TestConfigErrorsTogether(t *testing.T) {
	_, err := generateShaped(t, Config{
		Names:       map[string]Entry{"Tool": entry("Result", 2), "Toll": entry("X", 3)},
		Fields:      map[string]Entry{"CallToolResult.isError": entry("Content", 4)},
		Optional:    Shape{Members: map[string]Entry{"Tool.annotations": entry(OmitEmpty, 5), "Tool.nope": entry(Value, 6)}},
		Embed:       []Entry{entry("Tool.mimeType", 7)},
		Substitutes: map[string]Substitute{"Tool.inputSchemas": {Name: "any", Pos: cfgAt(8)}},
	}, nil)
	require.Error(t, err)
	var list model.ErrorList
	require.ErrorAs(t, err, &list)
	assert.Equal(t, `mcpgen.yaml:2:3: declaration Tool: Go name Result is already used by declaration Result (shaped.ts:17:18): choose another under rename
mcpgen.yaml:3:3: rename: the schema declares no Toll (did you mean Tool?)
mcpgen.yaml:4:3: fields: CallToolResult.isError: Go field name Content is already used by CallToolResult.content: name one of them under fields
mcpgen.yaml:5:3: optional: Tool.annotations is a struct, which omitempty never leaves out: remove the entry to keep it a pointer, or make it a value always encoded (value)
mcpgen.yaml:6:3: optional: Tool has no member "nope"
mcpgen.yaml:7:3: embed: Tool.mimeType: the member's type *string is not a named type, which an embedded field needs: remove the entry
mcpgen.yaml:8:3: substitute: Tool has no member "inputSchemas" (did you mean inputSchema?)`, err.Error())

	_, err = generateShaped(t, Config{Names: map[string]Entry{
		"Tool":        entry("UnmarshalProgressToken", 2),
		"TextContent": entry("validateContentBlock", 3),
	}}, nil)
	require.Error(t, err)
	assert.Equal(t, `mcpgen.yaml:2:3: declaration Tool: Go name UnmarshalProgressToken is the name of the function of union ProgressToken (shaped.ts:39:13), which the output derives: choose another
mcpgen.yaml:3:3: declaration TextContent: Go name validateContentBlock is the name of the function of union ContentBlock (shaped.ts:27:13), which the output derives: choose another`, err.Error())
}
