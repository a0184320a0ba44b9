package emit

import (
	"bytes"
	"flag"
	"go/format"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/emit/internal/ir"
	"github.com/mcpgen/mcpgen/templates"
)

var update = flag.Bool("update", false, "rewrite the testdata/*.golden files")

// goldenInputs are the small schemas of testdata.
func goldenInputs(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "*.ts"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	return files
}

// TestGolden generates each testdata/*.ts and compares the files (the runtime excepted) with
// testdata/*.golden.
func TestGolden(t *testing.T) {
	for _, file := range goldenInputs(t) {
		t.Run(filepath.Base(file), func(t *testing.T) {
			got := concat(generate(t, load(t, file, "test"), "mcptest"))
			golden := strings.TrimSuffix(file, ".ts") + ".golden"
			if *update {
				require.NoError(t, os.WriteFile(golden, got, 0o644))
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err)
			assert.Equal(t, string(want), string(got))
		})
	}
}

// TestGoldenCompiles checks that the package generated for each testdata/*.ts compiles and
// passes go vet.
func TestGoldenCompiles(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	for _, file := range goldenInputs(t) {
		t.Run(filepath.Base(file), func(t *testing.T) {
			t.Parallel()
			files := generate(t, load(t, file, "test"), "mcptest")
			goTool(t, writeModule(t, "mcptest", files), "vet", "./...")
		})
	}
}

// TestDeterministic loads and generates the draft schema several times and expects the same
// bytes each time.
func TestDeterministic(t *testing.T) {
	first := concat(generate(t, load(t, "../schema/draft/schema.ts", "draft"), "mcpdraft"))
	for range 3 {
		require.Equal(t, first, concat(generate(t, load(t, "../schema/draft/schema.ts", "draft"), "mcpdraft")))
	}
}

// concat joins the generated files but the runtime (wire*.go), each after a "-- name --" line.
func concat(files map[string][]byte) []byte {
	var b bytes.Buffer
	names := slices.Sorted(func(yield func(string) bool) {
		for name := range files {
			if !strings.HasPrefix(name, "wire") && !yield(name) {
				return
			}
		}
	})
	for _, name := range names {
		b.WriteString("-- " + name + " --\n")
		b.Write(files[name])
	}
	return b.Bytes()
}

// TestFormatted checks that gofmt leaves the generated draft package unchanged, doc comments
// included.
func TestFormatted(t *testing.T) {
	files := generate(t, load(t, "../schema/draft/schema.ts", "draft"), "mcpdraft")
	for name, src := range files {
		formatted, err := format.Source(src)
		require.NoError(t, err, name)
		assert.Equal(t, string(src), string(formatted), name)
		prefix := "// " + header + "\n\npackage mcpdraft\n"
		if name == "doc.go" {
			prefix = "// " + header + "\n// Schema: MCP draft (sha256:0123).\n\n"
		}
		assert.True(t, strings.HasPrefix(string(src), prefix), name)
	}
}

// TestPlanDump plans each testdata/*.ts and compares the plan's dump (ir.Dump) with
// testdata/*.plan.golden: a change of a decision shows there before it shows in the code.
func TestPlanDump(t *testing.T) {
	for _, file := range goldenInputs(t) {
		t.Run(filepath.Base(file), func(t *testing.T) {
			s := load(t, file, "test")
			p, err := makePlan(s, Options{Package: "mcptest", Version: s.Version, SchemaHash: "sha256:0123",
				Runtime: templates.Runtime(), Parts: templates.Parts()})
			require.NoError(t, err)
			got := ir.Dump(p.toIR())
			require.Equal(t, got, ir.Dump(p.toIR()), "the dump is deterministic")
			golden := strings.TrimSuffix(file, ".ts") + ".plan.golden"
			if *update {
				require.NoError(t, os.WriteFile(golden, []byte(got), 0o644))
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err)
			assert.Equal(t, string(want), got)
		})
	}
}
