package emit

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/mcpgen/mcpgen/jsonschema"
	"github.com/mcpgen/mcpgen/model"
	"github.com/mcpgen/mcpgen/parser"
)

// positioned is how every error of the generator starts: the file, a line and a column.
var positioned = regexp.MustCompile(`^f\.(ts|json):\d+:\d+: `)

// FuzzGenerate runs the whole generator on any input, as schema.ts (json false) or schema.json:
// it loads and classifies and generates the Go files, or fails with an error that names a
// position; it never panics, and what it generates is gofmt-formatted Go (Generate formats every
// file, and fails when it cannot).
func FuzzGenerate(f *testing.F) {
	for _, pattern := range []string{"testdata/*.ts", "../parser/testdata/*.ts", "../parser/testdata/oracle/*.ts"} {
		files, err := filepath.Glob(pattern)
		if err != nil || len(files) == 0 {
			f.Fatalf("no seeds for %s: %v", pattern, err)
		}
		for _, file := range files {
			src, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(false, src)
		}
	}
	f.Add(true, []byte(`{"definitions": {"A": {"type": "object", "properties": {"a": {"anyOf": [{"type": "string"}, {"$ref": "#/definitions/A"}]}, "b": {"enum": ["x", "y"]}}, "required": ["a"]}}}`))
	f.Fuzz(func(t *testing.T, json bool, src []byte) {
		var s *model.Schema
		var err error
		if json {
			s, err = jsonschema.Load("f.json", src)
		} else {
			s, err = parser.Load("f.ts", src)
		}
		if err == nil {
			s.Version = "fuzz"
			err = model.Classify(s)
		}
		if err == nil {
			_, err = Generate(s, Options{Package: "p", Version: "fuzz", SchemaHash: "sha256:0"})
		}
		if err != nil && !positioned.MatchString(err.Error()) {
			t.Fatalf("error without a position: %.500s", err)
		}
	})
}
