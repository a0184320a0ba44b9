package validation

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpgen/mcpgen/interop/internal/jsonvalue"
	"github.com/mcpgen/mcpgen/interop/internal/schemaref"
)

// The kinds of mutant. Each is made at every place of an example where the schema states the
// rule it breaks.
const (
	kindOriginal      = "original"      // the example itself
	kindRequired      = "required"      // a required member dropped
	kindConst         = "const"         // a const changed: a string to another string, a number to another number
	kindDiscriminator = "discriminator" // a union variant's const member set to another variant's value
	kindWrongKind     = "kind"          // a value replaced by one of a JSON kind its schema does not allow
	kindNull          = "null"          // a value replaced by null where the schema does not allow null
	kindEnum          = "enum"          // a string outside a closed enum
	kindMinimum       = "minimum"       // a number below its minimum (by 1 for integers, 0.5 otherwise)
	kindMaximum       = "maximum"       // a number above its maximum
	kindExclusiveMin  = "exclusiveMinimum"
	kindExclusiveMax  = "exclusiveMaximum"
	kindInteger       = "integer"  // a non-integer (n+0.5) where only an integer is allowed
	kindFormat        = "format"   // an invalid uri, uri-template or byte (base64) string
	kindMaxItems      = "maxItems" // an array grown one past maxItems (by repeating its last item)
	kindMinItems      = "minItems"
	kindMaxLength     = "maxLength"
	kindMinLength     = "minLength"

	// Variants that the schema accepts, made to find a decoder stricter than the schema.
	kindIntegralFloat = "integral-float" // an integer written n.0 (an integer in JSON Schema since draft 6)
	kindBigInteger    = "big-integer"    // 2^63, an integer beyond int64, where no maximum applies
)

// badFormat is the invalid value put in a string of each asserted format.
var badFormat = map[string]string{
	"uri":          "not a uri",
	"uri-template": "file:///{unclosed",
	"byte":         "not base64!",
}

// mutant is an example or a variant of it.
type mutant struct {
	kind string // one of the kind constants
	rule string // the schema location the change aims at ("#/$defs/TextContent/properties/type/const")
	at   string // the JSON pointer of the change in the instance ("" for the root)
	doc  any    // the whole instance, as jsonschema.UnmarshalJSON represents JSON
	data []byte // doc encoded
}

// JSON kinds, as a bit set.
const (
	kString = 1 << iota
	kInteger
	kFraction // a number that is not an integer
	kBoolean
	kObject
	kArray
	kNull
	kAny = 1<<iota - 1
)

var typeKinds = map[string]int{
	"string": kString, "integer": kInteger, "number": kInteger | kFraction, "boolean": kBoolean,
	"object": kObject, "array": kArray, "null": kNull,
}

// mutator makes the mutants of one example.
type mutator struct {
	r     *schemaref.Reference
	root  any
	out   []mutant
	seen  map[string]bool
	err   error
	kinds map[string]int // allowedKinds memo
}

// mutants returns the example inst of the definition at rootPtr of r, followed by its mutants, in a
// deterministic order, without duplicates.
func mutants(r *schemaref.Reference, rootPtr string, inst any) ([]mutant, error) {
	m := &mutator{r: r, root: inst, seen: map[string]bool{}, kinds: map[string]int{}}
	m.emit(kindOriginal, rootPtr, nil, inst, false)
	m.walk([]string{rootPtr}, nil, inst)
	return m.out, m.err
}

