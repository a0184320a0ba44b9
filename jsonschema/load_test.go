package jsonschema

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/model"
)

// versions are the vendored spec versions, in ../schema.
var versions = []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28", "draft"}

// doc wraps definitions in a 2020-12 document, one definition per line from line 3 on, so the
// definition on line 3 starts its schema at column 6 when it is named "X".
func doc(defs ...string) []byte {
	s := "{\n\"$defs\": {\n"
	for i, d := range defs {
		if i > 0 {
			s += ",\n"
		}
		s += d
	}
	return []byte(s + "\n}\n}\n")
}

// loadX loads `"X": schema` next to a definition Y, and returns X.
func loadX(t *testing.T, schema string) (*model.Decl, error) {
	t.Helper()
	s, err := Load("s.json", doc(`"X": `+schema, `"Y": {"type": "object"}`))
	if err != nil {
		return nil, err
	}
	return s.Decl("X"), nil
}

func TestLoadTypes(t *testing.T) {
	tests := []struct {
		name, schema, want string
	}{
		{"string", `{"type": "string"}`, "string"},
		{"integer", `{"type": "integer"}`, "integer"},
		{"number", `{"type": "number"}`, "number"},
		{"boolean", `{"type": "boolean"}`, "boolean"},
		{"null", `{"type": "null"}`, "null"},
		{"empty schema is any", `{}`, "any"},
		{"description only is any", `{"description": "free-form"}`, "any"},
		{"true is any", `true`, "any"},
		{"ref", `{"$ref": "#/$defs/Y"}`, "Y"},
		{"ref with description", `{"$ref": "#/$defs/Y", "description": "d"}`, "Y"},
		{"const string", `{"const": "2.0", "type": "string"}`, `"2.0"`},
		{"const integer", `{"const": -32042, "type": "integer"}`, "-32042"},
		{"const number", `{"const": 0.5, "type": "number"}`, "0.5"},
		{"const boolean", `{"const": true}`, "true"},
		{"const null", `{"const": null}`, "null"},
		{"enum", `{"enum": ["b", "a"], "type": "string"}`, `"b" | "a"`},
		{"enum of one", `{"enum": ["a"]}`, `"a"`},
		{"kind list", `{"type": ["string", "integer", "boolean"]}`, "string | integer | boolean"},
		{"nullable", `{"type": ["integer", "null"]}`, "integer | null"},
		{"anyOf", `{"anyOf": [{"$ref": "#/$defs/Y"}, {"type": "string"}]}`, "Y | string"},
		{"oneOf", `{"oneOf": [{"$ref": "#/$defs/Y"}, {"type": "string"}]}`, "Y | string"},
		{"anyOf splices nested unions", `{"anyOf": [{"$ref": "#/$defs/Y"}, {"type": ["string", "null"]}, {"enum": [1, 2]}]}`,
			"Y | string | null | 1 | 2"},
		{"array", `{"type": "array", "items": {"$ref": "#/$defs/Y"}}`, "(Y)[]"},
		{"array without items", `{"type": "array"}`, "(any)[]"},
		{"object", `{"type": "object", "properties": {"b": {"type": "string"}, "a": {"type": "integer"}}, "required": ["a"]}`,
			"{ b?: string; a: integer }"},
		{"object without type", `{"properties": {"a": {}}}`, "{ a?: any }"},
		{"bare object", `{"type": "object"}`, "{  }"},
		{"TypeScript object", `{"type": "object", "properties": {}, "additionalProperties": true}`, "{  }"},
		{"map", `{"type": "object", "additionalProperties": {"$ref": "#/$defs/Y"}}`, "{ [key]: Y }"},
		{"map of any", `{"type": "object", "additionalProperties": {}}`, "{ [key]: any }"},
		{"map with empty properties", `{"type": "object", "properties": {}, "additionalProperties": {}}`, "{ [key]: any }"},
		{"object with rest", `{"type": "object", "properties": {"a": {}}, "additionalProperties": {}}`, "{ a?: any; [key]: any }"},
		{"inline object member", `{"type": "object", "properties": {"p": {"type": "object", "properties": {"u": {"type": "string"}}}}}`,
			"{ p?: { u?: string } }"},
		{"keyword names as properties", `{"type": "object", "properties": {
			"oneOf": {"type": "array", "items": {"type": "object", "properties": {"const": {"type": "string"}}}},
			"anyOf": {"type": "string"}, "enum": {"type": "string"}, "const": {"type": "string"},
			"type": {"const": "string", "type": "string"}, "$ref": {"type": "string"}}, "required": ["oneOf", "type"]}`,
			`{ oneOf: ({ const?: string })[]; anyOf?: string; enum?: string; const?: string; type: "string"; $ref?: string }`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := loadX(t, tt.schema)
			require.NoError(t, err)
			assert.Equal(t, tt.want, model.RenderDepth(d.Type, 3))
		})
	}
}

