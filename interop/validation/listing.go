package validation

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"slices"
	"strings"
)

// todo starts the reason of a listed disagreement that nobody has explained yet; the test fails
// on it.
const todo = "TODO"

// readListing reads a disagreements file: one line per disagreement, "<key>: <reason>", where
// the key is "<direction> <kind> <schema rule>"; '#' starts a comment line. A missing file lists
// nothing.
func readListing(file string) (map[string]string, error) {
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
		key, reason, ok := strings.Cut(line, ": ")
		if !ok || len(strings.Fields(key)) != 3 {
			return nil, fmt.Errorf("%s:%d: want \"<direction> <kind> <rule>: <reason>\"", file, n)
		}
		if _, dup := out[key]; dup {
			return nil, fmt.Errorf("%s:%d: %s is listed twice", file, n, key)
		}
		out[key] = strings.TrimSpace(reason)
	}
	return out, sc.Err()
}

// disagreements groups the outcomes that disagree by key.
func (r *result) disagreements() map[string][]*outcome {
	out := map[string][]*outcome{}
	for i := range r.outcomes {
		if o := &r.outcomes[i]; o.disagreement() != "" {
			out[o.key()] = append(out[o.key()], o)
		}
	}
	return out
}

// writeListing writes the disagreements of r to file, with the reasons of old where it has them
// and "TODO: reason" elsewhere. A comment above each line says how many mutants it covers and
// shows one.
func writeListing(file string, r *result, old map[string]string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# Disagreements of %s (decode, then Validate) with the reference validator\n", r.path)
	fmt.Fprintf(&b, "# (jsonschema/v6 on schema/%s/schema.json) on the mutants of TestDifferential.\n", r.version)
	b.WriteString("#\n# One line per disagreement: <direction> <kind> <schema rule>: <reason>. Directions:\n")
	b.WriteString("# we-accept (the package accepts what the reference rejects), we-reject (the reverse),\n")
	b.WriteString("# reencode (both accept; the reference rejects json.Marshal of the decoded value).\n")
	b.WriteString("# Reasons are written by a person; a reason starting with TODO fails the test.\n")
	b.WriteString("# go test -run TestDifferential -update rewrites this file and keeps the reasons.\n")
	found := r.disagreements()
	for _, key := range slices.Sorted(maps.Keys(found)) {
		os := found[key]
		o := os[0]
		at := o.at
		if at == "" {
			at = "the root"
		}
		fmt.Fprintf(&b, "\n# %d mutant(s), e.g. %s at %s", len(os), o.file, at)
		if o.oursErr != nil {
			fmt.Fprintf(&b, "; ours: %s", oneLine(o.oursErr.Error()))
		}
		if o.reencodeErr != nil {
			fmt.Fprintf(&b, "; %s", oneLine(o.reencodeErr.Error()))
		}
		reason, ok := old[key]
		if !ok || reason == "" {
			reason = todo + ": reason"
		}
		fmt.Fprintf(&b, "\n%s: %s\n", key, reason)
	}
	return os.WriteFile(file, []byte(b.String()), 0o644)
}

// oneLine returns s on one line (jsonschema/v6 writes a tree of causes), at most 240 bytes.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 240 {
		s = s[:237] + "..."
	}
	return s
}

// check returns what is wrong with the listing for the disagreements found: a disagreement not
// listed, one listed without a reason, and a listed one that no longer occurs.
func check(found map[string][]*outcome, listed map[string]string) []string {
	var problems []string
	for _, key := range slices.Sorted(maps.Keys(found)) {
		switch reason, ok := listed[key]; {
		case !ok:
			problems = append(problems, "not listed: "+key)
		case strings.HasPrefix(reason, todo):
			problems = append(problems, "no reason yet: "+key)
		}
	}
	for _, key := range slices.Sorted(maps.Keys(listed)) {
		if found[key] == nil {
			problems = append(problems, "listed but no longer found: "+key)
		}
	}
	return problems
}