func (m *mutator) walk(ptrs []string, path []string, v any) {
	var nodes []string
	seen := map[string]bool{}
	for _, p := range ptrs {
		nodes = m.expand(p, v, nodes, seen)
	}
	if m.err != nil {
		return
	}
	m.valueMutants(ptrs, nodes, path, v)
	for _, n := range nodes {
		m.ruleMutants(n, path, v)
	}
	switch v := v.(type) {
	case map[string]any:
		for _, n := range nodes {
			m.discriminatorMutants(n, path, v)
		}
		for _, name := range slices.Sorted(maps.Keys(v)) {
			var child []string
			for _, n := range nodes {
				node := m.r.Node(n).(map[string]any)
				if props, ok := node["properties"].(map[string]any); ok && props[name] != nil {
					child = appendNew(child, n+"/properties/"+jsonvalue.EscapeToken(name))
				} else if _, ok := node["additionalProperties"].(map[string]any); ok {
					child = appendNew(child, n+"/additionalProperties")
				}
			}
			if len(child) > 0 {
				m.walk(child, append(slices.Clip(path), name), v[name])
			}
		}
	case []any:
		var child []string
		for _, n := range nodes {
			if _, ok := m.r.Node(n).(map[string]any)["items"].(map[string]any); ok {
				child = appendNew(child, n+"/items")
			}
		}
		if len(child) > 0 {
			for i, e := range v {
				m.walk(child, append(slices.Clip(path), strconv.Itoa(i)), e)
			}
		}
	}
}

// expand appends to nodes the schema objects that apply to v at ptr: ptr itself, what its $ref
// and allOf name, and the anyOf/oneOf branches that v matches (decided by the reference).
func (m *mutator) expand(ptr string, v any, nodes []string, seen map[string]bool) []string {
	node, ok := m.r.Node(ptr).(map[string]any)
	if !ok || seen[ptr] {
		return nodes
	}
	seen[ptr] = true
	nodes = append(nodes, ptr)
	if ref, ok := node["$ref"].(string); ok {
		nodes = m.expand(ref, v, nodes, seen)
	}
	if all, ok := node["allOf"].([]any); ok {
		for i := range all {
			nodes = m.expand(fmt.Sprintf("%s/allOf/%d", ptr, i), v, nodes, seen)
		}
	}
	for _, kw := range []string{"anyOf", "oneOf"} {
		branches, _ := node[kw].([]any)
		for i := range branches {
			b := fmt.Sprintf("%s/%s/%d", ptr, kw, i)
			if m.matches(b, v) {
				nodes = m.expand(b, v, nodes, seen)
			}
		}
	}
	return nodes
}

// valueMutants replaces the value at path by values of kinds its schemas (ptrs, as the parent
// names them; nodes, expanded) do not allow, or by numbers they do not allow.
func (m *mutator) valueMutants(ptrs, nodes []string, path []string, v any) {
	allowed := kAny
	for _, p := range ptrs {
		allowed &= m.allowedKinds(p)
	}
	rule := ptrs[0]
	if allowed != kAny {
		for _, c := range []struct {
			kind int
			v    any
		}{{kString, "wrong kind"}, {kBoolean, true}, {kInteger, json.Number("7")}, {kObject, map[string]any{}}, {kArray, []any{}}} {
			if allowed&c.kind == 0 {
				m.emit(kindWrongKind, rule, path, c.v, false)
				break
			}
		}
		if allowed&kNull == 0 {
			m.emit(kindNull, rule, path, nil, false)
		}
	}
	n, ok := v.(json.Number)
	if !ok {
		return
	}
	x, ok := new(big.Rat).SetString(n.String())
	if !ok {
		return
	}
	if allowed&kInteger == 0 || allowed&kFraction != 0 {
		return // not a place for integers only
	}
	m.emit(kindInteger, rule, path, number(new(big.Rat).Add(x, big.NewRat(1, 2))), false)
	if x.IsInt() {
		if !strings.ContainsAny(n.String(), ".eE") {
			m.emit(kindIntegralFloat, rule, path, json.Number(n.String()+".0"), false)
		}
		bounded := false
		for _, nd := range nodes {
			node := m.r.Node(nd).(map[string]any)
			bounded = bounded || node["maximum"] != nil || node["exclusiveMaximum"] != nil
		}
		if !bounded {
			m.emit(kindBigInteger, rule, path, json.Number("9223372036854775808"), false)
		}
	}
}

