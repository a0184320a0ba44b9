package render

import (
	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/emit/internal/ir"
)

// This file writes validate.go: the Validate methods of every named type and the unexported
// validate methods they call. The generated code calls the validation runtime
// (wire_validate.go): c is the *validator, which tracks the JSON pointer and collects problems.

// validateDoc is the doc of every Validate method; ValidationError's doc says the rest.
const validateDoc = "Validate reports every rule of the schema the value breaks as a " +
	"*[ValidationError], or nil."

// validateMethods writes Validate and validate of a type declaration, by its form.
func (r *renderer) validateMethods(td *ir.Decl) {
	switch td.Form {
	case ir.StructForm:
		r.validateStruct(td)
	case ir.EnumForm:
		r.validateEnum(td)
	case ir.CollectionForm:
		underlying := *td.Type
		underlying.Alias = ""
		body := r.validateValue(jen.Id("v"), &underlying, ir.Constraints{}, 0)
		r.validateFuncs(td.Name, false, false, len(body) > 0, body)
	case ir.InterfaceForm:
		r.validateUnion(td)
	case ir.OneOrManyForm:
		r.validateOneOrMany(td)
	case ir.WrapperForm:
		r.validateFuncs(td.Name, false, false, false, nil)
	case ir.UnknownForm:
		r.validateUnknown(td)
	}
}

// validateFuncs writes `func (v T) Validate() error` and `func (v T) validate(c *validator)` with
// the given body; pointer receivers for structs. envelope marks a JSON-RPC message, whose
// problems outside params and result make an invalid request. A type with nothing to check
// (checks unset: planning gives it no Checks, so that nothing calls its validate) gets a Validate
// that returns nil and no validate.
func (r *renderer) validateFuncs(name string, pointer, envelope, checks bool, body []jen.Code) {
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
	if !checks {
		recv := jen.Id(name)
		if pointer {
			recv = jen.Op("*").Id(name)
		}
		f.Func().Params(recv).Id("Validate").Params().Error().Add(oneLine(jen.Return(jen.Nil())))
		f.Line()
		return
	}
	// The validator is a variable of Validate, not of a runtime function: handed to a function
	// value it would escape to the heap.
	f.Func().Add(jen.Params(recv)).Id("Validate").Params().Error().Add(oneLine(
		jen.Var().Id("c").Id("validator"),
		jen.Id("v").Dot("validate").Call(jen.Op("&").Id("c")),
		jen.Return(jen.Id("c").Dot(errFunc).Call()),
	))
	f.Line()
	f.Func().Add(jen.Params(recv)).Id("validate").Params(jen.Id("c").Op("*").Id("validator")).Block(body...)
	f.Line()
}

// validateStruct checks each field, then that Extra repeats no defined member, then the
// hand-written rules of the type, if the runtime has them.
func (r *renderer) validateStruct(td *ir.Decl) {
	var body []jen.Code
	var known []jen.Code
	for _, fd := range td.Fields {
		body = append(body, r.validateField(fd)...)
		known = append(known, jen.Lit(fd.JSONName))
	}
	if len(known) > 0 && !r.pkg.DropUnknown {
		body = append(body, jen.Id("validExtra").Call(append([]jen.Code{jen.Id("c"), jen.Id("v").Dot(r.pkg.Extra)}, known...)...))
	}
	if len(td.Absent) > 0 && !r.pkg.DropUnknown {
		args := []jen.Code{jen.Id("c"), jen.Id("v").Dot(r.pkg.Extra), jen.Lit(absentMessage)}
		for _, name := range td.Absent {
			args = append(args, jen.Lit(name))
		}
		body = append(body, jen.Id("validAbsent").Call(args...))
	}
	if td.Rest.ElemChecks && !r.pkg.DropUnknown {
		k := "k"
		body = append(body, jen.For(jen.List(jen.Id("_"), jen.Id(k)).Op(":=").Range().Add(sortedKeys(jen.Id("v").Dot(r.pkg.Extra)))).Block(
			append(append([]jen.Code{jen.Id("c").Dot("in").Call(jen.Id(k))},
				r.validateElem(jen.Id("v").Dot(r.pkg.Extra).Index(jen.Id(k)), td.Rest, 1)...),
				jen.Id("c").Dot("out").Call())...,
		))
	}
	if td.Rules {
		body = append(body, jen.Id("v").Dot("validateRules").Call(jen.Id("c")))
	}
	r.validateFuncs(td.Name, true, td.Envelope, td.Checks, body)
}

