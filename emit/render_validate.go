package emit

import (
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/model"
)

// This file writes validate.go: the Validate methods of every named type and the unexported
// validate methods they call. The generated code calls the validation runtime
// (wire_validate.go): c is the *validator, which tracks the JSON pointer and collects problems.

// validateDoc is the doc of every Validate method; ValidationError's doc says the rest.
const validateDoc = "Validate reports every rule of the schema that the value breaks, as a " +
	"*[ValidationError], or returns nil."

// validateMethods writes Validate and validate of a type declaration, by its form.
func (r *renderer) validateMethods(td *typeDecl) {
	switch td.form {
	case structForm:
		r.validateStruct(td)
	case enumForm:
		r.validateEnum(td)
	case collectionForm:
		underlying := *td.typ
		underlying.alias = ""
		r.validateFuncs(td.name, false, false, r.validateValue(jen.Id("v"), &underlying, model.Constraints{}, 0))
	case interfaceForm:
		r.validateUnion(td)
	case oneOrManyForm:
		r.validateOneOrMany(td)
	case wrapperForm:
		r.validateFuncs(td.name, false, false, nil)
	case unknownForm:
		r.validateUnknown(td)
	}
}

// validateFuncs writes `func (v T) Validate() error` and `func (v T) validate(c *validator)` with
// the given body; pointer receivers for structs. envelope marks a JSON-RPC message, whose
// problems outside params and result make an invalid request.
func (r *renderer) validateFuncs(name string, pointer, envelope bool, body []jen.Code) {
	f := r.validateGo
	recv := jen.Id("v").Id(name)
	if pointer {
		recv = jen.Id("v").Op("*").Id(name)
	}
	errFunc := "err"
	if envelope {
		errFunc = "messageErr"
	}
	f.Add(docComment(validateDoc))
	f.Func().Add(jen.Params(recv)).Id("Validate").Params().Error().Block(
		jen.Var().Id("c").Id("validator"),
		jen.Id("v").Dot("validate").Call(jen.Op("&").Id("c")),
		jen.Return(jen.Id("c").Dot(errFunc).Call()),
	)
	f.Line()
	if len(body) == 0 {
		f.Func().Add(jen.Params(jen.Id(name))).Id("validate").Params(jen.Op("*").Id("validator")).Block()
	} else {
		f.Func().Add(jen.Params(recv)).Id("validate").Params(jen.Id("c").Op("*").Id("validator")).Block(body...)
	}
	f.Line()
}

// validateStruct checks each field, then that Extra repeats no defined member, then the
// hand-written rules of the type, if the runtime has them.
func (r *renderer) validateStruct(td *typeDecl) {
	var body []jen.Code
	var known []jen.Code
	for _, fd := range td.fields {
		body = append(body, r.validateField(fd)...)
		known = append(known, jen.Lit(fd.member.Name))
	}
	if len(known) > 0 && !r.opts.Config.DropUnknown {
		body = append(body, jen.Id("validExtra").Call(append([]jen.Code{jen.Id("c"), jen.Id("v").Dot("Extra")}, known...)...))
	}
	if len(td.absent) > 0 && !r.opts.Config.DropUnknown {
		args := []jen.Code{jen.Id("c"), jen.Id("v").Dot("Extra"), jen.Lit(absentMessage)}
		for _, name := range td.absent {
			args = append(args, jen.Lit(name))
		}
		body = append(body, jen.Id("validAbsent").Call(args...))
	}
	if r.elemChecks(td.rest) && !r.opts.Config.DropUnknown {
		k := "k"
		body = append(body, jen.For(jen.List(jen.Id("_"), jen.Id(k)).Op(":=").Range().Add(sortedKeys(jen.Id("v").Dot("Extra")))).Block(
			append(append([]jen.Code{jen.Id("c").Dot("in").Call(jen.Id(k))},
				r.validateElem(jen.Id("v").Dot("Extra").Index(jen.Id(k)), td.rest, 1)...),
				jen.Id("c").Dot("out").Call())...,
		))
	}
	if r.rules[td.name] {
		body = append(body, jen.Id("v").Dot("validateRules").Call(jen.Id("c")))
	}
	r.validateFuncs(td.name, true, isEnvelope(td), body)
}

