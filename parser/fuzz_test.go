package parser

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/model"
)

// FuzzParse checks the TypeScript front end on any input: Load either succeeds or fails with one
// error line that names a position inside the input and is of bounded length; it never panics,
// and a schema it loads has at least one declaration.
func FuzzParse(f *testing.F) {
	for _, pattern := range []string{"testdata/*.ts", "testdata/oracle/*.ts"} {
		files, err := filepath.Glob(pattern)
		if err != nil || len(files) == 0 {
			f.Fatalf("no seeds for %s: %v", pattern, err)
		}
		for _, file := range files {
			src, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(src)
		}
	}
	// Every 25th generated form: the syntax beyond the subset.
	for i, form := range generateForms() {
		if i%25 == 0 {
			f.Add([]byte(form.src))
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		s, err := Load("f.ts", src)
		if err == nil {
			if len(s.Decls) == 0 {
				t.Fatal("loaded a schema without declarations")
			}
			return
		}
		msg := err.Error()
		if _, _, ok := errorPosition("f.ts", string(src), err); !ok {
			t.Fatalf("error without a position inside the input: %.500s", msg)
		}
		if strings.Contains(msg, "\n") {
			t.Fatalf("error of several lines: %.500q", msg)
		}
		if len(msg) > len("f.ts:")+40+model.MaxMessage+len("…") {
			t.Fatalf("error of %d bytes: %.500s", len(msg), msg)
		}
	})
}
