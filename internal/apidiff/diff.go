package apidiff

import (
	"maps"
	"slices"
	"strings"
	"unicode"
)

// Report is what changed from one API to another.
type Report struct {
	Added   []*Type   // types only the new API has
	Removed []*Type   // types only the old API has
	Renamed []Rename  // removed types whose members an added type has under a similar name
	Changed []*Change // types of both (renamed ones included) that changed

	ConstsAdded   []*Const
	ConstsRemoved []*Const
	ConstsRenamed [][2]*Const // old, new: a removed and an added constant of the same type and value
	ConstsChanged [][2]*Const // old, new

	FuncsAdded   []string
	FuncsRemoved []string

	// Changelog holds the spec changelog's entries that name a change of the report; Unmatched
	// counts the others. Set by MatchChangelog.
	Changelog []Match
	Unmatched int
}

// Rename is a type that is removed under one name and added under another.
type Rename struct{ Old, New string }

// Change is how a type present in both APIs changed.
type Change struct {
	Name    string // the name in the new API
	OldName string // the name in the old API, when it was renamed
	// Kind holds the old and new kind, when it changed ("struct", "union", "alias of X", ...).
	Kind         *[2]string
	Deprecated   bool // deprecated in the new API, not in the old
	Undeprecated bool
	Members      []Member
}

// Op is what happened to a member of a type.
type Op string

// The ops of a Member.
const (
	FieldAdded      Op = "added"
	FieldRemoved    Op = "removed"
	FieldRenamed    Op = "renamed"    // Old → New: the Go name, for the same JSON member
	FieldType       Op = "type"       // Old → New: the Go type
	FieldJSON       Op = "member"     // Old → New: the JSON name
	MadeRequired    Op = "required"   // Old → New: the Go type, when it changed too
	MadeOptional    Op = "optional"   // Old → New: the Go type, when it changed too
	FieldDeprecated Op = "deprecated" // the field is deprecated in the new API
	VariantAdded    Op = "variant added"
	VariantRemoved  Op = "variant removed"
	ValueAdded      Op = "value added"
	ValueRemoved    Op = "value removed"
)

// Member is a change of a field of a struct, a variant of a union or a value of an enum.
type Member struct {
	Op   Op
	Name string // the field (its new name when renamed), variant or value
	// Old and New: see Op. For an added field, New is its type.
	Old, New string
	JSON     string // the field's JSON member
	Optional bool   // an added field is optional
}