// validateField returns the statements that check one field, with its member on the path.
func (r *renderer) validateField(fd *field) []jen.Code {
	if fd.implicit {
		return nil // decoding checked the constant, and encoding writes it
	}
	if fd.typ.kind == externalKind {
		return validateExternalField(fd)
	}
	src := jen.Id("v").Dot(fd.name)
	var check []jen.Code
	switch {
	case fd.literal != nil && fd.typ.kind == builtinKind:
		val := jen.Code(src)
		if fd.pointer {
			val = jen.Op("*").Add(src)
		}
		check = []jen.Code{jen.Id("validConstant").Call(jen.Id("c"), val, literalCode(fd.literal))}
	case fd.pointer:
		check = r.validateValue(deref(src, fd.typ), fd.typ, fd.member.Constraints, 0)
	default:
		check = r.validateValue(src, fd.typ, fd.member.Constraints, 0)
	}
	if fd.nullable && len(check) > 0 {
		check = []jen.Code{jen.If(jen.List(jen.Id("_"), jen.Id("null")).Op(":=").Add(src).Assert(jen.Id(fd.typ.union.nullVariant)), jen.Op("!").Id("null")).Block(check...)}
	}
	if fd.typ.kind == unionKind && !fd.optional {
		// A nil required union cannot come from decoding, only from Go.
		check = append([]jen.Code{jen.Id("validRequired").Call(jen.Id("c"), jen.Add(src).Op("!=").Nil())}, check...)
	}
	if len(check) == 0 {
		return nil
	}
	body := append(append([]jen.Code{jen.Id("c").Dot("in").Call(jen.Lit(fd.member.Name))}, check...), jen.Id("c").Dot("out").Call())
	if fd.optional && fd.typ.kind != unionKind && !fd.always {
		return []jen.Code{jen.If(present(fd)).Block(body...)}
	}
	return body
}

// validateElem returns the statements that check src, an element of type t: a nil union is
// reported as the encoder reports it; anything else is checked as validateValue does.
func (r *renderer) validateElem(src jen.Code, t *goType, depth int) []jen.Code {
	if t.kind != unionKind {
		return r.validateValue(src, t, model.Constraints{}, depth)
	}
	isNil := jen.If(jen.Add(src).Op("==").Nil()).Block(jen.Id("c").Dot("report").Call(jen.Lit("nil " + t.name)))
	if !r.checks(t) {
		return []jen.Code{isNil}
	}
	return []jen.Code{isNil.Else().Block(jen.Id(t.union.funcs.validate).Call(jen.Id("c"), src))}
}

