package emit

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/emit/internal/render"
	"github.com/mcpgen/mcpgen/model"
	tsparser "github.com/mcpgen/mcpgen/parser"
	"github.com/mcpgen/mcpgen/schema"
)

const docsSchema = `
export interface ClientCapabilities {
  sampling?: { context?: object };
}
export interface ProgressNotification { method: "notifications/progress"; }
`

// planned returns a generator that has planned the schema src.
func planned(t *testing.T, src string) *generator {
	t.Helper()
	s, err := tsparser.Load("docs.ts", []byte(src))
	require.NoError(t, err)
	require.NoError(t, model.Classify(s))
	g := newGenerator(s, Options{Package: "p"})
	require.NoError(t, g.planDecls())
	return g
}

func TestDocText(t *testing.T) {
	p := &docsPass{plan: planned(t, docsSchema).plan}
	tests := []struct {
		name string
		doc  model.Doc
		want string
	}{
		{"link", model.Doc{Text: "See {@link ClientCapabilities}."}, "See [ClientCapabilities]."},
		{"member link", model.Doc{Text: "If {@link ClientCapabilities.sampling.context} is set."},
			"If [ClientCapabilitiesSampling.Context] is set."},
		{"labelled link", model.Doc{Text: "Sends {@link ProgressNotification | notifications/progress}."},
			"Sends notifications/progress ([ProgressNotification])."},
		{"label without space", model.Doc{Text: "{@link ProgressNotification| progress}"}, "progress ([ProgressNotification])"},
		{"web link", model.Doc{Text: "{@link https://www.jsonrpc.org/specification | JSON-RPC}"}, "JSON-RPC (https://www.jsonrpc.org/specification)"},
		{"unknown link", model.Doc{Text: "{@link Nowhere} and {@link Nowhere | there}"}, "Nowhere and there"},
		{"markdown link", model.Doc{Text: "[General fields](/specification/draft/basic/index#meta)"},
			"General fields (https://modelcontextprotocol.io/specification/draft/basic/index#meta)"},
		{"list", model.Doc{Text: "Values:\n- `\"a\"`: first\n- `\"b\"`: second"}, "Values:\n  - `\"a\"`: first\n  - `\"b\"`: second"},
		{"deprecated", model.Doc{Text: "Old.", Deprecated: true, DeprecatedText: "Deprecated as of 2026-07-28.\nSee the registry."},
			"Old.\n\nDeprecated: as of 2026-07-28.\nSee the registry."},
		{"deprecated without text", model.Doc{Deprecated: true}, "Deprecated: see the schema."},
		{"internal and see", model.Doc{Text: "Base.", Internal: true, See: []string{"{@link ClientCapabilities} for more."}},
			"Base.\n\nSee also: [ClientCapabilities] for more.\n\nThis type is internal to the protocol specification."},
		{"dropped tags", model.Doc{Text: "Text.", Category: "Tools", Examples: []model.Example{{Title: "x", File: "x.json"}}}, "Text."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, p.docText(tt.doc, "type"))
		})
	}
}

func TestSubjectFirst(t *testing.T) {
	p := &docsPass{plan: planned(t, docsSchema).plan}
	tests := []struct{ name, text, want string }{
		{"X", "X is already first.", "X is already first."},
		{"X", "An X is already first.", "An X is already first."},
		{"Resource", "A known resource that the server is capable of reading.", "Resource is a known resource that the server is capable of reading."},
		{"R", "The result returned by the server.", "R is the result returned by the server."},
		{"Cancelled", "This notification can be sent by either side.", "Cancelled can be sent by either side."},
		{"List", "Sent from the client to request a list.", "List is sent from the client to request a list."},
		{"E", "Returned when the version is unknown.", "E is returned when the version is unknown."},
		{"Impl", "Describes the MCP implementation.", "Impl describes the MCP implementation."},
		{"Log", "ProgressNotification of a log message.", "Log is a ProgressNotification of a log message."},
		{"P", "Parameters for a `tools/call` request.", "P holds parameters for a `tools/call` request."},
		{"Caps", "Capabilities a client may support.", "Caps holds capabilities a client may support."},
		{"Def", "Restricted schema definitions that only allow primitive types", "Def holds restricted schema definitions that only allow primitive types"},
		{"TextContent", "Text provided to or from an LLM.", "TextContent is text provided to or from an LLM."},
		{"Tool", "Definition for a tool the client can call.", "Tool is a definition for a tool the client can call."},
		{"Code", "Error code returned when headers differ.", "Code is an error code returned when headers differ."},
		{"RPC", "JSON-RPC error codes.", "RPC holds JSON-RPC error codes."},
		{"Result", "After receiving a request, the server sends this.", ""},
		{"Legacy", "Use {@link Other} instead.", ""},
		{"Role", "Closed.", ""},
	}
	for _, tt := range tests {
		got, ok := p.subjectFirst(tt.name, tt.text)
		assert.Equal(t, tt.want != "", ok, tt.text)
		assert.Equal(t, tt.want, got, tt.text)
	}
}

