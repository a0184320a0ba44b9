// Package jsoneq compares JSON documents as values. It is a copy of Equal from
// gen/internal/jsontest (an internal package of the gen module, which this module cannot import).
package jsoneq

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"slices"
	"strings"
)

// numbers are compared by exact value (1, 1.0 and 1e0 are equal; no float64 rounding). A non-nil
// error names the JSON pointer of the first difference.
func Equal(a, b []byte) error {
	va, err := decode(a)
	if err != nil {
		return fmt.Errorf("first document: %w", err)
	}
	vb, err := decode(b)
	if err != nil {
		return fmt.Errorf("second document: %w", err)
	}
	return equal("", va, vb)
}

// decode reads one JSON document into maps, slices, json.Number, string, bool and nil. Unlike
// json.Unmarshal it rejects duplicate member names and trailing data, so that a document with
// a member written twice cannot compare equal to one without.
func decode(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := value(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("trailing data after the document")
	}
	return v, nil
}

func value(dec *json.Decoder) (any, error) {
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
			if m[name], err = value(dec); err != nil {
				return nil, err
			}
		}
		_, err := dec.Token() // '}'
		return m, err
	case json.Delim('['):
		a := []any{}
		for dec.More() {
			v, err := value(dec)
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

func equal(ptr string, a, b any) error {
	switch a := a.(type) {
	case map[string]any:
		bm, ok := b.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: object became %s", at(ptr), kind(b))
		}
		keys := make([]string, 0, len(a)+len(bm))
		for k := range a {
			keys = append(keys, k)
		}
		for k := range bm {
			if _, ok := a[k]; !ok {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			p := ptr + "/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(k)
			av, aok := a[k]
			bv, bok := bm[k]
			switch {
			case !bok:
				return fmt.Errorf("%s: member lost", p)
			case !aok:
				return fmt.Errorf("%s: member added", p)
			}
			if err := equal(p, av, bv); err != nil {
				return err
			}
		}
		return nil
	case []any:
		ba, ok := b.([]any)
		if !ok {
			return fmt.Errorf("%s: array became %s", at(ptr), kind(b))
		}
		if len(a) != len(ba) {
			return fmt.Errorf("%s: array of %d became %d elements", at(ptr), len(a), len(ba))
		}
		for i := range a {
			if err := equal(fmt.Sprintf("%s/%d", ptr, i), a[i], ba[i]); err != nil {
				return err
			}
		}
		return nil
	case json.Number:
		bn, ok := b.(json.Number)
		if !ok {
			return fmt.Errorf("%s: number became %s", at(ptr), kind(b))
		}
		x, okx := new(big.Rat).SetString(a.String())
		y, oky := new(big.Rat).SetString(bn.String())
		if !okx || !oky || x.Cmp(y) != 0 {
			return fmt.Errorf("%s: number %s became %s", at(ptr), a, bn)
		}
		return nil
	default: // string, bool, nil
		if a != b {
			return fmt.Errorf("%s: %#v became %#v", at(ptr), a, b)
		}
		return nil
	}
}

func at(ptr string) string {
	if ptr == "" {
		return "(root)"
	}
	return ptr
}

func kind(v any) string {
	switch v.(type) {
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case json.Number:
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

// RoundTrip decodes every file dir/<Type>/*.json into a new value from types[<Type>] with
// json.Unmarshal, validates it, encodes it back with json.Marshal, and requires the result to
// equal the file as a JSON value. Every example directory must have a type and every type an example directory.
// It logs and returns the number of files that round-tripped; version names the package's spec