// validateValue returns the statements that check src, of type t, with the constraints of its
// member: bounds and formats of a scalar, item counts of an array.
func (r *renderer) validateValue(src jen.Code, t *goType, cons model.Constraints, depth int) []jen.Code {
	var out []jen.Code
	switch t.kind {
	case builtinKind:
		if cons.Format != "" && t.name == "string" {
			out = append(out, jen.Id("validFormat").Call(jen.Id("c"), src, jen.Lit(cons.Format)))
		}
		if t.name == "int64" || t.name == "float64" {
			if cons.Minimum != nil {
				out = append(out, jen.Id("validMinimum").Call(jen.Id("c"), src, jen.Lit(*cons.Minimum)))
			}
			if cons.Maximum != nil {
				out = append(out, jen.Id("validMaximum").Call(jen.Id("c"), src, jen.Lit(*cons.Maximum)))
			}
		}
	case structKind, enumKind, namedKind:
		if r.checks(t) {
			out = append(out, jen.Add(src).Dot("validate").Call(jen.Id("c")))
		}
	case unionKind:
		if r.checks(t) {
			out = append(out, jen.If(jen.Add(src).Op("!=").Nil()).Block(
				jen.Id(t.union.funcs.validate).Call(jen.Id("c"), src),
			))
		}
	case externalKind:
		if t.hasNil() {
			out = append(out, jen.If(jen.Add(src).Op("!=").Nil()).Block(validateExternalValue(src, t)))
		} else {
			out = append(out, validateExternalValue(src, t))
		}
	case sliceKind:
		if cons.MinItems != nil || cons.MaxItems != nil {
			lo, hi := -1, -1
			if cons.MinItems != nil {
				lo = *cons.MinItems
			}
			if cons.MaxItems != nil {
				hi = *cons.MaxItems
			}
			out = append(out, jen.Id("validItems").Call(jen.Id("c"), jen.Len(src), jen.Lit(lo), jen.Lit(hi)))
		}
		if r.elemChecks(t.elem) {
			i := local("i", depth)
			out = append(out, jen.For(jen.Id(i).Op(":=").Range().Add(src)).Block(
				append(append([]jen.Code{jen.Id("c").Dot("at").Call(jen.Id(i))},
					r.validateElem(jen.Add(src).Index(jen.Id(i)), t.elem, depth+1)...),
					jen.Id("c").Dot("out").Call())...,
			))
		}
	case mapKind:
		if r.elemChecks(t.elem) {
			k := local("k", depth)
			elem := jen.Add(src).Index(jen.Id(k))
			var pre []jen.Code
			if t.elem.kind == structKind || t.elem.kind == externalKind && !t.elem.hasNil() {
				// A map value is not addressable; validate has a pointer receiver.
				x := local("x", depth)
				pre = []jen.Code{jen.Id(x).Op(":=").Add(elem)}
				elem = jen.Id(x)
			}
			out = append(out, jen.For(jen.List(jen.Id("_"), jen.Id(k)).Op(":=").Range().Add(sortedKeys(src))).Block(
				append(append(append([]jen.Code{jen.Id("c").Dot("in").Call(jen.Id(k))}, pre...),
					r.validateElem(elem, t.elem, depth+1)...),
					jen.Id("c").Dot("out").Call())...,
			))
		}
	case pointerKind:
		out = append(out, jen.If(jen.Add(src).Op("==").Nil()).Block(
			jen.Id("c").Dot("report").Call(jen.Lit("must not be null")),
		).Else().Block(r.validateValue(src, t.elem, cons, depth)...))
	case nullableKind:
		if inner := r.validateValue(deref(src, t.elem), t.elem, cons, depth); len(inner) > 0 {
			out = append(out, jen.If(jen.Add(src).Op("!=").Nil()).Block(inner...))
		}
	}
	return out
}

// sortedKeys is the keys of the map src in order, so that problems come in a stable order.
func sortedKeys(src jen.Code) jen.Code {
	return jen.Qual("slices", "Sorted").Call(jen.Qual("maps", "Keys").Call(src))
}

// validateEnum checks membership of a closed enum; an open enum accepts any string.
func (r *renderer) validateEnum(td *typeDecl) {
	if td.open {
		r.validateFuncs(td.name, false, false, nil)
		return
	}
	args := []jen.Code{jen.Id("c"), jen.String().Call(jen.Id("v"))}
	for _, v := range td.values {
		args = append(args, jen.Lit(v))
	}
	r.validateFuncs(td.name, false, false, []jen.Code{jen.Id("validEnum").Call(args...)})
}

// validateOneOrMany checks the element or elements, and that a single value is one.
func (r *renderer) validateOneOrMany(td *typeDecl) {
	body := []jen.Code{
		jen.If(jen.Op("!").Id("v").Dot("IsList").Op("&&").Len(jen.Id("v").Dot("List")).Op("!=").Lit(1)).Block(
			jen.Id("c").Dot("report").Call(jen.Lit("holds %d values and is not a list"), jen.Len(jen.Id("v").Dot("List"))),
			jen.Return(),
		),
	}
	if r.elemChecks(td.typ) {
		elem := r.validateElem(jen.Id("v").Dot("List").Index(jen.Id("i")), td.typ, 1)
		body = append(body, jen.For(jen.Id("i").Op(":=").Range().Id("v").Dot("List")).Block(
			jen.If(jen.Id("v").Dot("IsList")).Block(jen.Id("c").Dot("at").Call(jen.Id("i"))),
			jen.Add(elem...),
			jen.If(jen.Id("v").Dot("IsList")).Block(jen.Id("c").Dot("out").Call()),
		))
	}
	r.validateFuncs(td.name, true, false, body)
}

