package emit

import (
	"cmp"
	"go/token"
	"maps"
	"slices"

	"github.com/mcpgen/mcpgen/emit/internal/ir"
	"github.com/mcpgen/mcpgen/model"
)

// Embedded bases (Config.Embed of a declaration). A base's struct holds the members it
// declares itself and those its own bases hold; a struct that inherits from bases embeds the
// outermost of them, those no other base it inherits from holds (ListToolsResult embeds
// PaginatedResult, which embeds CacheableResult, which embeds Result). A member that the struct
// declares again is held by the base all the same when its Go field comes out the same there
// (checkBases says so otherwise).

// ancestors are the declarations decl inherits from: those its extends clauses name
// (model.Decl.Extends), transitively, and those its members are declared in (an Omit<> of a
// declaration, which no clause names, or a schema.json's allOf), without decl itself.
func (g *generator) ancestors(decl *model.Decl) map[string]bool {
	out := map[string]bool{}
	var walk func(d *model.Decl, depth int)
	walk = func(d *model.Decl, depth int) {
		if depth > model.MaxDepth {
			return
		}
		var next []string
		for _, e := range d.Extends {
			next = append(next, e.Ref)
		}
		if t, err := g.s.Deref(d.Type); err == nil && t.Kind == model.Object {
			for _, m := range t.Object.Members {
				next = append(next, m.DeclaredIn)
			}
		}
		for _, name := range next {
			if a := g.s.Decl(name); a != nil && name != decl.Name && !out[name] {
				out[name] = true
				walk(a, depth+1)
			}
		}
	}
	walk(decl, 0)
	return out
}

// directBases are the bases that the struct of decl embeds itself, sorted: the bases among its
// ancestors that no other of them inherits from.
func (g *generator) directBases(decl *model.Decl) []string {
	if len(g.sel.bases) == 0 {
		return nil
	}
	anc := g.ancestors(decl)
	var bases []string
	for name := range anc {
		if _, ok := g.sel.bases[name]; ok {
			bases = append(bases, name)
		}
	}
	var direct []string
	for _, b := range bases {
		covered := false
		for _, o := range bases {
			if o != b && g.ancestors(g.s.Decl(o))[b] {
				covered = true
			}
		}
		if !covered {
			direct = append(direct, b)
		}
	}
	slices.Sort(direct)
	return direct
}

// holds reports whether the struct of the base named base has a field for the member name: a
// member it declares itself, or one that one of its own bases holds.
func (g *generator) holds(base, name string, depth int) bool {
	d := g.s.Decl(base)
	if d == nil || depth > model.MaxDepth {
		return false
	}
	t, err := g.s.Deref(d.Type)
	if err != nil || t.Kind != model.Object {
		return false
	}
	m := t.Object.Member(name)
	if m == nil || m.Absent {
		return false
	}
	if _, _, omitted := lookup(g.sel.omits, g.sel.memberKeys(base, d, m)); omitted {
		return false
	}
	if m.DeclaredIn == base {
		return true
	}
	for _, b := range g.directBases(d) {
		if g.holds(b, name, depth+1) {
			return true
		}
	}
	return false
}

// holder is the base that holds member m of the struct of decl ("" for none: a field of the
// struct's own), and whether the struct has no field for it at all: a base's struct holds only
// the members it declares itself and those its bases hold. Two bases holding the member is an
// error, since Go would not promote either's field.
func (g *generator) holder(decl *model.Decl, m *model.Member) (base string, skip bool, err error) {
	if decl == nil || len(g.sel.bases) == 0 {
		return "", false, nil
	}
	var by []string
	for _, b := range g.directBases(decl) {
		if g.holds(b, m.Name, 0) {
			by = append(by, b)
		}
	}
	switch {
	case len(by) > 1:
		e := g.sel.bases[by[1]]
		return "", false, e.Pos.Errorf("embed: %s inherits the member %q from both %s and %s, which it would embed side by side: make one of them extend the other (declarations: export interface %s extends %s {})",
			decl.Name, m.Name, by[0], by[1], by[1], by[0])
	case len(by) == 1:
		return by[0], false, nil
	}
	if o := g.declaring(m); o != nil && o != decl {
		if _, ok := g.sel.bases[o.Name]; ok {
			return o.Name, false, nil // left out by the inheriting one (Omit): checkBases says so
		}
		if _, ok := g.sel.bases[decl.Name]; ok {
			return "", true, nil
		}
	}
	return "", false, nil
}

// checkBases checks the structs that embed a base (Config.Embed): each member the base's struct
// holds is a field of the same name, type and tag there as in the base (a derived declaration
// may declare a member again with a narrower type, or the configuration shape it otherwise),
// and none is left out (by Omit), since the embedded struct would bring it back.
func (sel *selection) checkBases() {
	for _, d := range sel.s.Decls {
		td := sel.byDecl[d.Name]
		if td == nil || td.Form != structForm {
			continue
		}
		byBase := map[string]map[string]*ir.Field{}
		for _, f := range td.Fields {
			if sel.fsrc(f).baseDecl != "" {
				if byBase[sel.fsrc(f).baseDecl] == nil {
					byBase[sel.fsrc(f).baseDecl] = map[string]*ir.Field{}
				}
				byBase[sel.fsrc(f).baseDecl][f.JSONName] = f
			}
		}
		for _, name := range slices.Sorted(maps.Keys(byBase)) {
			e, base := sel.bases[name], sel.baseDecl(name)
			if base == nil {
				sel.errs.Add(e.Pos.Errorf("embed: the base %s is not generated: add it to types", name))
				continue
			}
			sel.usedShapes["embed "+name] = true
			fields := byBase[name]
			for _, b := range base.Fields {
				f := fields[b.JSONName]
				if f == nil {
					sel.errs.Add(e.Pos.Errorf("embed: %s leaves out the member %q of its base %s, which embedding it would bring back: remove the omit entry, or the base from embed", d.Name, b.JSONName, name))
					continue
				}
				if there, here := sel.fieldString(b), sel.fieldString(f); there != here {
					again := ""
					if sel.fsrc(f).member.DeclaredIn != sel.fsrc(b).member.DeclaredIn {
						again = ", declared again,"
					}
					sel.errs.Add(e.Pos.Errorf("embed: the member %q of %s%s is not the field %s of its base %s (%s there, %s here)",
						f.JSONName, d.Name, again, b.Name, name, there, here))
				}
			}
		}
	}
}

