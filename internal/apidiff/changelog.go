package apidiff

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Entry is one item of a spec changelog ("Key Changes" page).
type Entry struct {
	Version string // the version whose changelog it is
	Section string // "Major changes", "Minor changes", ...
	Number  int    // its number in the section
	Text    string // the item, on one line, Markdown links reduced to their labels
}

// Match is a changelog entry and the changes of a report that it names.
type Match struct {
	Entry
	Names []string // the changed types and constants it names, sorted
}

var (
	sectionRe  = regexp.MustCompile(`^##\s+(.+?)\s*$`)
	itemRe     = regexp.MustCompile(`^(\d+)\.\s+(.*)$`)
	mdLinkRe   = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
	backtickRe = regexp.MustCompile("`([^`]+)`")
	// camelRe matches the names in plain text that look like schema declarations
	// (UnsupportedProtocolVersionError): two capitalized words or more.
	camelRe = regexp.MustCompile(`\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+\b`)
)

// ParseChangelog reads the numbered items of a spec changelog (changelog.mdx): each item with its
// section and number. Lines indented under an item continue it.
func ParseChangelog(version string, mdx []byte) []Entry {
	var entries []Entry
	section := ""
	var cur *Entry
	for _, line := range strings.Split(string(mdx), "\n") {
		if m := sectionRe.FindStringSubmatch(line); m != nil {
			section, cur = m[1], nil
			continue
		}
		if m := itemRe.FindStringSubmatch(line); m != nil && section != "" {
			n, _ := strconv.Atoi(m[1])
			entries = append(entries, Entry{Version: version, Section: section, Number: n, Text: m[2]})
			cur = &entries[len(entries)-1]
			continue
		}
		if cur != nil && strings.HasPrefix(line, " ") && strings.TrimSpace(line) != "" {
			cur.Text += " " + strings.TrimSpace(line)
			continue
		}
		cur = nil
	}
	for i := range entries {
		entries[i].Text = mdLinkRe.ReplaceAllString(entries[i].Text, "$1")
	}
	return entries
}

// keys are the names an entry mentions: the text of its code spans (quotes removed) and the
// CamelCase words of its prose.
func (e Entry) keys() []string {
	var keys []string
	for _, m := range backtickRe.FindAllStringSubmatch(e.Text, -1) {
		keys = append(keys, strings.Trim(m[1], `"'`))
	}
	keys = append(keys, camelRe.FindAllString(backtickRe.ReplaceAllString(e.Text, ""), -1)...)
	return keys
}

// commonMembers are JSON member names too common to tie a changelog entry to a change.
var commonMembers = map[string]bool{"_meta": true, "type": true, "method": true, "params": true,
	"result": true, "name": true, "id": true, "jsonrpc": true, "error": true}

// MatchChangelog keeps the entries that name a change of the report: an added, removed, renamed
// or changed type, the JSON member of a changed field, the method or value of a changed constant,
// an enum value added or removed. The comparison ignores case.
func (r *Report) MatchChangelog(entries []Entry) {
	names := map[string][]string{} // key → names of the changes it stands for
	add := func(key, name string) {
		key = strings.ToLower(key)
		if key != "" && !commonMembers[key] && !slices.Contains(names[key], name) {
			names[key] = append(names[key], name)
		}
	}
	for _, t := range append(append([]*Type{}, r.Added...), r.Removed...) {
		add(t.Name, t.Name)
	}
	for _, rn := range r.Renamed {
		add(rn.Old, rn.New)
		add(rn.New, rn.New)
	}
	for _, c := range r.Changed {
		add(c.Name, c.Name)
		for _, m := range c.Members {
			switch m.Op {
			case ValueAdded, ValueRemoved:
				add(m.Name, c.Name)
			case FieldJSON:
				add(m.Old, c.Name+"."+m.Name)
				add(m.New, c.Name+"."+m.Name)
			case VariantAdded, VariantRemoved:
			default:
				add(m.JSON, c.Name+"."+m.Name)
			}
		}
	}
	consts := append(append([]*Const{}, r.ConstsAdded...), r.ConstsRemoved...)
	for _, c := range append(r.ConstsChanged, r.ConstsRenamed...) {
		consts = append(consts, c[0], c[1])
	}
	for _, c := range consts {
		add(c.Name, c.Name)
		if v, err := strconv.Unquote(c.Value); err == nil {
			add(v, c.Name) // a method ("tools/call") or a version
		}
	}
	r.Changelog, r.Unmatched = nil, 0
	for _, e := range entries {
		var matched []string
		for _, k := range e.keys() {
			for _, n := range names[strings.ToLower(k)] {
				if !slices.Contains(matched, n) {
					matched = append(matched, n)
				}
			}
		}
		if len(matched) == 0 {
			r.Unmatched++
			continue
		}
		slices.Sort(matched)
		r.Changelog = append(r.Changelog, Match{Entry: e, Names: matched})
	}
}
