package traffic

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

// reference judges whether a version's schema.json accepts a message: github.com/santhosh-tekuri/
// jsonschema/v6 with format assertions on, and the formats "byte" and "uri-template" registered as
// interop/validation does (its reference.go documents the choices; this is a copy of the part
// needed here, so that the two packages stay independent).
type reference struct {
	defs  string            // "#/$defs/" or "#/definitions/"
	names map[string]string // lower-case definition name -> definition name
	c     *jsonschema.Compiler

	mu       sync.Mutex
	compiled map[string]*jsonschema.Schema
}

const schemaURL = "https://mcpgen.invalid/schema.json"

func newReference(schemaJSON []byte) (*reference, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaJSON))
	if err != nil {
		return nil, err
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		return nil, errors.New("schema.json is not an object")
	}
	r := &reference{c: jsonschema.NewCompiler(), compiled: map[string]*jsonschema.Schema{}, names: map[string]string{}}
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
	r.c.RegisterFormat(&jsonschema.Format{Name: "byte", Validate: validateByte})
	r.c.RegisterFormat(&jsonschema.Format{Name: "uri-template", Validate: validateURITemplate})
	if err := r.c.AddResource(schemaURL, doc); err != nil {
		return nil, err
	}
	return r, nil
}

// definition returns the name of the definition of a Go type name (the generator applies Go
// initialisms to the schema's names: ElicitRequestURLParams for ElicitRequestUrlParams), or "".
func (r *reference) definition(goName string) string {
	return r.names[strings.ToLower(goName)]
}

// validate validates inst (as jsonschema.UnmarshalJSON decodes JSON) against a definition.
func (r *reference) validate(def string, inst any) error {
	r.mu.Lock()
	s, ok := r.compiled[def]
	if !ok {
		var err error
		if s, err = r.c.Compile(schemaURL + r.defs + def); err != nil {
			r.mu.Unlock()
			return fmt.Errorf("compiling %s: %w", def, err)
		}
		r.compiled[def] = s
	}
	r.mu.Unlock()
	return s.Validate(inst)
}

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
	_, err := base64.StdEncoding.DecodeString(s)
	return err
}

func validateURITemplate(v any) error {
	s, ok := v.(string)
	if !ok {
		return nil
	}
	_, err := uritemplate.New(s)
	return err
}
