package emit

import (
	"cmp"
	"fmt"
	"go/ast"
	goparser "go/parser"
	"go/token"
	"maps"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/emit/internal/ir"
	"github.com/mcpgen/mcpgen/model"
)

// makePlan is the planning step: it plans every name and declaration of the output, and
// checks them, before anything is written, and returns the plan. It runs the passes in order:
// selection, naming and shapes (planDecls: the configuration read, then every declaration
// with its fields and their types, each name reserved in the scope as it is given), unions
// (planUnionDecodes), protocol, the copied parts and the derived names (declareNames), and docs;
// the facts that follow from the whole plan are set last (toIR).
func makePlan(s *model.Schema, opts Options) (*plan, error) {
	g := newGenerator(s, opts)
	runtime, err := g.prt.runtime()
	if err != nil {
		return nil, err
	}
	if err := g.nam.scope.declare(g.schemaVersionName(), "the generated constant", opts.Config.Names["SchemaVersion"].Pos); err != nil {
		return nil, err
	}
	if err := g.planDecls(); err != nil {
		return nil, err
	}
	if err := g.planUnionDecodes(); err != nil {
		return nil, err
	}
	if err := g.prt.withoutOmitEmptyOnly(runtime); err != nil {
		return nil, err
	}
	g.proto = g.pro.planProtocol()
	if err := g.pro.checkErrorType(); err != nil {
		return nil, err
	}
	if err := g.pro.checkMessageIDs(); err != nil {
		return nil, err
	}
	if err := g.res.checkMessageMethods(); err != nil {
		return nil, err
	}
	if err := g.pro.checkMessageCodecs(); err != nil {
		return nil, err
	}
	parts, err := g.prt.parts()
	if err != nil {
		return nil, err
	}
	maps.Copy(runtime, parts)
	if err := g.nam.declareNames(); err != nil {
		return nil, err
	}
	if err := g.planFiles(runtime); err != nil {
		return nil, err
	}
	(&docsPass{plan: g.plan}).planDocs()
	return g.plan, nil
}

// planFiles names the files the output has: the runtime's and the parts', copied, and the
// generated ones, of which doc.go is written here (its template is the caller's). A copied
// file with the name of a generated one is an error.
func (g *generator) planFiles(copied map[string][]byte) error {
	g.outFiles = []string{"types.go", "json.go", "unions.go", "consts.go"}
	if !g.opts.Config.NoValidate {
		g.outFiles = append(g.outFiles, "validate.go")
	}
	if g.proto != nil {
		g.outFiles = append(g.outFiles, "protocol.go")
	}
	g.outFiles = append(g.outFiles, "doc.go")
	for _, name := range g.outFiles {
		if _, dup := copied[name]; dup {
			return fmt.Errorf("emit: the runtime file %s has the name of a generated file", name)
		}
	}
	doc, err := g.packageDoc()
	if err != nil {
		return err
	}
	g.files = copied
	g.files["doc.go"] = doc
	return nil
}

func newGenerator(s *model.Schema, opts Options) *generator {
	g := &generator{
		plan: &plan{
			s:            s,
			opts:         opts,
			byDecl:       map[string]*ir.Decl{},
			byName:       map[string]*ir.Decl{},
			rules:        map[string]bool{},
			checked:      map[string]bool{},
			copiedParts:  map[string]bool{},
			declSrc:      map[*ir.Decl]*declSource{},
			fieldSrc:     map[*ir.Field]*fieldSource{},
			variantModel: map[*ir.Variant]*model.Variant{},
			subPos:       map[*ir.Type]model.Pos{},
			after:        map[string][]*ir.Decl{},
			inlines:      map[inlineKey]*ir.Decl{},
		},
		nullUnions: map[string]bool{},
	}
	g.sel = newSelection(g.plan)
	g.nam = &naming{plan: g.plan, scope: scope{}, defaults: scope{}}
	g.res = &resultsPass{plan: g.plan}
	g.pro = &protocolPass{plan: g.plan, sel: g.sel}
	g.prt = &partsPass{plan: g.plan, nam: g.nam}
	return g
}

// plan is what planning produces, the data its passes read and fill: every Go declaration of
// the output as the ir's values, with the side tables of where each comes from in the schema's
// model, how unions decode, which types have checks, the protocol layer, the constants' names,
// and the parts the output has. The passes (makePlan) fill it in and check it; toIR
// (plan_facts.go) sets the facts that follow from it and returns the ir.Package that rendering
// reads.
type plan struct {
	s    *model.Schema
	opts Options

	// types are the Go declarations in output order; byDecl finds them by schema declaration
	// name, byName by Go name. rules lists the types that have hand-written validation rules
	// (Options.Parts).
	types  []*ir.Decl
	byDecl map[string]*ir.Decl
	byName map[string]*ir.Decl
	rules  map[string]bool
	// checked remembers which unions and collections have validation checks (namedChecks).
	checked map[string]bool
	// resultDecodes are the result unions with typed decodes by method (ir.Decl.Results).
	resultDecodes []*ir.Decl
	// proto is the protocol layer of the schema, nil for a schema without one.
	proto *ir.Protocol
	// sampling are the readers that the sampling rules call, nil without those rules.
	sampling *ir.Sampling
	// constNames are the Go names of the schema's constants (declareNames), constDocs their
	// doc texts (planDocs).
	constNames map[*model.Const]string
	constDocs  map[*model.Const]string
	// files are the runtime's and the parts' files as copied into the package, and doc.go, by
	// file name;
	// copiedParts are the parts (Options.Parts) the output has.
	files       map[string][]byte
	copiedParts map[string]bool
	// outFiles are the names of the files rendering writes, and doc.go, which planning does.
	outFiles []string

	// The side tables: where each declaration and field comes from (declSource, fieldSource),
	// the schema's variant of each object variant, and the configuration entry of each
	// substitute's type.
	declSrc      map[*ir.Decl]*declSource
	fieldSrc     map[*ir.Field]*fieldSource
	variantModel map[*ir.Variant]*model.Variant
	subPos       map[*ir.Type]model.Pos
	// after lists, for each schema declaration, its Go declaration and the inline types
	// declared after it; inlines finds inline types by position.
	after   map[string][]*ir.Decl
	inlines map[inlineKey]*ir.Decl
	// names makes Go names, with the configuration's initialisms.
	names namer
	// errs are the errors planning found so far: it goes on after one where it can, so that a
	// configuration's mistakes are reported together.
	errs model.ErrorList
	// samplingJSON is set when a reader of the sampling rules reads content from its JSON
	// encoding: the output has the part that does (//mcpgen:ondemand).
	samplingJSON bool
}