// checkOmittedTags refuses a member left out (Config.Omit) that is the discriminator of a union
// the struct is a variant of: decoding the union reads it, and encoding the variant would not
// write it (literals: implicit leaves the field out and writes the constant).
func (sel *selection) checkOmittedTags() error {
	for _, td := range sel.types {
		if td.Objects == nil || td.Objects.Discriminator == "" {
			continue
		}
		tag := td.Objects.Discriminator
		for _, v := range td.Objects.Variants {
			vt := sel.byName[v.Type.Name]
			if vt == nil {
				continue
			}
			for _, f := range sel.src(vt).omitted {
				if f.JSONName == tag {
					return sel.fsrc(f).shaped.Errorf("omit: %s.%s is the discriminator of the union %s, which decoding reads and encoding must write: remove the entry (literals: implicit leaves its field out, and writes the constant)", cmp.Or(sel.src(vt).path, vt.Name), tag, td.Name)
				}
			}
		}
	}
	return nil
}

// definedShell makes an alias declaration listed in Config.Defined a defined type: of a
// declared object, a struct type of its own (definedForm); of string, a string type without
// constants (an open enum). Any other declaration listed is refused.
func (g *generator) definedShell(td *ir.Decl) error {
	e, ok := g.sel.defined[g.src(td).decl.Name]
	if !ok {
		return nil
	}
	t := g.src(td).decl.Type
	if td.Form == aliasForm && t.Kind == model.String {
		td.Form = enumForm
		return nil
	}
	if td.Form == aliasForm && t.Kind == model.Ref {
		if target := g.s.Decl(t.Ref); target != nil && target.Type.Kind == model.Object {
			td.Form = definedForm
			return nil
		}
	}
	return e.Pos.Errorf("defined: %s is not an alias of a declared interface or of string (type EmptyResult = Result), which a defined type is made of", g.src(td).decl.Name)
}

// planExternalBases plans the structs of the embedded bases that are substituted (Config.Embed
// and Config.Substitutes: Result: Result): another output of the package declares them, with
// the fields this output's configuration gives their members, which the structs embedding them
// here reach promoted. They are not written. A substitute that is not a type of the package
// itself, by name, cannot be embedded as a base, nor a base whose members would declare inline
// types (the other output declares them).
func (g *generator) planExternalBases() error {
	g.sel.externalBases = map[string]*ir.Decl{}
	for _, name := range slices.Sorted(maps.Keys(g.sel.bases)) {
		sub, d := g.sel.substitutes[name], g.s.Decl(name)
		if sub == nil {
			continue
		}
		e := g.sel.bases[name]
		if sub.Path != "" || sub.Pointer || sub.Composite || !token.IsIdentifier(sub.Name) || sub.Name == "any" {
			return e.Pos.Errorf("embed: the base %s is substituted by %s (%s), which is not a type of the package's own that another output declares, to embed", name, sub.Name, g.subPos[sub])
		}
		g.sel.referenced[name] = true
		td := g.newDecl(ir.Decl{Name: sub.Name, Form: structForm}, declSource{defName: goName(d.Name), pos: d.Pos, decl: d})
		if err := g.planStruct(td, d.Type.Object, d, d.Name, d.Name); err != nil {
			return err
		}
		if inline := g.after[d.Name]; len(inline) > 0 {
			return e.Pos.Errorf("embed: the base %s, declared by another output (substitute %s), has a member of an inline type (%s), which this output would declare again: substitute the member", name, sub.Name, inline[0].Name)
		}
		g.sel.externalBases[name] = td
	}
	return nil
}

// baseDecl is the struct of the base name: generated here, or declared by another output.
func (sel *selection) baseDecl(name string) *ir.Decl {
	if td := sel.byDecl[name]; td != nil {
		return td
	}
	return sel.externalBases[name]
}

// baseName is the Go name of the base name, which the structs embedding it write.
func (g *generator) baseName(name string) string {
	if td := g.sel.externalBases[name]; td != nil {
		return td.Name
	}
	n, _ := g.declName(g.s.Decl(name))
	return n
}

// stoodInExtends is the position of the standIn entry through whose stand-in decl inherits the
// member m (an extends clause that config.File.Load made name the stand-in), zero for none: the
// member is not the schema's.
func (g *generator) stoodInExtends(decl *model.Decl, m *model.Member) model.Pos {
	if decl == nil || len(g.opts.Config.StandIns) == 0 {
		return model.Pos{}
	}
	for _, e := range decl.Extends {
		pos := g.stoodIn(e)
		if pos.Line == 0 {
			continue
		}
		if d := g.s.Decl(e.Ref); d != nil && (m.DeclaredIn == d.Name || g.ancestors(d)[m.DeclaredIn]) {
			return pos
		}
	}
	return model.Pos{}
}
