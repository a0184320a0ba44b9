package emit

import (
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/model"
)

// Planning the typed decode of results: for each result union, the variants each request method
// can answer with.

// resultUnions are the unions of results that get a typed decode by request method.
var resultUnions = []string{"ClientResult", "ServerResult", "AnyResult"}

// resultCase is one method of a typed result decode: the variants its result can be.
type resultCase struct {
	request    *typeDecl // the request
	method     string    // the Go name of the method constant
	value      string    // the method
	candidates []int     // indexes into the union's variants
}

// planResults finds, for each result union, the result variants of every request method: the
// declaration "FooResult" for a request "FooRequest" (EmptyResult when the schema declares no
// FooResult); when the schema declares "FooResultResponse" with a union "result" member, the
// other variants of that union (such as InputRequiredResult); and CreateTaskResult when the
// request can be task-augmented.
//
// It also finds the base of each result union: its variant Result (or an alias of it, such as
// EmptyResult), which takes any result: it requires nothing (or only "resultType", from
// 2026-07-28) and keeps every other member in Extra. A result decoded
// without the method of its request is typed by its members alone, a guess: when the variant
// its members point to does not decode it (a result of a method the version does not define,
// which looks like another method's), the base does, keeping its members in Extra.
func (g *generator) planResults() {
	for _, name := range resultUnions {
		union := g.byDecl[name]
		if union == nil || union.form != interfaceForm || union.objects == nil || union.decision.Strategy != model.ObjectStrategy {
			continue
		}
		if i := g.resultVariant(union, "Result"); i >= 0 {
			union.base = union.objects.variants[i]
		}
		for _, td := range g.types {
			value, ok := methodOf(td)
			if !ok || !strings.HasSuffix(td.decl.Name, "Request") {
				continue
			}
			result := strings.TrimSuffix(td.decl.Name, "Request") + "Result"
			if g.s.Decl(result) == nil {
				result = "EmptyResult"
			}
			first := g.resultVariant(union, result)
			if first < 0 {
				continue
			}
			candidates := []int{first}
			more := g.responseResults(result + "Response")
			if g.s.TaskAugmented(td.decl) {
				more = append(more, "CreateTaskResult")
			}
			for _, r := range more {
				if i := g.resultVariant(union, r); i >= 0 && !slices.Contains(candidates, i) {
					candidates = append(candidates, i)
				}
			}
			slices.Sort(candidates)
			union.results = append(union.results, resultCase{td, methodConstName(td.name), value, candidates})
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

// resultVariant is the index of the variant of union that is the declaration decl, or an alias
// of it (EmptyResult is Result), or -1.
func (g *generator) resultVariant(union *typeDecl, decl string) int {
	d := g.s.Decl(decl)
	if d == nil {
		return -1
	}
	t, err := g.s.Deref(d.Type)
	if err != nil || t.Kind != model.Object {
		return -1
	}
	for i, v := range union.objects.variants {
		if v.model.Object == t.Object {
			return i
		}
	}
	return -1
}
