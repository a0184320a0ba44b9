package emit

import (
	"go/token"
	"maps"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/emit/internal/ir"
	"github.com/mcpgen/mcpgen/model"
)

// selection is the first pass of planning: it reads the configuration (configure), selects the
// declarations the output has and the Go types that replace others, and checks at the end that
// every entry of the configuration changed something (checkConfigUsed).
type selection struct {
	*plan
	// selected are the declarations a configuration selects, with everything they reference;
	// nil selects every declaration. substitutes are the Go types that replace declarations,
	// memberSubstitutes those that replace members' types, by key (memberKeys); memberRoots
	// are the members whose types are roots without their declarations; embeds are the
	// members whose fields are embedded (Config.Embed), by key.
	selected          map[string]bool
	substitutes       map[string]*ir.Type
	memberSubstitutes map[string]*ir.Type
	memberRoots       []memberRoot
	embeds            map[string]Entry
	// omits are the members left out (Config.Omit), by key; defined the aliases that are
	// defined types (Config.Defined), by declaration name.
	omits, defined map[string]Entry
	// bases are the declarations that are embedded bases (Config.Embed), by name;
	// externalBases the structs of those that another output declares (substituted by a type of
	// the package), planned for their fields but not written.
	bases         map[string]Entry
	externalBases map[string]*ir.Decl
	// usedNames, usedFields and usedSubstitutes record the member entries of the configuration
	// that named a type or a field, or replaced a type; usedShapes, the member entries of
	// the shapes ("optional Tool.title") and of embed ("embed Result._meta"); referenced, the
	// substituted declarations that something refers to (checkConfigUsed).
	usedNames, usedFields, usedSubstitutes, usedShapes, referenced map[string]bool
	// tagCoded finds the structs of Config.TagCodecs by their entries' names (checkConfigUsed).
	tagCoded map[string]*ir.Decl
	// shortSelection is set when a root of Config.Types was at fault, which leaves out what it
	// references: then an entry that changed nothing may be no mistake of its own
	// (checkConfigUsed).
	shortSelection bool
}

// newSelection is the selection pass of p, before it has read the configuration.
func newSelection(p *plan) *selection {
	return &selection{plan: p, usedNames: map[string]bool{}, usedFields: map[string]bool{},
		usedSubstitutes: map[string]bool{}, usedShapes: map[string]bool{}, referenced: map[string]bool{},
		tagCoded: map[string]*ir.Decl{}}
}

// splitKey splits "Decl.member" into the declaration and the member ("" for a key without a
// member). A declaration name holds no dot, a member name may ("io.modelcontextprotocol/x").
func splitKey(key string) (decl, member string) {
	decl, member, _ = strings.Cut(key, ".")
	return decl, member
}

// memberOf returns the member named by a key, or an error at pos saying what is wrong, for the
// configuration section what. A key is "Decl.member", or a path through inline objects
// ("ClientCapabilities.sampling.tools"): after a member whose type is an inline object (or an
// array, map or nullable of one), the names of its members follow. A member whose name holds
// dots is matched as a whole. For a key without a member, the member is nil.
func (sel *selection) memberOf(key string, pos model.Pos, what string) (*model.Decl, *model.Member, error) {
	declName, rest := splitKey(key)
	d := sel.s.Decl(declName)
	if d == nil {
		return nil, nil, pos.Errorf("%s: %s", what, sel.noDecl(declName))
	}
	if rest == "" {
		return d, nil, nil
	}
	if d.Type.Kind == model.Ref {
		return nil, nil, pos.Errorf("%s: %s is an alias of %s: name the member as %s.%s", what, declName, d.Type.Ref, d.Type.Ref, rest)
	}
	t, err := sel.s.Deref(d.Type)
	if err != nil || t.Kind != model.Object {
		return nil, nil, pos.Errorf("%s: %s is not an object, it has no member %q", what, declName, rest)
	}
	obj, path := t.Object, declName
	for {
		m, after := matchMember(obj, rest)
		if m == nil {
			first, _, _ := strings.Cut(rest, ".")
			return nil, nil, pos.Errorf("%s: %s has no member %q%s", what, path, rest, suggest(first, memberNames(obj)))
		}
		if after == "" {
			return d, m, nil
		}
		path += "." + m.Name
		if obj = inlineObject(m.Type); obj == nil {
			return nil, nil, pos.Errorf("%s: the type of %s is not an inline object, it has no member %q (name a declared type's members by its declaration)", what, path, after)
		}
		rest = after
	}
}