func TestLoadAllOf(t *testing.T) {
	s, err := Load("s.json", doc(
		`"Base": {"type": "object", "properties": {"code": {"type": "integer", "description": "The code."}, "data": {}}, "required": ["code"]}`,
		`"Alias": {"$ref": "#/$defs/Base"}`,
		`"Task": {"type": "object", "properties": {"id": {"type": "string"}, "data": {"type": "string"}}, "required": ["data"], "additionalProperties": {}}`,
		`"Both": {"allOf": [{"$ref": "#/$defs/Alias"}, {"$ref": "#/$defs/Task"}]}`,
		`"Narrowed": {"type": "object", "properties": {"error": {"allOf": [{"$ref": "#/$defs/Base"},
			{"type": "object", "properties": {"code": {"const": -32042, "type": "integer"}}, "required": ["code"]}]}}}`,
	))
	require.NoError(t, err)

	both := s.Decl("Both").Type
	assert.Equal(t, "{ code: integer; data: string; id?: string; [key]: any }", model.Render(both))
	assert.Equal(t, "The code.", both.Object.Member("code").Doc.Text)
	assert.True(t, s.Decl("Base").Type.Object.Member("data").Optional, "merging must not change Base")
	// Each member says which definition declares it; a member declared again, the later one.
	for name, want := range map[string]string{"code": "Base", "data": "Task", "id": "Task"} {
		assert.Equal(t, want, both.Object.Member(name).DeclaredIn, name)
	}

	narrowed := s.Decl("Narrowed").Type.Object.Member("error").Type
	assert.Equal(t, "{ code: -32042; data?: any }", model.Render(narrowed))
	assert.Equal(t, "The code.", narrowed.Object.Member("code").Doc.Text, "an undocumented override keeps the doc")
	assert.Equal(t, "Narrowed", narrowed.Object.Member("code").DeclaredIn)
	assert.Equal(t, "Base", narrowed.Object.Member("data").DeclaredIn)
}

func TestLoadMembers(t *testing.T) {
	s, err := Load("s.json", doc(`"X": {"description": "An X.", "deprecated": true, "type": "object", "properties": {
"priority": {"description": "How important.", "type": "number", "minimum": 0, "maximum": 1},
"uri": {"type": "string", "format": "uri"},
"values": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 100}
}, "required": ["uri"]}`))
	require.NoError(t, err)
	x := s.Decl("X")
	assert.Equal(t, model.Doc{Text: "An X.", Deprecated: true}, x.Doc)
	assert.Equal(t, model.Pos{File: "s.json", Line: 3, Col: 1}, x.Pos)
	assert.Equal(t, model.Pos{File: "s.json", Line: 3, Col: 6}, x.Type.Pos)

	tests := []struct {
		name        string
		optional    bool
		doc         string
		constraints string
		pos         model.Pos
	}{
		{"priority", true, "How important.", "minimum=0 maximum=1", model.Pos{File: "s.json", Line: 4, Col: 1}},
		{"uri", false, "", "format=uri", model.Pos{File: "s.json", Line: 5, Col: 1}},
		{"values", true, "", "minItems=1 maxItems=100", model.Pos{File: "s.json", Line: 6, Col: 1}},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := x.Type.Object.Members[i]
			assert.Equal(t, tt.name, m.Name)
			assert.Equal(t, tt.optional, m.Optional)
			assert.Equal(t, tt.doc, m.Doc.Text)
			assert.Equal(t, tt.constraints, model.RenderConstraints(m.Constraints))
			assert.Equal(t, tt.pos, m.Pos)
		})
	}
}

func TestLoadDraft07(t *testing.T) {
	s, err := Load("schema/2024-11-05/schema.json", []byte(`{
    "$schema": "http://json-schema.org/draft-07/schema#",
    "definitions": {
        "B": {"$ref": "#/definitions/A"},
        "A": {"type": "string"}
    }
}`))
	require.NoError(t, err)
	require.Len(t, s.Decls, 2)
	assert.Equal(t, "B", s.Decls[0].Name, "declarations keep file order")
	assert.Equal(t, model.Pos{File: "schema/2024-11-05/schema.json", Line: 4, Col: 9}, s.Decls[0].Pos)
	assert.Equal(t, "A", model.Render(s.Decls[0].Type))
	assert.Empty(t, s.Consts)
}

func TestLoadVendored(t *testing.T) {
	for _, v := range versions {
		t.Run(v, func(t *testing.T) {
			filename := "../schema/" + v + "/schema.json"
			data, err := os.ReadFile(filename)
			require.NoError(t, err)
			s, err := Load(filename, data)
			require.NoError(t, err)
			require.NotEmpty(t, s.Decls)
			assert.Equal(t, model.Pos{File: filename, Line: 4, Col: 9}, s.Decls[0].Pos)
			lines := strings.Split(string(data), "\n")
			for _, d := range s.Decls {
				assert.True(t, strings.HasPrefix(lines[d.Pos.Line-1][d.Pos.Col-1:], `"`+d.Name+`": {`), "%s at %s", d.Name, d.Pos)
			}
		})
	}
}
