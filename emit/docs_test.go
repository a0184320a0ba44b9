package emit

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/model"
	"github.com/mcpgen/mcpgen/parser"
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
	s, err := parser.Load("docs.ts", []byte(src))
	require.NoError(t, err)
	require.NoError(t, model.Classify(s))
	g := newGenerator(s, Options{Package: "p"})
	require.NoError(t, g.plan())
	return g
}

func TestDocText(t *testing.T) {
	g := planned(t, docsSchema)
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
			assert.Equal(t, tt.want, g.docText(tt.doc, "type"))
		})
	}
}

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