// newDecl returns the declaration d, which comes from s.
func (p *plan) newDecl(d ir.Decl, s declSource) *ir.Decl {
	td := &d
	p.declSrc[td] = &s
	return td
}

// src is where the declaration td comes from (newDecl made every declaration of the plan).
func (p *plan) src(td *ir.Decl) *declSource { return p.declSrc[td] }

// newField returns the field f, which comes from s.
func (p *plan) newField(f ir.Field, s fieldSource) *ir.Field {
	x := &f
	if s.member != nil {
		x.JSONName = s.member.Name
	}
	p.fieldSrc[x] = &s
	return x
}

// fsrc is where the field f comes from (newField made every field of the plan).
func (p *plan) fsrc(f *ir.Field) *fieldSource { return p.fieldSrc[f] }

// generator is the shapes pass of planning, and runs the others (makePlan): it plans every Go
// declaration of the output, its fields and their types, from the schema's declarations that the
// selection keeps, under the names of the naming pass.
type generator struct {
	*plan
	// sel is the selection pass, which has read the configuration; nam the naming pass, which
	// holds the scope.
	sel *selection
	nam *naming
	// res, pro and prt are the passes of the typed result decodes, the protocol layer and the
	// copied parts, which run once the declarations are planned.
	res *resultsPass
	pro *protocolPass
	prt *partsPass
	// nullUnions are the Go names of the unions some nullable member has (planNullVariants).
	nullUnions map[string]bool
}

// form is the shape of a Go type declaration of the output: the ir's (ir.Form).
type form = ir.Form

const (
	structForm     = ir.StructForm
	aliasForm      = ir.AliasForm
	enumForm       = ir.EnumForm
	collectionForm = ir.CollectionForm
	interfaceForm  = ir.InterfaceForm
	oneOrManyForm  = ir.OneOrManyForm
	wrapperForm    = ir.WrapperForm
	unknownForm    = ir.UnknownForm
	definedForm    = ir.DefinedForm
)

// declSource is where a Go declaration comes from: a schema declaration, an inline type that
// needed a name, or a type derived from a union (wrappers, Unknown).
type declSource struct {
	// path is the struct's key in the configuration (CreateMessageRequest.params), which errors
	// about its fields name; "" where the configuration cannot name it.
	path string
	// defName is the name the type has without the configuration's names (Names, Fields,
	// Initialisms): the name the parts are written with (partNames).
	defName string
	pos     model.Pos
	// decl is the schema declaration and doc its documentation; both are zero for an inline or
	// derived type, whose about says what it is ("the type of [ClientCapabilities.Sampling]").
	decl  *model.Decl
	doc   model.Doc
	about string
	// omitted are the members left out (Config.Omit), with the names their fields would have
	// had and the entries' positions (fieldSource.shaped), for the parts' check.
	omitted []*ir.Field
	// decision is how an interface union decodes (model.Decision).
	decision *model.Decision
}

// fieldSource is where a field comes from: its member, and the configuration entries that made it.
type fieldSource struct {
	member *model.Member
	// literal is the constant of a literal member.
	literal *model.Value
	// unembedded is the name an embedded field (Config.Embed) would have had, when that is
	// another; defEmbed is set for a field embedded without the configuration's names (an
	// embed entry that a Fields entry overrides): the parts name it by its type (partNames).
	unembedded string
	defEmbed   bool
	// baseDecl is the schema declaration of the embedded base that holds the field (Field.Base).
	baseDecl string
	// namedAt is the position of the fields entry that names the field, zero for none.
	namedAt model.Pos
	// shaped is the position of the configuration entry that made the field's type or presence
	// other than the default (a substitute, a shape), zero for none: a hand-written part that
	// uses the field cannot be copied.
	shaped model.Pos
}

// site is where an inline type appears: it gives the type its name and doc.
type site struct {
	name  string // the Go name an inline type here gets
	def   string // the name it gets without the configuration's names (declSource.defName)
	about string // what the type is, for its doc: "the type of [ClientCapabilities.Sampling]"
	owner string // the schema declaration the type is declared after
	// renamed is the key of Config.Names that gave name ("ClientCapabilities.sampling"), or "".
	renamed string
	// keys are the configuration keys of the member whose value is here (memberKeys), nil
	// where none names it; an inline object here has the path childPath(keys).
	keys []string
}

