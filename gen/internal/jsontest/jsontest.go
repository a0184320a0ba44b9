// Package jsontest compares JSON documents as values and runs the example round-trip tests of the
// generated packages.
package jsontest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Equal reports whether a and b hold the same JSON value: object member order does not matter,
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
// version in the log.
func RoundTrip(t *testing.T, version, dir string, types map[string]func() any) int {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	dirs := map[string]bool{}
	for i, file := range files {
		files[i], err = filepath.Rel(dir, file)
		if err != nil {
			t.Fatal(err)
		}
		dirs[filepath.Dir(files[i])] = true
	}
	for name := range types {
		if !dirs[name] {
			t.Errorf("type %s is registered but %s/%s has no examples", name, dir, name)
		}
	}
	return roundTrip(t, version, dir, files, types)
}

// Defects are the examples of the spec that contradict its own schema, by file ("<Type>/<file>.json"),
// each with the error that decoding or validating it must give: they are not counted as
// round-tripped, and the test fails if one stops failing (the spec fixed it) or fails otherwise.
var Defects = map[string]string{
	// ReadResourceResult extends CacheableResult, whose ttlMs and cacheScope are required; this
	// example (resultType "complete") has neither. schema.json accepts it only because it also
	// fits InputRequiredResult, which has no resultType constant; the spec's text makes
	// "complete" the complete result.
	"ReadResourceResultResponse/read-resource-result-response.json": `/result: missing required member "ttlMs"`,
}

// RoundTripListed is RoundTrip for the files named in list, one "<Type>/<file>.json" per line,
// relative to dir.
func RoundTripListed(t *testing.T, version, dir, list string, types map[string]func() any) int {
	t.Helper()
	data, err := os.ReadFile(list)
	if err != nil {
		t.Fatal(err)
	}
	return roundTrip(t, version, dir, strings.Fields(string(data)), types)
}

func roundTrip(t *testing.T, version, dir string, files []string, types map[string]func() any) int {
	t.Helper()
	passed, defects := 0, 0
	for _, rel := range files {
		newValue, ok := types[filepath.Dir(rel)]
		if !ok {
			t.Errorf("%s: no Go type registered for %s", rel, filepath.Dir(rel))
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil {
			t.Fatal(err)
		}
		v := newValue()
		err = json.Unmarshal(data, v)
		if want, ok := Defects[rel]; ok {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: a known defect of the spec gave %v, want %s", rel, err, want)
			}
			defects++
			continue
		}
		if err != nil {
			t.Errorf("%s: decode: %v", rel, err)
			continue
		}
		validated, ok := v.(interface{ Validate() error })
		if !ok {
			t.Errorf("%s: %T has no Validate method", rel, v)
			continue
		}
		if err := validated.Validate(); err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		out, err := json.Marshal(v)
		if err != nil {
			t.Errorf("%s: encode: %v", rel, err)
			continue
		}
		if err := Equal(data, out); err != nil {
			t.Errorf("%s: not lossless: %v\nencoded: %s", rel, err, out)
			continue
		}
		passed++
	}
	t.Logf("MCP %s: %d/%d examples of %s validated and round-tripped losslessly (%d rejected as known defects of the spec, see jsontest.Defects)",
		version, passed, len(files), dir, defects)
	if len(files) == 0 {
		t.Errorf("no examples found in %s", dir)
	}
	return passed
}
