package speclint

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/model"
	"github.com/mcpgen/mcpgen/templates/wire"
)

// The reader reads a JSON value as a type of schema.ts, as the generated decoders and Validate
// read it: the model after model.Protocol and model.Classify (the variant of a union by its
// discriminator, then by its required members), required members present, members closed as the
// TypeScript type is (a member the type does not declare is a problem, unless the type has an
// index signature), every JSDoc value rule (@minimum, @maximum, @format, @minItems, @maxItems,
// @minLength, @maxLength, @pattern), integers, and the sampling rules (sampling.go). Where the
// generated decoders accept what a receiver must tolerate (a result without resultType), the
// reader holds the value to what schema.ts asks of its sender.

// problem is one thing a value breaks.
type problem struct {
	off     int // of the value at fault
	pointer string
	msg     string
}

type reader struct {
	s     *model.Schema
	path  []string // the JSON pointer's steps, escaped
	probs []problem
	// budget bounds the values read, tried variants included, so that a schema of unions of
	// unions cannot make one example cost more than a bounded time.
	budget int
	// patterns caches the compiled @pattern rules; nil for one that RE2 cannot compile.
	patterns map[string]*regexp.Regexp
}

// readBudget is the number of values one example may cost to read.
const readBudget = 200_000

func newReader(s *model.Schema) *reader {
	return &reader{s: s, budget: readBudget, patterns: map[string]*regexp.Regexp{}}
}

func (r *reader) in(name string) {
	r.path = append(r.path, strings.NewReplacer("~", "~0", "/", "~1").Replace(name))
}
func (r *reader) at(i int) { r.path = append(r.path, strconv.Itoa(i)) }
func (r *reader) out()     { r.path = r.path[:len(r.path)-1] }

func (r *reader) pointer() string {
	if len(r.path) == 0 {
		return ""
	}
	return "/" + strings.Join(r.path, "/")
}

func (r *reader) report(n *jnode, format string, args ...any) {
	r.probs = append(r.probs, problem{off: n.off, pointer: r.pointer(), msg: fmt.Sprintf(format, args...)})
}

// try reads n with f and returns its problems, leaving those already found as they are.
func (r *reader) try(f func()) []problem {
	saved := r.probs
	r.probs = nil
	f()
	got := r.probs
	r.probs = saved
	return got
}

// expect reports n unless it has the kind k.
func (r *reader) expect(n *jnode, k jkind) bool {
	if n.kind == k {
		return true
	}
	r.report(n, "expected %s %s, found %s %s", article(string(k)), k, article(string(n.kind)), n.kind)
	return false
}

func article(word string) string {
	if word != "" && strings.ContainsRune("aeiouAEIOU", rune(word[0])) {
		return "an"
	}
	return "a"
}

// value reads n as t.
func (r *reader) value(n *jnode, t *model.Type) {
	if r.budget--; r.budget == 0 {
		r.report(n, "the example is too large to check (more than %d values read)", readBudget)
	}
	if r.budget <= 0 {
		return
	}
	switch t.Kind {
	case model.String:
		r.expect(n, jString)
	case model.Integer:
		if r.expect(n, jNumber) && !isInteger(n.str) {
			r.report(n, "%s is not an integer", n.str)
		}
	case model.Number:
		r.expect(n, jNumber)
	case model.Boolean:
		r.expect(n, jBool)
	case model.Null:
		r.expect(n, jNull)
	case model.Literal:
		r.literal(n, t.Literal)
	case model.Ref:
		r.ref(n, t)
	case model.Array:
		if r.expect(n, jArray) {
			r.elements(n, t.Elem)
		}
	case model.Map:
		if r.expect(n, jObject) {
			for _, f := range n.fields {
				r.in(f.key)
				r.value(f.val, t.Elem)
				r.out()
			}
		}
	case model.Object:
		r.object(n, t.Object, "the object type")
	case model.Union:
		r.union(n, t.Union)
	}
}

func (r *reader) elements(n *jnode, elem *model.Type) {
	for i, e := range n.elems {
		r.at(i)
		r.value(e, elem)
		r.out()
	}
}