func (s site) elem() site {
	s.about = "the element type of " + strings.TrimPrefix(s.about, "the type of ")
	return s
}

func (s site) value() site {
	s.about = "the value type of " + strings.TrimPrefix(s.about, "the type of ")
	return s
}

// inlineKey identifies an inline type by its position in the schema, so that a type inherited by
// several declarations is declared once. The kind tells apart a union and its first variant.
type inlineKey struct {
	pos  model.Pos
	kind model.Kind
}

// planDecls decides every Go type declaration of the output and their order: each schema
// declaration, followed by the inline types it declares.
//
// With a configuration (Options.Config), only the declarations it selects are planned, under
// their configured names, and the substituted ones are replaced by their Go types.
func (g *generator) planDecls() error {
	g.sel.configure()
	for _, d := range g.s.Decls {
		if !g.sel.generated(d.Name) {
			continue
		}
		td, err := g.declShell(d)
		if err != nil {
			g.errs.Add(err)
			return g.errs.Err()
		}
		g.byDecl[d.Name] = td
		g.after[d.Name] = []*ir.Decl{td}
	}
	if err := g.planExternalBases(); err != nil {
		g.errs.Add(err)
		return g.errs.Err()
	}
	// A declaration whose planning fails is left half planned: the others are planned for
	// their own errors, and planning stops after them.
	broken := false
	for _, d := range g.s.Decls {
		if td := g.byDecl[d.Name]; td != nil {
			if err := g.planDecl(td); err != nil {
				g.errs.Add(err)
				broken = true
			}
		}
	}
	for _, r := range g.sel.memberRoots {
		if err := g.planMemberRoot(r); err != nil {
			g.errs.Add(err)
			broken = true
		}
	}
	if broken {
		return g.errs.Err()
	}
	g.errs.Add(g.planNullVariants())
	g.sel.checkBases()
	if !g.sel.shortSelection {
		g.sel.checkConfigUsed()
	}
	if len(g.errs) > 0 {
		return g.errs.Err()
	}
	for _, d := range g.s.Decls {
		g.types = append(g.types, g.after[d.Name]...)
	}
	if err := g.sel.checkUnexported(); err != nil {
		return err
	}
	for _, td := range g.types {
		g.byName[td.Name] = td
	}
	if err := g.sel.checkOmittedTags(); err != nil {
		return err
	}
	if err := g.sel.checkTagCodecEmbeds(); err != nil {
		return err
	}
	if err := g.checkValueCycles(); err != nil {
		return err
	}
	g.planChecks()
	return nil
}

// planUnionDecodes is the unions pass, once every declaration is planned: how each object union
// decodes an object (its discriminator's tag cases, whether it needs a variant table, where
// InputRequiredResult is), the typed decodes of the result unions by method, and the generic
// result response, whose result is decoded by a function of the caller.
func (g *generator) planUnionDecodes() error {
	for _, td := range g.types {
		if td.Objects != nil {
			if td.Objects.Discriminator != "" {
				td.Objects.Tags, td.Objects.Absent = g.tagCases(td.Objects)
			}
			td.Objects.Table = needsTable(td.Objects)
			td.Objects.InputRequired = g.inputRequiredIndex(td.Objects)
		}
	}
	if err := g.res.planResults(); err != nil {
		return err
	}
	g.pro.planResultResponses()
	return nil
}

// declShell names a schema declaration and picks its form.
func (g *generator) declShell(d *model.Decl) (*ir.Decl, error) {
	name, pos := g.declName(d)
	td := g.newDecl(ir.Decl{Name: name}, declSource{defName: goName(d.Name), pos: d.Pos, doc: d.Doc, decl: d})
	// A name taken is reported, and the declaration planned all the same for its other errors.
	g.errs.Add(g.nam.declare(td.Name, "declaration "+d.Name, pos))
	g.nam.declareDefault(g.src(td).defName)
	t := d.Type
	switch t.Kind {
	case model.Object:
		td.Form = structForm
	case model.Map, model.Array:
		td.Form = collectionForm
	case model.Union:
		dec := t.Union.Decision
		if dec == nil {
			return nil, d.Pos.Errorf("declaration %s: union has no decision (run model.Classify)", d.Name)
		}
		switch dec.Strategy {
		case model.EnumStrategy:
			td.Form = enumForm
		case model.ObjectStrategy, model.KindStrategy:
			td.Form = interfaceForm
		case model.OneOrManyStrategy:
			td.Form = oneOrManyForm
		case model.FreeFormStrategy, model.NullableStrategy:
			td.Form = aliasForm
		default:
			return nil, d.Pos.Errorf("declaration %s: unknown union strategy %s", d.Name, dec.Strategy)
		}
	case model.Null:
		return nil, d.Pos.Errorf("declaration %s: a null type is supported only in a union", d.Name)
	default:
		td.Form = aliasForm
	}
	g.errs.Add(g.definedShell(td)) // an alias it cannot make defined stays an alias
	return td, nil
}

