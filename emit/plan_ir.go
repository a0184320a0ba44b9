package emit

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/emit/internal/ir"
	"github.com/mcpgen/mcpgen/model"
)

// The last step of planning: the plan written as an ir.Package, the only thing rendering reads.
// Planning's own structures keep the schema's model beside the decisions; the ir holds the
// decisions, and copies of what the output needs from the model (JSON names, literal values,
// constraints, doc texts).

// lowering turns a plan into an ir.Package, once per plan value, so that a type, declaration or
// variant reached twice is the same ir value.
type lowering struct {
	p        *plan
	decls    map[*typeDecl]*ir.Decl
	types    map[*goType]*ir.Type
	variants map[*variant]*ir.Variant
	fields   map[*field]*ir.Field
}

// lowering returns a lowering of p with nothing lowered yet.
func (p *plan) lowering() *lowering {
	return &lowering{p: p, decls: map[*typeDecl]*ir.Decl{}, types: map[*goType]*ir.Type{},
		variants: map[*variant]*ir.Variant{}, fields: map[*field]*ir.Field{}}
}

// toIR returns the ir of the plan.
func (p *plan) toIR() *ir.Package {
	l := p.lowering()
	c := p.opts.Config
	pkg := &ir.Package{Name: p.opts.Package, Header: header, Version: p.opts.Version,
		SchemaVersion: p.schemaVersionName(), NoValidate: c.NoValidate, DropUnknown: c.DropUnknown,
		Lenient: c.Lenient, Extra: extraField, Copied: p.files}
	for _, td := range p.types {
		l.decls[td] = &ir.Decl{}
	}
	for _, td := range p.types {
		pkg.Decls = append(pkg.Decls, l.decl(td))
	}
	for _, td := range p.resultDecodes {
		pkg.ResultDecodes = append(pkg.ResultDecodes, l.decls[td])
	}
	for _, cst := range p.s.Consts {
		if name, ok := p.constNames[cst]; ok {
			pkg.Consts = append(pkg.Consts, &ir.Const{Name: name, Doc: p.constDocs[cst], Value: value(&cst.Value)})
		}
	}
	for _, td := range p.types {
		if td.Funcs.Method != "" {
			pkg.MethodConsts = append(pkg.MethodConsts, &ir.MethodConst{Name: td.Funcs.Method, Value: td.Method, Decl: td.Name})
		}
	}
	sort.Slice(pkg.MethodConsts, func(i, j int) bool { return pkg.MethodConsts[i].Name < pkg.MethodConsts[j].Name })
	for _, name := range p.outFiles {
		if name != "doc.go" {
			pkg.Files = append(pkg.Files, name)
		}
	}
	if p.proto != nil {
		pkg.Protocol = l.protocol(p.proto)
	}
	pkg.Sampling = l.sampling(p.sampling)
	return pkg
}

// decl fills the ir of a declaration.
func (l *lowering) decl(td *typeDecl) *ir.Decl {
	d := l.decls[td]
	*d = ir.Decl{Name: td.Name, Form: td.Form, Doc: td.Doc, ExtraDoc: td.ExtraDoc, ValueDocs: td.ValueDocs,
		Added: td.Added, Absent: td.Absent, TagCodec: td.TagCodec || td.Form == definedForm && l.p.byName[td.Type.Name].TagCodec, Envelope: td.Form == structForm && isEnvelope(td),
		Rules: l.p.rules[td.Name], Checks: l.p.declChecks(td), ResultResponse: td.ResultResponse, ResultUnion: l.declOf(td.ResultUnion),
		Type: l.typ(td.Type), Rest: l.typ(td.Rest), Values: td.Values, ValueNames: td.ValueNames, Open: td.Open,
		KindUnion: td.decision != nil && td.decision.Strategy == model.KindStrategy, Expected: td.Expected,
		Unknown: td.Unknown, Tag: td.Tag, ResultsDoc: td.ResultsDoc, ResultTag: td.ResultTag,
		Base: l.variant(td.Base), NullVariant: td.NullVariant, Union: l.declOf(l.p.byName[td.unionName]),
		Funcs: td.Funcs, Method: td.Method}
	for _, f := range td.Fields {
		d.Fields = append(d.Fields, l.field(f))
	}
	for _, v := range td.Variants {
		d.Variants = append(d.Variants, l.variant(v))
	}
	markNull(d)
	if oc := td.Objects; oc != nil {
		d.Objects = &ir.ObjectChoice{Discriminator: oc.decision.Discriminator, Table: oc.Table, Absent: oc.Absent,
			InputRequired: inputRequiredIndex(oc)}
		for _, v := range oc.Variants {
			d.Objects.Variants = append(d.Objects.Variants, l.variant(v))
		}
		for _, tc := range oc.Tags {
			d.Objects.Tags = append(d.Objects.Tags, &ir.TagCase{Values: tc.Values, Variants: tc.Variants})
		}
	}
	for _, k := range td.Kinds {
		kc := &ir.KindChoice{JSONKind: jsonKindOf(k.JSONKind)}
		for _, v := range k.Variants {
			kc.Variants = append(kc.Variants, l.variant(v))
		}
		d.Kinds = append(d.Kinds, kc)
	}
	for _, rc := range td.Results {
		d.Results = append(d.Results, &ir.ResultCase{Method: rc.Method, Value: rc.Value, Candidates: rc.Candidates})
	}
	if td.Form == unknownForm {
		d.UnknownValues, d.UnknownMethod = l.p.unknownReport(td)
	}
	return d
}

