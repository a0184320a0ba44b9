package emit

import (
	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/model"
)

// This file writes the code for values of substituted types (Config.Substitutes, goType
// externalKind). The contract of a substitute is encoding/json's: json.Marshal and
// json.Unmarshal encode and decode it (through its MarshalJSON and UnmarshalJSON, if it has
// them), and a method Validate() error on the value or its pointer, if it has one, is called by
// the enclosing type's Validate. The generated code calls three helpers that the output gets when
// it has a substitute: encodeExternal and decodeExternal (json.go), validateExternal
// (validate.go).

// The helpers that the code of substituted types calls.
const (
	encodeExternal   = "encodeExternal"
	decodeExternal   = "decodeExternal"
	validateExternal = "validateExternal"
)

// external returns the Go type of a value of a substituted type as the helpers take it: a
// pointer to src for a type without nil (so that methods with pointer receivers are found), src
// itself for a pointer or an interface.
func external(src jen.Code, t *goType) jen.Code {
	if t.hasNil() {
		return src
	}
	return jen.Op("&").Add(src)
}

// encodeExternalValue is the statement that encodes src, of the substituted type t.
func encodeExternalValue(src jen.Code, t *goType) jen.Code {
	return jen.Id(encodeExternal).Call(jen.Id("e"), external(src, t))
}

// decodeExternalValue is the statement that decodes the next value into dst, of the
// substituted type t, assigning err.
func decodeExternalValue(dst jen.Code) jen.Code {
	return jen.Err().Op("=").Id(decodeExternal).Call(jen.Id("d"), jen.Op("&").Add(dst))
}

// externalField returns the statements that encode (or, with decode set, decode) a field of a
// substituted type: an optional field of a type without nil is a pointer to it, which the
// helpers take as it is.
func externalField(fd *field, decode bool) []jen.Code {
	src := jen.Id("v").Dot(fd.name)
	if decode {
		if fd.pointer {
			return []jen.Code{
				jen.Add(src).Op("=").New(fd.typ.code()),
				jen.Err().Op("=").Id(decodeExternal).Call(jen.Id("d"), src),
			}
		}
		return []jen.Code{decodeExternalValue(src)}
	}
	body := []jen.Code{jen.Id("e").Dot("key").Call(jen.Lit(fd.member.Name))}
	if fd.pointer {
		body = append(body, jen.Id(encodeExternal).Call(jen.Id("e"), src))
	} else {
		body = append(body, encodeExternalValue(src, fd.typ))
	}
	if fd.member.Optional {
		return []jen.Code{jen.If(jen.Id("v").Dot(fd.name).Op("!=").Nil()).Block(body...)}
	}
	return body
}

// validateExternalField returns the statements that check a field of a substituted type, with
// its member on the path: a nil required pointer is reported, a value is checked by its Validate.
func validateExternalField(fd *field) []jen.Code {
	src := jen.Id("v").Dot(fd.name)
	in := func(check ...jen.Code) []jen.Code {
		return append(append([]jen.Code{jen.Id("c").Dot("in").Call(jen.Lit(fd.member.Name))}, check...), jen.Id("c").Dot("out").Call())
	}
	switch {
	case fd.pointer, fd.typ.hasNil() && fd.member.Optional:
		return []jen.Code{jen.If(jen.Add(src).Op("!=").Nil()).Block(in(jen.Id(validateExternal).Call(jen.Id("c"), src))...)}
	case fd.typ.hasNil():
		return in(jen.If(jen.Add(src).Op("==").Nil()).Block(
			jen.Id("c").Dot("report").Call(jen.Lit("required member is nil")),
		).Else().Block(jen.Id(validateExternal).Call(jen.Id("c"), src)))
	}
	return in(jen.Id(validateExternal).Call(jen.Id("c"), external(src, fd.typ)))
}

// validateExternalValue is the statement that checks src, a value of the substituted type t in
// an array, map or alias.
func validateExternalValue(src jen.Code, t *goType) jen.Code {
	return jen.Id(validateExternal).Call(jen.Id("c"), external(src, t))
}