// planDecl plans the body of a schema declaration.
func (g *generator) planDecl(td *ir.Decl) error {
	d := g.src(td).decl
	s := site{name: td.Name, def: g.src(td).defName, about: "[" + td.Name + "]", owner: d.Name}
	switch td.Form {
	case structForm:
		return g.planStruct(td, d.Type.Object, d, d.Name, d.Name)
	case collectionForm:
		return g.planCollection(td, d.Type, s)
	case enumForm:
		if d.Type.Kind == model.String {
			td.Open = true // defined: a string type of its own, without constants
			break
		}
		td.Values, td.Open = d.Type.Union.Decision.Values, d.Type.Union.Decision.Open
	case interfaceForm:
		return g.planInterface(td, d.Type.Union.Decision, s)
	case oneOrManyForm:
		return g.planOneOrMany(td, d.Type.Union.Decision, s)
	case aliasForm:
		t, err := g.aliasTarget(td, nil)
		td.Type = t
		return err
	case definedForm:
		target := g.byDecl[d.Type.Ref]
		if target == nil {
			e := g.sel.defined[d.Name]
			return e.Pos.Errorf("defined: %s is an alias of %s, which is not generated (substituted)", d.Name, d.Type.Ref)
		}
		td.Type = &ir.Type{Kind: structKind, Name: target.Name}
	}
	return nil
}

// planNullVariants gives the kind unions used by nullable members (g.nullUnions) their Null
// variant: a wrapper that encodes null and implements the union, which decoding the union does
// not produce; only the nullable members decode null as it.
func (g *generator) planNullVariants() error {
	for _, d := range g.s.Decls {
		td := g.byDecl[d.Name]
		if td == nil || !g.nullUnions[td.Name] {
			continue
		}
		if td.Form != interfaceForm || !td.KindUnion {
			return g.src(td).pos.Errorf("%s: a member admits null besides this union, which is supported for a union of JSON kinds only", td.Name)
		}
		w := g.newDecl(ir.Decl{Name: nullVariantName(td.Name), Form: wrapperForm, Union: td}, declSource{defName: nullVariantName(g.src(td).defName), pos: g.src(td).pos,
			about: "null, where a member of type [" + td.Name + "] admits it (the id of an error response); " +
				"decoding a [" + td.Name + "] elsewhere rejects null, and Validate reports it"})
		if err := g.derived(w, d.Name); err != nil {
			return err
		}
		td.NullVariant = w.Name
		td.Variants = append(td.Variants, &ir.Variant{Type: &ir.Type{Kind: namedKind, Name: w.Name}, JSONKind: ir.NullJSON})
	}
	return nil
}

// planCollection plans a named map or slice type. Its inline element type is named after it,
// with "Value" or "Item".
func (g *generator) planCollection(td *ir.Decl, t *model.Type, s site) error {
	var err error
	if t.Kind == model.Map {
		s.name, s.def = valueName(s.name), valueName(s.def)
		td.Type, err = g.typeOf(t, s.value())
	} else {
		s.name, s.def = itemName(s.name), itemName(s.def)
		td.Type, err = g.typeOf(t, s.elem())
	}
	return err
}

// aliasTarget returns the Go type an alias declaration stands for, following chains of aliases.
func (g *generator) aliasTarget(td *ir.Decl, active []string) (*ir.Type, error) {
	if td.Type != nil {
		return td.Type, nil
	}
	for _, name := range active {
		if name == td.Name {
			return nil, g.src(td).pos.Errorf("declaration %s: alias cycle", g.src(td).decl.Name)
		}
	}
	t := g.src(td).decl.Type
	if sub := g.sel.substitute(t); sub != nil {
		return sub, nil
	}
	if t.Kind == model.Ref {
		target, ok := g.byDecl[t.Ref]
		if !ok {
			return nil, t.Pos.Errorf("declaration %s: reference to undeclared %s", g.src(td).decl.Name, t.Ref)
		}
		return g.refType(target, append(active, td.Name))
	}
	return g.typeOf(t, site{name: valueName(td.Name), def: valueName(g.src(td).defName), about: "[" + td.Name + "]", owner: g.src(td).decl.Name})
}

// refType is the Go type of a reference to a declaration.
func (g *generator) refType(td *ir.Decl, active []string) (*ir.Type, error) {
	switch td.Form {
	case structForm, oneOrManyForm, definedForm:
		return &ir.Type{Kind: structKind, Name: td.Name}, nil
	case enumForm:
		return &ir.Type{Kind: enumKind, Name: td.Name}, nil
	case collectionForm:
		return &ir.Type{Kind: namedKind, Name: td.Name}, nil
	case interfaceForm:
		return &ir.Type{Kind: unionKind, Name: td.Name, Union: td}, nil
	}
	target, err := g.aliasTarget(td, active)
	if err != nil {
		return nil, err
	}
	t := *target
	t.Alias = td.Name
	return &t, nil
}

// typeOf is the Go type of a schema type found at site s, declaring the inline types it needs.
func (g *generator) typeOf(t *model.Type, s site) (*ir.Type, error) {
	switch t.Kind {
	case model.Any:
		return &ir.Type{Kind: rawKind}, nil
	case model.String, model.Integer, model.Number, model.Boolean:
		return builtinOf(t.Kind), nil
	case model.Literal:
		return builtinOf(t.Literal.Kind), nil
	case model.Ref:
		if sub := g.sel.substitute(t); sub != nil {
			return sub, nil
		}
		td, ok := g.byDecl[t.Ref]
		if !ok {
			return nil, t.Pos.Errorf("%s: reference to undeclared %s", s.name, t.Ref)
		}
		return g.refType(td, nil)
	case model.Array:
		elem, err := g.typeOf(t.Elem, s.elem())
		if err == nil && elem.Kind == structKind {
			if shape, _ := g.sel.shapeOf("elements", g.opts.Config.Elements, s.keys); shape == Pointer {
				elem = &ir.Type{Kind: pointerKind, Elem: elem}
			}
		}
		return &ir.Type{Kind: sliceKind, Elem: elem}, err
	case model.Map:
		elem, err := g.typeOf(t.Elem, s.value())
		return &ir.Type{Kind: mapKind, Elem: elem}, err
	case model.Object:
		return g.inline(t, s, structForm)
	case model.Union:
		return g.unionType(t, s)
	}
	return nil, t.Pos.Errorf("%s: a %s type is supported only in a union", s.name, t.Kind)
}

