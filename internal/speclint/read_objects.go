package speclint

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/model"
)

// objects reads n as one of the object variants of d, the way model.Variant describes: the
// variants its discriminator selects (or, in a union of results holding InputRequiredResult, its
// resultType), then the first of those whose required members are present that n fits, most
// specific first. When none fits, the problems are those of the variant n comes closest to.
func (r *reader) objects(n *jnode, d *model.Decision) {
	if !r.expect(n, jObject) {
		return
	}
	candidates := r.candidates(n, d)
	if len(candidates) == 0 {
		return
	}
	order := specificity(n, candidates)
	var first []problem
	for i, v := range order {
		probs := r.try(func() { r.variant(n, v) })
		if len(probs) == 0 {
			return
		}
		if i == 0 {
			first = probs
		}
	}
	if len(candidates) > 1 {
		for i := range first {
			first[i].msg += fmt.Sprintf(" (read as %s, the variant it comes closest to)", variantName(order[0]))
		}
	}
	r.probs = append(r.probs, first...)
}

func (r *reader) variant(n *jnode, v *model.Variant) {
	before := len(r.probs)
	r.object(n, v.Object, variantName(v))
	if v.Type.Kind == model.Ref && len(r.probs) == before {
		r.samplingRules(n, v.Type.Ref)
	}
}

// variantName names a variant for messages: its declaration, or "an inline object".
func variantName(v *model.Variant) string {
	if v.Type.Kind == model.Ref {
		return v.Type.Ref
	}
	return "the inline object variant"
}

// candidates returns the variants that the discriminator of n selects, reporting n when it
// selects none.
func (r *reader) candidates(n *jnode, d *model.Decision) []*model.Variant {
	if d.Discriminator == "" {
		return r.byResultType(n, d.Variants)
	}
	f := n.get(d.Discriminator)
	if f == nil {
		out := slices.DeleteFunc(slices.Clone(d.Variants), func(v *model.Variant) bool { return !v.DiscriminatorOptional })
		if len(out) == 0 {
			r.report(n, "missing the member %q, which tells the variants apart", d.Discriminator)
		}
		return out
	}
	r.in(f.key)
	defer r.out()
	if !r.expect(f.val, jString) {
		return nil
	}
	var out []*model.Variant
	var known []string
	for _, v := range d.Variants {
		for _, val := range v.Values {
			known = append(known, val.Str)
			if val.Str == f.val.str {
				out = append(out, v)
			}
		}
	}
	if len(out) == 0 {
		slices.Sort(known)
		r.report(f.val, "%s is not the %s of any variant (%s)", describeNode(f.val), d.Discriminator, quoteAll(slices.Compact(known)))
	}
	return out
}

// byResultType returns the variants of a union of results that the resultType of n selects, as
// the spec's text says and the generated decoders read it: "input_required" is the
// InputRequiredResult, "complete" (or no resultType) another variant. In another union, or with
// another value, every variant is a candidate.
func (r *reader) byResultType(n *jnode, variants []*model.Variant) []*model.Variant {
	i := slices.IndexFunc(variants, isInputRequired)
	if i < 0 || len(variants) == 1 {
		return variants
	}
	value := "complete"
	if f := n.get(resultTypeMember); f != nil && f.val.kind == jString {
		value = f.val.str
	}
	switch value {
	case "input_required":
		return variants[i : i+1]
	case "complete":
		return slices.Delete(slices.Clone(variants), i, i+1)
	}
	return variants
}

// resultTypeMember is the member of a result that says which kind of result it is.
const resultTypeMember = "resultType"

// isInputRequired reports whether v is InputRequiredResult with a resultType member (the versions
// with multi round-trip requests).
func isInputRequired(v *model.Variant) bool {
	return v.Type.Kind == model.Ref && v.Type.Ref == model.InputRequiredResultDecl && v.Object.Member(resultTypeMember) != nil
}

// specificity orders the candidates as the generated decoders try them: those whose required
// members n has, more required members first, then more of their members present, then
// declaration order; then the others, most members present first.
func specificity(n *jnode, vs []*model.Variant) []*model.Variant {
	type ranked struct {
		v                 *model.Variant
		complete          bool
		required, present int
		index             int
	}
	rs := make([]ranked, len(vs))
	for i, v := range vs {
		rs[i] = ranked{v: v, complete: true, required: len(v.Required), index: i}
		for _, name := range v.Required {
			if n.get(name) == nil {
				rs[i].complete = false
			}
		}
		for _, name := range v.Known {
			if n.get(name) != nil {
				rs[i].present++
			}
		}
	}
	slices.SortStableFunc(rs, func(a, b ranked) int {
		if a.complete != b.complete {
			if a.complete {
				return -1
			}
			return 1
		}
		if a.complete {
			return cmp.Or(cmp.Compare(b.required, a.required), cmp.Compare(b.present, a.present), cmp.Compare(a.index, b.index))
		}
		return cmp.Or(cmp.Compare(b.present, a.present), cmp.Compare(a.index, b.index))
	})
	out := make([]*model.Variant, len(rs))
	for i, x := range rs {
		out[i] = x.v
	}
	return out
}

// joinNames writes names for a message: "a, b and c".
func joinNames(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
