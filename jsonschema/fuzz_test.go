package jsonschema

import (
	"os"
	"regexp"
	"testing"

	"github.com/mcpgen/mcpgen/model"
)

// positioned is how every error of the reader and of Classify starts.
var positioned = regexp.MustCompile(`^f\.json:\d+:\d+: `)

// FuzzLoad checks that any schema.json input either loads and classifies, or fails with a
// positioned error; never a panic.
func FuzzLoad(f *testing.F) {
	for _, file := range []string{"../schema/2024-11-05/schema.json", "../schema/draft/schema.json"} {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"$defs":{"A":{"type":"object","properties":{"a":{"anyOf":[{"type":"string"},{"$ref":"#/$defs/A"}]}}}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Load("f.json", data)
		if err == nil {
			err = model.Classify(s)
		}
		if err != nil && !positioned.MatchString(err.Error()) {
			t.Fatalf("error without a position: %v", err)
		}
	})
}
