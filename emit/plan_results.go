package emit

import (
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/emit/internal/ir"
	"github.com/mcpgen/mcpgen/model"
)

// Planning the typed decode of results: for each result union, the variants each request method
// can answer with.

// resultUnions are the unions of results that get a typed decode by request method.
var resultUnions = model.ResultUnions()

// methodRequest is a request declaration and its method, with the declarations its result can
// be (resultsOf); own is set when the first is the request's own result (FooResult).
type methodRequest struct {
	td      *ir.Decl
	value   string
	results []string
	own     bool
}

// resultsPass plans the typed decodes of the result unions (ir.Decl.Results), once the shapes
// pass has planned every declaration.
type resultsPass struct {
	*plan
}

// planResults finds, for each result union, the result variants of every request method: the
// declaration "FooResult" for a request "FooRequest" (EmptyResult when the schema declares no
// FooResult); when the schema declares "FooResultResponse" with a union "result" member, the
// other variants of that union (such as InputRequiredResult); and CreateTaskResult when the
// request can be task-augmented. A method declared by several requests has the results of one
// of them (methodRequests).
//
// It also finds the base of each result union: its variant Result (or an alias of it, such as
// EmptyResult), which takes any result: it requires nothing (or only "resultType", from
// 2026-07-28) and keeps every other member in Extra. A result decoded
// without the method of its request is typed by its members alone, a guess: when the variant
// its members point to does not decode it (a result of a method the version does not define,
// which looks like another method's), the base does, keeping its members in Extra.
func (rp *resultsPass) planResults() error {
	requests, err := rp.methodRequests()
	if err != nil {
		return err
	}
	for _, name := range resultUnions {
		union := rp.byDecl[name]
		if union == nil || union.Form != interfaceForm || union.Objects == nil || rp.src(union).decision.Strategy != model.ObjectStrategy {
			continue
		}
		if i := rp.resultVariant(union, model.ResultDecl); i >= 0 {
			union.Base = union.Objects.Variants[i]
		}
		for _, rq := range requests {
			first := rp.resultVariant(union, rq.results[0])
			if first < 0 {
				continue
			}
			candidates := []int{first}
			for _, r := range rq.results[1:] {
				if i := rp.resultVariant(union, r); i >= 0 && !slices.Contains(candidates, i) {
					candidates = append(candidates, i)
				}
			}
			slices.Sort(candidates)
			union.Results = append(union.Results, &ir.ResultCase{Method: methodConstName(rq.td.Name), Value: rq.value, Candidates: candidates})
		}
		if len(union.Results) > 0 {
			union.Objects.Table = true
		}
	}
	return nil
}

// methodRequests lists the requests ("FooRequest" declarations whose method is a string
// literal) whose results the typed decodes give, in output order, one per method. Where a
// schema declares several requests with the same method (a draft of 2026 declares
// SamplingInputRequest, the request inside an InputRequiredResult, next to CreateMessageRequest),
// the method's results are those of the one that names a result of its own (FooResult) where
// the others fall back to EmptyResult, or else of the one that is a variant of ClientRequest or
// ServerRequest; requests with the same results are one, the first. Otherwise the schema is
// refused, naming both requests: a method has one result type, and the decode by method
// cannot choose.
func (rp *resultsPass) methodRequests() ([]methodRequest, error) {
	var all []methodRequest
	byMethod := map[string][]methodRequest{}
	for _, td := range rp.types {
		value, ok := rp.methodOf(td)
		if !ok {
			continue
		}
		if _, request := model.ResultOf(rp.src(td).decl.Name); !request {
			continue
		}
		results, own := rp.resultsOf(rp.src(td).decl)
		rq := methodRequest{td, value, results, own}
		all = append(all, rq)
		byMethod[value] = append(byMethod[value], rq)
	}
	var out []methodRequest
	for _, rq := range all {
		chosen, err := rp.chooseRequest(byMethod[rq.value])
		if err != nil {
			return nil, err
		}
		if chosen.td == rq.td {
			out = append(out, rq)
		}
	}
	return out, nil
}