// unionType is the Go type of an inline union.
func (g *generator) unionType(t *model.Type, s site) (*ir.Type, error) {
	dec := t.Union.Decision
	if dec == nil {
		return nil, t.Pos.Errorf("%s: union has no decision (run model.Classify)", s.name)
	}
	switch dec.Strategy {
	case model.EnumStrategy:
		return g.inline(t, s, enumForm)
	case model.ObjectStrategy, model.KindStrategy:
		return g.inline(t, s, interfaceForm)
	case model.OneOrManyStrategy:
		if shape, _ := g.sel.shapeOf("oneOrMany", g.opts.Config.OneOrMany, s.keys); shape == Slice {
			s.name, s.def = itemName(s.name), itemName(s.def)
			elem, err := g.typeOf(dec.Elem, s.elem())
			return &ir.Type{Kind: sliceKind, Elem: elem, Single: true}, err
		}
		return g.inline(t, s, oneOrManyForm)
	case model.FreeFormStrategy:
		return &ir.Type{Kind: rawKind}, nil
	case model.NullableStrategy:
		elem, err := g.typeOf(dec.Elem, s)
		return &ir.Type{Kind: nullableKind, Elem: elem}, err
	}
	return nil, t.Pos.Errorf("%s: unknown union strategy %s", s.name, dec.Strategy)
}

// inline declares the named Go type of an inline object or union, once per schema position.
func (g *generator) inline(t *model.Type, s site, f form) (*ir.Type, error) {
	key := inlineKey{t.Pos, t.Kind}
	if t.Pos.Line > 0 {
		if td, ok := g.inlines[key]; ok {
			return g.refType(td, nil)
		}
	}
	owner := s.owner
	td := g.newDecl(ir.Decl{Name: s.name, Form: f}, declSource{pos: t.Pos, about: s.about})
	g.src(td).defName = g.nam.defaults.free(s.def)
	g.nam.declareDefault(g.src(td).defName)
	declPos := t.Pos
	if s.renamed != "" {
		declPos = g.opts.Config.Names[s.renamed].Pos
		g.sel.usedNames[s.renamed] = true
	} else {
		td.Name = g.nam.scope.free(s.name)
	}
	what := "inline type in " + owner
	if len(s.keys) > 0 {
		what = "inline type of " + s.keys[0]
	}
	// A name taken is reported, and the type planned all the same for its other errors.
	g.errs.Add(g.nam.declare(td.Name, what, declPos))
	if t.Pos.Line > 0 {
		g.inlines[key] = td
	}
	g.after[owner] = append(g.after[owner], td)
	s = site{name: td.Name, def: g.src(td).defName, about: "[" + td.Name + "]", owner: owner, keys: s.keys}
	var err error
	switch f {
	case structForm:
		err = g.planStruct(td, t.Object, nil, owner, childPath(s.keys))
	case enumForm:
		td.Values, td.Open = t.Union.Decision.Values, t.Union.Decision.Open
	case interfaceForm:
		err = g.planInterface(td, t.Union.Decision, s)
	case oneOrManyForm:
		err = g.planOneOrMany(td, t.Union.Decision, s)
	}
	if err != nil {
		return nil, err
	}
	return g.refType(td, nil)
}

// declaring is the declaration that declares the member m (model.Member.DeclaredIn), or nil.
func (p *plan) declaring(m *model.Member) *model.Decl {
	if m.DeclaredIn == "" {
		return nil
	}
	return p.s.Decl(m.DeclaredIn)
}

// planStruct plans the fields of a struct. decl is the schema declaration of a declared struct,
// whose inherited members name their inline types after the declaration they come from; owner
// is the schema declaration the struct's inline types are declared after; path is the key of
// the struct in the configuration (the declaration's name, or the key of the member holding the
// inline object), "" where the configuration cannot name it.
func (g *generator) planStruct(td *ir.Decl, obj *model.ObjectType, decl *model.Decl, owner, path string) error {
	g.src(td).path = path
	names := map[string]takenField{extraField: {by: "the unknown members (Extra)"}}
	for _, m := range obj.Members {
		if m.Absent {
			td.Absent = append(td.Absent, m.Name)
			continue
		}
		if e, key, ok := lookup(g.sel.omits, g.sel.memberKeys(path, decl, m)); ok {
			g.sel.usedShapes["omit "+key] = true
			g.src(td).omitted = append(g.src(td).omitted, g.newField(ir.Field{Name: g.names.fieldName(m.Name)}, fieldSource{member: m, shaped: e.Pos}))
			continue
		}
		f, err := g.planField(td, m, decl, owner, path, names)
		if err != nil {
			return err
		}
		if f != nil {
			td.Fields = append(td.Fields, f)
		}
	}
	if order, ok := g.opts.Config.Order[path]; ok && path != "" {
		g.sel.usedShapes["order "+path] = true
		td.Fields = ordered(td.Fields, order)
	}
	if decl != nil {
		for _, e := range g.opts.Config.AddFields[decl.Name] {
			name, err := addedFieldName(e.Name)
			if err != nil {
				return e.Pos.Errorf("addFields: %s: %v", decl.Name, err)
			}
			if prev, taken := names[name]; taken {
				return e.Pos.Errorf("addFields: %s: the field %s is already a field of %s, for %s", decl.Name, name, td.Name, prev.by)
			}
			names[name] = takenField{by: "addFields"}
			td.Added = append(td.Added, e.Name)
		}
	}
	td.Rest = &ir.Type{Kind: rawKind}
	if obj.Rest != nil && obj.Rest.Kind != model.Any {
		s := site{name: extraName(td.Name), def: extraName(g.src(td).defName), about: "the value type of [" + td.Name + ".Extra]", owner: owner}
		rest, err := g.typeOf(obj.Rest, s)
		if err != nil {
			return err
		}
		td.Rest = rest
	}
	return nil
}

