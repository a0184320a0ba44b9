package render

import (
	"github.com/dave/jennifer/jen"
)

// results writes decode<Union>For and Unmarshal<Union>For of the result unions.
func (r *renderer) results() {
	for _, union := range r.pkg.ResultDecodes {
		fn, internal := union.Funcs.UnmarshalFor, union.Funcs.DecodeFor
		var code []jen.Code
		for _, rc := range union.Results {
			var body []jen.Code
			if union.ResultTag {
				body = r.decodeResults(union, rc.Candidates, rc.Value)
			} else {
				body = r.decodeCandidates(union, rc.Candidates)
			}
			code = append(code, jen.Case(jen.Id(rc.Method)).Block(body...))
		}
		code = append(code, jen.Default().Block(jen.Return(jen.Id(union.Funcs.Decode).Call(jen.Id("d")))))
		f := r.unionsGo
		f.Add(docComment(union.ResultsDoc))
		f.Func().Id(fn).Params(jen.Id("method").String(), jen.Id("data").Index().Byte()).Params(jen.Id(union.Name), jen.Error()).Block(
			jen.Id("d").Op(":=").Id("topDecoder").Call(jen.Id("data")),
			jen.List(jen.Id("v"), jen.Err()).Op(":=").Id(internal).Call(jen.Id("d"), jen.Id("method")),
			jen.If(jen.Err().Op("=").Id("d").Dot("finish").Call(jen.Err()), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
			jen.Return(jen.Id("v"), jen.Nil()),
		)
		f.Line()
		f.Func().Id(internal).Params(jen.Id("d").Op("*").Id("decoder"), jen.Id("method").String()).Params(jen.Id(union.Name), jen.Error()).Block(
			jen.Switch(jen.Id("method")).Block(code...),
		)
		f.Line()
	}
}