// matchMember returns the member of o that rest names, with what follows its name and the dot:
// the member named rest, or else the one with the longest name that rest starts with before a
// dot.
func matchMember(o *model.ObjectType, rest string) (*model.Member, string) {
	var best *model.Member
	for _, m := range o.Members {
		if m.Name == rest {
			return m, ""
		}
		if strings.HasPrefix(rest, m.Name+".") && (best == nil || len(m.Name) > len(best.Name)) {
			best = m
		}
	}
	if best == nil {
		return nil, ""
	}
	return best, rest[len(best.Name)+1:]
}

// inlineObject returns the inline object a member's type holds: the type itself, the element of
// an array or map, the non-null variant of a nullable union, the element of a one-or-many union;
// nil for anything else (a reference to a declaration among them).
func inlineObject(t *model.Type) *model.ObjectType {
	switch t.Kind {
	case model.Object:
		return t.Object
	case model.Array, model.Map:
		return inlineObject(t.Elem)
	case model.Union:
		if dec := t.Union.Decision; dec != nil && dec.Elem != nil && (dec.Strategy == model.NullableStrategy || dec.Strategy == model.OneOrManyStrategy) {
			return inlineObject(dec.Elem)
		}
	}
	return nil
}

// memberKeys are the configuration keys that name member m of the struct at path (a
// declaration's name, or the key of the member holding an inline object): path.m, then, for a
// member that decl inherits, Declaring.m of the declaration that declares it. (A member an
// embedded base holds has Base.m besides, after path.m: planField.) An entry on the
// inheriting declaration wins over the declaring one's, which reaches every declaration that
// inherits the member.
func (sel *selection) memberKeys(path string, decl *model.Decl, m *model.Member) []string {
	if path == "" {
		return nil
	}
	keys := []string{path + "." + m.Name}
	if decl != nil {
		if o := sel.declaring(m); o != nil && o != decl {
			keys = append(keys, o.Name+"."+m.Name)
		}
	}
	return keys
}

// lookup returns the entry of the first key that entries has, and that key.
func lookup[T any](entries map[string]T, keys []string) (T, string, bool) {
	for _, k := range keys {
		if e, ok := entries[k]; ok {
			return e, k, true
		}
	}
	var zero T
	return zero, "", false
}

// shapeOf is the choice of a Shape for the member with the given keys: its own entry, or the
// default; the position of the entry that made it, zero for the generator's default. The entry
// used is recorded (checkConfigUsed).
func (sel *selection) shapeOf(what string, sh Shape, keys []string) (string, model.Pos) {
	if e, key, ok := lookup(sh.Members, keys); ok {
		sel.usedShapes[what+" "+key] = true
		return e.Name, e.Pos
	}
	return sh.Default.Name, sh.Default.Pos
}

// noDecl says that the schema has no declaration name, suggesting a close one.
func (sel *selection) noDecl(name string) string {
	var names []string
	for _, d := range sel.s.Decls {
		names = append(names, d.Name)
	}
	return "the schema declares no " + model.Shorten(name) + suggest(name, names)
}

func memberNames(o *model.ObjectType) []string {
	var names []string
	for _, m := range o.Members {
		names = append(names, m.Name)
	}
	return names
}

// suggest returns " (did you mean X?)" for the candidate closest to name, if one is close, or "".
func suggest(name string, candidates []string) string {
	best, bestDist := "", len(name)/3+1
	for _, c := range candidates {
		if d := editDistance(strings.ToLower(name), strings.ToLower(c)); d < bestDist {
			best, bestDist = c, d
		}
	}
	if best == "" {
		return ""
	}
	return " (did you mean " + best + "?)"
}

