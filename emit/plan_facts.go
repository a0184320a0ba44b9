package emit

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/emit/internal/ir"
	"github.com/mcpgen/mcpgen/model"
)

// The last pass of planning: the facts that follow from everything planned, set on the ir values
// that planning built (a type's HasNil, Emptiness and Checks; a declaration's Checks, Envelope
// and Rules; a field's constraints and default as the ir holds them), and the ir.Package that
// holds them, the only thing rendering reads.

// toIR sets the facts that follow from the plan and returns its ir.
func (p *plan) toIR() *ir.Package {
	c := p.opts.Config
	pkg := &ir.Package{Name: p.opts.Package, Header: header, Version: p.opts.Version,
		SchemaVersion: p.schemaVersionName(), NoValidate: c.NoValidate, DropUnknown: c.DropUnknown,
		Lenient: c.Lenient, Copied: p.files, Extra: extraField, Decls: p.types, ResultDecodes: p.resultDecodes,
		Protocol: p.proto, Sampling: p.sampling}
	seen := map[*ir.Type]bool{}
	for _, td := range p.types {
		p.settleDecl(td, seen)
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
	if pr := p.proto; pr != nil {
		p.settleProtocol(pr, seen)
	}
	if sp := p.sampling; sp != nil {
		for _, m := range sp.Messages {
			p.settleType(m.Elem, seen)
		}
	}
	return pkg
}

// settleDecl sets the facts of a declaration, its fields, variants and types.
func (p *plan) settleDecl(td *ir.Decl, seen map[*ir.Type]bool) {
	td.TagCodec = td.TagCodec || td.Form == definedForm && p.byName[td.Type.Name].TagCodec
	td.Envelope = td.Form == structForm && isEnvelope(td)
	td.Rules, td.Checks = p.rules[td.Name], p.declChecks(td)
	p.settleType(td.Type, seen)
	p.settleType(td.Rest, seen)
	for _, f := range td.Fields {
		p.settleField(f, seen)
	}
	for _, v := range td.Variants {
		p.settleType(v.Type, seen)
		v.Null = td.NullVariant != "" && v.Type.Name == td.NullVariant
	}
	if td.Form == unknownForm {
		td.UnknownValues, td.UnknownMethod = p.unknownReport(td)
	}
}

// settleField sets what the ir holds of a field's member: its default, its constraints, and
// whether a nil substitute stands for null.
func (p *plan) settleField(f *ir.Field, seen map[*ir.Type]bool) {
	p.settleType(f.Type, seen)
	m := p.fsrc(f).member
	c := m.Constraints
	f.Default = value(m.Default)
	f.Constraints = ir.Constraints{Minimum: c.Minimum, Maximum: c.Maximum, Format: c.Format, MinItems: c.MinItems, MaxItems: c.MaxItems}
	f.NilIsNull = f.Type.Kind == externalKind && admitsNull(m)
}

// settleType sets what planning decides about a type: whether it has nil, how omitempty tests
// it, whether validating it can find a problem, and the builtin type or shape it is.
func (p *plan) settleType(t *ir.Type, seen map[*ir.Type]bool) {
	if t == nil || seen[t] {
		return
	}
	seen[t] = true
	t.HasNil, t.Emptiness, t.Checks, t.ElemChecks = hasNil(t), emptiness(t), p.checks(t), p.elemChecks(t)
	t.Builtin, t.Shape, t.Bytes = builtinTypeOf(t), shapeOf(t), t.Kind == externalKind && t.Name == "[]byte"
	p.settleType(t.Elem, seen)
}

// settleProtocol sets which error object is the error response's own, and the facts of the
// method table's types.
func (p *plan) settleProtocol(pr *ir.Protocol, seen map[*ir.Type]bool) {
	pr.Names = protocolNames
	for _, e := range pr.Errors {
		e.Own = e.Decl.Name == pr.ErrorType
		if e.Own {
			pr.ErrorCode, pr.ErrorMessage = e.Code.Name, e.Message.Name
		}
	}
	for _, e := range pr.Methods {
		p.settleType(e.Params, seen)
		for _, t := range e.Results {
			p.settleType(t, seen)
		}
	}
}

// unknownReport says how Validate reports the Unknown variant of a union: the values the union
// knows, and whether it is a message of a method the version does not define (with the
// protocol layer).
func (p *plan) unknownReport(td *ir.Decl) (string, bool) {
	union := td.Union
	var values []string
	for _, v := range union.Objects.Variants {
		for _, val := range v.Values {
			if !slices.Contains(values, quote(val)) {
				values = append(values, quote(val))
			}
		}
	}
	if union.ResultTag {
		values = []string{quote(resultComplete), quote(resultInputRequired)}
	}
	return strings.Join(values, ", "), union.Tag == "method" && p.proto != nil
}

// admitsNull reports whether null is a value of the member m: besides its type (Nullable), or as
// a variant of its union (`number | null`).
func admitsNull(m *model.Member) bool {
	t := m.Type
	return m.Nullable || t != nil && t.Kind == model.Union && t.Union != nil && t.Union.Decision != nil &&
		t.Union.Decision.Strategy == model.NullableStrategy
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

// jsonKindOf is the JSON kind named s as the schema spells it, NoJSONKind for "".
func jsonKindOf(s string) ir.JSONKind {
	for k, name := range ir.JSONKindNames {
		if name == s && s != "" {
			return ir.JSONKind(k)
		}
	}
	return ir.NoJSONKind
}
