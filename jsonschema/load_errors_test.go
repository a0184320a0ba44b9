package jsonschema

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name string
		data string
		want string
	}{
		{"syntax", "{\n\"$defs\": {\n\"X\": }\n}", "s.json:3:6: invalid character '}' looking for beginning of value"},
		{"truncated", "{\"$defs\": {", "s.json:1:12: unexpected end of JSON input"},
		{"trailing data", `{"$defs": {}} {}`, "s.json:1:15: unexpected data after the top-level value"},
		{"duplicate key", "{\"$defs\": {\"X\": {},\n \"X\": {}}}", `s.json:2:2: duplicate key "X"`},
		{"not an object", `[]`, "s.json:1:1: schema is a JSON array, expected an object"},
		{"no definitions", `{"$schema": "x"}`, `s.json:1:1: no "definitions" or "$defs"`},
		{"both definitions", `{"$defs": {}, "definitions": {}}`, `s.json:1:15: both "definitions" and "$defs"`},
		{"top-level keyword", `{"$defs": {}, "type": "object"}`, `s.json:1:15: unsupported top-level keyword "type"`},
		{"definitions not an object", `{"$defs": []}`, `s.json:1:11: "$defs" is a JSON array, expected an object`},

		{"schema not an object", string(doc(`"X": 3`)), "s.json:3:6: X: schema is a JSON number, expected an object"},
		{"false schema", string(doc(`"X": false`)), "s.json:3:6: X: unsupported schema false"},
		{"unknown keyword", string(doc(`"X": {"type": "object", "patternProperties": {}}`)),
			`s.json:3:25: X: unsupported keyword "patternProperties"`},
		{"nested unknown keyword", string(doc(`"X": {"properties": {"a": {"not": {}}}}`)),
			`s.json:3:28: X: unsupported keyword "not"`},
		{"bad constraint on a declaration", string(doc(`"X": {"type": "integer", "minimum": "0"}`)),
			`s.json:3:37: X: minimum is not a number`},
		{"constraint on array items", string(doc(`"X": {"properties": {"a": {"type": "array", "items": {"format": "uri"}}}}`)),
			`s.json:3:55: X: unsupported keyword "format" outside an object member or a definition`},
		{"bad pattern", string(doc(`"X": {"properties": {"a": {"type": "string", "pattern": 1}}}`)),
			`s.json:3:57: X: pattern is a JSON number, expected a string`},
		{"ref combined", string(doc(`"X": {"$ref": "#/$defs/X", "type": "object"}`)),
			`s.json:3:28: X: unsupported combination of "$ref" and "type"`},
		{"anyOf and oneOf", string(doc(`"X": {"anyOf": [], "oneOf": []}`)),
			`s.json:3:20: X: unsupported combination of "anyOf" and "oneOf"`},
		{"const with properties", string(doc(`"X": {"const": "a", "properties": {}}`)),
			`s.json:3:21: X: unsupported combination of "const, type" and "properties"`},
		{"string with items", string(doc(`"X": {"type": "string", "items": {}}`)),
			`s.json:3:25: X: unsupported combination of "type" and "items"`},
		{"const of the wrong type", string(doc(`"X": {"const": 1.5, "type": "integer"}`)),
			`s.json:3:16: X: number constant in a schema of type "integer"`},
		{"object constant", string(doc(`"X": {"enum": [{}]}`)), `s.json:3:16: X: unsupported object constant`},
		{"empty enum", string(doc(`"X": {"enum": []}`)), `s.json:3:15: X: empty list`},
		{"unknown type", string(doc(`"X": {"type": "int"}`)), `s.json:3:15: X: unknown type "int"`},
		{"object in a type list", string(doc(`"X": {"type": ["string", "object"]}`)),
			`s.json:3:26: X: unsupported type "object" in a list of types`},
		{"anyOf not an array", string(doc(`"X": {"anyOf": {}}`)), `s.json:3:16: X: anyOf is a JSON object, expected an array`},
		{"closed object", string(doc(`"X": {"type": "object", "additionalProperties": false}`)),
			`s.json:3:25: X: unsupported additionalProperties false`},
		{"required not a property", string(doc(`"X": {"properties": {"a": {}}, "required": ["b"]}`)),
			`s.json:3:45: X: required member "b" is not a property`},
		{"required not a list", string(doc(`"X": {"required": "a"}`)), `s.json:3:19: X: required is a JSON string, expected an array`},
		{"items without type", string(doc(`"X": {"items": {}}`)), `s.json:3:7: X: unsupported keyword "items" without "type"`},
		{"bad minimum", string(doc(`"X": {"properties": {"a": {"minimum": "0"}}}`)), `s.json:3:39: X: minimum is not a number`},
		{"bad maxItems", string(doc(`"X": {"properties": {"a": {"maxItems": -1}}}`)),
			`s.json:3:40: X: maxItems is not a non-negative integer`},
		{"bad description", string(doc(`"X": {"description": 1}`)), `s.json:3:22: X: description is a JSON number, expected a string`},
		{"ref with another prefix", string(doc(`"X": {"$ref": "#/definitions/X"}`)),
			`s.json:3:15: X: unsupported $ref "#/definitions/X", expected #/$defs/<Name>`},
		{"ref to a nested path", string(doc(`"X": {"$ref": "#/$defs/X/properties/a"}`)),
			`s.json:3:15: X: unsupported $ref "#/$defs/X/properties/a", expected #/$defs/<Name>`},
		{"undefined ref", string(doc(`"X": {"type": "array", "items": {"$ref": "#/$defs/Nope"}}`)),
			`s.json:3:42: X: $ref to undefined definition "Nope"`},
		{"allOf of a string", string(doc(`"X": {"allOf": [{"type": "string"}]}`)),
			`s.json:3:17: X: allOf part is string, expected an object`},
		{"allOf of an undefined ref", string(doc(`"X": {"allOf": [{"$ref": "#/$defs/Nope"}]}`)),
			`s.json:3:17: X: $ref to undefined definition "Nope"`},
		{"allOf cycle", string(doc(`"X": {"allOf": [{"$ref": "#/$defs/Y"}]}`, `"Y": {"allOf": [{"$ref": "#/$defs/X"}]}`)),
			`s.json:4:17: Y: allOf cycle through X`},
		{"allOf alias cycle", string(doc(`"X": {"allOf": [{"$ref": "#/$defs/Y"}]}`, `"Y": {"$ref": "#/$defs/Z"}`, `"Z": {"$ref": "#/$defs/Y"}`)),
			`s.json:3:17: X: allOf part Y is an alias of itself`},
		{"error in a definition allOf needs", string(doc(`"X": {"allOf": [{"$ref": "#/$defs/Y"}]}`, `"Y": {"type": "object", "bad": 1}`)),
			`s.json:4:25: Y: unsupported keyword "bad"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Load("s.json", []byte(tt.data))
			require.EqualError(t, err, tt.want)
			require.Nil(t, s)
		})
	}
}