// Compare lists the changes from the API old to the API new.
func Compare(old, new *API) *Report {
	r := &Report{}
	var removed, added []*Type
	for _, name := range slices.Sorted(maps.Keys(old.Types)) {
		if _, ok := new.Types[name]; !ok {
			removed = append(removed, old.Types[name])
		}
	}
	for _, name := range slices.Sorted(maps.Keys(new.Types)) {
		if _, ok := old.Types[name]; !ok {
			added = append(added, new.Types[name])
		}
	}
	renamed := renames(removed, added)
	for _, t := range removed {
		if _, ok := renamed[t.Name]; !ok {
			r.Removed = append(r.Removed, t)
		}
	}
	newNames := map[string]bool{}
	for o, n := range renamed {
		newNames[n] = true
		r.Renamed = append(r.Renamed, Rename{o, n})
	}
	slices.SortFunc(r.Renamed, func(a, b Rename) int { return strings.Compare(a.New, b.New) })
	for _, t := range added {
		if !newNames[t.Name] {
			r.Added = append(r.Added, t)
		}
	}

	pairs := map[string]string{} // new name → old name, for every type of both
	for name := range new.Types {
		if _, ok := old.Types[name]; ok {
			pairs[name] = name
		}
	}
	for o, n := range renamed {
		pairs[n] = o
	}
	for _, name := range slices.Sorted(maps.Keys(pairs)) {
		if c := compareType(old.Types[pairs[name]], new.Types[name]); c != nil {
			r.Changed = append(r.Changed, c)
		}
	}

	for _, name := range slices.Sorted(maps.Keys(old.Consts)) {
		oc, nc := old.Consts[name], new.Consts[name]
		switch {
		case nc == nil:
			r.ConstsRemoved = append(r.ConstsRemoved, oc)
		case oc.Value != nc.Value || oc.Type != nc.Type:
			r.ConstsChanged = append(r.ConstsChanged, [2]*Const{oc, nc})
		}
	}
	for _, name := range slices.Sorted(maps.Keys(new.Consts)) {
		if old.Consts[name] == nil {
			r.ConstsAdded = append(r.ConstsAdded, new.Consts[name])
		}
	}
	r.ConstsRemoved, r.ConstsAdded, r.ConstsRenamed = constRenames(r.ConstsRemoved, r.ConstsAdded)
	for _, name := range slices.Sorted(maps.Keys(old.Funcs)) {
		if _, ok := new.Funcs[name]; !ok {
			r.FuncsRemoved = append(r.FuncsRemoved, name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(new.Funcs)) {
		if _, ok := old.Funcs[name]; !ok {
			r.FuncsAdded = append(r.FuncsAdded, name)
		}
	}
	return r
}

// constRenames pairs the removed and added constants that have the same type and value, when
// no other removed or added constant has it (InternalError → InternalErrorCode), and returns the
// rest.
func constRenames(removed, added []*Const) (restRemoved, restAdded []*Const, renamed [][2]*Const) {
	key := func(c *Const) string { return c.Type + " " + c.Value }
	count := map[string]int{}
	for _, c := range removed {
		count[key(c)] += 1
	}
	for _, c := range added {
		count[key(c)] += 100
	}
	paired := map[string]*Const{}
	for _, c := range removed {
		if count[key(c)] == 101 {
			paired[key(c)] = c
		} else {
			restRemoved = append(restRemoved, c)
		}
	}
	for _, c := range added {
		if o := paired[key(c)]; o != nil {
			renamed = append(renamed, [2]*Const{o, c})
		} else {
			restAdded = append(restAdded, c)
		}
	}
	return restRemoved, restAdded, renamed
}

// compareType lists how t changed into u, or returns nil when it did not.
func compareType(t, u *Type) *Change {
	c := &Change{Name: u.Name}
	if t.Name != u.Name {
		c.OldName = t.Name
	}
	if t.Describe() != u.Describe() {
		c.Kind = &[2]string{t.Describe(), u.Describe()}
	}
	c.Deprecated = u.Deprecated && !t.Deprecated
	c.Undeprecated = t.Deprecated && !u.Deprecated
	if c.Kind != nil {
		// The members of another kind of type are not comparable.
		return c
	}
	c.Members = append(c.Members, compareFields(t, u)...)
	for _, v := range u.Variants {
		if !slices.Contains(t.Variants, v) {
			c.Members = append(c.Members, Member{Op: VariantAdded, Name: v})
		}
	}
	for _, v := range t.Variants {
		if !slices.Contains(u.Variants, v) {
			c.Members = append(c.Members, Member{Op: VariantRemoved, Name: v})
		}
	}
	for _, v := range u.Values {
		if !slices.Contains(t.Values, v) {
			c.Members = append(c.Members, Member{Op: ValueAdded, Name: v})
		}
	}
	for _, v := range t.Values {
		if !slices.Contains(u.Values, v) {
			c.Members = append(c.Members, Member{Op: ValueRemoved, Name: v})
		}
	}
	if c.OldName == "" && c.Kind == nil && !c.Deprecated && !c.Undeprecated && len(c.Members) == 0 {
		return nil
	}
	return c
}

// compareFields lists the changes of the fields of two structs, in the new struct's order, then
// the removed fields in the old one's. A field is the same if it has the same Go name, or, for
// a renamed field, the same JSON member.
func compareFields(t, u *Type) []Member {
	var out []Member
	matched := map[string]bool{} // old field names with a counterpart
	for _, nf := range u.Fields {
		of := t.Field(nf.Name)
		if of == nil && nf.JSON != "" {
			for _, f := range t.Fields {
				if f.JSON == nf.JSON && u.Field(f.Name) == nil {
					of = f
					out = append(out, Member{Op: FieldRenamed, Name: nf.Name, Old: f.Name, New: nf.Name, JSON: nf.JSON})
					break
				}
			}
		}
		if of == nil {
			out = append(out, Member{Op: FieldAdded, Name: nf.Name, New: nf.Type, JSON: nf.JSON, Optional: nf.Optional})
			continue
		}
		matched[of.Name] = true
		if of.JSON != nf.JSON {
			out = append(out, Member{Op: FieldJSON, Name: nf.Name, Old: of.JSON, New: nf.JSON})
		}
		switch {
		case of.Optional && !nf.Optional:
			out = append(out, typeChange(MadeRequired, nf, of.Type))
		case !of.Optional && nf.Optional:
			out = append(out, typeChange(MadeOptional, nf, of.Type))
		case of.Type != nf.Type:
			out = append(out, Member{Op: FieldType, Name: nf.Name, Old: of.Type, New: nf.Type, JSON: nf.JSON})
		}
		if nf.Deprecated && !of.Deprecated {
			out = append(out, Member{Op: FieldDeprecated, Name: nf.Name, JSON: nf.JSON})
		}
	}
	for _, of := range t.Fields {
		if !matched[of.Name] {
			out = append(out, Member{Op: FieldRemoved, Name: of.Name, Old: of.Type, JSON: of.JSON})
		}
	}
	return out
}

// typeChange is a field made required or optional, with its old and new type if they differ.
func typeChange(op Op, f *Field, oldType string) Member {
	m := Member{Op: op, Name: f.Name, JSON: f.JSON}
	if oldType != f.Type {
		m.Old, m.New = oldType, f.Type
	}
	return m
}

// renames pairs removed and added types that are the same type under another name: of the same
// kind, with names that share at least half their words, and with (mostly) the same JSON members,
// variants or values, or the same aliased type. Each type is paired at most once, best matches
// first. It returns old name → new name.
func renames(removed, added []*Type) map[string]string {
	type pair struct {
		old, new *Type
		score    float64
	}
	var pairs []pair
	for _, o := range removed {
		for _, n := range added {
			if o.Kind != n.Kind || similarity(words(o.Name), words(n.Name)) < 0.5 {
				continue
			}
			var s float64
			switch o.Kind {
			case "struct":
				s = similarity(jsonNames(o), jsonNames(n))
			case "union":
				s = similarity(o.Variants, n.Variants)
			case "enum":
				s = similarity(o.Values, n.Values)
			case "alias":
				if o.Target == n.Target {
					s = 1
				}
			}
			if s >= 0.75 {
				pairs = append(pairs, pair{o, n, s})
			}
		}
	}
	slices.SortStableFunc(pairs, func(a, b pair) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return strings.Compare(a.old.Name+a.new.Name, b.old.Name+b.new.Name)
	})
	out := map[string]string{}
	taken := map[string]bool{}
	for _, p := range pairs {
		if _, ok := out[p.old.Name]; ok || taken[p.new.Name] {
			continue
		}
		out[p.old.Name] = p.new.Name
		taken[p.new.Name] = true
	}
	return out
}

func jsonNames(t *Type) []string {
	var names []string
	for _, f := range t.Fields {
		if f.JSON != "" {
			names = append(names, f.JSON)
		}
	}
	return names
}

// similarity is the Jaccard index of two sets: 0 when both are empty.
func similarity(a, b []string) float64 {
	in := map[string]int{}
	for _, x := range a {
		in[x] |= 1
	}
	for _, x := range b {
		in[x] |= 2
	}
	both := 0
	for _, v := range in {
		if v == 3 {
			both++
		}
	}
	if len(in) == 0 {
		return 0
	}
	return float64(both) / float64(len(in))
}

// words splits a Go name at its camel humps: "JSONRPCRequest" gives JSONRPC, Request.
func words(name string) []string {
	var out []string
	rs := []rune(name)
	start := 0
	for i := 1; i < len(rs); i++ {
		lowerToUpper := unicode.IsUpper(rs[i]) && !unicode.IsUpper(rs[i-1])
		endOfCaps := unicode.IsUpper(rs[i]) && unicode.IsUpper(rs[i-1]) && i+1 < len(rs) && unicode.IsLower(rs[i+1])
		if lowerToUpper || endOfCaps {
			out = append(out, string(rs[start:i]))
			start = i
		}
	}
	return append(out, string(rs[start:]))
}

// Empty reports whether the report lists no change.
func (r *Report) Empty() bool {
	return len(r.Added)+len(r.Removed)+len(r.Renamed)+len(r.Changed)+len(r.ConstsAdded)+
		len(r.ConstsRemoved)+len(r.ConstsRenamed)+len(r.ConstsChanged)+len(r.FuncsAdded)+
		len(r.FuncsRemoved) == 0
}