// externalHelpers writes the helpers, once, when the output has a substitute.
func (g *generator) externalHelpers() error {
	if len(g.referenced) == 0 && len(g.usedSubstitutes) == 0 {
		return nil
	}
	names := []string{encodeExternal, decodeExternal}
	if !g.opts.Config.NoValidate {
		names = append(names, validateExternal)
	}
	for _, name := range names {
		if err := g.scope.declare(name, "helper of substituted types", model.Pos{}); err != nil {
			return err
		}
	}
	f := g.jsonGo
	f.Comment(encodeExternal + " encodes v, a value of a substituted type (or a pointer to it), with")
	f.Comment("encoding/json: its MarshalJSON method if it has one. An error is the encoder's, at the")
	f.Comment("value's JSON pointer.")
	f.Func().Id(encodeExternal).Params(jen.Id("e").Op("*").Id("encoder"), jen.Id("v").Any()).Block(
		jen.List(jen.Id("b"), jen.Err()).Op(":=").Qual("encoding/json", "Marshal").Call(jen.Id("v")),
		jen.If(jen.Err().Op("!=").Nil()).Block(
			jen.Id("e").Dot("errorf").Call(jen.Lit("%v"), jen.Err()),
			jen.Id("e").Dot("null").Call(),
			jen.Return(),
		),
		jen.Id("e").Dot("raw").Call(jen.Id("b")),
	)
	f.Line()
	f.Comment(decodeExternal + " decodes the next value into v, a pointer to a value of a substituted type,")
	f.Comment("with encoding/json: its UnmarshalJSON method if it has one. An error names the value's JSON")
	f.Comment("pointer.")
	f.Func().Id(decodeExternal).Params(jen.Id("d").Op("*").Id("decoder"), jen.Id("v").Any()).Error().Block(
		jen.List(jen.Id("raw"), jen.Err()).Op(":=").Id("d").Dot("raw").Call(),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.If(jen.Err().Op(":=").Qual("encoding/json", "Unmarshal").Call(jen.Id("raw"), jen.Id("v")), jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Id("d").Dot("errorf").Call(jen.Lit("%v"), jen.Err())),
		),
		jen.Return(jen.Nil()),
	)
	f.Line()
	if g.opts.Config.NoValidate {
		return nil
	}
	f = g.validateGo
	f.Comment(validateExternal + " checks v, a value of a substituted type (or a pointer to it), with its")
	f.Comment("Validate method, if it has one: its error is a problem at the current JSON pointer, or,")
	f.Comment("for a *ValidationError (a type of this package), its problems below it.")
	f.Func().Id(validateExternal).Params(jen.Id("c").Op("*").Id("validator"), jen.Id("v").Any()).Block(
		jen.List(jen.Id("x"), jen.Id("ok")).Op(":=").Id("v").Assert(jen.Interface(jen.Id("Validate").Params().Error())),
		jen.If(jen.Op("!").Id("ok")).Block(jen.Return()),
		jen.Err().Op(":=").Id("x").Dot("Validate").Call(),
		jen.Var().Id("verr").Op("*").Id("ValidationError"),
		jen.If(jen.Op("!").Qual("errors", "As").Call(jen.Err(), jen.Op("&").Id("verr"))).Block(
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Id("c").Dot("report").Call(jen.Lit("%v"), jen.Err())),
			jen.Return(),
		),
		jen.For(jen.List(jen.Id("_"), jen.Id("p")).Op(":=").Range().Id("verr").Dot("Problems")).Block(
			jen.Id("steps").Op(":=").Qual("strings", "Split").Call(jen.Id("p").Dot("Pointer"), jen.Lit("/")).Index(jen.Lit(1), jen.Empty()),
			jen.For(jen.List(jen.Id("_"), jen.Id("s")).Op(":=").Range().Id("steps")).Block(
				jen.Id("c").Dot("in").Call(jen.Qual("strings", "NewReplacer").Call(jen.Lit("~1"), jen.Lit("/"), jen.Lit("~0"), jen.Lit("~")).Dot("Replace").Call(jen.Id("s"))),
			),
			jen.Id("c").Dot("report").Call(jen.Lit("%s"), jen.Id("p").Dot("Message")),
			jen.For(jen.Range().Id("steps")).Block(jen.Id("c").Dot("out").Call()),
		),
	)
	f.Line()
	return nil
}
