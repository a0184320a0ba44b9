// Package schemaref is the reference validator of interop's tests: github.com/santhosh-tekuri/
// jsonschema/v6 on one version's schema.json, with format assertions on. The differential test of
// validation and the traffic test both judge the generated packages by it.
//
// The schemas use three formats. What each means here:
//
//   - "uri": jsonschema/v6's own checker (Go's url.Parse, and the URI must be absolute). It is
//     lenient where url.Parse is: "http://x/a b" passes, "not a uri" (relative) does not.
//   - "uri-template": RFC 6570 syntax as github.com/yosida95/uritemplate/v3 parses it (the library
//     the official Go MCP SDK uses for resource templates). jsonschema/v6's own checker is
//     replaced because it rejects valid templates: it splits the path at '/' and requires the
//     braces of each piece to balance, so "file:///{/path}" fails, and url.Parse moves the '?' of
//     "file:///{path}{?query}" into the query, leaving "{" unbalanced (TestFormatChoices).
//   - "byte" (OpenAPI: base64-encoded data): jsonschema/v6 does not know it and would ignore it.
//     Registered here as RFC 4648 base64 with the standard alphabet and padding; no whitespace or
//     line breaks (Go's decoder skips \r and \n, this checker rejects them); non-zero pad bits are
//     accepted, as RFC 4648 section 3.5 allows.
package schemaref

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/yosida95/uritemplate/v3"
)

// A Reference validates documents against the definitions of one schema.json. It is safe for
// concurrent use.
type Reference struct {
	doc   map[string]any    // schema.json as jsonschema.UnmarshalJSON reads it
	defs  string            // "#/$defs/" or "#/definitions/"
	names map[string]string // lower-case definition name -> definition name
	c     *jsonschema.Compiler

	mu       sync.Mutex
	compiled map[string]*jsonschema.Schema
}

// schemaURL names schema.json in the compiler (and in its messages); nothing is fetched.
const schemaURL = "https://mcpgen.invalid/schema.json"

// New reads a schema.json whose definitions are under $defs or definitions.
func New(schemaJSON []byte) (*Reference, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaJSON))
	if err != nil {
		return nil, err
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		return nil, errors.New("schema.json is not an object")
	}
	r := &Reference{doc: obj, c: jsonschema.NewCompiler(), compiled: map[string]*jsonschema.Schema{}, names: map[string]string{}}
	defs, _ := obj["$defs"].(map[string]any)
	r.defs = "#/$defs/"
	if defs == nil {
		defs, _ = obj["definitions"].(map[string]any)
		r.defs = "#/definitions/"
	}
	if defs == nil {
		return nil, errors.New("schema.json has no $defs or definitions")
	}
	for name := range defs {
		r.names[strings.ToLower(name)] = name
	}
	r.c.AssertFormat()
	RegisterFormats(r.c)
	if err := r.c.AddResource(schemaURL, doc); err != nil {
		return nil, err
	}
	return r, nil
}

// RegisterFormats registers the checkers of the formats "byte" and "uri-template" (see the
// package doc) with c.
func RegisterFormats(c *jsonschema.Compiler) {
	c.RegisterFormat(&jsonschema.Format{Name: "byte", Validate: validateByte})
	c.RegisterFormat(&jsonschema.Format{Name: "uri-template", Validate: validateURITemplate})
}

// Defs is the pointer prefix of the definitions: "#/$defs/" or "#/definitions/".
func (r *Reference) Defs() string { return r.defs }

// Definition returns the name of the definition of a Go type name (the generator applies Go
// initialisms to the schema's names: ElicitRequestURLParams for ElicitRequestUrlParams), or "".
func (r *Reference) Definition(goName string) string {
	return r.names[strings.ToLower(goName)]
}

// Validate validates inst (as jsonschema.UnmarshalJSON decodes JSON) against the schema at ptr
// ("#/$defs/Tool", "#/$defs/ContentBlock/anyOf/2").
func (r *Reference) Validate(ptr string, inst any) error {
	s, err := r.schema(ptr)
	if err != nil {
		return err
	}
	return s.Validate(inst)
}

func (r *Reference) schema(ptr string) (*jsonschema.Schema, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if s, ok := r.compiled[ptr]; ok {
		return s, nil
	}
	s, err := r.c.Compile(schemaURL + ptr)
	if err != nil {
		return nil, fmt.Errorf("compiling %s: %w", ptr, err)
	}
	r.compiled[ptr] = s
	return s, nil
}

// Node returns the raw schema at the JSON pointer ptr ("#/$defs/Tool/properties/name"), or nil.
func (r *Reference) Node(ptr string) any {
	var cur any = r.doc
	rest, ok := strings.CutPrefix(ptr, "#")
	if !ok {
		return nil
	}
	if rest == "" {
		return cur
	}
	for _, tok := range strings.Split(rest[1:], "/") {
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		switch c := cur.(type) {
		case map[string]any:
			cur = c[tok]
		case []any:
			i := 0
			if _, err := fmt.Sscan(tok, &i); err != nil || i < 0 || i >= len(c) {
				return nil
			}
			cur = c[i]
		default:
			return nil
		}
	}
	return cur
}

// validateByte checks the OpenAPI format "byte": base64 (RFC 4648, standard alphabet, padded).
func validateByte(v any) error {
	s, ok := v.(string)
	if !ok {
		return nil
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '/' || c == '=') {
			return fmt.Errorf("byte %d (%q) is not in the base64 alphabet", i, c)
		}
	}
	if _, err := base64.StdEncoding.DecodeString(s); err != nil {
		return fmt.Errorf("not base64: %v", err)
	}
	return nil
}

// validateURITemplate checks the format "uri-template": RFC 6570 syntax.
func validateURITemplate(v any) error {
	s, ok := v.(string)
	if !ok {
		return nil
	}
	_, err := uritemplate.New(s)
	return err
}