// takenField is a field name of a struct taken: by names what holds it (a member's schema path,
// addFields, the unknown members), and namedAt the entry of the configuration that gave the name
// (zero for a member's own name).
type takenField struct {
	by      string
	namedAt model.Pos
}

// planField plans the field of member m of the struct td (see planStruct), or returns nil for a
// member that an embedded base holds; names are the field names taken so far.
func (g *generator) planField(td *ir.Decl, m *model.Member, decl *model.Decl, owner, path string, names map[string]takenField) (*ir.Field, error) {
	base, skip, err := g.holder(decl, m)
	if err != nil || skip {
		return nil, err // a base's struct holds only the members it declares and its bases hold
	}
	keys := g.sel.memberKeys(path, decl, m)
	if base != "" && !slices.Contains(keys, base+"."+m.Name) {
		// The base holds the field: its entries reach the member, after the declaration's own.
		keys = slices.Insert(keys, 1, base+"."+m.Name)
	}
	f := g.newField(ir.Field{Name: g.names.fieldName(m.Name)}, fieldSource{member: m})
	namePos := m.Pos
	fieldKey := ""
	if e, key, ok := lookup(g.opts.Config.Fields, keys); ok {
		f.Name, namePos, fieldKey, g.fsrc(f).namedAt = e.Name, e.Pos, key, e.Pos
		g.sel.usedFields[key] = true
	}
	typ, err := g.memberType(f, g.memberSite(td, m, decl, owner, f.Name, keys), keys)
	if err != nil {
		return nil, err
	}
	if pos := g.stoodInExtends(decl, m); pos.Line > 0 {
		g.fsrc(f).shaped = pos
	}
	f.Type = g.requiredShapes(f, typ, keys)
	if m.Nullable && f.Type.Kind == externalKind {
		// The substitute decodes and encodes null itself.
	} else if m.Nullable {
		if f.Type.Kind != unionKind {
			pos := m.Pos
			if at := g.stoodIn(m.Type); at.Line > 0 {
				pos = at // a stand-in made the type another
			}
			return nil, pos.Errorf("%s: member %q: null is supported besides a union type only", td.Name, m.Name)
		}
		f.Nullable = true
		g.nullUnions[f.Type.Name] = true
	}
	if err := g.optionalShape(td, f, keys); err != nil {
		return nil, err
	}
	if namePos, err = g.embedField(f, keys, fieldKey, namePos); err != nil {
		return nil, err
	}
	memberPath := cmp.Or(path, td.Name) + "." + m.Name
	where := memberPath // what the error leads with: the fields entry, or the member
	if fieldKey != "" {
		where = "fields: " + memberPath
	}
	if !token.IsIdentifier(f.Name) {
		return nil, namePos.Errorf("%s: the member has no Go name (%q is not an identifier): name it under fields", where, f.Name)
	}
	// Reported, and the field kept, so that planning goes on for the struct's other errors.
	if prev, taken := names[f.Name]; taken && namePos == m.Pos && prev.namedAt.Line > 0 {
		// The configuration gave the name to the member before: the error is at its entry.
		g.errs.Add(prev.namedAt.Errorf("fields: %s: Go field name %s is the name of %s's own field: name one of them under fields", prev.by, f.Name, memberPath))
	} else if taken {
		g.errs.Add(namePos.Errorf("%s: Go field name %s is already used by %s: name one of them under fields", where, f.Name, prev.by))
	}
	names[f.Name] = takenField{by: memberPath, namedAt: g.fsrc(f).namedAt}
	if base != "" {
		f.Base, g.fsrc(f).baseDecl = g.baseName(base), base
	}
	return f, nil
}

// memberSite is where the inline types of member m of the struct td are declared and how they
// are named: an inherited member's after, and named after, the declaration that declares it.
func (g *generator) memberSite(td *ir.Decl, m *model.Member, decl *model.Decl, owner, fieldName string, keys []string) site {
	parent, parentDef, memberOwner := td.Name, g.src(td).defName, owner
	if o := g.declaring(m); o != nil {
		memberOwner = o.Name
		if b := g.byDecl[o.Name]; decl != nil && o != decl && b != nil {
			parent, parentDef = b.Name, g.src(b).defName
		}
	}
	s := site{name: memberTypeName(parent, fieldName, m.Type), def: memberTypeName(parentDef, namer{}.fieldName(m.Name), m.Type),
		about: "the type of [" + parent + "." + fieldName + "]", owner: memberOwner, keys: keys}
	if e, key, ok := lookup(g.opts.Config.Names, keys); ok {
		s.name, s.renamed = e.Name, key
	}
	return s
}

