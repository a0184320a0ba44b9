package speclint

import (
	"fmt"
	"slices"

	"github.com/mcpgen/mcpgen/jsonschema"
	"github.com/mcpgen/mcpgen/model"
)

// Meaning lost in the export: every difference between the model of schema.ts and the model of
// schema.json (jsonschema.Compare) is a finding, except those that every export makes without
// changing which values validate (sameValues).

// export adds the findings of the export of v.
func (l *linter) export(v *version) {
	if v.js == nil {
		return
	}
	diffs, _ := jsonschema.Compare(v.raw, v.js)
	for _, d := range diffs {
		if sameValues(d) {
			continue
		}
		l.add(d.TSPos, ExportLoss, d.At(), "%s (%s)", lostText(v.raw, d), where("schema.json", d.JSONPos))
	}
}

// sameValues reports whether a difference is one that changes only how the export writes the
// type, not which values it accepts:
//   - an open enum (`"a" | "b" | string`) exported as a string: both accept any string;
//   - `Record<string, unknown>` exported as {"type": "object"}: both accept any object;
//   - a union naming a union alias, exported with the alias's variants written out;
//   - a reference to an object exported as a copy of the object;
//   - an index signature of unknown values that the export leaves out of the interfaces extending
//     the one that declares it: a JSON Schema object accepts any other member anyway.
//
// An index signature of another type, left out, is a loss: schema.json then accepts members of
// any type.
func sameValues(d jsonschema.Difference) bool {
	switch d.Reason {
	case jsonschema.ReasonOpenEnum, jsonschema.ReasonRecordAny, jsonschema.ReasonInlined, jsonschema.ReasonWrittenOut:
		return true
	case jsonschema.ReasonRestDropped:
		return d.TS != nil && d.TS.Kind == model.Any
	}
	return false
}

// where names a position of a file for a message, "" when there is none.
func where(what string, p model.Pos) string {
	if p.Line == 0 {
		return "not in " + what
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// lostText says what the export loses; ts is the model of schema.ts.
func lostText(ts *model.Schema, d jsonschema.Difference) string {
	switch d.Reason {
	case jsonschema.ReasonNullDropped:
		s := "schema.json drops the null of schema.ts' union: a validator of schema.json rejects null here, which schema.ts allows"
		if freeForm(ts, d.TS) && onlyIntegers(d.JSON) {
			s += "; and it accepts only integers, where schema.ts' number is any number"
		}
		return s
	case jsonschema.ReasonOptional:
		if d.TSText == "required" {
			return "required in schema.ts, optional in schema.json: schema.json accepts objects without it"
		}
		return "optional in schema.ts, required in schema.json: schema.json rejects objects without it"
	case jsonschema.ReasonConstraints:
		return fmt.Sprintf("the value rules differ: schema.ts has %s, schema.json has %s", d.TSText, d.JSONText)
	case jsonschema.ReasonNoMemberJS:
		return fmt.Sprintf("declared in schema.ts (%s), missing from schema.json", d.TSText)
	case jsonschema.ReasonNoMemberTS:
		return fmt.Sprintf("declared only in schema.json (%s), not in schema.ts", d.JSONText)
	case jsonschema.ReasonNoDeclJS:
		return "declared in schema.ts, missing from schema.json: nothing validates a value of this type by its name"
	case jsonschema.ReasonNoDeclTS:
		return "declared only in schema.json, not in schema.ts"
	case jsonschema.ReasonRestDropped:
		return fmt.Sprintf("the index signature [key: string]: %s is missing from schema.json, which accepts other members of any type", d.TSText)
	}
	return mismatchText(d)
}

// mismatchText says what a type exported as another loses.
func mismatchText(d jsonschema.Difference) string {
	a, b := d.TS, d.JSON
	switch {
	case a != nil && b != nil && a.Kind == model.Number && b.Kind == model.Integer:
		return "a number (@TJS-type number) exported as an integer: schema.json rejects 0.5"
	case a != nil && b != nil && a.Kind == model.Integer && b.Kind == model.Number:
		return "an integer exported as a number: schema.json accepts 0.5"
	case a != nil && b != nil && a.Kind == model.Literal && b.Kind != model.Literal:
		return fmt.Sprintf("the constant %s is exported as %s, which accepts other values", d.TSText, d.JSONText)
	case a != nil && b != nil && closedEnum(a) && b.Kind == model.String:
		return fmt.Sprintf("the closed enum %s is exported as a string, which accepts any string", d.TSText)
	}
	return fmt.Sprintf("schema.ts says %s, schema.json says %s", d.TSText, d.JSONText)
}

// freeForm reports whether t is a union with a variant of each of the six JSON kinds (JSONValue),
// references resolved in s.
func freeForm(s *model.Schema, t *model.Type) bool {
	if t == nil || t.Kind != model.Union {
		return false
	}
	kinds := map[string]bool{}
	for _, v := range t.Union.Variants {
		if r, err := s.Deref(v); err == nil {
			kinds[jsonKindOf(r)] = true
		}
	}
	for _, k := range []string{"string", "number", "boolean", "null", "object", "array"} {
		if !kinds[k] {
			return false
		}
	}
	return true
}

// onlyIntegers reports whether the union t has an integer variant and no number variant.
func onlyIntegers(t *model.Type) bool {
	return t != nil && t.Kind == model.Union &&
		slices.ContainsFunc(t.Union.Variants, func(v *model.Type) bool { return v.Kind == model.Integer }) &&
		!slices.ContainsFunc(t.Union.Variants, func(v *model.Type) bool { return v.Kind == model.Number })
}

// closedEnum reports whether t is a union of string literals only.
func closedEnum(t *model.Type) bool {
	if t.Kind != model.Union {
		return false
	}
	for _, v := range t.Union.Variants {
		if v.Kind != model.Literal || v.Literal.Kind != model.String {
			return false
		}
	}
	return true
}

// jsonKindOf names the JSON kind of a type that is not a reference, "any" for free-form JSON and
// "union" for a union.
func jsonKindOf(t *model.Type) string {
	switch t.Kind {
	case model.String:
		return "string"
	case model.Integer, model.Number:
		return "number"
	case model.Boolean:
		return "boolean"
	case model.Null:
		return "null"
	case model.Object, model.Map:
		return "object"
	case model.Array:
		return "array"
	case model.Literal:
		return jsonKindOf(&model.Type{Kind: t.Literal.Kind})
	}
	return t.Kind.String() // any, union, ref
}
