package emit

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRoundTripExamples generates the package of each schema version that has examples and
// checks, in it, that every example decodes into its type and encodes back to the same JSON.
func TestRoundTripExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	versions, err := filepath.Glob("../schema/*/examples")
	require.NoError(t, err)
	require.NotEmpty(t, versions)
	for _, dir := range versions {
		version := filepath.Base(filepath.Dir(dir))
		t.Run(version, func(t *testing.T) {
			t.Parallel()
			roundTrip(t, version)
		})
	}
}

func roundTrip(t *testing.T, version string) {
	examples, err := filepath.Abs(filepath.Join("..", "schema", version, "examples"))
	require.NoError(t, err)
	dirs, err := os.ReadDir(examples)
	require.NoError(t, err)

	s := load(t, filepath.Join("..", "schema", version, "schema.ts"), version)
	files := generate(t, s, "mcp")
	var cases bytes.Buffer
	for _, d := range dirs {
		name := goName(d.Name())
		decode := fmt.Sprintf("func(b []byte) (any, error) { var v %s; err := json.Unmarshal(b, &v); return &v, err }", name)
		if bytes.Contains(files["unions.go"], []byte("func Unmarshal"+name+"(data []byte)")) {
			decode = fmt.Sprintf("func(b []byte) (any, error) { return Unmarshal%s(b) }", name)
		}
		fmt.Fprintf(&cases, "\t%q: %s,\n", d.Name(), decode)
	}
	files["roundtrip_test.go"] = fmt.Appendf(nil, roundTripTest, examples, cases.String())
	goTool(t, writeModule(t, "mcp", files), "test", "-v", "./...")
}

const roundTripTest = `package mcp

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

const examples = %q

var decoders = map[string]func([]byte) (any, error){
%s}

func TestExamples(t *testing.T) {
	n := 0
	for typ, decode := range decoders {
		paths, _ := filepath.Glob(filepath.Join(examples, typ, "*.json"))
		for _, path := range paths {
			n++
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			v, err := decode(data)
			if err != nil {
				t.Errorf("%%s: decode: %%v", path, err)
				continue
			}
			out, err := json.Marshal(v)
			if err != nil {
				t.Errorf("%%s: encode: %%v", path, err)
				continue
			}
			if !sameJSON(data, out) {
				t.Errorf("%%s: round trip differs:\n%%s", path, out)
			}
		}
	}
	t.Logf("%%d examples", n)
}

func sameJSON(a, b []byte) bool {
	var x, y any
	da, db := json.NewDecoder(bytes.NewReader(a)), json.NewDecoder(bytes.NewReader(b))
	da.UseNumber()
	db.UseNumber()
	return da.Decode(&x) == nil && db.Decode(&y) == nil && reflect.DeepEqual(x, y)
}
`
