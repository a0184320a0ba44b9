package render

import (
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDocComment(t *testing.T) {
	tests := []struct{ name, text, want string }{
		{"empty", "", ""},
		{"paragraphs", "One.\n\nTwo.", "// One.\n//\n// Two."},
		{"list after text", "Intro:\n  - a\n  - b\nAfter.", "// Intro:\n//   - a\n//   - b\n//\n// After."},
		{"code block", "Text:\n\n\tcode()", "// Text:\n//\n//\tcode()"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, fmt.Sprintf("%#v", docComment(tt.text)))
		})
	}
}

func TestDocCommentFills(t *testing.T) {
	long := strings.Repeat("word ", 30)
	tests := []struct{ name, text, want string }{
		{"joins and fills a paragraph", "One two\nthree.\n\n" + long,
			"// One two three.\n//\n// " + strings.TrimSpace(strings.Repeat("word ", 18)) + "\n// " + strings.TrimSpace(strings.Repeat("word ", 12))},
		{"fills a list item, indenting its further lines", "Items:\n  - " + long,
			"// Items:\n//   - " + strings.TrimSpace(strings.Repeat("word ", 17)) + "\n//     " + strings.TrimSpace(strings.Repeat("word ", 13))},
		{"definition lines become a list", "Kinds:\n\ncomplete - done.\ninput_required - more.",
			"// Kinds:\n//\n//   - complete - done.\n//   - input_required - more."},
		{"a single definition-like line stays text", "a - b\nc.", "// a - b c."},
		{"a long word stays whole", "x " + strings.Repeat("y", 120), "// x\n// " + strings.Repeat("y", 120)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := fmt.Sprintf("%#v", docComment(tt.text))
			assert.Equal(t, tt.want, got)
			// gofmt leaves the comment as it is.
			src := "package p\n\n" + got + "\ntype T int\n"
			formatted, err := format.Source([]byte(src))
			require.NoError(t, err)
			assert.Equal(t, src, string(formatted))
		})
	}
}

// TestOneCommentPath checks that the renderer writes every comment through docComment, which
// fills it: no other call of jennifer's Comment, Commentf or HeaderComment than docComment's own
// and the header of each file (render.go).
func TestOneCommentPath(t *testing.T) {
	paths, err := filepath.Glob("*.go")
	require.NoError(t, err)
	fset := token.NewFileSet()
	for _, path := range paths {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		require.NoError(t, err)
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Name.Name == "docComment" {
				continue
			}
			ast.Inspect(fd, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				switch sel.Sel.Name {
				case "Comment", "Commentf":
					t.Errorf("%s: %s writes a comment without docComment", fset.Position(sel.Pos()), fd.Name.Name)
				case "HeaderComment":
					if path != "render.go" {
						t.Errorf("%s: %s writes a header comment", fset.Position(sel.Pos()), fd.Name.Name)
					}
				}
				return true
			})
		}
	}
}