func (r *reader) literal(n *jnode, want model.Value) {
	ok := false
	switch want.Kind {
	case model.String:
		ok = n.kind == jString && n.str == want.Str
	case model.Boolean:
		ok = n.kind == jBool && n.bool == want.Bool
	case model.Integer, model.Number:
		w, _ := want.Float()
		g, err := strconv.ParseFloat(n.str, 64)
		ok = n.kind == jNumber && err == nil && g == w
	}
	if !ok {
		r.report(n, "expected %s, found %s", want, describeNode(n))
	}
}

// describeNode writes a value for a message: a string or number as written, another kind by name.
func describeNode(n *jnode) string {
	switch n.kind {
	case jString:
		return strconv.Quote(model.Shorten(n.str))
	case jNumber:
		return model.Shorten(n.str)
	case jBool:
		return strconv.FormatBool(n.bool)
	}
	return article(string(n.kind)) + " " + string(n.kind)
}

// ref reads n as the declaration that t names, then applies the sampling rules where the
// declaration has them and n has no other problem.
func (r *reader) ref(n *jnode, t *model.Type) {
	d := r.s.Decl(t.Ref)
	resolved, err := r.s.Deref(t)
	if d == nil || err != nil {
		return // the front end refuses such a schema
	}
	before := len(r.probs)
	if resolved.Kind == model.Object {
		r.object(n, resolved.Object, d.Name)
	} else {
		r.value(n, resolved)
	}
	if len(r.probs) == before {
		r.samplingRules(n, d.Name)
	}
}

// object reads n as an object of type o, which messages call name.
func (r *reader) object(n *jnode, o *model.ObjectType, name string) {
	if !r.expect(n, jObject) {
		return
	}
	for _, f := range n.fields {
		r.in(f.key)
		m := o.Member(f.key)
		switch {
		case m == nil && o.Rest != nil:
			r.value(f.val, o.Rest)
		case m == nil:
			r.probs = append(r.probs, problem{off: f.off, pointer: r.pointer(),
				msg: fmt.Sprintf("%s declares no member %q (and no index signature)", name, model.Shorten(f.key))})
		case m.Absent:
			r.probs = append(r.probs, problem{off: f.off, pointer: r.pointer(), msg: fmt.Sprintf("must not be present in %s", name)})
		case f.val.kind == jNull && m.Nullable:
		default:
			r.rules(f.val, m.Constraints)
			r.value(f.val, m.Type)
		}
		r.out()
	}
	for _, m := range o.Members {
		if m.Optional || m.Absent || n.get(m.Name) != nil {
			continue
		}
		if m.Default != nil {
			r.report(n, "missing the required member %q of %s (a receiver takes it as %s, but schema.ts requires senders to write it)",
				m.Name, name, m.Default)
			continue
		}
		r.report(n, "missing the required member %q of %s", m.Name, name)
	}
}

// rules checks the JSDoc value rules of a member on its value, as JSON Schema does: each rule
// applies to the values of its JSON kind.
func (r *reader) rules(n *jnode, c model.Constraints) {
	if c.IsZero() {
		return
	}
	switch n.kind {
	case jNumber:
		x, err := strconv.ParseFloat(n.str, 64)
		if err != nil && !math.IsInf(x, 0) {
			return
		}
		if c.Minimum != nil && x < *c.Minimum {
			r.report(n, "%s is less than the minimum %v", n.str, *c.Minimum)
		}
		if c.Maximum != nil && x > *c.Maximum {
			r.report(n, "%s is greater than the maximum %v", n.str, *c.Maximum)
		}
	case jString:
		r.stringRules(n, c)
	case jArray:
		if c.MinItems != nil && len(n.elems) < *c.MinItems {
			r.report(n, "has %d items, fewer than the minimum %d", len(n.elems), *c.MinItems)
		}
		if c.MaxItems != nil && len(n.elems) > *c.MaxItems {
			r.report(n, "has %d items, more than the maximum %d", len(n.elems), *c.MaxItems)
		}
	}
}

