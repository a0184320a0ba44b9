package emit

import (
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/model"
)

// resultUnions are the unions of results that get a typed decode by request method.
var resultUnions = []string{"ClientResult", "ServerResult"}

// resultCase is one method of a typed result decode: the variants its result can be.
type resultCase struct {
	method     string // the Go name of the method constant
	value      string // the method
	candidates []int  // indexes into the union's variants
}

// planResults finds, for each result union, the result variants of every request method: the
// declaration "FooResult" for a request "FooRequest", and, when the schema declares
// "FooResultResponse" with a union "result" member, the other variants of that union (such as
// InputRequiredResult).
func (g *generator) planResults() {
	for _, name := range resultUnions {
		union := g.byDecl[name]
		if union == nil || union.form != interfaceForm || union.decision.Strategy != model.ObjectStrategy {
			continue
		}
		for _, td := range g.types {
			value, ok := methodOf(td)
			if !ok || !strings.HasSuffix(td.decl.Name, "Request") {
				continue
			}
			result := strings.TrimSuffix(td.decl.Name, "Request") + "Result"
			first := variantIndex(union, result)
			if first < 0 {
				continue
			}
			candidates := []int{first}
			for _, r := range g.responseResults(result + "Response") {
				if i := variantIndex(union, r); i >= 0 && !slices.Contains(candidates, i) {
					candidates = append(candidates, i)
				}
			}
			slices.Sort(candidates)
			union.results = append(union.results, resultCase{methodConstName(td.name), value, candidates})
		}
		if len(union.results) > 0 {
			union.objects.table = true
		}
	}
}

// responseResults lists the declarations named by the "result" member of a response
// declaration, if it is a union of references.
func (g *generator) responseResults(response string) []string {
	d := g.s.Decl(response)
	if d == nil || d.Type.Kind != model.Object {
		return nil
	}
	m := d.Type.Object.Member("result")
	if m == nil || m.Type.Kind != model.Union {
		return nil
	}
	var names []string
	for _, v := range m.Type.Union.Variants {
		if v.Kind == model.Ref {
			names = append(names, v.Ref)
		}
	}
	return names
}

// variantIndex is the index of the variant written as a reference to decl, or -1.
func variantIndex(union *typeDecl, decl string) int {
	for i, v := range union.objects.variants {
		if v.model.Type.Kind == model.Ref && v.model.Type.Ref == decl {
			return i
		}
	}
	return -1
}

// results writes Unmarshal<Union>For of the result unions.
func (g *generator) results() error {
	for _, name := range resultUnions {
		union := g.byDecl[name]
		if union == nil || len(union.results) == 0 {
			continue
		}
		fn := "Unmarshal" + union.name + "For"
		if err := g.scope.declare(fn, "typed result decode of "+name, union.pos); err != nil {
			return err
		}
		var docs []string
		var code []jen.Code
		for _, rc := range union.results {
			var links []string
			for _, c := range rc.candidates {
				links = append(links, variantLink(union.objects.variants[c]))
			}
			docs = append(docs, quote(rc.value)+" gives "+orList(links))
			code = append(code, jen.Case(jen.Id(rc.method)).Block(
				jen.List(jen.Id("v"), jen.Err()).Op("=").Add(g.callDecodeVariant(union, rc.candidates)),
			))
		}
		code = append(code, jen.Default().Block(
			jen.List(jen.Id("v"), jen.Err()).Op("=").Id("decode"+union.name).Call(jen.Id("d")),
		))
		doc := fn + " decodes the result of a request with the given method as one of the method's " +
			"result types: " + strings.Join(docs, ", ") + ". Knowing the method tells apart results that " +
			"their members alone cannot (a result with only optional members fits several types); among " +
			"several types, it picks as [Unmarshal" + union.name + "] does. For other methods it is [Unmarshal" +
			union.name + "]."
		f := g.unionsGo
		f.Add(docComment(doc))
		f.Func().Id(fn).Params(jen.Id("method").String(), jen.Id("data").Index().Byte()).Params(jen.Id(union.name), jen.Error()).Block(
			jen.Id("d").Op(":=").Id("newDecoder").Call(jen.Id("data")),
			jen.Var().Id("v").Id(union.name),
			jen.Var().Err().Error(),
			jen.Switch(jen.Id("method")).Block(code...),
			jen.If(jen.Err().Op("==").Nil()).Block(jen.Err().Op("=").Id("d").Dot("end").Call()),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
			jen.Return(jen.Id("v"), jen.Nil()),
		)
		f.Line()
	}
	return nil
}