// TestDocConventions checks the doc comments of every file that the emitter writes (not the
// runtime and the parts it copies) in every embedded version's package: every exported type,
// constant, function and method has a doc that starts with its name (but for the constants of a
// block that a doc leads), no comment line, in a function's body too, is longer than 100 columns
// (but for a single long word), and no line of a paragraph or list item ends early: the next
// line's first word would have fitted.
func TestDocConventions(t *testing.T) {
	for _, version := range schema.Versions {
		t.Run(version, func(t *testing.T) {
			files := generate(t, load(t, "../schema/"+version+"/schema.ts", version), "mcp")
			fset := token.NewFileSet()
			for _, name := range []string{"types.go", "json.go", "unions.go", "consts.go", "validate.go", "protocol.go"} {
				f, err := parser.ParseFile(fset, name, files[name], parser.ParseComments)
				require.NoError(t, err)
				for _, d := range f.Decls {
					if fd, ok := d.(*ast.FuncDecl); ok {
						if fd.Name.IsExported() && assert.NotNil(t, fd.Doc, "%s: func %s has no doc", name, fd.Name.Name) {
							assert.True(t, startsWithName(fd.Doc.Text(), fd.Name.Name), "%s: %q", fd.Name.Name, firstLine(fd.Doc.Text()))
						}
						continue
					}
					gd, ok := d.(*ast.GenDecl)
					if !ok || (gd.Tok != token.TYPE && gd.Tok != token.CONST) {
						continue
					}
					for _, spec := range gd.Specs {
						var ident *ast.Ident
						doc := gd.Doc
						switch s := spec.(type) {
						case *ast.TypeSpec:
							ident = s.Name
						case *ast.ValueSpec:
							ident = s.Names[0]
							if gd.Lparen.IsValid() {
								doc = s.Doc
							}
						}
						if gd.Tok == token.CONST && len(gd.Specs) > 1 && doc == nil {
							continue
						}
						if assert.NotNil(t, doc, "%s has no doc", ident.Name) {
							assert.True(t, startsWithName(doc.Text(), ident.Name), "%s: %q", ident.Name, firstLine(doc.Text()))
						}
					}
				}
				ast.Inspect(f, func(n ast.Node) bool {
					switch n := n.(type) {
					case *ast.FuncDecl:
						checkFilled(t, fset, n.Doc)
						return false // comments inside a body are not docs
					case *ast.GenDecl:
						if exported(n) {
							checkFilled(t, fset, n.Doc)
						}
					case *ast.TypeSpec:
						checkFilled(t, fset, n.Doc)
					case *ast.ValueSpec:
						if n.Names[0].IsExported() {
							checkFilled(t, fset, n.Doc)
						}
					case *ast.Field:
						checkFilled(t, fset, n.Doc)
					}
					return true
				})
				checkWidth(t, fset, f.Comments)
			}
		})
	}
}

// checkWidth fails for a comment line, docs and comments inside function bodies alike, longer
// than 100 columns where a tab of its indentation counts 4, that is not one word.
func checkWidth(t *testing.T, fset *token.FileSet, comments []*ast.CommentGroup) {
	t.Helper()
	for _, cg := range comments {
		for _, c := range cg.List {
			text := strings.TrimPrefix(strings.TrimPrefix(c.Text, "//"), " ")
			width := 4*(fset.Position(c.Pos()).Column-1) + 3 + len(text)
			if width > 100 && strings.Contains(strings.TrimSpace(text), " ") {
				t.Errorf("%s: line of %d columns: %s", fset.Position(c.Pos()), width, c.Text)
			}
		}
	}
}

// exported reports whether a declaration declares an exported name.
func exported(d *ast.GenDecl) bool {
	for _, spec := range d.Specs {
		switch s := spec.(type) {
		case *ast.TypeSpec:
			return s.Name.IsExported()
		case *ast.ValueSpec:
			return s.Names[0].IsExported()
		}
	}
	return false
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// checkFilled fails for a comment line longer than 100 columns (a tab counts 4) that is not one
// word, and for a line of text after which the next line's first word would have fitted within
// render.CommentWidth.
func checkFilled(t *testing.T, fset *token.FileSet, cg *ast.CommentGroup) {
	t.Helper()
	if cg == nil {
		return
	}
	for i, c := range cg.List {
		col := fset.Position(c.Pos()).Column
		indent := 0
		if col > 1 {
			indent = 4
		}
		text := strings.TrimPrefix(strings.TrimPrefix(c.Text, "//"), " ")
		if indent+3+len(text) > 100 && strings.Contains(strings.TrimSpace(text), " ") {
			t.Errorf("%s: line of %d columns: %s", fset.Position(c.Pos()), indent+3+len(text), c.Text)
		}
		if i+1 == len(cg.List) || text == "" || strings.HasPrefix(text, "\t") {
			continue
		}
		next := strings.TrimPrefix(strings.TrimPrefix(cg.List[i+1].Text, "//"), " ")
		if next == "" || strings.HasPrefix(next, "\t") || render.ListItemLine.MatchString(next) ||
			(strings.HasPrefix(next, " ") != strings.HasPrefix(text, " ")) {
			continue
		}
		word := strings.Fields(next)[0]
		if len(text)+1+len(word) <= render.CommentWidth {
			t.Errorf("%s: line ends before %q would fill it: %s", fset.Position(c.Pos()), word, c.Text)
		}
	}
}

// TestAccessorDocs checks that the doc of a request union's GetID names InputRequiredResult only
// in a version that declares it.
func TestAccessorDocs(t *testing.T) {
	requests, notifications := (&docsPass{plan: planned(t, docsSchema).plan}).accessorDocs()
	assert.Equal(t, "GetID returns the id of the request.", requests.ID)
	assert.Empty(t, notifications.ID, "a notification has no id")
	withInput := docsSchema + "export interface InputRequiredResult { resultType: \"input_required\"; }\n"
	requests, _ = (&docsPass{plan: planned(t, withInput).plan}).accessorDocs()
	assert.Equal(t, "GetID returns the id of the request (nil inside an InputRequiredResult).", requests.ID)
}