// editDistance is the distance of a and b in edits of one byte (insertion, deletion,
// substitution) or swaps of two adjacent bytes (optimal string alignment).
func editDistance(a, b string) int {
	if len(a) > 200 || len(b) > 200 {
		return max(len(a), len(b))
	}
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// memberRoot is a member whose type is a root of the output without its declaration.
type memberRoot struct {
	decl   *model.Decl
	member *model.Member
}

// configure checks the configuration against the schema and decides what is generated: the
// declarations (g.generated), the substitutes, the member roots, the initialisms. Each entry at
// fault is reported (g.errs) and skipped, so that planning goes on and finds the others.
func (sel *selection) configure() {
	c := sel.opts.Config
	sel.names = namer{extra: map[string]string{}}
	for _, e := range c.Initialisms {
		if w := words(e.Name); len(w) != 1 || w[0] != e.Name || !token.IsIdentifier(e.Name) {
			sel.errs.Add(e.Pos.Errorf("initialisms: %q is not one word of letters and digits as Go names are split (ID, MIME)", e.Name))
			continue
		}
		sel.names.extra[strings.ToLower(e.Name)] = e.Name
	}
	sel.configureSubstitutes()
	for _, key := range slices.Sorted(maps.Keys(c.Fields)) {
		e := c.Fields[key]
		if _, m, err := sel.memberOf(key, e.Pos, "fields"); err != nil {
			sel.errs.Add(err)
		} else if m == nil {
			sel.errs.Add(e.Pos.Errorf("fields: %q names no member: write Declaration.member", key))
		}
	}
	sel.configureShapes()
	sel.checkRenames()
	if c.Types != nil {
		sel.selectTypes()
	}
}

// configureSubstitutes reads the substitutes (Config.Substitutes): of declarations, and of
// members (which selectTypes does not walk into).
func (sel *selection) configureSubstitutes() {
	c := sel.opts.Config
	sel.substitutes = map[string]*ir.Type{}
	sel.memberSubstitutes = map[string]*ir.Type{}
	for _, key := range slices.Sorted(maps.Keys(c.Substitutes)) {
		sub := c.Substitutes[key]
		d, m, err := sel.memberOf(key, sub.Pos, "substitute")
		if err != nil {
			sel.errs.Add(err)
			continue
		}
		t := &ir.Type{Kind: externalKind, Name: sub.Name, Path: sub.Path, Pointer: sub.Pointer,
			Composite: sub.Composite, Underlying: sub.Kind}
		sel.subPos[t] = sub.Pos
		if m == nil {
			sel.substitutes[d.Name] = t
			continue
		}
		sel.memberSubstitutes[key] = t
	}
}

// checkRenames checks that each rename (Config.Names) names a declaration, a constant, a member
// or SchemaVersion.
func (sel *selection) checkRenames() {
	c := sel.opts.Config
	for _, key := range slices.Sorted(maps.Keys(c.Names)) {
		e := c.Names[key]
		if key == "SchemaVersion" || strings.Contains(key, ".") {
			if key != "SchemaVersion" {
				_, _, err := sel.memberOf(key, e.Pos, "rename")
				sel.errs.Add(err)
			}
			continue
		}
		isConst := slices.ContainsFunc(sel.s.Consts, func(c *model.Const) bool { return c.Name == key })
		if sel.s.Decl(key) == nil && !isConst {
			sel.errs.Add(e.Pos.Errorf("rename: %s", sel.noDecl(key)))
		} else if isConst && c.NoConstants {
			sel.errs.Add(e.Pos.Errorf("rename: %s is a constant, and constants: false leaves the constants out", key))
		}
	}
}

// selectTypes selects the declarations of Config.Types, and those they reference transitively,
// skipping substituted declarations and members. A root at fault is skipped, and leaves the
// selection short (g.shortSelection).
func (sel *selection) selectTypes() {
	sel.selected = map[string]bool{}
	var walk func(t *model.Type, path string, decl *model.Decl)
	visit := func(d *model.Decl) {
		if sel.substitutes[d.Name] != nil {
			sel.referenced[d.Name] = true // a member of the selection refers to it
		}
		if sel.selected[d.Name] || sel.substitutes[d.Name] != nil {
			return
		}
		sel.selected[d.Name] = true
		walk(d.Type, d.Name, d)
	}
	walk = func(t *model.Type, path string, decl *model.Decl) {
		if t == nil {
			return
		}
		switch t.Kind {
		case model.Ref:
			if d := sel.s.Decl(t.Ref); d != nil {
				visit(d)
			}
		case model.Array, model.Map:
			walk(t.Elem, path, nil)
		case model.Object:
			for _, m := range t.Object.Members {
				keys := sel.memberKeys(path, decl, m)
				if _, _, substituted := lookup(sel.memberSubstitutes, keys); !substituted {
					walk(m.Type, childPath(keys), nil)
				}
			}
			walk(t.Object.Rest, "", nil)
		case model.Union:
			for _, v := range t.Union.Variants {
				walk(v, path, nil)
			}
		}
	}
	for _, e := range sel.opts.Config.Types {
		d, m, err := sel.memberOf(e.Name, e.Pos, "types")
		switch {
		case err != nil:
		case m == nil && sel.substitutes[d.Name] != nil:
			err = e.Pos.Errorf("types: %s is substituted (%s), it cannot be generated too: remove it from types or from substitute", d.Name, sel.subPos[sel.substitutes[d.Name]])
		case m != nil && sel.memberSubstitutes[e.Name] != nil:
			err = e.Pos.Errorf("types: %s is substituted (%s), its type cannot be generated too: remove it from types or from substitute", e.Name, sel.subPos[sel.memberSubstitutes[e.Name]])
		case m != nil && e.Name != d.Name+"."+m.Name:
			err = e.Pos.Errorf("types: %s is a member of an inline object: a root is a declaration or one of its members", e.Name)
		}
		if err != nil {
			sel.errs.Add(err)
			sel.shortSelection = true
			continue
		}
		if m == nil {
			visit(d)
			continue
		}
		sel.memberRoots = append(sel.memberRoots, memberRoot{d, m})
		walk(m.Type, e.Name, nil)
	}
}

// childPath is the path of the inline types in a member's type, from the member's keys: the
// key of the declaration that declares it, which names the inline types of an inherited member.
func childPath(keys []string) string {
	if len(keys) == 0 {
		return ""
	}
	return keys[len(keys)-1]
}

// configureShapes checks the members and values of the shape entries (Optional, Elements,
// Objects, Embed), reporting and skipping each at fault.
func (sel *selection) configureShapes() {
	c := sel.opts.Config
	shapes := []struct {
		what   string
		sh     Shape
		values []string
	}{
		{"optional", c.Optional, []string{Pointer, OmitEmpty, OmitZero, Value}},
		{"elements", c.Elements, []string{Value, Pointer}},
		{"objects", c.Objects, []string{Value, Pointer}},
		{"oneOrMany", c.OneOrMany, []string{Struct, Slice}},
		{"literals", c.Literals, []string{Field, Implicit}},
		{"nilAs", c.NilAs, []string{Empty, Null}},
	}
	for _, x := range shapes {
		check := func(e Entry, what string) error {
			if e.Name != "" && !slices.Contains(x.values, e.Name) {
				return e.Pos.Errorf("%s: %q is not one of %s", what, e.Name, strings.Join(x.values, ", "))
			}
			return nil
		}
		sel.errs.Add(check(x.sh.Default, x.what))
		for _, key := range slices.Sorted(maps.Keys(x.sh.Members)) {
			e := x.sh.Members[key]
			if _, m, err := sel.memberOf(key, e.Pos, x.what); err != nil {
				sel.errs.Add(err)
			} else if m == nil {
				sel.errs.Add(e.Pos.Errorf("%s: %q names no member: write Declaration.member", x.what, key))
			} else {
				sel.errs.Add(check(e, x.what+": "+key))
			}
		}
	}
	sel.checkOrders()
	for _, name := range slices.Sorted(maps.Keys(c.AddFields)) {
		if d := sel.s.Decl(name); d == nil {
			sel.errs.Add(c.AddFields[name][0].Pos.Errorf("addFields: %s", sel.noDecl(name)))
		} else if d.Type.Kind != model.Object {
			sel.errs.Add(c.AddFields[name][0].Pos.Errorf("addFields: %s is not an object, it has no struct to add fields to", name))
		}
	}
	sel.configureMembers()
	sel.configureEmbeds()
}

// configureEmbeds reads the embedded fields and bases (Config.Embed), reporting and skipping
// each entry at fault.
func (sel *selection) configureEmbeds() {
	c := sel.opts.Config
	sel.embeds, sel.bases = map[string]Entry{}, map[string]Entry{}
	for _, e := range c.Embed {
		d, m, err := sel.memberOf(e.Name, e.Pos, "embed")
		switch {
		case err != nil:
		case m == nil && d.Type.Kind != model.Object:
			err = e.Pos.Errorf("embed: %s is not an interface with members of its own, which an embedded base needs", e.Name)
		case m == nil:
			if err = sel.repeated("embed", e, sel.bases, ""); err == nil {
				sel.bases[e.Name] = e
			}
		default:
			if err = sel.repeated("embed", e, sel.embeds, "an embedded field is named by its type"); err == nil {
				sel.embeds[e.Name] = e
			}
		}
		sel.errs.Add(err)
	}
}

// repeated is the error of an entry e of the list what (embed, omit) that seen has already, or
// that fields names too, which the list's entries cannot have (why); nil for neither.
func (sel *selection) repeated(what string, e Entry, seen map[string]Entry, why string) error {
	if prev, dup := seen[e.Name]; dup {
		return e.Pos.Errorf("%s: %s is listed twice (first at %s)", what, e.Name, prev.Pos)
	}
	if f, named := sel.opts.Config.Fields[e.Name]; named {
		return e.Pos.Errorf("%s: %s is named by fields too (%s): %s: remove one of the entries", what, e.Name, f.Pos, why)
	}
	return nil
}

// checkOrders checks that each order entry (Config.Order) names members of an object, once
// each.
func (sel *selection) checkOrders() {
	c := sel.opts.Config
	for _, key := range slices.Sorted(maps.Keys(c.Order)) {
		entries := c.Order[key]
		if len(entries) == 0 {
			continue
		}
		d, m, err := sel.memberOf(key, entries[0].Pos, "order")
		if err != nil {
			sel.errs.Add(err)
			continue
		}
		obj := inlineObject(d.Type)
		if m != nil {
			obj = inlineObject(m.Type)
		} else if t, err := sel.s.Deref(d.Type); err == nil {
			obj = inlineObject(t)
		}
		if obj == nil {
			sel.errs.Add(entries[0].Pos.Errorf("order: %s is not an object", key))
			continue
		}
		seen := map[string]bool{}
		for _, e := range entries {
			if obj.Member(e.Name) == nil {
				sel.errs.Add(e.Pos.Errorf("order: %s has no member %q%s", key, e.Name, suggest(e.Name, memberNames(obj))))
			} else if seen[e.Name] {
				sel.errs.Add(e.Pos.Errorf("order: %s: %s is listed twice", key, e.Name))
			}
			seen[e.Name] = true
		}
	}
}

// checkTagCodecEmbeds refuses a struct coded by encoding/json from its tags (Config.TagCodecs)
// that embeds a type with a MarshalJSON or UnmarshalJSON (a base with generated codecs, an
// embedded member of such a type) and has not the method itself in a hand-written file
// (Config.Methods): encoding/json would call the embedded type's method, promoted, and code
// that type's members alone, silently dropping the struct's own.
func (sel *selection) checkTagCodecEmbeds() error {
	for _, e := range sel.opts.Config.TagCodecs {
		td := sel.tagCoded[e.Name]
		if td == nil {
			continue
		}
		for _, f := range td.Fields {
			embedded := f.Base
			if f.Embed {
				embedded = f.Name
			}
			for _, method := range []string{"MarshalJSON", "UnmarshalJSON"} {
				if embedded == "" || !sel.hasMethod(embedded, method) || sel.opts.Config.Methods[td.Name+"."+method] {
					continue
				}
				return e.Pos.Errorf("tagCodecs: %s embeds %s, whose %s encoding/json would call in its place, coding none of %s's own members: "+
					"add %s to tagCodecs too, or declare %s.%s in a hand-written file", e.Name, embedded, method, td.Name, embedded, td.Name, method)
			}
		}
	}
	return nil
}

// hasMethod reports whether the type name has the codec method (MarshalJSON, UnmarshalJSON):
// every type the output declares has both, but the structs coded by encoding/json (and the
// defined types of those); a type of the package that the output does not declare has it when
// a hand-written file declares it (Config.Methods).
func (sel *selection) hasMethod(name, method string) bool {
	td := sel.byName[name]
	if td == nil {
		return sel.opts.Config.Methods[name+"."+method]
	}
	if td.Form == definedForm && sel.byName[td.Type.Name] != nil {
		td = sel.byName[td.Type.Name]
	}
	return !td.TagCodec
}

// generated reports whether the declaration name is generated: selected (or every declaration
// without a selection) and not substituted.
func (sel *selection) generated(name string) bool {
	if sel.substitutes[name] != nil {
		return false
	}
	return sel.selected == nil || sel.selected[name]
}

// declName is the Go name of a declaration: its rename, or its schema name made Go.
func (p *plan) declName(d *model.Decl) (string, model.Pos) {
	if e, ok := p.opts.Config.Names[d.Name]; ok {
		return e.Name, e.Pos
	}
	return p.names.goName(d.Name), d.Pos
}

// inlineStruct is the inline object of a generated struct at path (ServerCapabilities.prompts),
// nil when there is none.
func (p *plan) inlineStruct(path string) *ir.Decl {
	for _, d := range p.s.Decls {
		for _, td := range p.after[d.Name] {
			if p.src(td).path == path && td.Form == structForm {
				return td
			}
		}
	}
	return nil
}

// markTagCodecs marks the structs of Config.TagCodecs, declarations or paths to inline objects,
// and refuses an entry that names no generated struct whose fields encoding/json can write.
func (sel *selection) markTagCodecs() {
	for _, e := range sel.opts.Config.TagCodecs {
		td := sel.byDecl[e.Name]
		inline := sel.s.Decl(e.Name) == nil && strings.Contains(e.Name, ".")
		if inline {
			td = sel.inlineStruct(e.Name)
		}
		switch {
		case inline && td == nil:
			sel.errs.Add(e.Pos.Errorf("tagCodecs: %s is not an inline object of a generated struct", e.Name))
			continue
		case sel.s.Decl(e.Name) == nil && !inline:
			sel.errs.Add(e.Pos.Errorf("tagCodecs: %s", sel.noDecl(e.Name)))
			continue
		case td == nil:
			sel.errs.Add(e.Pos.Errorf("tagCodecs: %s is not generated: it is neither in types nor referenced by a type there", e.Name))
			continue
		case td.Form != structForm:
			sel.errs.Add(e.Pos.Errorf("tagCodecs: %s is not a struct", e.Name))
			continue
		}
		if i := slices.IndexFunc(td.Fields, func(f *ir.Field) bool { return f.Implicit }); i >= 0 {
			sel.errs.Add(e.Pos.Errorf("tagCodecs: %s has no field (literals: implicit), which encoding/json would not write: remove the literals entry or the tagCodecs one", e.Name+"."+td.Fields[i].JSONName))
		}
		td.TagCodec = true
		sel.tagCoded[e.Name] = td
	}
}

// checkConfigUsed fails on entries of the configuration that changed nothing, as a mistake
// would (a rename of a declaration that is not generated, of a member whose type has no name
// of its own): gopls's generator does the same with its override tables.
func (sel *selection) checkConfigUsed() {
	c := sel.opts.Config
	sel.checkNamesUsed()
	for _, key := range slices.Sorted(maps.Keys(c.Fields)) {
		if !sel.usedFields[key] {
			sel.errs.Add(c.Fields[key].Pos.Errorf("fields: %s is not a field of a generated struct", key))
		}
	}
	for _, x := range []struct {
		what string
		sh   Shape
	}{{"optional", c.Optional}, {"elements", c.Elements}, {"objects", c.Objects}, {"oneOrMany", c.OneOrMany}, {"literals", c.Literals}, {"nilAs", c.NilAs}} {
		for _, key := range slices.Sorted(maps.Keys(x.sh.Members)) {
			if !sel.usedShapes[x.what+" "+key] {
				sel.errs.Add(x.sh.Members[key].Pos.Errorf("%s: %s is not a member of a generated struct, or its type has no such choice: remove the %s entry", x.what, key, x.what))
			}
		}
	}
	sel.markTagCodecs()
	for _, key := range slices.Sorted(maps.Keys(c.Order)) {
		if !sel.usedShapes["order "+key] && len(c.Order[key]) > 0 {
			sel.errs.Add(c.Order[key][0].Pos.Errorf("order: %s is not a generated struct", key))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(c.AddFields)) {
		if sel.byDecl[name] == nil {
			sel.errs.Add(c.AddFields[name][0].Pos.Errorf("addFields: %s is not generated: it is neither in types nor referenced by a type there", name))
		}
	}
	for _, e := range c.Defined {
		if sel.byDecl[e.Name] == nil {
			sel.errs.Add(e.Pos.Errorf("defined: %s is not generated: it is neither in types nor referenced by a type there", e.Name))
		}
	}
	for _, e := range c.Omit {
		if !sel.usedShapes["omit "+e.Name] {
			sel.errs.Add(e.Pos.Errorf("omit: %s is not a member of a generated struct", e.Name))
		}
	}
	for _, e := range c.Embed {
		if _, base := sel.bases[e.Name]; base && sel.baseDecl(e.Name) == nil {
			sel.errs.Add(e.Pos.Errorf("embed: the base %s is not generated: add it to types", e.Name))
		}
		if !sel.usedShapes["embed "+e.Name] {
			sel.errs.Add(e.Pos.Errorf("embed: %s is not a member of a generated struct", e.Name))
		}
	}
	for _, key := range slices.Sorted(maps.Keys(c.Substitutes)) {
		declName, member := splitKey(key)
		if member != "" && !sel.usedSubstitutes[key] {
			sel.errs.Add(c.Substitutes[key].Pos.Errorf("substitute: %s is not a member of a generated struct", key))
		}
		if member == "" && sel.selected != nil && !sel.referenced[declName] {
			sel.errs.Add(c.Substitutes[key].Pos.Errorf("substitute: no generated type refers to %s", declName))
		}
	}
}

// checkNamesUsed fails on a rename (Config.Names) of a declaration or member type that the
// output does not have.
func (sel *selection) checkNamesUsed() {
	c := sel.opts.Config
	for _, key := range slices.Sorted(maps.Keys(c.Names)) {
		e := c.Names[key]
		declName, member := splitKey(key)
		switch {
		case key == "SchemaVersion" || slices.ContainsFunc(sel.s.Consts, func(c *model.Const) bool { return c.Name == key }):
			continue
		case sel.substitutes[declName] != nil:
			sel.errs.Add(e.Pos.Errorf("rename: %s is substituted (%s), it has no Go declaration to name", declName, sel.subPos[sel.substitutes[declName]]))
		case member == "" && sel.byDecl[declName] == nil:
			sel.errs.Add(e.Pos.Errorf("rename: %s is not generated: it is neither in types nor referenced by a type there", declName))
		case member != "" && !sel.usedNames[key] && sel.byDecl[declName] == nil && !slices.ContainsFunc(sel.memberRoots, func(r memberRoot) bool {
			return r.decl.Name+"."+r.member.Name == key
		}):
			sel.errs.Add(e.Pos.Errorf("rename: %s is not generated: neither it nor %s is in types, nor referenced by a type there", declName, key))
		case member != "" && !sel.usedNames[key]:
			sel.errs.Add(e.Pos.Errorf("rename: %s has no type of its own to name here (a declared type is renamed by its declaration; an inherited member's type, by the declaration that declares it; a scalar has no name)", key))
		}
	}
}

// substitute returns the Go type that replaces the declaration a Ref names, or nil.
func (sel *selection) substitute(t *model.Type) *ir.Type {
	if t.Kind != model.Ref {
		return nil
	}
	sub := sel.substitutes[t.Ref]
	if sub != nil {
		sel.referenced[t.Ref] = true
	}
	return sub
}

// planMemberRoot plans the type of a member whose declaration is not generated (Config.Types
// "Decl.member"): it is named as it would be in the declaration's struct, or as Config.Names
// says.
func (g *generator) planMemberRoot(r memberRoot) error {
	key := r.decl.Name + "." + r.member.Name
	parent, _ := g.declName(r.decl)
	s := site{
		name:  rootTypeName(parent, g.names.fieldName(r.member.Name)),
		def:   rootTypeName(goName(r.decl.Name), fieldName(r.member.Name)),
		about: "the type of the member " + quote(r.member.Name) + " of " + r.decl.Name + " in the schema",
		owner: r.decl.Name,
		keys:  []string{key},
	}
	if e, ok := g.opts.Config.Names[key]; ok {
		s.name, s.renamed = e.Name, key
	}
	_, err := g.typeOf(r.member.Type, s)
	return err
}

// checkUnexported fails on a union or one-or-many type that a rename made unexported (renamed
// itself, or named after a renamed declaration): the functions and types named after it
// (UnmarshalX, UnknownX, NewX) would be exported, with an odd name. Structs, enums and the rest
// may be unexported.
func (sel *selection) checkUnexported() error {
	for _, td := range sel.types {
		if (td.Form != interfaceForm && td.Form != oneOrManyForm) || token.IsExported(td.Name) {
			continue
		}
		pos := sel.src(td).pos
		for _, key := range slices.Sorted(maps.Keys(sel.opts.Config.Names)) {
			if e := sel.opts.Config.Names[key]; strings.HasPrefix(td.Name, e.Name) {
				pos = e.Pos
				break
			}
		}
		return pos.Errorf("rename: the union %s would be unexported, and the functions and types named after it (Unmarshal%s) exported; rename it, or what it is named after, with a capital", td.Name, td.Name)
	}
	return nil
}

// configureMembers reads the aliases made defined types (Config.Defined) and the members left
// out (Config.Omit), reporting and skipping each entry at fault.
func (sel *selection) configureMembers() {
	c := sel.opts.Config
	sel.defined = map[string]Entry{}
	for _, e := range c.Defined {
		if sel.s.Decl(e.Name) == nil {
			sel.errs.Add(e.Pos.Errorf("defined: %s", sel.noDecl(e.Name)))
		} else if prev, dup := sel.defined[e.Name]; dup {
			sel.errs.Add(e.Pos.Errorf("defined: %s is listed twice (first at %s)", e.Name, prev.Pos))
		} else {
			sel.defined[e.Name] = e
		}
	}
	sel.omits = map[string]Entry{}
	for _, e := range c.Omit {
		_, m, err := sel.memberOf(e.Name, e.Pos, "omit")
		switch {
		case err != nil:
		case m == nil:
			err = e.Pos.Errorf("omit: %q names no member: write Declaration.member", e.Name)
		default:
			if err = sel.repeated("omit", e, sel.omits, "a member left out has no field"); err == nil {
				sel.omits[e.Name] = e
			}
		}
		sel.errs.Add(err)
	}
}