// memberType is the Go type of the member of f, found at site s: its substitute, or its schema
// type with the shapes of literals, elements and one-or-many, each recorded in f.shaped.
func (g *generator) memberType(f *ir.Field, s site, keys []string) (*ir.Type, error) {
	m := g.fsrc(f).member
	if sub, key, ok := lookup(g.sel.memberSubstitutes, keys); ok {
		g.sel.usedSubstitutes[key] = true
		g.fsrc(f).shaped = g.subPos[sub]
		return sub, nil
	}
	typ, err := g.typeOf(m.Type, s)
	if err != nil {
		return nil, err
	}
	g.fsrc(f).literal = g.literal(m.Type)
	f.Literal = value(g.fsrc(f).literal)
	if f.Literal != nil && typ.Kind == builtinKind && !m.Optional {
		if shape, pos := g.sel.shapeOf("literals", g.opts.Config.Literals, keys); shape == Implicit {
			f.Implicit = true
			if pos.Line > 0 {
				g.fsrc(f).shaped = pos
			}
		}
	}
	if elemPointers(typ) {
		if _, pos := g.sel.shapeOf("elements", g.opts.Config.Elements, keys); pos.Line > 0 {
			g.fsrc(f).shaped = pos
		}
	}
	if pos := g.stoodIn(m.Type); pos.Line > 0 {
		g.fsrc(f).shaped = pos
	}
	if oneOrManySlice(typ) {
		if _, pos := g.sel.shapeOf("oneOrMany", g.opts.Config.OneOrMany, keys); pos.Line > 0 {
			g.fsrc(f).shaped = pos
		}
	}
	return typ, nil
}

// requiredShapes applies the shapes that concern presence to the field f of type typ: an
// optional entry on a required member makes it optional (Config.Optional); a required slice or
// map may be encoded as null when nil (Config.NilAs), a required struct held by pointer
// (Config.Objects). It returns the field's type.
func (g *generator) requiredShapes(f *ir.Field, typ *ir.Type, keys []string) *ir.Type {
	f.Optional = g.fsrc(f).member.Optional
	if _, key, loosened := lookup(g.opts.Config.Optional.Members, keys); loosened && !g.fsrc(f).member.Optional {
		f.Optional, g.fsrc(f).shaped = true, g.opts.Config.Optional.Members[key].Pos
	}
	if !f.Optional && (typ.Kind == sliceKind || typ.Kind == mapKind || typ.Kind == namedKind ||
		typ.Kind == externalKind && !typ.Pointer && (typ.Underlying == "map" || typ.Underlying == "slice")) {
		if shape, pos := g.sel.shapeOf("nilAs", g.opts.Config.NilAs, keys); shape == Null {
			f.NilNull = true
			if pos.Line > 0 {
				g.fsrc(f).shaped = pos
			}
		}
	}
	if typ.Kind == structKind && !f.Optional {
		if shape, pos := g.sel.shapeOf("objects", g.opts.Config.Objects, keys); shape == Pointer {
			typ, g.fsrc(f).shaped = &ir.Type{Kind: pointerKind, Elem: typ}, pos
		}
	}
	return typ
}

// optionalShape decides how an optional field holds and encodes its value (Config.Optional: a
// pointer, omitempty, or a value always encoded), and its json tag's option.
func (g *generator) optionalShape(td *ir.Decl, f *ir.Field, keys []string) error {
	typ, m := f.Type, g.fsrc(f).member
	if f.Optional {
		if typ.Kind == nullableKind {
			return m.Pos.Errorf("%s: member %q: an optional nullable member is not supported", td.Name, m.Name)
		}
		f.Pointer = !hasNil(typ)
		shape, pos := g.sel.shapeOf("optional", g.opts.Config.Optional, keys)
		_, _, explicit := lookup(g.opts.Config.Optional.Members, keys)
		switch {
		case shape == OmitEmpty && typ.Kind == structKind:
			// encoding/json's omitempty never omits a struct: it stays a pointer.
			if explicit {
				g.errs.Add(pos.Errorf("optional: %s is a struct, which omitempty never leaves out: remove the entry to keep it a pointer, or make it a value always encoded (value)", keys[0]))
			}
		case shape == OmitEmpty && typ.Kind == externalKind && typ.Underlying == "struct":
			// encoding/json never omits a struct: it is always encoded.
			f.Pointer, f.Always = false, true
		case shape == OmitEmpty:
			f.Pointer, f.OmitEmpty = false, true
		case shape == Value && hasNil(typ):
			if explicit {
				g.errs.Add(pos.Errorf("optional: %s has a type with nil, which stands for its absence: value changes nothing: remove the entry", keys[0]))
			}
		case shape == OmitZero && hasNil(typ):
			// nil is the zero value, which stands for absence: an empty non-nil value is sent.
		case shape == OmitZero:
			f.Pointer, f.OmitZero = false, true
		case shape == Value:
			f.Pointer, f.Always = false, true
		}
		if (f.OmitEmpty || f.Always || f.OmitZero) && pos.Line > 0 {
			g.fsrc(f).shaped = pos
		}
	}
	switch {
	case f.OmitEmpty || f.Optional && shapeOmitEmpty(g.opts.Config.Optional, keys):
		f.TagOption = ",omitempty"
	case f.Always:
	case f.Optional:
		f.TagOption = ",omitzero"
	}
	return nil
}

