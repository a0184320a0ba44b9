package validation

import (
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpgen/mcpgen/interop/internal/schemaref"
)

// TestFormatMutantsInvalid: the value each format mutant puts in place breaks its format for the
// reference.
func TestFormatMutantsInvalid(t *testing.T) {
	for f, bad := range badFormat {
		c := jsonschema.NewCompiler()
		c.AssertFormat()
		schemaref.RegisterFormats(c)
		if err := c.AddResource("f.json", map[string]any{"type": "string", "format": f}); err != nil {
			t.Fatal(err)
		}
		s, err := c.Compile("f.json")
		if err != nil {
			t.Fatal(err)
		}
		if s.Validate(bad) == nil {
			t.Errorf("the %s mutant %q is valid", f, bad)
		}
	}
}