// ruleMutants breaks each rule that the schema object at ptr states about v.
func (m *mutator) ruleMutants(ptr string, path []string, v any) {
	node := m.r.Node(ptr).(map[string]any)
	integerOnly := m.allowedKinds(ptr)&kFraction == 0
	m.constMutants(node, ptr, path, v)
	switch v := v.(type) {
	case json.Number:
		m.boundMutants(node, ptr, path, integerOnly)
	case string:
		m.stringMutants(node, ptr, path, v)
	case []any:
		m.arrayMutants(node, ptr, path, v)
	case map[string]any:
		m.requiredMutants(node, ptr, path, v)
	}
}

// constMutants breaks the const and the enum of node, the schema object at ptr, with a
// value next to the const or to v.
func (m *mutator) constMutants(node map[string]any, ptr string, path []string, v any) {
	if c, ok := node["const"]; ok {
		switch c := c.(type) {
		case string:
			m.emit(kindConst, ptr+"/const", path, c+"-mutated", false)
		case json.Number:
			if x, ok := new(big.Rat).SetString(c.String()); ok {
				m.emit(kindConst, ptr+"/const", path, number(x.Add(x, big.NewRat(1, 1))), false)
			}
		}
	}
	if enum, ok := node["enum"].([]any); ok {
		if s, ok := v.(string); ok {
			bad := s + "-mutated"
			if !slices.Contains(enum, any(bad)) {
				m.emit(kindEnum, ptr+"/enum", path, bad, false)
			}
		}
	}
}

// boundMutants breaks each bound of node, the schema object at ptr about a number, with a
// number just past it: by one when integerOnly, else by a half.
func (m *mutator) boundMutants(node map[string]any, ptr string, path []string, integerOnly bool) {
	step := big.NewRat(1, 2)
	if integerOnly {
		step = big.NewRat(1, 1)
	}
	for _, b := range []struct {
		kw, kind string
		delta    *big.Rat
	}{
		{"minimum", kindMinimum, new(big.Rat).Neg(step)},
		{"maximum", kindMaximum, step},
		{"exclusiveMinimum", kindExclusiveMin, new(big.Rat)},
		{"exclusiveMaximum", kindExclusiveMax, new(big.Rat)},
	} {
		bound, ok := node[b.kw].(json.Number)
		if !ok {
			continue
		}
		if x, ok := new(big.Rat).SetString(bound.String()); ok {
			m.emit(b.kind, ptr+"/"+b.kw, path, number(x.Add(x, b.delta)), false)
		}
	}
}

// stringMutants breaks the format and the length bounds of node, the schema object at ptr,
// about the string s.
func (m *mutator) stringMutants(node map[string]any, ptr string, path []string, s string) {
	if f, ok := node["format"].(string); ok {
		if bad, ok := badFormat[f]; ok {
			m.emit(kindFormat, ptr+"/format", path, bad, false)
		}
	}
	runes := []rune(s)
	if max, ok := intKeyword(node, "maxLength"); ok && len(runes) <= max {
		m.emit(kindMaxLength, ptr+"/maxLength", path, s+strings.Repeat("x", max+1-len(runes)), false)
	}
	if min, ok := intKeyword(node, "minLength"); ok && min > 0 && len(runes) >= min {
		m.emit(kindMinLength, ptr+"/minLength", path, string(runes[:min-1]), false)
	}
}

// arrayMutants breaks the item-count bounds of node, the schema object at ptr, about the
// array a, by growing it with copies of its last item or cutting it short.
func (m *mutator) arrayMutants(node map[string]any, ptr string, path []string, a []any) {
	if max, ok := intKeyword(node, "maxItems"); ok && len(a) > 0 && len(a) <= max {
		grown := slices.Clone(a)
		for len(grown) <= max {
			grown = append(grown, a[len(a)-1])
		}
		m.emit(kindMaxItems, ptr+"/maxItems", path, grown, false)
	}
	if min, ok := intKeyword(node, "minItems"); ok && min > 0 && len(a) >= min {
		m.emit(kindMinItems, ptr+"/minItems", path, slices.Clone(a[:min-1]), false)
	}
}

