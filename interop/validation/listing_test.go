package validation

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestListing: -update keeps the reasons written, marks new disagreements TODO, drops those that
// are gone; check fails on an unlisted, an unexplained and a stale disagreement.
func TestListing(t *testing.T) {
	file := filepath.Join(t.TempDir(), "disagreements.txt")
	if err := os.WriteFile(file, []byte(
		"# a comment\n"+
			"we-accept enum #/$defs/Role/enum: a reason written by a person\n"+
			"we-reject kind #/$defs/Gone: it used to disagree\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	old, err := readListing(file)
	if err != nil {
		t.Fatal(err)
	}
	res := &result{version: "v", path: "p", outcomes: []outcome{
		{file: "A/a.json", mutant: mutant{kind: kindEnum, rule: "#/$defs/Role/enum", at: "/role"}, refErr: errors.New("no")},
		{file: "A/b.json", mutant: mutant{kind: kindEnum, rule: "#/$defs/Role/enum", at: "/role"}, refErr: errors.New("no")},
		{file: "A/a.json", mutant: mutant{kind: kindConst, rule: "#/$defs/A/properties/type/const", at: "/type"}, refErr: errors.New("no")},
		{file: "A/a.json", mutant: mutant{kind: kindNull, rule: "#/$defs/A/properties/x", at: "/x"}, refErr: errors.New("no"), oursErr: errors.New("yes")},
	}}
	if got := check(res.disagreements(), old); !slices.Equal(got, []string{
		"not listed: we-accept const #/$defs/A/properties/type/const",
		"listed but no longer found: we-reject kind #/$defs/Gone",
	}) {
		t.Errorf("check before -update: %q", got)
	}
	if err := writeListing(file, res, old); err != nil {
		t.Fatal(err)
	}
	listed, err := readListing(file)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"we-accept enum #/$defs/Role/enum":                "a reason written by a person",
		"we-accept const #/$defs/A/properties/type/const": "TODO: reason",
	}
	if len(listed) != len(want) {
		t.Errorf("listed %q, want %q", listed, want)
	}
	for k, v := range want {
		if listed[k] != v {
			t.Errorf("%s: reason %q, want %q", k, listed[k], v)
		}
	}
	data, _ := os.ReadFile(file)
	if !strings.Contains(string(data), "# 2 mutant(s), e.g. A/a.json at /role\n") {
		t.Errorf("no mutant count above the enum line:\n%s", data)
	}
	if got := check(res.disagreements(), listed); !slices.Equal(got, []string{"no reason yet: we-accept const #/$defs/A/properties/type/const"}) {
		t.Errorf("check after -update: %q", got)
	}

	for _, bad := range []string{"we-accept enum: two fields\n", "a b c: x\na b c: y\n"} {
		if err := os.WriteFile(file, []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := readListing(file); err == nil {
			t.Errorf("readListing accepts %q", bad)
		}
	}
}