// unknownReport says how Validate reports the Unknown variant of a union: the values the union
// knows, and whether it is a message of a method the version does not define (with the
// protocol layer).
func (p *plan) unknownReport(td *typeDecl) (string, bool) {
	union := p.byName[td.unionName]
	var values []string
	for _, v := range union.Objects.Variants {
		for _, val := range v.model.Values {
			if !slices.Contains(values, quote(val.Str)) {
				values = append(values, quote(val.Str))
			}
		}
	}
	if union.ResultTag {
		values = []string{quote(resultComplete), quote(resultInputRequired)}
	}
	return strings.Join(values, ", "), union.Tag == "method" && p.proto != nil
}

func (l *lowering) declOf(td *typeDecl) *ir.Decl {
	if td == nil {
		return nil
	}
	return l.decls[td]
}

// field is the ir of a field.
func (l *lowering) field(f *field) *ir.Field {
	if f == nil {
		return nil
	}
	if x, ok := l.fields[f]; ok {
		return x
	}
	c := f.member.Constraints
	x := &ir.Field{Name: f.Name, JSONName: f.member.Name, Type: l.typ(f.Type), Doc: f.Doc, Pointer: f.Pointer,
		Literal: value(f.literal), Default: value(f.member.Default),
		Constraints: ir.Constraints{Minimum: c.Minimum, Maximum: c.Maximum, Format: c.Format, MinItems: c.MinItems, MaxItems: c.MaxItems},
		Nullable:    f.Nullable, TagOption: f.TagOption, NilNull: f.NilNull, Implicit: f.Implicit, Optional: f.Optional,
		OmitEmpty: f.OmitEmpty, OmitZero: f.OmitZero, Always: f.Always, Result: f.Result, Embed: f.Embed, Base: f.Base,
		NilIsNull: f.Type.Kind == externalKind && admitsNull(f.member)}
	l.fields[f] = x
	return x
}

// admitsNull reports whether null is a value of the member m: besides its type (Nullable), or as
// a variant of its union (`number | null`).
func admitsNull(m *model.Member) bool {
	t := m.Type
	return m.Nullable || t != nil && t.Kind == model.Union && t.Union != nil && t.Union.Decision != nil &&
		t.Union.Decision.Strategy == model.NullableStrategy
}

// typ is the ir of a Go type, with what planning decides about it: whether it has nil, how
// omitempty tests it, whether validating it can find a problem.
func (l *lowering) typ(t *goType) *ir.Type {
	if t == nil {
		return nil
	}
	if x, ok := l.types[t]; ok {
		return x
	}
	x := &ir.Type{Kind: t.Kind, Name: t.Name, Alias: t.Alias, Path: t.Path, Pointer: t.Pointer,
		Composite: t.Composite, Underlying: t.Underlying, Single: t.Single, HasNil: t.hasNil(),
		Emptiness: t.emptiness(), Checks: l.p.checks(t), ElemChecks: l.p.elemChecks(t),
		Builtin: builtinTypeOf(t), Shape: shapeOf(t), Bytes: t.Kind == externalKind && t.Name == "[]byte"}
	l.types[t] = x
	x.Elem = l.typ(t.Elem)
	x.Union = l.declOf(t.Union)
	return x
}

