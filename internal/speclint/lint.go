// Package speclint checks a checkout of the MCP specification repository for the contradictions
// of the spec itself: what schema.json loses of schema.ts, examples that schema.ts refuses,
// unions that do not tell their variants apart, requests sharing a method, overrides that
// disagree with their base on requiredness, and docs naming types the version does not declare.
// It is `mcpgen -lint-spec DIR`; docs/lint-spec.md describes each kind of finding.
//
// It reads the schemas with mcpgen's own front ends (parser for schema.ts, jsonschema for
// schema.json), reads the examples as the generated decoders and validators read them (the model
// after model.Protocol and model.Classify, the JSDoc value rules, the sampling rules), and
// reports what the generator would refuse as a finding rather than stopping.
package speclint

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/jsonschema"
	"github.com/mcpgen/mcpgen/model"
	"github.com/mcpgen/mcpgen/parser"
)

// Kind names a kind of finding.
type Kind string

// The kinds of finding; docs/lint-spec.md has an example of each.
const (
	// ExportLoss: schema.json accepts less or more than schema.ts says.
	ExportLoss Kind = "export-loss"
	// Example: an example that schema.ts, read as the generated decoders read it, refuses.
	Example Kind = "example"
	// UnionOverlap: a variant of a union that accepts the values of another.
	UnionOverlap Kind = "union-overlap"
	// DuplicateMethod: two requests (or notifications) with the same method.
	DuplicateMethod Kind = "duplicate-method"
	// Override: a member redeclared optional over a required one.
	Override Kind = "override"
	// DocName: docs or JSDoc naming a type the version does not declare.
	DocName Kind = "doc-name"
	// Refused: what mcpgen's front ends or model refuse (a syntax error, a union without a
	// decision procedure), which the checks that need it then skip.
	Refused Kind = "refused"
	// AllowList: an entry of the silencing list that is malformed or silences nothing.
	AllowList Kind = "allow-list"
)

// Kinds lists every kind, in the order of docs/lint-spec.md.
func Kinds() []Kind {
	return []Kind{ExportLoss, Example, UnionOverlap, DuplicateMethod, Override, DocName, Refused, AllowList}
}

// A Finding is one contradiction, at the place at fault.
type Finding struct {
	// Pos is where: File is relative to the repository's root, with slashes.
	Pos  model.Pos
	Kind Kind
	// Subject names what is at fault in a way that survives edits elsewhere in the file (a
	// declaration and member, a JSON pointer, a name): the silencing list matches it.
	Subject string
	// Message says what is wrong, for a spec author.
	Message string
}

// String is the finding's line: PATH:LINE:COL: KIND: SUBJECT: MESSAGE.
func (f Finding) String() string {
	return fmt.Sprintf("%s: %s: %s: %s", f.Pos, f.Kind, f.Subject, f.Message)
}

// A Report is what Lint found.
type Report struct {
	// Versions are the spec versions checked, in order.
	Versions []string
	// Findings are the findings that no entry of the silencing list silences, sorted by
	// position, kind and text.
	Findings []Finding
	// Silenced are the findings that the silencing list silences, sorted likewise.
	Silenced []Finding
}

// AllowFile is the silencing list, at the root of the repository: see readAllow.
const AllowFile = "mcpgen-lint-spec.allow"

// Lint checks the spec repository whose root is fsys: every version schema/<version>/ that holds
// a schema.ts, its schema.json and examples/<Type>/*.json, and the spec text of that version in
// docs/specification/<version>/. It fails only when fsys has no such version.
func Lint(fsys fs.FS) (*Report, error) {
	names, err := versionNames(fsys)
	if err != nil {
		return nil, err
	}
	l := &linter{fsys: fsys}
	for _, name := range names {
		l.versions = append(l.versions, l.load(name))
	}
	for i, v := range l.versions {
		if v.raw == nil {
			continue
		}
		l.export(v)
		l.examples(v)
		l.unions(v)
		l.methods(v)
		l.overrides(v)
		l.docs(v, l.previous(i))
	}
	r := &Report{Versions: names}
	r.Findings, r.Silenced = l.silence()
	return r, nil
}

// versionNames lists the directories schema/<version>/ that hold a schema.ts, sorted (the dates
// in order, then draft).
func versionNames(fsys fs.FS) ([]string, error) {
	entries, err := fs.ReadDir(fsys, "schema")
	if err != nil {
		return nil, fmt.Errorf("no schema directory: %w (expected the root of the spec repository, with schema/<version>/schema.ts)", err)
	}
	var names []string
	for _, e := range entries {
		if _, err := fs.Stat(fsys, path.Join("schema", e.Name(), "schema.ts")); err == nil {
			names = append(names, e.Name())
		}
	}
	if len(names) == 0 {
		return nil, errors.New("no schema/<version>/schema.ts: expected the root of the spec repository")
	}
	slices.Sort(names)
	return names, nil
}

// linter holds the state of one Lint.
type linter struct {
	fsys     fs.FS
	versions []*version
	findings []Finding
}

func (l *linter) add(pos model.Pos, kind Kind, subject, format string, args ...any) {
	l.findings = append(l.findings, Finding{Pos: pos, Kind: kind, Subject: subject, Message: cutMessage(fmt.Sprintf(format, args...))})
}