// requiredMutants removes from obj each member that node, the schema object at ptr,
// requires; the rule broken is the member's property when node has one.
func (m *mutator) requiredMutants(node map[string]any, ptr string, path []string, obj map[string]any) {
	req, _ := node["required"].([]any)
	props, _ := node["properties"].(map[string]any)
	for _, r := range req {
		name, ok := r.(string)
		if _, present := obj[name]; !ok || !present {
			continue
		}
		rule := ptr + "/required"
		if props[name] != nil {
			rule = ptr + "/properties/" + jsonvalue.EscapeToken(name)
		}
		m.emit(kindRequired, rule, append(slices.Clip(path), name), nil, true)
	}
}

// discriminatorMutants: where the schema object at ptr is a union (anyOf/oneOf) and obj matches
// a branch that gives a member a const value, the member is set to the value another branch
// gives it.
func (m *mutator) discriminatorMutants(ptr string, path []string, obj map[string]any) {
	node := m.r.Node(ptr).(map[string]any)
	for _, kw := range []string{"anyOf", "oneOf"} {
		branches, _ := node[kw].([]any)
		var matched, others []string
		for i := range branches {
			b := fmt.Sprintf("%s/%s/%d", ptr, kw, i)
			if m.matches(b, obj) {
				matched = append(matched, b)
			} else {
				others = append(others, b)
			}
		}
		for _, b := range matched {
			mine := m.consts(b, map[string]bool{})
			for _, name := range slices.Sorted(maps.Keys(mine)) {
				if _, present := obj[name]; !present {
					continue
				}
				for _, o := range others {
					theirs, ok := m.consts(o, map[string]bool{})[name]
					if ok && fmt.Sprint(theirs) != fmt.Sprint(mine[name]) {
						m.emit(kindDiscriminator, o, append(slices.Clip(path), name), theirs, false)
					}
				}
			}
		}
	}
}

// consts returns the members to which the object schema at ptr (with its $ref and allOf) gives a
// const value.
func (m *mutator) consts(ptr string, seen map[string]bool) map[string]any {
	out := map[string]any{}
	node, ok := m.r.Node(ptr).(map[string]any)
	if !ok || seen[ptr] {
		return out
	}
	seen[ptr] = true
	if ref, ok := node["$ref"].(string); ok {
		maps.Copy(out, m.consts(ref, seen))
	}
	if all, ok := node["allOf"].([]any); ok {
		for i := range all {
			maps.Copy(out, m.consts(fmt.Sprintf("%s/allOf/%d", ptr, i), seen))
		}
	}
	props, _ := node["properties"].(map[string]any)
	for name, p := range props {
		p, _ := p.(map[string]any)
		if ref, ok := p["$ref"].(string); ok {
			p, _ = m.r.Node(ref).(map[string]any)
		}
		if c, ok := p["const"]; ok {
			out[name] = c
		}
	}
	return out
}