// variant is the ir of a union's variant.
func (l *lowering) variant(v *variant) *ir.Variant {
	if v == nil {
		return nil
	}
	if x, ok := l.variants[v]; ok {
		return x
	}
	x := &ir.Variant{Type: l.typ(v.Type), Pointer: v.Pointer, JSONKind: jsonKindOf(v.JSONKind)}
	if v.model != nil {
		x.Required, x.Known = v.model.Required, v.model.Known
		for _, val := range v.model.Values {
			x.Values = append(x.Values, val.Str)
		}
	}
	l.variants[v] = x
	return x
}

// value is the ir of a literal value.
func value(v *model.Value) *ir.Value {
	if v == nil {
		return nil
	}
	x := &ir.Value{IsString: v.Kind == model.String, IsBool: v.Kind == model.Boolean, Str: v.Str, Num: v.Num,
		Bool: v.Bool, Text: v.String()}
	switch v.Kind {
	case model.String:
		x.Zero = v.Str == ""
	case model.Boolean:
		x.Zero = !v.Bool
	default:
		f, err := strconv.ParseFloat(v.Num, 64)
		x.Zero = err == nil && f == 0
	}
	return x
}

// protocol is the ir of the protocol layer.
func (l *lowering) protocol(p *protocolPlan) *ir.Protocol {
	x := &ir.Protocol{Roles: map[*ir.Decl]ir.Role{}, RequestID: l.declOf(p.RequestID), AnyResult: l.declOf(p.AnyResult),
		ResultResponse: l.declOf(p.ResultResponse), ErrorResponse: l.declOf(p.ErrorResponse), ErrorType: p.ErrorType,
		ErrorPointer: p.ErrorPointer, ErrorData: p.ErrorData, Batch: p.Batch, Messages: p.Messages,
		ErrorID: p.ErrorID.Name, ErrorField: p.ErrorField.Name,
		TypedDoc: p.TypedDoc, ErrorResponseDoc: p.ErrorResponseDoc, MessageDoc: p.MessageDoc,
		RequestDocs: p.RequestDocs, NotificationDocs: p.NotificationDocs,
		Names: protocolNames, InternalError: ir.InternalError, MethodNotFound: ir.MethodNotFound}
	for _, s := range p.Sides {
		x.Sides = append(x.Sides, &ir.Side{Name: s.Name, Requests: l.declOf(s.Requests), Notifications: l.declOf(s.Notifications),
			Results: l.declOf(s.Results), Decode: s.Decode, NoCopy: s.NoCopy, Internal: s.Internal, UnmarshalFor: s.UnmarshalFor,
			DecodeDoc: s.DecodeDoc, NoCopyDoc: s.NoCopyDoc})
	}
	for _, a := range p.IDMethods {
		x.IDMethods = append(x.IDMethods, &ir.Accessor{Decl: l.declOf(a.Decl), ID: l.field(a.ID)})
	}
	for _, td := range p.Unions {
		x.Unions = append(x.Unions, l.declOf(td))
		x.Roles[l.declOf(td)] = p.Roles[td]
	}
	for _, a := range p.Accessors {
		x.Accessors = append(x.Accessors, &ir.Accessor{Decl: l.declOf(a.Decl), Unknown: a.Unknown, Method: a.Method,
			ID: l.field(a.ID), Params: l.field(a.Params), NoID: a.NoID})
	}
	for _, e := range p.Methods {
		m := *e.MethodEntry
		m.Message, m.Params, m.Results = l.declOf(e.message), l.typ(e.params), nil
		for _, t := range e.results {
			m.Results = append(m.Results, l.typ(t))
		}
		x.Methods = append(x.Methods, &m)
	}
	errs := map[*errorObject]*ir.ErrorObject{}
	for _, e := range p.Errors {
		errs[e] = &ir.ErrorObject{Decl: l.declOf(e.Decl), Code: l.field(e.Code), Message: l.field(e.Message), Own: e.Decl.Name == p.ErrorType}
		if errs[e].Own {
			x.ErrorCode, x.ErrorMessage = e.Code.Name, e.Message.Name
		}
		x.Errors = append(x.Errors, errs[e])
	}
	for _, e := range p.Typed {
		x.Typed = append(x.Typed, errs[e])
	}
	return x
}

// jsonKindOf is the JSON kind named s as the schema spells it, NoJSONKind for "".
func jsonKindOf(s string) ir.JSONKind {
	for k, name := range ir.JSONKindNames {
		if name == s && s != "" {
			return ir.JSONKind(k)
		}
	}
	return ir.NoJSONKind
}

// markNull sets Null on the variant of d that stands for null (Decl.NullVariant).
func markNull(d *ir.Decl) {
	for _, v := range d.Variants {
		v.Null = d.NullVariant != "" && v.Type.Name == d.NullVariant
	}
}
