package sdkshape

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/interop/sdkshape/internal/decls"
)

var update = flag.Bool("update", false, "rewrite testdata/measured.txt with the numbers measured now")

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

func first(s []string, n int) []string {
	return s[:min(n, len(s))]
}

func measure(t *testing.T, orig, out string) *decls.Measurement {
	t.Helper()
	o, err := decls.Load(orig)
	if err != nil {
		t.Fatal(err)
	}
	api, err := decls.ExportedTypes(o, "protocol.go", "content.go")
	if err != nil {
		t.Fatal(err)
	}
	p, err := decls.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	return decls.Measure(api, p, []string{"zz_sdkshape_companion.go"})
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
