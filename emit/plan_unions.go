package emit

import (
	"slices"

	"github.com/mcpgen/mcpgen/emit/internal/ir"
	"github.com/mcpgen/mcpgen/model"
)

// planInterface plans a union of objects or of JSON kinds: its variants, and the types derived
// from it.
func (g *generator) planInterface(td *ir.Decl, dec *model.Decision, s site) error {
	g.src(td).decision = dec
	td.KindUnion = dec.Strategy == model.KindStrategy
	if dec.Strategy == model.KindStrategy {
		return g.planKinds(td, dec, s)
	}
	return g.planObjects(td, dec, s)
}

// planObjects plans the object variants of a union, decided by dec.
func (g *generator) planObjects(td *ir.Decl, dec *model.Decision, s site) error {
	td.Objects = &ir.ObjectChoice{Discriminator: dec.Discriminator}
	seen := map[string]bool{}
	for _, v := range td.Variants {
		seen[v.Type.Name] = true
	}
	for i, v := range dec.Variants {
		var typ *ir.Type
		var err error
		if v.Type.Kind == model.Object {
			vs := s
			vs.name, vs.def = td.Name+g.names.variantSuffix(v, i), g.src(td).defName+namer{}.variantSuffix(v, i)
			vs.about = "a variant of [" + td.Name + "]"
			typ, err = g.inline(v.Type, vs, structForm)
		} else {
			typ, err = g.typeOf(v.Type, s)
		}
		if err != nil {
			return err
		}
		if typ.Kind == externalKind {
			return g.subPos[typ].Errorf("substitute: %s is a variant of the union %s, which only a generated type can be", v.Type.Ref, td.Name)
		}
		if typ.Kind != structKind {
			return v.Type.Pos.Errorf("%s: variant %d is not an object declaration", td.Name, i+1)
		}
		if seen[typ.Name] {
			return v.Type.Pos.Errorf("%s: variant %s is listed twice", td.Name, typ.Name)
		}
		seen[typ.Name] = true
		ov := &ir.Variant{Type: typ, Pointer: true, JSONKind: ir.ObjectJSON}
		g.variantModel[ov] = v
		ov.Required, ov.Known = v.Required, v.Known
		for _, val := range v.Values {
			ov.Values = append(ov.Values, val.Str)
		}
		td.Objects.Variants = append(td.Objects.Variants, ov)
		td.Variants = append(td.Variants, ov)
	}
	td.Tag = dec.Discriminator
	if td.Tag == "" && g.inputRequiredIndex(td.Objects) >= 0 {
		td.Tag, td.ResultTag = resultTypeMember, true
	}
	if td.Tag != "" {
		td.Unknown = unknownName(td.Name)
		u := g.newDecl(ir.Decl{Name: td.Unknown, Form: unknownForm, Union: td}, declSource{defName: unknownName(g.src(td).defName), pos: g.src(td).pos})
		if err := g.derived(u, s.owner); err != nil {
			return err
		}
	}
	return nil
}

// The member of a result that says which kind of result it is, and its values (ir).
const (
	resultTypeMember    = ir.ResultTypeMember
	resultComplete      = ir.ResultComplete
	resultInputRequired = ir.ResultInputRequired
)

// inputRequiredIndex is the index of the variant InputRequiredResult (with a resultType member) of
// an object union, or -1.
func (p *plan) inputRequiredIndex(oc *ir.ObjectChoice) int {
	for i, v := range oc.Variants {
		if m := p.variantModel[v]; m.Type.Kind == model.Ref && m.Type.Ref == model.InputRequiredResultDecl && m.Object.Member(resultTypeMember) != nil {
			return i
		}
	}
	return -1
}

// planKinds plans the variants of a kind union, kind by kind.
func (g *generator) planKinds(td *ir.Decl, dec *model.Decision, s site) error {
	for _, k := range dec.Kinds {
		wrapper, ok := wrapperName(td.Name, k.JSONKind)
		if !ok {
			return g.src(td).pos.Errorf("%s: variant of unknown JSON kind %q", td.Name, k.JSONKind)
		}
		choice := &ir.KindChoice{JSONKind: jsonKindOf(k.JSONKind)}
		td.Kinds = append(td.Kinds, choice)
		defWrapper, _ := wrapperName(g.src(td).defName, k.JSONKind)
		ws := site{name: wrapper, def: defWrapper, about: "the " + k.JSONKind + " variant of [" + td.Name + "]", owner: s.owner}
		switch {
		case k.Objects != nil:
			if err := g.planObjects(td, k.Objects, s); err != nil {
				return err
			}
			choice.Variants = td.Objects.Variants
			continue
		case len(k.Alternatives) > 0:
			for i, alt := range k.Alternatives {
				as := ws
				as.name, as.def = alternativeName(as.name, i), alternativeName(as.def, i)
				v, err := g.kindVariant(td, k.JSONKind, alt, as)
				if err != nil {
					return err
				}
				choice.Variants = append(choice.Variants, v)
			}
		default:
			v, err := g.kindVariant(td, k.JSONKind, k.Type, ws)
			if err != nil {
				return err
			}
			choice.Variants = []*ir.Variant{v}
		}
		td.Variants = append(td.Variants, choice.Variants...)
	}
	return nil
}

