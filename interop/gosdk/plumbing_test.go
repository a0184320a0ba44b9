package gosdk

import (
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestBuiltOnlyOnGen checks that the server and the client import nothing but the standard
// library and the generated package.
func TestBuiltOnlyOnGen(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		n++
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			first, _, _ := strings.Cut(path, "/")
			if strings.Contains(first, ".") && path != "github.com/mcpgen/mcpgen/gen/mcp20251125" {
				t.Errorf("%s imports %s", file, path)
			}
		}
	}
	if n < 3 {
		t.Errorf("found %d files of the server and client, want peer.go, server.go, client.go", n)
	}
}

// codeLines counts the lines of a Go file that are neither blank nor only a comment.
func codeLines(t *testing.T, file string) int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line != "" && !strings.HasPrefix(line, "//") {
			n++
		}
	}
	return n
}

// TestPlumbingLines counts the plumbing that the generated package leaves to its user (peer.go)
// and the application code (server.go, client.go), and checks that gen/README.md quotes the
// counts.
func TestPlumbingLines(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "gen", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ file, phrase string }{
		{"peer.go", "%d lines of plumbing"},
		{"server.go", "server (%d lines"},
		{"client.go", "client (%d lines"},
	} {
		n := codeLines(t, c.file)
		t.Logf("%s: %d lines of code", c.file, n)
		if want := fmt.Sprintf(c.phrase, n); !strings.Contains(string(readme), want) {
			t.Errorf("gen/README.md does not say %q", want)
		}
	}
}
