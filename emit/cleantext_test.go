package emit

import (
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/emit/internal/render"
	"github.com/mcpgen/mcpgen/model"
)

// TestCleanTextAgrees holds rendering's copy of model.CleanText (rendering may not import the
// model) to the model's: every rune up to U+00A0, the byte order mark, and text around them.
func TestCleanTextAgrees(t *testing.T) {
	var inputs []string
	for r := rune(0); r <= 0xa0; r++ {
		inputs = append(inputs, string(r), "a"+string(r)+"b")
	}
	inputs = append(inputs, "\uFEFF", "x\uFEFFy", "tab\tand\nlines\r\n", "é ü 世界", "\xff bad utf-8", strings.Repeat("\x01", 3))
	for _, in := range inputs {
		if got, want := render.CleanText(in), model.CleanText(in); got != want {
			t.Errorf("CleanText(%q): rendering gives %q, the model %q", in, got, want)
		}
	}
}

func FuzzCleanTextAgrees(f *testing.F) {
	f.Add("a\x00b\uFEFF\x7f")
	f.Fuzz(func(t *testing.T, in string) {
		if got, want := render.CleanText(in), model.CleanText(in); got != want {
			t.Errorf("CleanText(%q): rendering gives %q, the model %q", in, got, want)
		}
	})
}