// validateField returns the statements that check one field, with its member on the path.
func (r *renderer) validateField(fd *ir.Field) []jen.Code {
	if fd.Implicit {
		return nil // decoding checked the constant, and encoding writes it
	}
	if fd.Type.Kind == ir.ExternalKind {
		return validateExternalField(fd)
	}
	src := jen.Id("v").Dot(fd.Name)
	var check []jen.Code
	switch {
	case fd.Literal != nil && fd.Type.Kind == ir.BuiltinKind:
		val := jen.Code(src)
		if fd.Pointer {
			val = jen.Op("*").Add(src)
		}
		check = []jen.Code{jen.Id("validConstant").Call(jen.Id("c"), val, literalCode(fd.Literal))}
	case fd.Pointer:
		check = r.validateValue(deref(src, fd.Type), fd.Type, fd.Constraints, 0)
	default:
		check = r.validateValue(src, fd.Type, fd.Constraints, 0)
	}
	if fd.Nullable && len(check) > 0 {
		check = []jen.Code{jen.If(jen.List(jen.Id("_"), jen.Id("null")).Op(":=").Add(src).Assert(jen.Id(fd.Type.Union.NullVariant)), jen.Op("!").Id("null")).Block(check...)}
	}
	if fd.Type.Kind == ir.UnionKind && !fd.Optional {
		// A nil required union cannot come from decoding, only from Go.
		check = append([]jen.Code{jen.Id("validRequired").Call(jen.Id("c"), jen.Add(src).Op("!=").Nil())}, check...)
	}
	if len(check) == 0 {
		return nil
	}
	body := append(append([]jen.Code{jen.Id("c").Dot("in").Call(jen.Lit(fd.JSONName))}, check...), jen.Id("c").Dot("out").Call())
	if fd.Optional && fd.Type.Kind != ir.UnionKind && !fd.Always {
		return []jen.Code{jen.If(present(fd)).Block(body...)}
	}
	return body
}

// validateElem returns the statements that check src, an element of type t: a nil union is
// reported as the encoder reports it; anything else is checked as validateValue does.
func (r *renderer) validateElem(src jen.Code, t *ir.Type, depth int) []jen.Code {
	if t.Kind != ir.UnionKind {
		return r.validateValue(src, t, ir.Constraints{}, depth)
	}
	isNil := jen.If(jen.Add(src).Op("==").Nil()).Block(jen.Id("c").Dot("report").Call(jen.Lit("nil " + t.Name)))
	if !t.Checks {
		return []jen.Code{isNil}
	}
	return []jen.Code{isNil.Else().Block(jen.Id(t.Union.Funcs.Validate).Call(jen.Id("c"), src))}
}

