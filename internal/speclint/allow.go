package speclint

import (
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/model"
)

// The silencing list is the file AllowFile at the root of the repository, which the spec's
// authors keep: one entry a line, `PATH: KIND: SUBJECT: reason`, silencing the findings of that
// kind and subject in the files PATH names (a path.Match pattern: schema/*/schema.ts names every
// version's). The reason is required; blank lines and lines starting with '#' are comments. An
// entry that silences nothing is itself a finding, so that the list cannot outlive the mistakes
// it lists, and mcpgen -lint-spec says how many findings the list silenced.

// allowEntry is one entry of the silencing list.
type allowEntry struct {
	pos                    model.Pos
	pattern, kind, subject string
	reason                 string
}

func (e allowEntry) text() string {
	return e.pattern + ": " + e.kind + ": " + e.subject
}

func (e allowEntry) matches(f Finding) bool {
	if f.Kind == AllowList || string(f.Kind) != e.kind || f.Subject != e.subject {
		return false
	}
	ok, err := path.Match(e.pattern, f.Pos.File)
	return err == nil && ok
}

// readAllow reads the silencing list, if the repository has one, adding an AllowList finding for
// each malformed line.
func (l *linter) readAllow() []allowEntry {
	data, err := fs.ReadFile(l.fsys, AllowFile)
	if err != nil {
		return nil
	}
	var entries []allowEntry
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimRight(line, " \t\r")
		pos := model.Pos{File: AllowFile, Line: i + 1, Col: 1}
		if trimmed := strings.TrimSpace(line); trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		e, problem := parseAllow(line)
		if problem != "" {
			l.add(pos, AllowList, "entry", "%s", problem)
			continue
		}
		e.pos = pos
		entries = append(entries, e)
	}
	return entries
}

// parseAllow reads one entry, or says what is wrong with it.
func parseAllow(line string) (allowEntry, string) {
	const form = "expected PATH: KIND: SUBJECT: reason"
	parts := strings.SplitN(line, ": ", 4)
	if len(parts) < 4 || strings.TrimSpace(parts[3]) == "" {
		return allowEntry{}, "found " + quoteCut(line) + ", " + form + " (the reason is required)"
	}
	e := allowEntry{pattern: parts[0], kind: parts[1], subject: parts[2], reason: strings.TrimSpace(parts[3])}
	if _, err := path.Match(e.pattern, ""); err != nil {
		return allowEntry{}, "the path pattern " + quoteCut(e.pattern) + " is malformed: " + err.Error()
	}
	if !slices.Contains(Kinds(), Kind(e.kind)) || Kind(e.kind) == AllowList {
		var names []string
		for _, k := range Kinds() {
			if k != AllowList {
				names = append(names, string(k))
			}
		}
		return allowEntry{}, "found the kind " + quoteCut(e.kind) + ", expected one of " + strings.Join(names, ", ")
	}
	return e, ""
}

// quoteCut quotes a short form of s for a message.
func quoteCut(s string) string {
	return strconv.Quote(model.Shorten(s))
}