// kindVariant plans the variant of a kind union for a type of JSON kind kind. Declared structs,
// maps, slices and enums implement the union themselves; other variants get a wrapper type named
// after their kind (ws.name).
func (g *generator) kindVariant(td *ir.Decl, kind string, t *model.Type, ws site) (*ir.Variant, error) {
	v := &ir.Variant{JSONKind: jsonKindOf(kind)}
	switch {
	case t.Kind == model.Ref:
		typ, err := g.typeOf(t, ws)
		if err != nil {
			return nil, err
		}
		switch typ.Kind {
		case structKind:
			v.Type, v.Pointer = typ, true
		case namedKind, enumKind:
			v.Type = typ
		case builtinKind:
			v.Type, err = g.wrapper(td, ws, typ)
		case externalKind:
			return nil, g.subPos[typ].Errorf("substitute: %s is a variant of the union %s, which only a generated type can be", t.Ref, td.Name)
		default:
			return nil, t.Pos.Errorf("%s: %s cannot be a variant of a kind union", td.Name, t.Ref)
		}
		return v, err
	case t.Kind == model.Object:
		typ, err := g.inline(t, ws, structForm)
		v.Type, v.Pointer = typ, true
		return v, err
	case t.Kind == model.Array || t.Kind == model.Map:
		w := g.newDecl(ir.Decl{Name: ws.name, Form: collectionForm, Union: td}, declSource{defName: ws.def, pos: t.Pos, about: ws.about})
		if err := g.derived(w, ws.owner); err != nil {
			return nil, err
		}
		v.Type = &ir.Type{Kind: namedKind, Name: w.Name}
		return v, g.planCollection(w, t, site{name: w.Name, def: g.src(w).defName, about: "[" + w.Name + "]", owner: ws.owner})
	case t.Kind == model.Null:
		typ, err := g.wrapper(td, ws, nil)
		v.Type = typ
		return v, err
	}
	typ, err := g.typeOf(t, ws)
	if err != nil {
		return nil, err
	}
	if typ.Kind != builtinKind {
		return nil, t.Pos.Errorf("%s: unsupported %s variant", td.Name, kind)
	}
	v.Type, err = g.wrapper(td, ws, typ)
	return v, err
}

// wrapper declares the wrapper type of a primitive variant of a kind union (nil base: null).
func (g *generator) wrapper(union *ir.Decl, s site, base *ir.Type) (*ir.Type, error) {
	w := g.newDecl(ir.Decl{Name: s.name, Form: wrapperForm, Union: union}, declSource{defName: s.def, pos: g.src(union).pos, about: s.about})
	if base != nil {
		w.Type = &ir.Type{Kind: builtinKind, Name: base.Name}
	}
	if err := g.derived(w, s.owner); err != nil {
		return nil, err
	}
	return &ir.Type{Kind: namedKind, Name: w.Name}, nil
}

// declareDefault reserves the default name of a type (declSource.defName).
func (nm *naming) declareDefault(name string) {
	if _, taken := nm.defaults[name]; taken {
		nm.defaultsClash = true
	}
	nm.defaults[name] = scopeEntry{what: "a type"}
}

// derived declares a type derived from a union, after the declaration owner.
func (g *generator) derived(td *ir.Decl, owner string) error {
	if err := g.nam.reserve(td.Name, "variant of "+td.Union.Name, g.src(td).pos); err != nil {
		return err
	}
	g.nam.declareDefault(g.src(td).defName)
	g.after[owner] = append(g.after[owner], td)
	return nil
}

// tagCases groups the variants of an object union by discriminator value, in order of first
// appearance, merging the values that select the same variants. absent lists the variants an
// object without the discriminator can be (those that declare it optional).
func (p *plan) tagCases(oc *ir.ObjectChoice) (cases []*ir.TagCase, absent []int) {
	var values []string
	byValue := map[string][]int{}
	for i, v := range oc.Variants {
		for _, val := range v.Values {
			if _, ok := byValue[val]; !ok {
				values = append(values, val)
			}
			byValue[val] = append(byValue[val], i)
		}
		if p.variantModel[v].DiscriminatorOptional {
			absent = append(absent, i)
		}
	}
	for _, val := range values {
		i := slices.IndexFunc(cases, func(c *ir.TagCase) bool { return slices.Equal(c.Variants, byValue[val]) })
		if i < 0 {
			cases = append(cases, &ir.TagCase{Variants: byValue[val]})
			i = len(cases) - 1
		}
		cases[i].Values = append(cases[i].Values, val)
	}
	return cases, absent
}

// needsTable reports whether decoding an object may choose among several variants.
func needsTable(oc *ir.ObjectChoice) bool {
	if oc.Discriminator == "" {
		return len(oc.Variants) > 1
	}
	for _, tc := range oc.Tags {
		if len(tc.Variants) > 1 {
			return true
		}
	}
	return len(oc.Absent) > 1
}

// maxUnionMembers is the number of member names the runtime's variantTable can hold
// (maxTableNames).
const maxUnionMembers = 256