func (r *reader) stringRules(n *jnode, c model.Constraints) {
	if c.Format != "" {
		if msg := wire.CheckFormat(n.str, c.Format); msg != "" {
			r.report(n, "%s is not a valid %s: %s", describeNode(n), c.Format, msg)
		}
	}
	length := utf8.RuneCountInString(n.str)
	if c.MinLength != nil && length < *c.MinLength {
		r.report(n, "has %d characters, fewer than the minimum %d", length, *c.MinLength)
	}
	if c.MaxLength != nil && length > *c.MaxLength {
		r.report(n, "has %d characters, more than the maximum %d", length, *c.MaxLength)
	}
	if c.Pattern != "" {
		re, seen := r.patterns[c.Pattern]
		if !seen {
			re, _ = regexp.Compile(c.Pattern) // nil: an ECMAScript pattern RE2 cannot read is not checked
			r.patterns[c.Pattern] = re
		}
		if re != nil && !re.MatchString(n.str) {
			r.report(n, "%s does not match the pattern %s", describeNode(n), c.Pattern)
		}
	}
}

// isInteger reports whether the number text s has an integer value (3, 3.0, 3e2, 300e-2).
func isInteger(s string) bool {
	s = strings.TrimPrefix(s, "-")
	mantissa, exp := s, 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mantissa = s[:i]
		e, err := strconv.Atoi(s[i+1:])
		if err != nil { // an exponent beyond int: an integer unless it divides a non-zero value
			return !strings.HasPrefix(s[i+1:], "-") || strings.Trim(mantissa, "0.") == ""
		}
		if e > 1<<40 {
			return true
		}
		exp = e
	}
	intPart, frac, _ := strings.Cut(mantissa, ".")
	digits := intPart + frac // the value is digits × 10^(exp - len(frac))
	trimmed := strings.TrimRight(digits, "0")
	if trimmed == "" || strings.Trim(trimmed, "0") == "" {
		return true // zero
	}
	return exp-len(frac)+len(digits)-len(trimmed) >= 0
}

// union reads n as one of the variants of u, by the decision of model.Classify.
func (r *reader) union(n *jnode, u *model.UnionType) {
	d := u.Decision
	if d == nil {
		return // no decision procedure: a Refused finding says so
	}
	switch d.Strategy {
	case model.EnumStrategy:
		if r.expect(n, jString) && !d.Open && !slices.Contains(d.Values, n.str) {
			r.report(n, "%s is not one of %s", describeNode(n), quoteAll(d.Values))
		}
	case model.ObjectStrategy:
		r.objects(n, d)
	case model.KindStrategy:
		r.kinds(n, d)
	case model.OneOrManyStrategy:
		if elem, err := r.s.Deref(d.Elem); n.kind == jArray && err == nil && elem.Kind != model.Array {
			r.elements(n, d.Elem)
			return
		}
		r.value(n, d.Elem)
	case model.NullableStrategy:
		if n.kind != jNull {
			r.value(n, d.Elem)
		}
	}
}

func quoteAll(values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = strconv.Quote(v)
	}
	return strings.Join(q, ", ")
}

// kinds reads n as the variant of its JSON kind.
func (r *reader) kinds(n *jnode, d *model.Decision) {
	var names []string
	for _, k := range d.Kinds {
		names = append(names, k.JSONKind)
		if k.JSONKind != string(n.kind) {
			continue
		}
		switch {
		case k.Objects != nil:
			r.objects(n, k.Objects)
		case k.Alternatives != nil:
			r.firstFit(n, k.Alternatives)
		default:
			r.value(n, k.Type)
		}
		return
	}
	r.report(n, "expected %s, found %s %s", strings.Join(names, " or "), article(string(n.kind)), n.kind)
}

// firstFit reads n as the first of the types that it fits, or reports the problems of the first.
func (r *reader) firstFit(n *jnode, types []*model.Type) {
	var first []problem
	for i, t := range types {
		probs := r.try(func() { r.value(n, t) })
		if len(probs) == 0 {
			return
		}
		if i == 0 {
			first = probs
		}
	}
	r.probs = append(r.probs, first...)
}
