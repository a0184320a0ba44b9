package schemaref

import (
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestFormatChoices pins what each format of the schemas means to the reference (see the
// package doc), and why jsonschema/v6's own "uri-template" checker is replaced.
func TestFormatChoices(t *testing.T) {
	cases := []struct {
		format, value string
		valid         bool
	}{
		{"uri", "file:///project/src/main.rs", true},
		{"uri", "https://example.com/a?b=c#d", true},
		{"uri", "urn:isbn:0451450523", true},
		{"uri", "not a uri", false},            // relative
		{"uri", "/project/src/main.rs", false}, // relative
		{"uri", "http://exa mple.com/", false},
		{"uri", "http://x/a b", true}, // url.Parse accepts a space in the path
		{"uri-template", "file:///{path}", true},
		{"uri-template", "file:///{/path}", true},
		{"uri-template", "https://example.com/search{?q,lang}", true},
		{"uri-template", "https://example.com/{var:3}/{+path*}", true},
		{"uri-template", "file:///{unclosed", false},
		{"uri-template", "file:///{a b}", false},
		{"uri-template", "file:///a}", false},
		{"uri-template", "file:///a b", false},
		{"byte", "", true},
		{"byte", "aGVsbG8=", true},
		{"byte", "aGVsbA==", true},
		{"byte", "+/+/", true},
		{"byte", "aGVsbG8", false},     // padding missing
		{"byte", "aGVs\nbG8=", false},  // line break
		{"byte", "aGVs bG8=", false},   // space
		{"byte", "aGVsbG8_", false},    // URL alphabet
		{"byte", "not base64!", false}, // what the format mutants use
	}
	for _, c := range cases {
		if err := refFormat(t, c.format, true).Validate(c.value); (err == nil) != c.valid {
			t.Errorf("%s %q: valid = %v, want %v (%v)", c.format, c.value, err == nil, c.valid, err)
		}
	}
	// Why "uri-template" is replaced: jsonschema/v6's checker rejects valid RFC 6570 templates.
	builtin := refFormat(t, "uri-template", false)
	for _, v := range []string{"file:///{/path}", "https://example.com/search{?q,lang}"} {
		if builtin.Validate(v) == nil {
			t.Errorf("jsonschema/v6 now accepts the uri-template %q: consider its own checker again", v)
		}
	}
}

// refFormat compiles {"type": "string", "format": format}, with the reference's format
// checkers when ours is true and with jsonschema/v6's alone otherwise.
func refFormat(t *testing.T, format string, ours bool) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if ours {
		RegisterFormats(c)
	}
	if err := c.AddResource("f.json", map[string]any{"type": "string", "format": format}); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("f.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}