// embedField makes f an embedded field when an embed entry names its member (Config.Embed) and
// no more specific fields entry (fieldKey) names it, and returns the position of what names the
// field.
func (g *generator) embedField(f *ir.Field, keys []string, fieldKey string, namePos model.Pos) (model.Pos, error) {
	e, key, embed := lookup(g.sel.embeds, keys)
	g.fsrc(f).defEmbed = embed
	if !embed || moreSpecific(keys, fieldKey, key) {
		return namePos, nil
	}
	g.sel.usedShapes["embed "+key] = true
	name := embeddedName(f.Type)
	if name == "" {
		// Reported, and the field left a named one, so that planning goes on.
		g.errs.Add(e.Pos.Errorf("embed: %s: the member's type %s is not a named type, which an embedded field needs: remove the entry", key, g.typeString(f.Type, f.Pointer)))
		return namePos, nil
	}
	if name != f.Name {
		// A hand-written part selects the field by the name it had (checkPartShapes).
		g.fsrc(f).unembedded, g.fsrc(f).shaped = f.Name, e.Pos
	}
	f.Name, f.Embed = name, true
	return e.Pos, nil
}

// shapeOmitEmpty reports whether the optional shape of the member with the given keys is
// OmitEmpty, without recording the entry as used.
func shapeOmitEmpty(sh Shape, keys []string) bool {
	if e, _, ok := lookup(sh.Members, keys); ok {
		return e.Name == OmitEmpty
	}
	return sh.Default.Name == OmitEmpty
}

// ordered returns the fields with the members of order first, in that order (Config.Order), and
// the others after them, in the order they had.
func ordered(fields []*ir.Field, order []Entry) []*ir.Field {
	rank := map[string]int{}
	for i, e := range order {
		rank[e.Name] = i + 1
	}
	out := slices.Clone(fields)
	slices.SortStableFunc(out, func(a, b *ir.Field) int {
		ra, rb := rank[a.JSONName], rank[b.JSONName]
		switch {
		case ra == 0 && rb == 0:
			return 0
		case ra == 0:
			return 1
		case rb == 0:
			return -1
		}
		return ra - rb
	})
	return out
}

// moreSpecific reports whether the key a comes before the key b in keys (memberKeys: the
// inheriting declaration's key before the declaring one's): a fields entry on a declaration
// that inherits an embedded member names a field of its own there.
func moreSpecific(keys []string, a, b string) bool {
	return a != "" && slices.Index(keys, a) < slices.Index(keys, b)
}

// addedFieldName returns the name of a hand-written field (Config.AddFields), written as Go
// source: one named field ("err error") or an embedded type ("state", "*pkg.State").
func addedFieldName(src string) (string, error) {
	e, err := goparser.ParseExpr("struct{ " + src + " }")
	st, ok := e.(*ast.StructType)
	if err != nil || !ok || len(st.Fields.List) != 1 || len(st.Fields.List[0].Names) > 1 || st.Fields.List[0].Tag != nil || strings.ContainsAny(src, ";\n") {
		return "", fmt.Errorf("%q is not one Go field without a tag (err error, or an embedded type)", model.Shorten(src))
	}
	f := st.Fields.List[0]
	if len(f.Names) == 1 {
		return f.Names[0].Name, nil
	}
	t := f.Type
	if star, ok := t.(*ast.StarExpr); ok {
		t = star.X
	}
	switch t := t.(type) {
	case *ast.Ident:
		return t.Name, nil
	case *ast.SelectorExpr:
		return t.Sel.Name, nil
	}
	return "", fmt.Errorf("%q embeds no named type", model.Shorten(src))
}

// elemPointers reports whether t holds arrays of pointers (Config.Elements).
func elemPointers(t *ir.Type) bool {
	return t.Kind == sliceKind && (t.Elem.Kind == pointerKind || elemPointers(t.Elem))
}

// stoodIn is the position of the standIn entry (Config.StandIns) that wrote a reference of t
// (config.File.Load gives such a reference the entry's position), through arrays, maps and
// unions, zero for none: the member's type is not the schema's.
func (g *generator) stoodIn(t *model.Type) model.Pos {
	if t == nil || len(g.opts.Config.StandIns) == 0 {
		return model.Pos{}
	}
	if t.Kind == model.Ref {
		for _, e := range g.opts.Config.StandIns {
			if e.Name == t.Ref && e.Pos == t.Pos {
				return e.Pos
			}
		}
	}
	if pos := g.stoodIn(t.Elem); pos.Line > 0 {
		return pos
	}
	if t.Union != nil {
		for _, v := range t.Union.Variants {
			if pos := g.stoodIn(v); pos.Line > 0 {
				return pos
			}
		}
	}
	return model.Pos{}
}

// oneOrManySlice reports whether t holds a one-or-many union as a plain slice
// (Config.OneOrMany Slice), which has no struct of its own.
func oneOrManySlice(t *ir.Type) bool {
	return t.Kind == sliceKind && (t.Single || oneOrManySlice(t.Elem))
}

// literal returns the constant of a literal type, looking through aliases, or nil.
func (g *generator) literal(t *model.Type) *model.Value {
	if r, err := g.s.Deref(t); err == nil && r.Kind == model.Literal {
		return &r.Literal
	}
	return nil
}

// planOneOrMany plans `E | E[]`.
func (g *generator) planOneOrMany(td *ir.Decl, dec *model.Decision, s site) error {
	s.name, s.def = itemName(s.name), itemName(s.def)
	elem, err := g.typeOf(dec.Elem, s.elem())
	td.Type = elem
	return err
}
