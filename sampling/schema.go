package sampling

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	googleschema "github.com/google/jsonschema-go/jsonschema"
	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// A schema is a compiled JSON Schema: the input schema of a tool, checked with
// github.com/santhosh-tekuri/jsonschema/v6, a validator that passes the JSON Schema test suite.
// A schema without "$schema" is read as draft 2020-12, the default of MCP tool schemas since
// 2025-11-25. A reference to anything outside the schema ("$ref" to a URL) is an error: nothing
// is loaded from the network or the file system.
type schema struct {
	compiled *jsonschema.Schema
}

// schemaURL names a schema for the compiler; it is never loaded from anywhere.
const schemaURL = "urn:mcpgen:sampling:schema"

// noLoader refuses every external reference.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("the schema refers to %s: only references inside the schema are allowed", url)
}

// compileSchema compiles the JSON of a schema.
func compileSchema(data []byte) (*schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(noLoader{})
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, err
	}
	compiled, err := c.Compile(schemaURL)
	if err != nil {
		return nil, err
	}
	return &schema{compiled: compiled}, nil
}

// compileToolSchema compiles the input or output schema of a tool.
func compileToolSchema(s json.Marshaler) (*schema, error) {
	data, err := s.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return compileSchema(data)
}

// validate checks a tool input (or structured output) against the schema; the error says what is
// wrong, for the model.
func (s *schema) validate(input map[string]json.RawMessage) error {
	data, err := json.Marshal(input)
	if err != nil {
		return err
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	if err := s.compiled.Validate(v); err != nil {
		return schemaError(err)
	}
	return nil
}

// schemaError turns a validation error into one line per problem: the JSON pointer of the part
// at fault (in the input) and what is wrong with it.
func schemaError(err error) error {
	var verr *jsonschema.ValidationError
	if !errors.As(err, &verr) {
		return err
	}
	var lines []string
	seen := map[string]bool{}
	for _, unit := range verr.BasicOutput().Errors {
		if unit.Error == nil {
			continue
		}
		where := unit.InstanceLocation
		if where == "" {
			where = "(root)"
		}
		line := where + ": " + unit.Error.String()
		if !seen[line] {
			seen[line] = true
			lines = append(lines, line)
		}
	}
	if len(lines) == 0 {
		return err
	}
	return errors.New(strings.Join(lines, "; "))
}

// SchemaFor returns the JSON Schema of the Go type T, derived by github.com/google/jsonschema-go
// (the library the official Go SDK derives tool schemas with): structs are objects that allow no
// other properties, fields without omitempty/omitzero are required, a `jsonschema:"..."` field tag
// is the property's description. Enums and other constraints that Go types cannot express are
// given through opts.TypeSchemas, keyed by the Go type:
//
//	opts := &jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
//		reflect.TypeFor[Color](): {Type: "string", Enum: []any{"red", "green", "blue"}},
//	}}
func SchemaFor[T any](opts *googleschema.ForOptions) (*googleschema.Schema, error) {
	return googleschema.For[T](opts)
}

// InputSchemaFor returns the JSON Schema of the Go type T (see [SchemaFor]) as the input schema
// of a tool. T must be a struct (or a map with string keys, or a pointer to one): a tool's input
// is a JSON object.
func InputSchemaFor[T any](opts *googleschema.ForOptions) (mcp.ToolInputSchema, error) {
	s, err := SchemaFor[T](opts)
	if err != nil {
		return mcp.ToolInputSchema{}, err
	}
	return toInputSchema(s, reflect.TypeFor[T]())
}

// OutputSchemaFor returns the JSON Schema of the Go type T (see [SchemaFor]) as the output schema
// of a tool. T must be a struct (or a map with string keys, or a pointer to one): a tool's
// structured content is a JSON object.
func OutputSchemaFor[T any](opts *googleschema.ForOptions) (mcp.ToolOutputSchema, error) {
	t := reflect.TypeFor[T]()
	for t.Kind() == reflect.Pointer {
		t = t.Elem() // the structured content of a result is an object, never null
	}
	s, err := googleschema.ForType(t, opts)
	if err != nil {
		return mcp.ToolOutputSchema{}, err
	}
	if !isObjectSchema(s) {
		return mcp.ToolOutputSchema{}, fmt.Errorf("the schema of %s is not an object schema, which a tool's output must be", t)
	}
	data, err := json.Marshal(s)
	if err != nil {
		return mcp.ToolOutputSchema{}, err
	}
	var out mcp.ToolOutputSchema
	if err := mcp.Unmarshal(data, &out); err != nil {
		return mcp.ToolOutputSchema{}, fmt.Errorf("the schema of %s cannot be a tool's output schema: %w", t, err)
	}
	return out, nil
}

// objectType reports whether the values of t encode as JSON objects: structs, maps with string
// keys, and pointers to them (but not a *mcp.CallToolResult, which a typed tool returns as it
// is, nor a type with its own JSON encoding, whose schema cannot be derived from its fields).
func objectType(t reflect.Type) bool {
	if t == reflect.TypeFor[*mcp.CallToolResult]() {
		return false
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	marshaler := reflect.TypeFor[json.Marshaler]()
	if t.Implements(marshaler) || reflect.PointerTo(t).Implements(marshaler) {
		return false
	}
	switch t.Kind() {
	case reflect.Struct:
		return true
	case reflect.Map:
		return t.Key().Kind() == reflect.String
	}
	return false
}

// toInputSchema converts a derived schema to a tool's input schema, which must be an object.
func toInputSchema(s *googleschema.Schema, t reflect.Type) (mcp.ToolInputSchema, error) {
	if !isObjectSchema(s) {
		return mcp.ToolInputSchema{}, fmt.Errorf("the schema of %s is not an object schema, which a tool's input must be", t)
	}
	data, err := json.Marshal(s)
	if err != nil {
		return mcp.ToolInputSchema{}, err
	}
	var in mcp.ToolInputSchema
	if err := mcp.Unmarshal(data, &in); err != nil {
		return mcp.ToolInputSchema{}, fmt.Errorf("the schema of %s cannot be a tool's input schema: %w", t, err)
	}
	return in, nil
}

// isObjectSchema reports whether a derived schema describes objects only.
func isObjectSchema(s *googleschema.Schema) bool {
	return s.Type == "object" && len(s.Types) == 0
}
