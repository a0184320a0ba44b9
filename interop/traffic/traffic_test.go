package traffic

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/interop/internal/schemaref"
)

var (
	update  = flag.Bool("update", false, "rewrite testdata/exceptions.txt, keeping the reasons")
	explain = flag.Bool("explain", false, "log every message that a schema.json rejects, and what the package does with it")
)

const exceptionsFile = "testdata/exceptions.txt"

// corpus loads every message: the SDKs' conformance archives and the spec documentation's
// messages.
func corpus(t *testing.T) (map[string][]*message, []string) {
	t.Helper()
	bySource := map[string][]*message{}
	var sources []string
	for _, dir := range []string{"testdata/gosdk", "testdata/mcpgo"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no archives in %s (%v)", dir, err)
		}
		for _, f := range files {
			msgs, err := loadTxtar(dir, filepath.Base(f))
			if err != nil {
				t.Fatal(err)
			}
			bySource[dir] = append(bySource[dir], msgs...)
		}
		sources = append(sources, dir)
	}
	// Who sends a method, from every version's table: the spec's pages do not say.
	directions := map[string]string{}
	for _, p := range packages {
		for _, m := range p.methods {
			info, _ := p.lookup(m)
			switch d := directions[m]; {
			case info.fromClient && info.fromServer, d == "both":
				directions[m] = "both"
			case info.fromClient && d != "server":
				directions[m] = "client"
			case info.fromServer && d != "client":
				directions[m] = "server"
			default:
				directions[m] = "both"
			}
		}
	}
	for m, d := range directions {
		if d == "both" {
			directions[m] = ""
		}
	}
	// The method whose result a type is, from every version's table (the first that has it).
	resultMethods := map[string]string{}
	for _, p := range packages {
		for _, m := range p.methods {
			info, _ := p.lookup(m)
			for _, r := range info.results {
				if _, ok := resultMethods[r.Elem().Name()]; !ok && r.Elem().Name() != "Result" {
					resultMethods[r.Elem().Name()] = m
				}
			}
		}
	}
	for _, version := range []string{"2026-07-28", "draft"} {
		msgs, err := loadExamples(filepath.Join("..", "..", "schema", version, "examples"), resultMethods, directions)
		if err != nil || len(msgs) == 0 {
			t.Fatalf("no results among the examples of %s (%v)", version, err)
		}
		src := "examples/" + version
		bySource[src] = msgs
		sources = append(sources, src)
	}
	files, err := filepath.Glob("testdata/specdocs/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no spec documentation messages (%v)", err)
	}
	for _, f := range files {
		msgs, err := loadSpecDocs("testdata/specdocs", filepath.Base(f), directions)
		if err != nil {
			t.Fatal(err)
		}
		src := "testdata/specdocs/" + filepath.Base(f)
		bySource[src] = msgs
		sources = append(sources, src)
	}
	return bySource, sources
}

// TestTraffic decodes every message of the corpus with every package of gen/: each message that a
// version's schema.json accepts must decode (DecodeClientMessage or DecodeServerMessage, with the
// method of the request it answers from its exchange) to the type of its method (the Unknown
// variant for a method the version does not define, a result response holding one of the method's
// result types for a result), validate (Unknown variants aside) and encode back to the same JSON.
// What does not is listed, with the reason, in testdata/exceptions.txt; the test fails on a
// failure not listed, on a listed one without a reason (TODO), and on a listed one that no longer
// fails.
func TestTraffic(t *testing.T) {
	bySource, sources := corpus(t)
	outcomes := judgeCorpus(t, bySource, sources)

	// The counts, per source and per version.
	logSources(t, bySource, sources)
	logVersions(t, outcomes)
	if *explain {
		explainRejected(t, outcomes)
	}
	checkExceptions(t, outcomes)
}

// judgeCorpus judges each message of the corpus, by source in the order of sources, in each
// package of gen/; each result twice, paired with its request and not (judgeUnpaired).
func judgeCorpus(t *testing.T, bySource map[string][]*message, sources []string) []outcome {
	t.Helper()
	var outcomes []outcome
	for _, p := range packages {
		data, err := os.ReadFile(filepath.Join("..", "..", "schema", p.version, "schema.json"))
		if err != nil {
			t.Fatal(err)
		}
		ref, err := schemaref.New(data)
		if err != nil {
			t.Fatalf("%s: %v", p.version, err)
		}
		for _, src := range sources {
			for _, m := range bySource[src] {
				o := judge(p, ref, m)
				outcomes = append(outcomes, o)
				if m.kind == result {
					outcomes = append(outcomes, judgeUnpaired(p, ref, m, o))
				}
			}
		}
	}
	return outcomes
}

