package sdkshape

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/interop/sdkshape/internal/decls"
)

var update = flag.Bool("update", false, "rewrite testdata/measured.txt with the numbers measured now")

// companion is the name run.sh gives testdata/companion.go in go-sdk's mcp directory.
const companion = "zz_sdkshape_companion.go"

// The floors: how much of go-sdk's API (the exported types of mcp/protocol.go and
// mcp/content.go) mcpgen's output must declare, and the share of their exported fields that
// must keep their name and Go type.
const (
	typesFloor = 83
	fieldFloor = 0.96
)

// TestGoSDKAPIKept prepares go-sdk v1.8.0 with mcpgen's output as run.sh does (without vet and
// test) and measures how much of go-sdk's protocol API the output declares. It fails when the
// numbers fall below those recorded in testdata/measured.txt (run with -update when they rise),
// and when the floors are met and then lost; while they are not met, it is skipped with the
// numbers and what is missing.
func TestGoSDKAPIKept(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("run.sh needs bash")
	}
	dir := filepath.Join(t.TempDir(), "go-sdk")
	out, err := exec.Command("bash", "run.sh", "-n", dir).CombinedOutput()
	if err != nil {
		t.Fatalf("run.sh -n: %v\n%s", err, out)
	}
	orig := goSDKDir(t)
	checkOnlyReplaced(t, filepath.Join(orig, "mcp"), filepath.Join(dir, "mcp"))
	m := measure(t, filepath.Join(orig, "mcp"), filepath.Join(dir, "mcp"))
	t.Log(m)

	got := fmt.Sprintf("types %d of %d\nfields %d of %d\n", len(m.Declared), m.Types, m.Kept, m.Fields)
	const recorded = "testdata/measured.txt"
	if *update {
		if err := os.WriteFile(recorded, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(recorded)
	if err != nil {
		t.Fatal(err)
	}
	var wantTypes, wantKept, n1, n2 int
	if _, err := fmt.Sscanf(string(want), "types %d of %d\nfields %d of %d\n", &wantTypes, &n1, &wantKept, &n2); err != nil {
		t.Fatalf("%s: %v", recorded, err)
	}
	if len(m.Declared) < wantTypes || m.Kept < wantKept {
		t.Errorf("fewer of go-sdk's types or fields kept than %s records:\n%s\nwant at least\n%s", recorded, got, want)
	}
	if got != string(want) && !*update {
		t.Logf("%s records other numbers (-update rewrites it):\n%s", recorded, want)
	}

	if len(m.Declared) >= typesFloor && m.FieldShare() >= fieldFloor {
		return
	}
	var why []string
	if len(m.Declared) < typesFloor {
		why = append(why, fmt.Sprintf("%d of %d types declared, floor %d; missing: %s", len(m.Declared), m.Types, typesFloor, strings.Join(m.Missing, ", ")))
	}
	if m.FieldShare() < fieldFloor {
		why = append(why, fmt.Sprintf("%.1f%% of the fields kept, floor %.0f%%; %d lost, e.g.\n\t%s", 100*m.FieldShare(), 100*fieldFloor, len(m.Lost), strings.Join(first(m.Lost, 20), "\n\t")))
	}
	t.Skipf("the floors are not met yet:\n%s", strings.Join(why, "\n"))
}

// apiFiles are go-sdk's files of protocol types, which the generated ones replace.
var apiFiles = []string{"protocol.go", "content.go"}

// checkOnlyReplaced checks that run.sh removed from go-sdk's files only what the generated
// files replace, and changed nothing else: every declaration that go-sdk's mcp package had
// and no longer has is in protocol.go or content.go, or is a constant (the schema's error codes,
// which go-sdk declares in shared.go); every file but those is byte for byte as go-sdk has it
// but for the removals; no test file is changed.
func checkOnlyReplaced(t *testing.T, orig, out string) {
	t.Helper()
	o, err := decls.Load(orig)
	if err != nil {
		t.Fatal(err)
	}
	p, err := decls.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	before, after := o.Decls(), p.Decls(companion)
	changed := map[string]bool{}
	for key, d := range before {
		if _, ok := after[key]; ok {
			continue
		}
		changed[d.File] = true
		if !slices.Contains(apiFiles, d.File) && d.Kind != "const" {
			t.Errorf("run.sh removed %s %s from %s, which is not a protocol type's file", d.Kind, key, d.File)
		}
	}
	names, err := filepath.Glob(filepath.Join(orig, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		base := filepath.Base(name)
		if changed[base] {
			continue
		}
		a, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(out, base))
		if err != nil {
			t.Fatal(err)
		}
		if string(a) != string(b) {
			t.Errorf("run.sh changed go-sdk's %s, from which it removed nothing", base)
		}
	}
}

func first(s []string, n int) []string {
	return s[:min(n, len(s))]
}

func measure(t *testing.T, orig, out string) *decls.Measurement {
	t.Helper()
	o, err := decls.Load(orig)
	if err != nil {
		t.Fatal(err)
	}
	api, err := decls.ExportedTypes(o, apiFiles...)
	if err != nil {
		t.Fatal(err)
	}
	p, err := decls.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	return decls.Measure(api, p, []string{companion})
}

// goSDKDir is the module cache's go-sdk v1.8.0, the version run.sh downloads (and this module
// requires, for the tests of ../gosdk).
func goSDKDir(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "mod", "download", "-json", "github.com/modelcontextprotocol/go-sdk@v1.8.0").Output()
	if err != nil {
		t.Fatalf("go mod download: %v", err)
	}
	var m struct{ Dir string }
	if err := json.Unmarshal(out, &m); err != nil || m.Dir == "" {
		t.Fatalf("go mod download gave no directory: %v\n%s", err, out)
	}
	return m.Dir
}
