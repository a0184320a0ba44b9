package sdkshape

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/interop/sdkshape/internal/decls"
)

var update = flag.Bool("update", false, "rewrite testdata/*measured.txt with the numbers measured now")

// companion is the name run.sh gives the companion in the SDK's mcp directory.
const companion = "zz_sdkshape_companion.go"

// An sdk is an SDK whose protocol API run.sh generates: where it comes from, the files of its
// protocol types, and the floors of the measurement.
type sdk struct {
	name, module string
	// apiFiles are the SDK's files of protocol types, which the generated ones replace; run.sh
	// may remove constants from the SDK's other files too where constsElsewhere is set (go-sdk
	// declares the schema's error codes in shared.go).
	apiFiles        []string
	constsElsewhere bool
	// The floors: how many of the SDK's exported types of apiFiles mcpgen's output declares
	// (typesFloor) and declares identical field for field (identicalFloor), the share of their
	// exported fields that keep their name and Go type, and the most lines of the companion and
	// standIn entries of the configurations (0: no floor).
	typesFloor, identicalFloor int
	fieldFloor                 float64
	companionLines, standIns   int
	companion                  string   // the companion's file in this directory
	configs                    []string // the configurations run.sh applies
	recorded                   string   // the numbers measured
}

var (
	goSDK = sdk{name: "go-sdk", module: "github.com/modelcontextprotocol/go-sdk@v1.8.0",
		apiFiles: []string{"protocol.go", "content.go"}, constsElsewhere: true,
		typesFloor: 83, fieldFloor: 0.96, companion: "testdata/companion.go",
		configs: []string{"gosdk.yaml", "gosdk-20251125.yaml"}, recorded: "testdata/measured.txt"}
	mcpGo = sdk{name: "mcp-go", module: "github.com/mark3labs/mcp-go@v1.2.1",
		apiFiles:   []string{"types.go", "prompts.go", "tools.go", "discover.go", "result.go", "mrtr.go", "errors.go"},
		typesFloor: 90, identicalFloor: 90, fieldFloor: 0.99, companionLines: 30, standIns: 6,
		companion: "testdata/mcpgo_companion.go", configs: []string{"mcpgo.yaml", "mcpgo-20251125.yaml"},
		recorded: "testdata/mcpgo_measured.txt"}
)

// TestGoSDKAPIKept prepares go-sdk v1.8.0 with mcpgen's output as run.sh does (without vet and
// test) and measures how much of go-sdk's protocol API the output declares. It fails when the
// numbers fall below those recorded in testdata/measured.txt (run with -update when they rise),
// and when the floors are met and then lost; while they are not met, it is skipped with the
// numbers and what is missing.
func TestGoSDKAPIKept(t *testing.T) { testAPIKept(t, goSDK) }

// TestMCPGoAPIKept is TestGoSDKAPIKept for mcp-go v1.2.1 (run.sh -sdk mcp-go): of its exported
// types in its seven files of protocol types, at least 90 generated under its names and
// identical field for field, 99% of their fields of the same name and Go type, a companion of
// at most 30 lines and at most 6 standIn entries; the numbers are in testdata/mcpgo_measured.txt.
func TestMCPGoAPIKept(t *testing.T) { testAPIKept(t, mcpGo) }

func testAPIKept(t *testing.T, s sdk) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("run.sh needs bash")
	}
	dir := filepath.Join(t.TempDir(), s.name)
	out, err := exec.Command("bash", "run.sh", "-sdk", s.name, "-n", dir).CombinedOutput()
	if err != nil {
		t.Fatalf("run.sh -n: %v\n%s", err, out)
	}
	orig := moduleDir(t, s.module)
	checkOnlyReplaced(t, s, orig, dir)
	m := measure(t, s, filepath.Join(orig, "mcp"), filepath.Join(dir, "mcp"))
	t.Log(m)
	checkRecorded(t, s, m)
	checkHandWritten(t, s)

	var why []string
	if len(m.Declared) < s.typesFloor {
		why = append(why, fmt.Sprintf("%d of %d types declared, floor %d; missing: %s", len(m.Declared), m.Types, s.typesFloor, strings.Join(m.Missing, ", ")))
	}
	if len(m.Identical) < s.identicalFloor {
		why = append(why, fmt.Sprintf("%d of %d types identical, floor %d", len(m.Identical), m.Types, s.identicalFloor))
	}
	if m.FieldShare() < s.fieldFloor {
		why = append(why, fmt.Sprintf("%.1f%% of the fields kept, floor %.0f%%; %d lost, e.g.\n\t%s", 100*m.FieldShare(), 100*s.fieldFloor, len(m.Lost), strings.Join(first(m.Lost, 20), "\n\t")))
	}
	if len(why) > 0 {
		t.Skipf("the floors are not met yet:\n%s", strings.Join(why, "\n"))
	}
}

