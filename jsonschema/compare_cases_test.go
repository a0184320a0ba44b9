package jsonschema

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/parser"
)

// compareCases are TestCompare's pairs of small schemas, each with the differences the comparer must find.
var compareCases = []struct {
	name string
	ts   string
	json []string // definitions
	want []string // "Decl|path|reason"
}{
	{"same interface",
		`interface X { a: string; b?: number[] }`,
		[]string{`"X": {"type": "object", "properties": {"b": {"type": "array", "items": {"type": "integer"}}, "a": {"type": "string"}}, "required": ["a"]}`},
		nil},
	{"enum order does not matter",
		`type X = "b" | "a";`,
		[]string{`"X": {"enum": ["a", "b"], "type": "string"}`},
		nil},
	{"alias written out",
		`type A = string[]; interface X { a: A }`,
		[]string{`"A": {"type": "array", "items": {"type": "string"}}`,
			`"X": {"type": "object", "properties": {"a": {"type": "array", "items": {"type": "string"}}}, "required": ["a"]}`},
		nil},
	{"object with only an index signature is a map",
		`interface X { [key: string]: string }`,
		[]string{`"X": {"type": "object", "additionalProperties": {"type": "string"}}`},
		nil},
	{"open enum",
		`type X = "a" | "b" | string;`,
		[]string{`"X": {"type": "string"}`},
		[]string{"X||" + string(ReasonOpenEnum)}},
	{"null dropped",
		`type X = string | null;`,
		[]string{`"X": {"anyOf": [{"type": "string"}]}`},
		[]string{"X||" + string(ReasonNullDropped)}},
	{"record exported as object",
		`type X = Record<string, unknown>;`,
		[]string{`"X": {"type": "object"}`},
		[]string{"X||" + string(ReasonRecordAny)}},
	{"inherited index signature",
		`interface R { [key: string]: unknown; a?: string } interface X extends R { b: string }`,
		[]string{`"R": {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": {}}`,
			`"X": {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}, "required": ["b"]}`},
		[]string{"X|{}|" + string(ReasonRestDropped)}},
	{"union alias inlined",
		`interface P {} interface Q {} interface Z {} type A = P | Q; type U = A | Z;`,
		[]string{`"P": {"type": "object"}`, `"Q": {"type": "object"}`, `"Z": {"type": "object"}`,
			`"A": {"anyOf": [{"$ref": "#/$defs/P"}, {"$ref": "#/$defs/Q"}]}`,
			`"U": {"anyOf": [{"$ref": "#/$defs/P"}, {"$ref": "#/$defs/Q"}, {"$ref": "#/$defs/Z"}]}`},
		[]string{"U||" + string(ReasonInlined)}},
	{"optionality",
		`interface X { a?: string }`,
		[]string{`"X": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}`},
		[]string{"X|a|" + string(ReasonOptional)}},
	{"constraints",
		`interface X { /** @minimum 0 */ a: number }`,
		[]string{`"X": {"type": "object", "properties": {"a": {"type": "integer", "minimum": 1}}, "required": ["a"]}`},
		[]string{"X|a|" + string(ReasonConstraints)}},
	{"members on one side",
		`interface X { a?: string }`,
		[]string{`"X": {"type": "object", "properties": {"b": {"type": "string"}}}`},
		[]string{"X|a|" + string(ReasonNoMemberJS), "X|b|" + string(ReasonNoMemberTS)}},
	{"declarations on one side",
		`interface X {}`,
		[]string{`"Y": {"type": "object"}`},
		[]string{"X||" + string(ReasonNoDeclJS), "Y||" + string(ReasonNoDeclTS)}},
	{"literal",
		`interface X { a: "x" }`,
		[]string{`"X": {"type": "object", "properties": {"a": {"const": "y"}}, "required": ["a"]}`},
		[]string{"X|a|" + string(ReasonMismatch)}},
	{"nested path",
		`interface X { a?: { b?: string[]; c?: { [key: string]: number } } }`,
		[]string{`"X": {"type": "object", "properties": {"a": {"type": "object", "properties": {
			"b": {"type": "array", "items": {"type": "number"}},
			"c": {"type": "object", "additionalProperties": {"type": "string"}}}}}}`},
		[]string{"X|a.b[]|" + string(ReasonMismatch), "X|a.c{}|" + string(ReasonMismatch)}},
	{"object written out",
		`interface A { a: string } interface X { a: A }`,
		[]string{`"A": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}`,
			`"X": {"type": "object", "properties": {"a": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}}, "required": ["a"]}`},
		[]string{"X|a|" + string(ReasonWrittenOut)}},
	{"object written out with a difference",
		`interface A { a: string } interface X { a: A }`,
		[]string{`"A": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}`,
			`"X": {"type": "object", "properties": {"a": {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}}, "required": ["a"]}`},
		[]string{"X|a.a|" + string(ReasonMismatch)}},
	{"one variant differs in depth",
		`type X = string | { a: string };`,
		[]string{`"X": {"anyOf": [{"type": "string"}, {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}]}`},
		[]string{"X|a|" + string(ReasonMismatch)}},
	{"variants differ",
		`type X = string | number | boolean;`,
		[]string{`"X": {"type": ["string", "null"]}`},
		[]string{"X||" + string(ReasonMismatch)}},
}

// TestCompare checks that the comparer finds and names each kind of difference, and none where
// the two sides mean the same, on small schemas read by both front ends.
func TestCompare(t *testing.T) {
	for _, tt := range compareCases {
		t.Run(tt.name, func(t *testing.T) {
			ts, err := parser.Load("s.ts", []byte(tt.ts))
			require.NoError(t, err)
			js, err := Load("s.json", doc(tt.json...))
			require.NoError(t, err)
			var got []string
			diffs, _ := Compare(ts, js)
			for _, d := range diffs {
				got = append(got, strings.Join([]string{d.Decl, d.Path, string(d.Reason)}, "|"))
			}
			assert.Equal(t, tt.want, got)
		})
	}
}
