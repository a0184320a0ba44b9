package validation

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpgen/mcpgen/interop/internal/schemaref"
)

const tinySchema = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$defs": {
    "Msg": {
      "type": "object",
      "required": ["type", "n", "tags"],
      "properties": {
        "type": {"type": "string", "const": "msg"},
        "n": {"type": "integer", "minimum": 0, "maximum": 10},
        "p": {"type": "number", "minimum": 0, "maximum": 1},
        "role": {"type": "string", "enum": ["user", "assistant"]},
        "uri": {"type": "string", "format": "uri"},
        "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 2},
        "part": {"$ref": "#/$defs/Part"},
        "extra": {"$ref": "#/$defs/Free"}
      }
    },
    "Part": {"anyOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}]},
    "A": {"type": "object", "required": ["kind", "a"], "properties": {"kind": {"type": "string", "const": "a"}, "a": {"type": "string"}}},
    "B": {"type": "object", "required": ["kind", "b"], "properties": {"kind": {"type": "string", "const": "b"}, "b": {"type": "boolean"}}},
    "Free": {"additionalProperties": {}, "type": "object"}
  }
}`

// tinyMutants are the mutants TestMutants wants of tinySchema's example, as kind, place and rule.
var tinyMutants = []string{
	"original / #/$defs/Msg",
	"kind / #/$defs/Msg",
	"null / #/$defs/Msg",
	"required /n #/$defs/Msg/properties/n",
	"required /tags #/$defs/Msg/properties/tags",
	"required /type #/$defs/Msg/properties/type",
	"kind /extra #/$defs/Msg/properties/extra",
	"null /extra #/$defs/Msg/properties/extra",
	"kind /n #/$defs/Msg/properties/n",
	"null /n #/$defs/Msg/properties/n",
	"integer /n #/$defs/Msg/properties/n",
	"integral-float /n #/$defs/Msg/properties/n",
	"minimum /n #/$defs/Msg/properties/n/minimum",
	"maximum /n #/$defs/Msg/properties/n/maximum",
	"kind /p #/$defs/Msg/properties/p",
	"null /p #/$defs/Msg/properties/p",
	"minimum /p #/$defs/Msg/properties/p/minimum",
	"maximum /p #/$defs/Msg/properties/p/maximum",
	"null /part #/$defs/Msg/properties/part",
	"kind /part #/$defs/Msg/properties/part",
	"required /part/a #/$defs/A/properties/a",
	"required /part/kind #/$defs/A/properties/kind",
	"discriminator /part/kind #/$defs/Part/anyOf/1",
	"kind /part/a #/$defs/A/properties/a",
	"null /part/a #/$defs/A/properties/a",
	"kind /part/kind #/$defs/A/properties/kind",
	"null /part/kind #/$defs/A/properties/kind",
	"const /part/kind #/$defs/A/properties/kind/const",
	"kind /role #/$defs/Msg/properties/role",
	"null /role #/$defs/Msg/properties/role",
	"enum /role #/$defs/Msg/properties/role/enum",
	"kind /tags #/$defs/Msg/properties/tags",
	"null /tags #/$defs/Msg/properties/tags",
	"maxItems /tags #/$defs/Msg/properties/tags/maxItems",
	"kind /tags/0 #/$defs/Msg/properties/tags/items",
	"null /tags/0 #/$defs/Msg/properties/tags/items",
	"kind /type #/$defs/Msg/properties/type",
	"null /type #/$defs/Msg/properties/type",
	"const /type #/$defs/Msg/properties/type/const",
	"kind /uri #/$defs/Msg/properties/uri",
	"null /uri #/$defs/Msg/properties/uri",
	"format /uri #/$defs/Msg/properties/uri/format",
}

// TestMutants pins the mutants of a small example: one per rule the schema states at each
// place, through $ref and the anyOf branch the value matches, and no others.
func TestMutants(t *testing.T) {
	r, err := schemaref.New([]byte(tinySchema))
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(
		`{"type":"msg","n":3,"p":0.5,"role":"user","uri":"https://example.com/","tags":["t"],"part":{"kind":"a","a":"x"},"extra":{"k":1}}`))
	if err != nil {
		t.Fatal(err)
	}
	ms, err := mutants(r, "#/$defs/Msg", inst)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range ms {
		got = append(got, fmt.Sprintf("%s %s %s", m.kind, pointerOrRoot(m.at), m.rule))
		valid := r.Validate("#/$defs/Msg", m.doc) == nil
		switch m.kind {
		case kindOriginal, kindIntegralFloat, kindBigInteger:
			if !valid {
				t.Errorf("%s mutant at %s is rejected, but it is valid by design: %s", m.kind, m.at, m.data)
			}
		default:
			if valid {
				t.Errorf("%s mutant at %s is accepted by the reference: %s", m.kind, m.at, m.data)
			}
		}
	}
	want := slices.Clone(tinyMutants)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("mutants:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The example itself is not changed by making its mutants.
	if data, _ := json.Marshal(inst); !bytes.Equal(data, ms[0].data) {
		t.Errorf("the example changed: %s", data)
	}
}

func pointerOrRoot(at string) string {
	if at == "" {
		return "/"
	}
	return at
}