// validateValue returns the statements that check src, of type t, with the constraints of its
// member: bounds and formats of a scalar, item counts of an array.
func (r *renderer) validateValue(src jen.Code, t *ir.Type, cons ir.Constraints, depth int) []jen.Code {
	var out []jen.Code
	switch t.Kind {
	case ir.BuiltinKind:
		if cons.Format != "" && t.Builtin == ir.String {
			out = append(out, jen.Id("validFormat").Call(jen.Id("c"), src, jen.Lit(cons.Format)))
		}
		if t.Builtin == ir.Int64 || t.Builtin == ir.Float64 {
			if cons.Minimum != nil {
				out = append(out, jen.Id("validMinimum").Call(jen.Id("c"), src, jen.Lit(*cons.Minimum)))
			}
			if cons.Maximum != nil {
				out = append(out, jen.Id("validMaximum").Call(jen.Id("c"), src, jen.Lit(*cons.Maximum)))
			}
		}
	case ir.StructKind, ir.EnumKind, ir.NamedKind:
		if t.Checks {
			out = append(out, jen.Add(src).Dot("validate").Call(jen.Id("c")))
		}
	case ir.UnionKind:
		if t.Checks {
			out = append(out, jen.If(jen.Add(src).Op("!=").Nil()).Block(
				jen.Id(t.Union.Funcs.Validate).Call(jen.Id("c"), src),
			))
		}
	case ir.ExternalKind:
		if t.HasNil {
			out = append(out, jen.If(jen.Add(src).Op("!=").Nil()).Block(validateExternalValue(src, t)))
		} else {
			out = append(out, validateExternalValue(src, t))
		}
	case ir.SliceKind:
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
		if t.Elem.ElemChecks {
			i := local("i", depth)
			out = append(out, jen.For(jen.Id(i).Op(":=").Range().Add(src)).Block(
				append(append([]jen.Code{jen.Id("c").Dot("at").Call(jen.Id(i))},
					r.validateElem(jen.Add(src).Index(jen.Id(i)), t.Elem, depth+1)...),
					jen.Id("c").Dot("out").Call())...,
			))
		}
	case ir.MapKind:
		if t.Elem.ElemChecks {
			k := local("k", depth)
			elem := jen.Add(src).Index(jen.Id(k))
			var pre []jen.Code
			if t.Elem.Kind == ir.StructKind || t.Elem.Kind == ir.ExternalKind && !t.Elem.HasNil {
				// A map value is not addressable; validate has a pointer receiver.
				x := local("x", depth)
				pre = []jen.Code{jen.Id(x).Op(":=").Add(elem)}
				elem = jen.Id(x)
			}
			out = append(out, jen.For(jen.List(jen.Id("_"), jen.Id(k)).Op(":=").Range().Add(sortedKeys(src))).Block(
				append(append(append([]jen.Code{jen.Id("c").Dot("in").Call(jen.Id(k))}, pre...),
					r.validateElem(elem, t.Elem, depth+1)...),
					jen.Id("c").Dot("out").Call())...,
			))
		}
	case ir.PointerKind:
		out = append(out, jen.If(jen.Add(src).Op("==").Nil()).Block(
			jen.Id("c").Dot("report").Call(jen.Lit("must not be null")),
		).Else().Block(r.validateValue(src, t.Elem, cons, depth)...))
	case ir.NullableKind:
		if inner := r.validateValue(deref(src, t.Elem), t.Elem, cons, depth); len(inner) > 0 {
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
func (r *renderer) validateEnum(td *ir.Decl) {
	if td.Open {
		r.validateFuncs(td.Name, false, false, false, nil)
		return
	}
	args := []jen.Code{jen.Id("c"), jen.String().Call(jen.Id("v"))}
	for _, v := range td.Values {
		args = append(args, jen.Lit(v))
	}
	r.validateFuncs(td.Name, false, false, true, []jen.Code{jen.Id("validEnum").Call(args...)})
}

// validateOneOrMany checks the element or elements, and that a single value is one.
func (r *renderer) validateOneOrMany(td *ir.Decl) {
	body := []jen.Code{
		jen.If(jen.Op("!").Id("v").Dot("IsList").Op("&&").Len(jen.Id("v").Dot("List")).Op("!=").Lit(1)).Block(
			jen.Id("c").Dot("report").Call(jen.Lit("holds %d values and is not a list"), jen.Len(jen.Id("v").Dot("List"))),
			jen.Return(),
		),
	}
	if td.Type.ElemChecks {
		elem := r.validateElem(jen.Id("v").Dot("List").Index(jen.Id("i")), td.Type, 1)
		body = append(body, jen.For(jen.Id("i").Op(":=").Range().Id("v").Dot("List")).Block(
			jen.If(jen.Id("v").Dot("IsList")).Block(jen.Id("c").Dot("at").Call(jen.Id("i"))),
			jen.Add(elem...),
			jen.If(jen.Id("v").Dot("IsList")).Block(jen.Id("c").Dot("out").Call()),
		))
	}
	r.validateFuncs(td.Name, true, false, true, body)
}

// validateUnion writes validateX, which checks the variant a union holds: its own rules, or that
// it is not unknown or a nil pointer. A union whose variants need no checks has none.
func (r *renderer) validateUnion(td *ir.Decl) {
	if td.Funcs.Validate == "" {
		return
	}
	var cases []jen.Code
	for _, v := range td.Variants {
		if v.Null {
			cases = append(cases, jen.Case(jen.Id(v.Type.Name)).Block(jen.Id("c").Dot("report").Call(jen.Lit("must not be null"))))
			continue
		}
		if !v.Pointer {
			if v.Type.Checks {
				cases = append(cases, jen.Case(jen.Id(v.Type.Name)).Block(jen.Id("v").Dot("validate").Call(jen.Id("c"))))
			}
			continue
		}
		report := jen.Id("c").Dot("report").Call(jen.Lit("nil *" + v.Type.Name))
		if !v.Type.Checks { // a variant with nothing to check has no validate
			cases = append(cases, jen.Case(jen.Op("*").Id(v.Type.Name)).Block(jen.If(jen.Id("v").Op("==").Nil()).Block(report)))
			continue
		}
		cases = append(cases, jen.Case(jen.Op("*").Id(v.Type.Name)).Block(
			jen.If(jen.Id("v").Op("==").Nil()).Block(report, jen.Return()),
			jen.Id("v").Dot("validate").Call(jen.Id("c")),
		))
	}
	if td.Unknown != "" {
		cases = append(cases, jen.Case(jen.Op("*").Id(td.Unknown)).Block(jen.Id("v").Dot("validate").Call(jen.Id("c"))))
	}
	// The variable of the type switch is unused when the only case is the Null variant.
	sw := jen.Id("v").Op(":=").Id("v").Assert(jen.Type())
	if len(cases) == 1 && td.NullVariant != "" {
		sw = jen.Id("v").Assert(jen.Type())
	}
	r.validateGo.Func().Id(td.Funcs.Validate).Params(jen.Id("c").Op("*").Id("validator"), jen.Id("v").Id(td.Name)).Block(
		jen.Switch(sw).Block(cases...),
	)
	r.validateGo.Line()
}

// validateUnknown reports an unknown variant: a discriminator value the schema does not define.
func (r *renderer) validateUnknown(td *ir.Decl) {
	tag := td.Union.Tag
	report := jen.Id("c").Dot("report").Call(jen.Lit("%s is not one of "+td.UnknownValues+" (unknown "+td.Union.Name+")"), jen.Id("quoteValue").Call(jen.Id("tag")))
	var code []jen.Code
	if td.UnknownMethod {
		// A message of a method this version does not define: a request is answered with
		// "method not found".
		report = jen.Id("c").Dot("report").Call(jen.Lit("%s is not a method of this version ("+td.Union.Name+")"), jen.Id("quoteValue").Call(jen.Id("tag")))
		code = []jen.Code{jen.Id("c").Dot("code").Op("=").Lit(ir.MethodNotFound)}
	}
	body := append([]jen.Code{
		jen.List(jen.Id("tag"), jen.Id("_"), jen.Id("_")).Op(":=").Id("lookupTag").Call(jen.Id("newDecoder").Call(jen.Id("v").Dot("Raw")), jen.Lit(tag)),
		jen.Id("c").Dot("in").Call(jen.Lit(tag)),
		report,
		jen.Id("c").Dot("out").Call(),
	}, code...)
	r.validateFuncs(td.Name, true, false, true, body)
}
