package validation

import (
	"flag"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

var (
	update  = flag.Bool("update", false, "rewrite testdata/disagreements-<version>.txt, keeping the reasons written there")
	explain = flag.Bool("explain", false, "log one mutant of every disagreement, with both verdicts")
)

// TestDifferential holds decode+Validate of every package of gen/ to the reference validator on
// its schema.json: every example of the version must be accepted by the reference (and by the
// package, unless the listing says why not), every mutant of it
// (mutate.go) must get the same verdict from both, and every value the package accepts must
// re-encode to JSON that the reference accepts. A disagreement passes only if
// testdata/disagreements-<version>.txt lists it with a reason. It logs the agreement per mutation
// kind (go test -v). See the package doc.
func TestDifferential(t *testing.T) {
	for _, p := range packages {
		t.Run(p.version, func(t *testing.T) {
			t.Parallel()
			res, err := runPackage(p, filepath.Join("..", "..", "schema"))
			if err != nil {
				t.Fatal(err)
			}
			t.Log("\n" + res.table())

			file := filepath.Join("testdata", "disagreements-"+p.version+".txt")
			listed, err := readListing(file)
			if err != nil {
				t.Fatal(err)
			}
			if *update {
				if err := os.MkdirAll("testdata", 0o755); err != nil {
					t.Fatal(err)
				}
				if err := writeListing(file, res, listed); err != nil {
					t.Fatal(err)
				}
				if listed, err = readListing(file); err != nil {
					t.Fatal(err)
				}
			}

			// Whatever the listing says: nothing panics, and the reference accepts every example.
			// An example the package rejects is a disagreement like any other: it passes only
			// when listed with its reason.
			for i := range res.outcomes {
				o := &res.outcomes[i]
				if o.panicked {
					t.Errorf("%s, %s mutant at %q: %v\n%s", o.file, o.kind, o.at, o.oursErr, o.data)
				}
				if o.kind == kindOriginal && (o.refErr != nil || o.oursErr == nil && o.reencodeErr != nil) {
					t.Errorf("example %s: reference: %s; ours: %s; re-encoding: %s",
						o.file, oneLine(verdict(o.refErr)), verdict(o.oursErr), verdict(o.reencodeErr))
				}
			}

			found := res.disagreements()
			if *explain {
				for _, key := range slices.Sorted(maps.Keys(found)) {
					o := found[key][0]
					t.Logf("%s (%d mutants), e.g. %s at %q:\n  mutant: %s\n  reference: %v\n  ours: %v\n  re-encoding: %v",
						key, len(found[key]), o.file, o.at, o.data, oneLine(verdict(o.refErr)), verdict(o.oursErr), verdict(o.reencodeErr))
				}
			}
			problems := check(found, listed)

			if _, validated := res.total(); validated == 0 {
				t.Errorf("%s: no mutant reached Validate, so the run compared decoding only", p.path)
			}
			for _, pr := range problems {
				t.Error(pr)
			}
			if len(problems) > 0 {
				t.Errorf("%d problem(s) with %s: fix them, or list them with a reason (go test -run 'TestDifferential/%s' -update, then write the reasons; -explain shows a mutant of each)",
					len(problems), file, p.version)
			}
		})
	}
}

func verdict(err error) string {
	if err == nil {
		return "accepts"
	}
	return err.Error()
}