// allowedKinds returns the JSON kinds that the schema at ptr admits (kAny when it says nothing).
func (m *mutator) allowedKinds(ptr string) int {
	if k, ok := m.kinds[ptr]; ok {
		return k
	}
	m.kinds[ptr] = kAny // a cycle through $ref constrains nothing more
	k := kAny
	switch node := m.r.Node(ptr).(type) {
	case bool:
		if !node {
			k = 0
		}
	case map[string]any:
		switch t := node["type"].(type) {
		case string:
			k &= typeKinds[t]
		case []any:
			u := 0
			for _, t := range t {
				s, _ := t.(string)
				u |= typeKinds[s]
			}
			k &= u
		}
		if c, ok := node["const"]; ok {
			k &= kindOf(c)
		}
		if enum, ok := node["enum"].([]any); ok {
			u := 0
			for _, e := range enum {
				u |= kindOf(e)
			}
			k &= u
		}
		if ref, ok := node["$ref"].(string); ok {
			k &= m.allowedKinds(ref)
		}
		if all, ok := node["allOf"].([]any); ok {
			for i := range all {
				k &= m.allowedKinds(fmt.Sprintf("%s/allOf/%d", ptr, i))
			}
		}
		for _, kw := range []string{"anyOf", "oneOf"} {
			if branches, ok := node[kw].([]any); ok {
				u := 0
				for i := range branches {
					u |= m.allowedKinds(fmt.Sprintf("%s/%s/%d", ptr, kw, i))
				}
				k &= u
			}
		}
	}
	m.kinds[ptr] = k
	return k
}

func kindOf(v any) int {
	switch v := v.(type) {
	case string:
		return kString
	case json.Number:
		if x, ok := new(big.Rat).SetString(v.String()); ok && x.IsInt() {
			return kInteger
		}
		return kFraction
	case bool:
		return kBoolean
	case map[string]any:
		return kObject
	case []any:
		return kArray
	case nil:
		return kNull
	}
	return 0
}

// emit records the mutant that replaces the value at path by v (or deletes the member, when del
// is true), unless an identical document was already made.
func (m *mutator) emit(kind, rule string, path []string, v any, del bool) {
	doc := replace(m.root, path, v, del)
	data, err := json.Marshal(doc)
	if err != nil {
		m.fail(err)
		return
	}
	if m.seen[string(data)] {
		return
	}
	m.seen[string(data)] = true
	m.out = append(m.out, mutant{kind: kind, rule: rule, at: pointer(path), doc: doc, data: data})
}

// matches reports whether the reference accepts v under the schema at ptr.
func (m *mutator) matches(ptr string, v any) bool {
	err := m.r.Validate(ptr, v)
	var invalid *jsonschema.ValidationError
	if err != nil && !errors.As(err, &invalid) {
		m.fail(err)
	}
	return err == nil
}

func (m *mutator) fail(err error) {
	if m.err == nil {
		m.err = err
	}
}

// replace returns doc with the value at path replaced by v, or removed when del is true,
// copying only the objects and arrays on the path.
func replace(doc any, path []string, v any, del bool) any {
	if len(path) == 0 {
		return v
	}
	switch d := doc.(type) {
	case map[string]any:
		c := maps.Clone(d)
		if len(path) == 1 && del {
			delete(c, path[0])
		} else {
			c[path[0]] = replace(d[path[0]], path[1:], v, del)
		}
		return c
	case []any:
		i, err := strconv.Atoi(path[0])
		if err != nil || i < 0 || i >= len(d) {
			panic("replace: bad index " + path[0])
		}
		c := slices.Clone(d)
		c[i] = replace(d[i], path[1:], v, del)
		return c
	}
	panic("replace: path goes through a scalar")
}

// number writes x as a JSON number.
func number(x *big.Rat) json.Number {
	if x.IsInt() {
		return json.Number(x.RatString())
	}
	s := strings.TrimRight(x.FloatString(20), "0")
	return json.Number(s)
}

func intKeyword(node map[string]any, kw string) (int, bool) {
	n, ok := node[kw].(json.Number)
	if !ok {
		return 0, false
	}
	i, err := strconv.Atoi(n.String())
	return i, err == nil
}

func pointer(path []string) string {
	var b strings.Builder
	for _, p := range path {
		b.WriteByte('/')
		b.WriteString(jsonvalue.EscapeToken(p))
	}
	return b.String()
}

func appendNew(s []string, v string) []string {
	if slices.Contains(s, v) {
		return s
	}
	return append(s, v)
}