// resultsOf lists the declarations that the result of the request d can be: FooResult for
// FooRequest (own), or EmptyResult where the schema declares no FooResult; the results of
// FooResultResponse; CreateTaskResult.
func (rp *resultsPass) resultsOf(d *model.Decl) (results []string, own bool) {
	result, _ := model.ResultOf(d.Name)
	own = rp.s.Decl(result) != nil
	if !own {
		result = model.EmptyResultDecl
	}
	results = append([]string{result}, rp.responseResults(model.ResponseOf(result))...)
	if rp.s.TaskAugmented(d) {
		results = append(results, model.CreateTaskResultDecl)
	}
	return results, own
}

// chooseRequest picks, among the requests with the same method, the one whose results the
// method has (see methodRequests).
func (rp *resultsPass) chooseRequest(same []methodRequest) (methodRequest, error) {
	if len(same) == 1 {
		return same[0], nil
	}
	for _, keep := range []func(methodRequest) bool{
		func(rq methodRequest) bool { return rq.own },
		func(rq methodRequest) bool { return rp.isRequestVariant(rq.td) },
	} {
		if kept := slices.DeleteFunc(slices.Clone(same), func(rq methodRequest) bool { return !keep(rq) }); len(kept) > 0 {
			same = kept
		}
	}
	for _, other := range same[1:] {
		if !slices.Equal(other.results, same[0].results) {
			a, b := same[0], other
			return methodRequest{}, rp.src(b.td).pos.Errorf("request %s has the method %q of request %s (%s), with other results (%s, not %s): "+
				"the typed decode of a result by its method cannot choose; make one of them a variant of %s, or remove it",
				rp.src(b.td).decl.Name, b.value, rp.src(a.td).decl.Name, rp.src(a.td).pos, strings.Join(b.results, ", "), strings.Join(a.results, ", "),
				strings.Join(model.RequestUnions(), " or "))
		}
	}
	return same[0], nil
}

// isRequestVariant reports whether td is a variant of a message union of requests.
func (rp *resultsPass) isRequestVariant(td *ir.Decl) bool {
	for _, name := range model.RequestUnions() {
		if u := rp.byDecl[name]; u != nil && slices.ContainsFunc(u.Variants, func(v *ir.Variant) bool { return v.Type.Name == td.Name }) {
			return true
		}
	}
	return false
}

// responseResults lists the declarations named by the "result" member of a response
// declaration, if it is a union of references.
func (rp *resultsPass) responseResults(response string) []string {
	d := rp.s.Decl(response)
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
func (rp *resultsPass) resultVariant(union *ir.Decl, decl string) int {
	d := rp.s.Decl(decl)
	if d == nil {
		return -1
	}
	t, err := rp.s.Deref(d.Type)
	if err != nil || t.Kind != model.Object {
		return -1
	}
	for i, v := range union.Objects.Variants {
		if rp.variantModel[v].Object == t.Object {
			return i
		}
	}
	return -1
}

// checkMessageMethods refuses a protocol layer whose message unions (requests and notifications)
// hold two declarations with the same method: the method table describes a method by one message
// type, and a peer's message of that method would decode as either.
func (rp *resultsPass) checkMessageMethods() error {
	if rp.proto == nil {
		return nil
	}
	seen := map[string]*ir.Decl{}
	for _, name := range append(model.RequestUnions(), model.NotificationUnions()...) {
		for _, v := range rp.byDecl[name].Variants {
			td := rp.byName[v.Type.Name]
			if td == nil {
				continue
			}
			value, ok := rp.methodOf(td)
			if !ok {
				continue
			}
			if prev := seen[value]; prev != nil && prev != td {
				return rp.src(td).pos.Errorf("%s has the method %q of %s (%s), and both are variants of the message unions: "+
					"the method table describes a method by one message type; remove one of them from %s",
					rp.src(td).decl.Name, value, rp.src(prev).decl.Name, rp.src(prev).pos, name)
			}
			seen[value] = td
		}
	}
	return nil
}
