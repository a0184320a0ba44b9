package parser

import (
	"testing"

	"github.com/mcpgen/mcpgen/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseAST(t *testing.T) {
	src := `/** The version. */
export const V = "1";
type T = A | B[] & C;
export interface I extends Omit<J, "x">, K {
  a?: typeof V;
  [key: string]: unknown
}
`
	f, err := Parse("a.ts", []byte(src))
	require.NoError(t, err)
	require.Len(t, f.Decls, 3)

	c := f.Decls[0].(*Const)
	assert.Equal(t, "The version.", c.Doc.Doc.Text)
	assert.Equal(t, model.Value{Kind: model.String, Str: "1"}, c.Value.Value)

	a := f.Decls[1].(*Alias)
	u := a.Type.(*Union)
	require.Len(t, u.Types, 2)
	assert.Equal(t, "A", u.Types[0].(*TypeRef).Name)
	and := u.Types[1].(*Intersection)
	assert.IsType(t, &ArrayOf{}, and.Types[0], "[] binds tighter than &")

	i := f.Decls[2].(*Interface)
	require.Len(t, i.Extends, 2)
	omit := i.Extends[0].(*TypeRef)
	assert.Equal(t, "Omit", omit.Name)
	assert.Len(t, omit.Args, 2)
	require.Len(t, i.Members, 1)
	assert.True(t, i.Members[0].Optional)
	assert.Equal(t, &Typeof{Pos: model.Pos{File: "a.ts", Line: 5, Col: 7}, Name: "V"}, i.Members[0].Type)
	require.NotNil(t, i.Index)
	assert.Equal(t, "unknown", i.Index.Value.(*Keyword).Name)
}

func TestJSDocText(t *testing.T) {
	tests := []struct {
		name, src, text string
	}{
		{"one line", "/** Hello. */", "Hello."},
		{"stars stripped", "/**\n * a\n *\n * b\n */", "a\n\nb"},
		{"indentation kept", "/**\n * - a\n *   - b\n */", "- a\n  - b"},
		{"tags end the text", "/**\n * a\n * @internal\n */", "a"},
		{"no stars", "/**\n   a\n   b */", "a\nb"},
		{"unknown tags kept", "/**\n * a\n * @default 0\n * @remarks more\n *   text\n * @internal\n */", "a\n\n@default 0\n@remarks more\n  text"},
		{"example without a file kept", "/**\n * @example\n * ```ts\n * x\n * ```\n */", "@example\n```ts\nx\n```"},
		{"several lines after a known tag", "/**\n * @category Tools\n * and more\n */", "and more"},
		{"CR and U+2028 break lines", "/** a\r * b\u2028 * c\r\n * d */", "a\nb\nc\nd"},
		{"control characters replaced", "/** a\x00b\ufeffc\x1b */", "a\ufffdb\ufffdc\ufffd"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := parseJSDoc(&comment{text: tt.src})
			require.NoError(t, err)
			assert.Equal(t, tt.text, d.Doc.Text)
		})
	}
}
