// Package jsontest runs the example round-trip tests of the generated packages.
package jsontest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/gen/internal/jsonvalue"
)

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
		if err := jsonvalue.Equal(data, out); err != nil {
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
