// Package jsonvalue compares JSON documents as values and escapes the tokens of JSON pointers
// (RFC 6901).
//
// The file jsonvalue.go is written once, in the gen module's internal/jsonvalue, and copied by
// `go generate` into the internal/jsonvalue of each other module that needs it: an internal
// package cannot be imported from another module, and these helpers are too small to be worth a
// module of their own or a place in a published API. Each copy has a test that it is the same as
// the original.
package jsonvalue

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"math/big"
	"slices"
	"strings"
)

// EscapeToken escapes s for use as one reference token of a JSON pointer: "~" becomes "~0" and
// "/" becomes "~1".
func EscapeToken(s string) string {
	return tokenEscaper.Replace(s)
}

var tokenEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// Decode reads one JSON document into maps, slices, json.Number, string, bool and nil. Unlike
// json.Unmarshal it rejects duplicate member names and trailing data, so that a document with
// a member written twice cannot compare equal to one without.
func Decode(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("trailing data after the document")
	}
	return v, nil
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		m := map[string]any{}
		for dec.More() {
			key, err := dec.Token()
			if err != nil {
				return nil, err
			}
			name := key.(string)
			if _, dup := m[name]; dup {
				return nil, fmt.Errorf("duplicate member %q", name)
			}
			if m[name], err = decodeValue(dec); err != nil {
				return nil, err
			}
		}
		_, err := dec.Token() // '}'
		return m, err
	case json.Delim('['):
		a := []any{}
		for dec.More() {
			v, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		_, err := dec.Token() // ']'
		return a, err
	}
	return tok, nil
}

// Absent stands in a [Difference] for the value of a member that one side does not have.
var Absent any = absent{}

type absent struct{}

// A Difference is a place where two JSON values differ.
type Difference struct {
	// Pointer is the JSON pointer of the place; "" is the whole value.
	Pointer string
	// A and B are the two values there, or Absent for a member that one side lacks.
	A, B any
}

// Differences yields the places where a and b differ, in document order (object members sorted
// by name). The values are those of json.Unmarshal into an any, or of [Decode]. It descends into
// objects on both sides and into arrays of the same length on both sides; anything else that is
// not equal is one difference. Numbers compare by exact value when they are json.Number (1, 1.0
// and 1e0 are equal, with no float64 rounding).
func Differences(a, b any) iter.Seq[Difference] {
	return func(yield func(Difference) bool) {
		differences("", a, b, yield)
	}
}

func differences(ptr string, a, b any, yield func(Difference) bool) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			break
		}
		keys := make([]string, 0, len(x)+len(y))
		for k := range x {
			keys = append(keys, k)
		}
		for k := range y {
			if _, ok := x[k]; !ok {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			p := ptr + "/" + EscapeToken(k)
			xv, inX := x[k]
			yv, inY := y[k]
			switch {
			case !inY:
				yv = Absent
			case !inX:
				xv = Absent
			}
			if !inX || !inY {
				if !yield(Difference{Pointer: p, A: xv, B: yv}) {
					return false
				}
				continue
			}
			if !differences(p, xv, yv, yield) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			break
		}
		for i := range x {
			if !differences(fmt.Sprintf("%s/%d", ptr, i), x[i], y[i], yield) {
				return false
			}
		}
		return true
	case json.Number:
		if y, ok := b.(json.Number); ok && sameNumber(x, y) {
			return true
		}
	default: // string, float64, bool, nil
		if a == b {
			return true
		}
	}
	return yield(Difference{Pointer: ptr, A: a, B: b})
}

func sameNumber(a, b json.Number) bool {
	x, okx := new(big.Rat).SetString(a.String())
	y, oky := new(big.Rat).SetString(b.String())
	return okx && oky && x.Cmp(y) == 0
}

// Equal reports whether a and b hold the same JSON value: object member order does not matter,
// numbers are compared by exact value (1, 1.0 and 1e0 are equal; no float64 rounding). A non-nil
// error names the JSON pointer of the first difference.
func Equal(a, b []byte) error {
	va, err := Decode(a)
	if err != nil {
		return fmt.Errorf("first document: %w", err)
	}
	vb, err := Decode(b)
	if err != nil {
		return fmt.Errorf("second document: %w", err)
	}
	for d := range Differences(va, vb) {
		return d
	}
	return nil
}

// Error describes the difference as a change from A to B.
func (d Difference) Error() string {
	at := d.Pointer
	if at == "" {
		at = "(root)"
	}
	if _, ok := d.A.(absent); ok {
		return at + ": member added"
	}
	if _, ok := d.B.(absent); ok {
		return at + ": member lost"
	}
	switch x := d.A.(type) {
	case map[string]any:
		return fmt.Sprintf("%s: object became %s", at, kind(d.B))
	case []any:
		if y, ok := d.B.([]any); ok {
			return fmt.Sprintf("%s: array of %d became %d elements", at, len(x), len(y))
		}
		return fmt.Sprintf("%s: array became %s", at, kind(d.B))
	case json.Number:
		if y, ok := d.B.(json.Number); ok {
			return fmt.Sprintf("%s: number %s became %s", at, x, y)
		}
		return fmt.Sprintf("%s: number became %s", at, kind(d.B))
	}
	return fmt.Sprintf("%s: %#v became %#v", at, d.A, d.B)
}

func kind(v any) string {
	switch v.(type) {
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case json.Number, float64:
		return "a number"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", v)
}