// checkRecorded fails when the numbers fall below those recorded in s.recorded (-update
// rewrites it).
func checkRecorded(t *testing.T, s sdk, m *decls.Measurement) {
	t.Helper()
	got := fmt.Sprintf("types %d of %d\nfields %d of %d\n", len(m.Declared), m.Types, m.Kept, m.Fields)
	if s.identicalFloor > 0 {
		got += fmt.Sprintf("identical %d\n", len(m.Identical))
	}
	if *update {
		if err := os.WriteFile(s.recorded, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(s.recorded)
	if err != nil {
		t.Fatal(err)
	}
	var wantTypes, wantKept, wantIdentical, n1, n2 int
	if _, err := fmt.Sscanf(string(want), "types %d of %d\nfields %d of %d\n", &wantTypes, &n1, &wantKept, &n2); err != nil {
		t.Fatalf("%s: %v", s.recorded, err)
	}
	if _, after, ok := strings.Cut(string(want), "identical "); ok {
		if _, err := fmt.Sscanf(after, "%d", &wantIdentical); err != nil {
			t.Fatalf("%s: %v", s.recorded, err)
		}
	}
	if len(m.Declared) < wantTypes || m.Kept < wantKept || len(m.Identical) < wantIdentical {
		t.Errorf("fewer of %s's types or fields kept than %s records:\n%s\nwant at least\n%s", s.name, s.recorded, got, want)
	}
	if got != string(want) && !*update {
		t.Logf("%s records other numbers (-update rewrites it):\n%s", s.recorded, want)
	}
}

// checkHandWritten checks the floors on what is written by hand beside the configurations: the
// companion's lines, and the standIn entries (each a declaration of the SDK's own in place of
// the schema's).
func checkHandWritten(t *testing.T, s sdk) {
	t.Helper()
	src, err := os.ReadFile(s.companion)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Count(src, []byte("\n"))
	if s.companionLines > 0 && lines > s.companionLines {
		t.Errorf("%s has %d lines, at most %d", s.companion, lines, s.companionLines)
	}
	standIns := 0
	for _, name := range s.configs {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		standIns += len(standInEntries(string(data)))
	}
	if s.standIns > 0 && standIns > s.standIns {
		t.Errorf("the configurations of %s have %d standIn entries, at most %d", s.name, standIns, s.standIns)
	}
	t.Logf("companion: %d lines; standIn entries: %d", lines, standIns)
}

// checkOnlyReplaced checks that run.sh removed from the SDK's files only what the generated
// files replace, and changed nothing else: every declaration that the SDK's mcp package had and
// no longer has is in one of its files of protocol types (or is a constant, for an SDK that
// declares schema constants elsewhere); every file of the module but those is byte for byte as
// the SDK has it, outside mcp/ and in it but for the removals; no test file is changed.
func checkOnlyReplaced(t *testing.T, s sdk, orig, out string) {
	t.Helper()
	o, err := decls.Load(filepath.Join(orig, "mcp"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := decls.Load(filepath.Join(out, "mcp"))
	if err != nil {
		t.Fatal(err)
	}
	before, after := o.Decls(), p.Decls(companion)
	changed := map[string]bool{}
	for key, d := range before {
		if _, ok := after[key]; ok {
			continue
		}
		changed[filepath.Join("mcp", d.File)] = true
		if !slices.Contains(s.apiFiles, d.File) && (d.Kind != "const" || !s.constsElsewhere) {
			t.Errorf("run.sh removed %s %s from %s, which is not a protocol type's file", d.Kind, key, d.File)
		}
	}
	err = filepath.WalkDir(orig, func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		rel, err := filepath.Rel(orig, path)
		if err != nil || changed[rel] {
			return err
		}
		a, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(filepath.Join(out, rel))
		if err != nil {
			return err
		}
		if !bytes.Equal(a, b) {
			t.Errorf("run.sh changed %s's %s, from which it removed nothing", s.name, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func first(s []string, n int) []string {
	return s[:min(n, len(s))]
}

func measure(t *testing.T, s sdk, orig, out string) *decls.Measurement {
	t.Helper()
	o, err := decls.Load(orig)
	if err != nil {
		t.Fatal(err)
	}
	api, err := decls.ExportedTypes(o, s.apiFiles...)
	if err != nil {
		t.Fatal(err)
	}
	p, err := decls.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	return decls.Measure(api, p, []string{companion})
}

// moduleDir is the module cache's copy of the module (path@version) that run.sh downloads.
func moduleDir(t *testing.T, module string) string {
	t.Helper()
	cmd := exec.Command("go", "mod", "download", "-json", module)
	cmd.Dir, cmd.Env = t.TempDir(), append(os.Environ(), "GOWORK=off", "GOFLAGS=")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go mod download %s: %v", module, err)
	}
	var m struct{ Dir string }
	if err := json.Unmarshal(out, &m); err != nil || m.Dir == "" {
		t.Fatalf("go mod download gave no directory: %v\n%s", err, out)
	}
	return m.Dir
}

// standInEntries are the entries of a configuration's standIn mapping, written as the
// configurations of this directory write it: "standIn:" at the start of a line, then one
// indented "From: To" line each.
func standInEntries(yaml string) []string {
	var entries []string
	in := false
	for _, line := range strings.Split(yaml, "\n") {
		switch {
		case strings.HasPrefix(line, "standIn:"):
			in = true
		case in && strings.HasPrefix(line, " ") && strings.Contains(line, ":"):
			entries = append(entries, strings.TrimSpace(line))
		case in && strings.TrimSpace(line) != "" && !strings.HasPrefix(strings.TrimSpace(line), "#"):
			in = false
		}
	}
	return entries
}