// validateUnion writes validateX, which checks the variant a union holds: its own rules, or that
// it is not unknown or a nil pointer. A union whose variants need no checks has none.
func (r *renderer) validateUnion(td *typeDecl) {
	if !r.unionChecks(td) {
		return
	}
	var cases []jen.Code
	for _, v := range td.variants {
		if v.typ.name == td.nullVariant {
			cases = append(cases, jen.Case(jen.Id(v.typ.name)).Block(jen.Id("c").Dot("report").Call(jen.Lit("must not be null"))))
			continue
		}
		if !v.pointer {
			if r.checks(v.typ) {
				cases = append(cases, jen.Case(jen.Id(v.typ.name)).Block(jen.Id("v").Dot("validate").Call(jen.Id("c"))))
			}
			continue
		}
		cases = append(cases, jen.Case(jen.Op("*").Id(v.typ.name)).Block(
			jen.If(jen.Id("v").Op("==").Nil()).Block(
				jen.Id("c").Dot("report").Call(jen.Lit("nil *"+v.typ.name)),
				jen.Return(),
			),
			jen.Id("v").Dot("validate").Call(jen.Id("c")),
		))
	}
	if td.unknown != "" {
		cases = append(cases, jen.Case(jen.Op("*").Id(td.unknown)).Block(jen.Id("v").Dot("validate").Call(jen.Id("c"))))
	}
	// The variable of the type switch is unused when the only case is the Null variant.
	sw := jen.Id("v").Op(":=").Id("v").Assert(jen.Type())
	if len(cases) == 1 && td.nullVariant != "" {
		sw = jen.Id("v").Assert(jen.Type())
	}
	r.validateGo.Func().Id(td.funcs.validate).Params(jen.Id("c").Op("*").Id("validator"), jen.Id("v").Id(td.name)).Block(
		jen.Switch(sw).Block(cases...),
	)
	r.validateGo.Line()
}

// validateUnknown reports an unknown variant: a discriminator value the schema does not define.
func (r *renderer) validateUnknown(td *typeDecl) {
	union := r.byName[td.union]
	tag := union.tag
	var values []string
	for _, v := range union.objects.variants {
		for _, val := range v.model.Values {
			if !slices.Contains(values, quote(val.Str)) {
				values = append(values, quote(val.Str))
			}
		}
	}
	if union.resultTag {
		values = []string{quote(resultComplete), quote(resultInputRequired)}
	}
	report := jen.Id("c").Dot("report").Call(jen.Lit("%s is not one of "+strings.Join(values, ", ")+" (unknown "+td.union+")"), jen.Id("quoteValue").Call(jen.Id("tag")))
	var code []jen.Code
	if tag == "method" && r.proto != nil {
		// A message of a method this version does not define: a request is answered with
		// "method not found".
		report = jen.Id("c").Dot("report").Call(jen.Lit("%s is not a method of this version ("+td.union+")"), jen.Id("quoteValue").Call(jen.Id("tag")))
		code = []jen.Code{jen.Id("c").Dot("code").Op("=").Lit(-32601)}
	}
	body := append([]jen.Code{
		jen.List(jen.Id("tag"), jen.Id("_"), jen.Id("_")).Op(":=").Id("lookupTag").Call(jen.Id("newDecoder").Call(jen.Id("v").Dot("Raw")), jen.Lit(tag)),
		jen.Id("c").Dot("in").Call(jen.Lit(tag)),
		report,
		jen.Id("c").Dot("out").Call(),
	}, code...)
	r.validateFuncs(td.name, true, false, body)
}
