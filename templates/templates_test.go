package templates

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"
	"text/template"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// exported lists the only exported names the runtime may declare: the helpers for free-form JSON,
// the validation error and the validating codec helpers.
var exported = map[string]bool{
	"DecodeObject": true, "EncodeObject": true,
	"ValidationError": true, "Problem": true, "Unmarshal": true, "UnmarshalNoCopy": true, "Marshal": true,
	"DecodeError": true,
	// parts/wire_protocol.go: the params of a message, and the pending requests of a peer.
	"Params": true, "RawParams": true, "Pending": true, "MessageError": true,
	// parts/protocol_helpers.go: the type of the generated method table, and a method of it.
	"MethodInfo": true, "LookupMethod": true,
	// parts/protocol_batch.go: a JSON-RPC batch.
	"MessageBatch": true,
	// The limit of the decoders, which a program may raise.
	"MaxDecodeDepth": true,
}

// variables lists the only package-level variables the runtime may declare: the limit of the
// decoders (read at the start of a decode, set by a program before it decodes), the pool of
// encoders that MarshalJSON reuses and the pools of scratch slices that decoding reuses (which
// change no result).
var variables = map[string]bool{"MaxDecodeDepth": true, "encoders": true, "scratchPools": true}

// TestRuntimeIsCopyable checks the rules that let the emitter copy the runtime into any
// generated package: one package clause to replace, no exported names but those listed above,
// standard library imports, no init and no package-level variables but those listed above. The
// parts follow the same rules, and name the declarations they need.
func TestRuntimeIsCopyable(t *testing.T) {
	files := Runtime()
	assert.Len(t, files, 7)
	for name, src := range files {
		t.Run(name, func(t *testing.T) { checkCopyable(t, name, src, "wire") })
	}
	for name, src := range Parts() {
		t.Run(name, func(t *testing.T) {
			assert.True(t, strings.HasPrefix(src, "//go:build ignore\n"), "build constraint")
			assert.True(t, strings.Contains(src, "\n//mcpgen:requires ") || strings.Contains(src, "\n//mcpgen:protocol\n"),
				"names the declarations it needs, or that it is part of the protocol layer")
			checkCopyable(t, name, src, "parts")
		})
	}
}

func checkCopyable(t *testing.T, name, src, pkg string) {
	assert.True(t, strings.HasPrefix(src, "package "+pkg+"\n") || strings.Count(src, "\npackage "+pkg+"\n") == 1, "package clause")
	f, err := parser.ParseFile(token.NewFileSet(), name, src, 0)
	require.NoError(t, err)
	for _, imp := range f.Imports {
		path, err := strconv.Unquote(imp.Path.Value)
		require.NoError(t, err)
		assert.NotContains(t, strings.Split(path, "/")[0], ".", "import %s is not in the standard library", path)
	}
	for _, decl := range f.Decls {
		switch decl := decl.(type) {
		case *ast.FuncDecl:
			if decl.Recv == nil {
				assert.False(t, decl.Name.IsExported() && !exported[decl.Name.Name], "func %s", decl.Name)
				assert.NotEqual(t, "init", decl.Name.Name)
			}
		case *ast.GenDecl:
			for _, spec := range decl.Specs {
				switch spec := spec.(type) {
				case *ast.TypeSpec:
					assert.False(t, spec.Name.IsExported() && !exported[spec.Name.Name], "type %s", spec.Name)
				case *ast.ValueSpec:
					for _, name := range spec.Names {
						assert.False(t, decl.Tok == token.VAR && !variables[name.Name], "package-level variable %s", name)
						assert.False(t, name.IsExported() && !exported[name.Name], "%s %s", decl.Tok, name)
					}
				}
			}
		}
	}
}

// TestDocWith checks that a package doc of the configuration keeps the sections that the
// generated code refers to: the one on unions, when the package has unions, and the license.
func TestDocWith(t *testing.T) {
	tmpl := DocWith("Package p is mine.\n\nIt has two paragraphs.")
	for _, unions := range []bool{false, true} {
		var b strings.Builder
		err := template.Must(template.New("doc").Parse(tmpl)).Execute(&b, map[string]any{
			"Package": "p", "Unions": unions, "Results": unions,
		})
		require.NoError(t, err)
		src := b.String()
		f, err := parser.ParseFile(token.NewFileSet(), "doc.go", src, parser.ParseComments)
		require.NoError(t, err)
		doc := f.Doc.Text()
		assert.True(t, strings.HasPrefix(doc, "Package p is mine.\n\nIt has two paragraphs.\n\n"), doc)
		assert.Equal(t, unions, strings.Contains(doc, "\n# Unions\n"), doc)
		assert.Contains(t, doc, "\n# License of the documentation\n")
	}
}
