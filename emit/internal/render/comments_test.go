package render

import (
	"fmt"
	"go/format"
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