// cutMessage bounds a message, so that no input makes a line long.
func cutMessage(s string) string {
	const limit = 2 * model.MaxMessage
	if len(s) <= limit {
		return s
	}
	i := limit
	for i > 0 && s[i]&0xC0 == 0x80 {
		i--
	}
	return s[:i] + "…"
}

// addErr adds an error of a front end or of the model, whose text starts with its position, as
// a finding at that position (else at pos).
func (l *linter) addErr(pos model.Pos, kind Kind, subject string, err error) {
	at, msg := splitPos(err.Error())
	if at.Line == 0 {
		at = pos
	}
	l.add(at, kind, subject, "%s", msg)
}

var posPrefix = regexp.MustCompile(`^([^:\n]+):(\d+):(\d+): `)

// splitPos splits "file:line:col: message" into the position and the message.
func splitPos(s string) (model.Pos, string) {
	m := posPrefix.FindStringSubmatch(s)
	if m == nil {
		return model.Pos{}, s
	}
	line, _ := strconv.Atoi(m[2])
	col, _ := strconv.Atoi(m[3])
	return model.Pos{File: m[1], Line: line, Col: col}, s[len(m[0]):]
}

// previous returns the version before version i, or nil.
func (l *linter) previous(i int) *version {
	if i == 0 {
		return nil
	}
	return l.versions[i-1]
}

// version is one schema/<version>/ directory, read.
type version struct {
	name string
	dir  string // "schema/<version>"
	// tsFile and tsSrc are schema.ts; jsonFile is schema.json, "" when there is none.
	tsFile, jsonFile string
	tsSrc            []byte
	// ast is schema.ts parsed; raw its model as the front end builds it; read its model after
	// model.Protocol and model.ClassifyEach, as the generator reads it (nil when Protocol
	// refuses it). js is schema.json's model, or nil. Each is nil when it could not be read.
	ast  *parser.File
	raw  *model.Schema
	read *model.Schema
	js   *model.Schema
}

// load reads a version, adding a Refused finding for each part that cannot be read.
func (l *linter) load(name string) *version {
	v := &version{name: name, dir: path.Join("schema", name)}
	v.tsFile = path.Join(v.dir, "schema.ts")
	src, err := fs.ReadFile(l.fsys, v.tsFile)
	if err != nil {
		l.add(model.Pos{File: v.tsFile, Line: 1, Col: 1}, Refused, "schema.ts", "cannot be read: %v", err)
		return v
	}
	v.tsSrc = src
	if v.ast, err = parser.Parse(v.tsFile, src); err != nil {
		l.addErr(model.Pos{File: v.tsFile, Line: 1, Col: 1}, Refused, "schema.ts", err)
		return v
	}
	if v.raw, err = parser.Load(v.tsFile, src); err != nil {
		v.ast = nil
		l.addErr(model.Pos{File: v.tsFile, Line: 1, Col: 1}, Refused, "schema.ts", err)
		return v
	}
	v.read, _ = parser.Load(v.tsFile, src) // a second model, which Protocol changes
	if err := model.Protocol(v.read); err != nil {
		l.addErr(model.Pos{File: v.tsFile, Line: 1, Col: 1}, Refused, "schema.ts", err)
		v.read = nil
	} else {
		for _, err := range model.ClassifyEach(v.read) {
			_, msg := splitPos(err.Error())
			where, _, _ := strings.Cut(strings.TrimPrefix(msg, "union in "), ": ")
			l.addErr(model.Pos{File: v.tsFile, Line: 1, Col: 1}, Refused, where, err)
		}
	}
	jsonFile := path.Join(v.dir, "schema.json")
	data, err := fs.ReadFile(l.fsys, jsonFile)
	if err != nil {
		return v // a version without an export: nothing to compare
	}
	v.jsonFile = jsonFile
	if v.js, err = jsonschema.Load(jsonFile, data); err != nil {
		l.addErr(model.Pos{File: jsonFile, Line: 1, Col: 1}, Refused, "schema.json", err)
	}
	return v
}

// silence splits the findings into those the silencing list leaves and those it silences, both
// sorted, adding an AllowList finding for every entry that is malformed or silences nothing.
func (l *linter) silence() (left, silenced []Finding) {
	entries := l.readAllow()
	used := make([]bool, len(entries))
	for _, f := range l.findings {
		hit := false
		for i, e := range entries {
			if e.matches(f) {
				used[i], hit = true, true
			}
		}
		if hit {
			silenced = append(silenced, f)
		} else {
			left = append(left, f)
		}
	}
	for i, e := range entries {
		if !used[i] {
			left = append(left, Finding{Pos: e.pos, Kind: AllowList, Subject: e.text(),
				Message: "silences no finding: remove the entry (the spec was fixed, or the finding's text changed)"})
		}
	}
	sortFindings(left)
	sortFindings(silenced)
	return left, silenced
}

func sortFindings(fs []Finding) {
	slices.SortStableFunc(fs, func(a, b Finding) int {
		return cmp.Or(strings.Compare(a.Pos.File, b.Pos.File), cmp.Compare(a.Pos.Line, b.Pos.Line), cmp.Compare(a.Pos.Col, b.Pos.Col),
			strings.Compare(string(a.Kind), string(b.Kind)), strings.Compare(a.Subject, b.Subject), strings.Compare(a.Message, b.Message))
	})
}
