package model_test

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/mcpgen/mcpgen/model"
	"github.com/mcpgen/mcpgen/parser"
)

// positioned is how every error of the parser and of Classify starts: the file name, a line and a column.
var positioned = regexp.MustCompile(`^f\.ts:\d+:\d+: `)

// FuzzLoad checks that any schema.ts input either loads and classifies, or fails with a positioned error;
// never a panic.
func FuzzLoad(f *testing.F) {
	files, _ := filepath.Glob("../parser/testdata/*.ts")
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		s, err := parser.Load("f.ts", src)
		if err == nil {
			err = model.Classify(s)
		}
		if err != nil && !positioned.MatchString(err.Error()) {
			t.Fatalf("error without a position: %v", err)
		}
	})
}