// logSources logs the counts of the messages of each source, by kind.
func logSources(t *testing.T, bySource map[string][]*message, sources []string) {
	for _, src := range sources {
		kinds := map[string]int{}
		paired := 0
		for _, m := range bySource[src] {
			kinds[m.kind]++
			if (m.kind == result || m.kind == errorReply) && m.method != "" {
				paired++
			}
		}
		t.Logf("%s: %d messages (%d requests, %d notifications, %d results, %d errors; %d responses paired with their request)",
			src, len(bySource[src]), kinds[request], kinds[notification], kinds[result], kinds[errorReply], paired)
	}
}

// logVersions logs, for each version, how many of the messages its schema.json accepts the
// package decodes, validates and round-trips, and how many of those it rejects.
func logVersions(t *testing.T, outcomes []outcome) {
	for _, p := range packages {
		var accepted, ok, failed, rejected, rejectedDecoded int
		var results, resultsOK int
		for _, o := range outcomes {
			if o.unpaired {
				if o.version == p.version && o.accepted {
					results++
					if o.failure == "" {
						resultsOK++
					}
				}
				continue
			}
			switch {
			case o.version != p.version:
			case o.accepted && o.failure == "":
				accepted++
				ok++
			case o.accepted:
				accepted++
				failed++
			default:
				rejected++
				if o.failure == "" {
					rejectedDecoded++
				}
			}
		}
		t.Logf("%s: schema.json accepts %d messages: %d decode to the right type, validate and round-trip, %d do not; it rejects %d (the package decodes, validates and round-trips %d of those)",
			p.version, accepted, ok, failed, rejected, rejectedDecoded)
		t.Logf("%s: decoded without their request, %d of the %d results it accepts decode to a type it accepts them as, validate and round-trip",
			p.version, resultsOK, results)
	}
}

// explainRejected logs each message that a schema.json rejects, with why, and what the package
// makes of it.
func explainRejected(t *testing.T, outcomes []outcome) {
	for _, o := range outcomes {
		if !o.accepted && !o.unpaired {
			verdict := "the package decodes it to " + o.got + ", validates and round-trips it"
			if o.failure != "" {
				verdict = "the package: " + o.failure
			}
			t.Logf("%s: schema.json rejects it (%s); %s", o, o.schemaErr, verdict)
		}
	}
}

// checkExceptions compares the failures of outcomes with the listing of exceptionsFile, or
// writes the listing under -update.
func checkExceptions(t *testing.T, outcomes []outcome) {
	t.Helper()
	found := map[string]outcome{}
	for _, o := range outcomes {
		if o.accepted && o.failure != "" {
			found[o.String()] = o
		}
	}
	listed, err := readExceptions(exceptionsFile)
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := writeExceptions(exceptionsFile, found, listed); err != nil {
			t.Fatal(err)
		}
		return
	}
	for _, key := range slices.Sorted(maps.Keys(found)) {
		switch reason, ok := listed[key]; {
		case !ok:
			t.Errorf("not listed in %s: %s: %s", exceptionsFile, key, found[key].failure)
		case strings.HasPrefix(reason, "TODO"):
			t.Errorf("no reason yet in %s: %s", exceptionsFile, key)
		}
	}
	for _, key := range slices.Sorted(maps.Keys(listed)) {
		if _, ok := found[key]; !ok {
			t.Errorf("listed in %s but no longer fails: %s", exceptionsFile, key)
		}
	}
}

// readExceptions reads the listing: "<version> <source>:<where>: <reason>" lines; '#' starts a
// comment line.
func readExceptions(file string) (map[string]string, error) {
	f, err := os.Open(file)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.Index(line, " --: ")
		if i < 0 || len(strings.Fields(line[:i])) != 2 {
			return nil, fmt.Errorf("%s:%d: want \"<version> <source>:<where> --: <reason>\"", file, n)
		}
		key := line[:i]
		if _, dup := out[key]; dup {
			return nil, fmt.Errorf("%s:%d: %s is listed twice", file, n, key)
		}
		out[key] = strings.TrimSpace(line[i+len(" --: "):])
	}
	return out, sc.Err()
}

// writeExceptions writes the failures, with the reasons of old where it has them.
func writeExceptions(file string, found map[string]outcome, old map[string]string) error {
	var b strings.Builder
	b.WriteString("# Messages of the traffic corpus that a version's schema.json accepts but that the version's\n")
	b.WriteString("# package does not decode to the right type, validate, or encode back to the same JSON\n")
	b.WriteString("# (TestTraffic). One line per message and version: <version> <source>:<where> --: <reason>,\n")
	b.WriteString("# under a comment saying what fails. Reasons are written by a person; a reason starting with\n")
	b.WriteString("# TODO fails the test. go test -run TestTraffic -update rewrites this file, keeping the reasons.\n")
	for _, key := range slices.Sorted(maps.Keys(found)) {
		o := found[key]
		reason, ok := old[key]
		if !ok || reason == "" {
			reason = "TODO: reason"
		}
		fmt.Fprintf(&b, "\n# %s: want %s; %s\n%s --: %s\n", o.side, o.want, o.failure, key, reason)
	}
	return os.WriteFile(file, []byte(b.String()), 0o644)
}
