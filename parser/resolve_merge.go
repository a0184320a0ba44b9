package parser

// Declaration merging and inheritance: an interface declared again merges into the first
// declaration, extended and intersected members are merged, and a member that redeclares another
// must agree with it.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/model"
)

// mergeInterfaces merges the declarations of an interface declared several times into the first
// one, as TypeScript does: the members and `extends` of each in turn. The first declaration with
// a doc comment gives the doc. A member declared again with the same type and optionality is
// merged into the first (its doc comment used if the first has none); with another type or
// optionality it is an error naming both positions, as TypeScript's "subsequent property
// declarations must have the same type" (see typeKeys).
func mergeInterfaces(decls []Decl) ([]Decl, error) {
	keys := &typeKeys{aliases: map[string]*Alias{}, memo: map[string]string{}, active: map[string]bool{}}
	for _, d := range decls {
		if a, ok := d.(*Alias); ok {
			keys.aliases[a.Name] = a
		}
	}
	first := map[string]*Interface{}
	var out []Decl
	for _, d := range decls {
		i, ok := d.(*Interface)
		if !ok {
			out = append(out, d)
			continue
		}
		f := first[i.Name]
		if f == nil {
			c := *i
			first[i.Name] = &c
			out = append(out, &c)
			continue
		}
		f.Extends = append(f.Extends[:len(f.Extends):len(f.Extends)], i.Extends...)
		members := f.Members[:len(f.Members):len(f.Members)]
		for _, m := range i.Members {
			j := slices.IndexFunc(f.Members, func(p *Member) bool { return p.Name == m.Name })
			if j < 0 {
				members = append(members, m)
				continue
			}
			prev := f.Members[j]
			if prev.Optional != m.Optional {
				return nil, m.Pos.Errorf("found member %q of %s declared again with another optionality than at %s, expected the same "+
					"(all declarations of a property must have identical modifiers)", model.Shorten(m.Name), model.Shorten(i.Name), prev.Pos)
			}
			if prev.Doc.TJSType != m.Doc.TJSType || keys.key(prev.Type) != keys.key(m.Type) {
				return nil, m.Pos.Errorf("found member %q of %s declared again with another type than at %s, expected the same "+
					"(subsequent property declarations must have the same type)", model.Shorten(m.Name), model.Shorten(i.Name), prev.Pos)
			}
			if docEmpty(prev.Doc.Doc) && !docEmpty(m.Doc.Doc) {
				merged := *prev
				merged.Doc = m.Doc
				members[j] = &merged
			}
		}
		f.Members = members
		f.Unmapped = append(f.Unmapped[:len(f.Unmapped):len(f.Unmapped)], i.Unmapped...)
		if f.Generic == nil {
			f.Generic = i.Generic
		}
		if docEmpty(f.Doc.Doc) {
			f.Doc = i.Doc
		}
		if i.Index != nil {
			if f.Index != nil {
				// Reported by body as a second index signature.
				f.Unmapped = append(f.Unmapped, &Unmapped{Pos: i.Index.Pos, What: secondIndex})
			} else {
				f.Index = i.Index
			}
		}
	}
	return out, nil
}

// typeKeys gives type expressions a key: the text of the type without positions, aliases
// replaced by what they stand for and the parts of unions and intersections sorted. Two type
// expressions that TypeScript takes for the same type, as a redeclared member's must be, have
// the same key (object types are compared by name, not by their members). The key of each alias
// is computed once, so that aliases built on each other cost what they write.
type typeKeys struct {
	aliases map[string]*Alias
	memo    map[string]string // the key of each alias expanded so far
	active  map[string]bool   // the aliases being expanded: a cycle keeps the name
}

func (k *typeKeys) key(t Type) string {
	switch t := t.(type) {
	case *Keyword:
		return t.Name
	case *Literal:
		return fmt.Sprintf("lit(%d:%q:%q:%v)", t.Value.Kind, t.Value.Str, t.Value.Num, t.Value.Bool)
	case *TypeRef:
		if a := k.aliases[t.Name]; a != nil && a.Generic == nil && len(t.Args) == 0 && !k.active[t.Name] && len(k.active) < model.MaxDepth {
			if key, ok := k.memo[t.Name]; ok {
				return key
			}
			k.active[t.Name] = true
			key := k.key(a.Type)
			delete(k.active, t.Name)
			k.memo[t.Name] = key
			return key
		}
		if t.Name == "Array" && len(t.Args) == 1 && k.aliases[t.Name] == nil {
			return "(" + k.key(t.Args[0]) + ")[]" // Array<T> is T[]
		}
		var args []string
		for _, a := range t.Args {
			args = append(args, k.key(a))
		}
		if len(args) == 0 {
			return t.Name
		}
		return t.Name + "<" + strings.Join(args, ",") + ">"
	case *Typeof:
		return "typeof " + t.Name
	case *ArrayOf:
		return "(" + k.key(t.Elem) + ")[]"
	case *Union:
		return "(" + k.set(t.Types, "|") + ")"
	case *Intersection:
		return "(" + k.set(t.Types, "&") + ")"
	case *ObjectLit:
		var members []string
		for _, m := range t.Members {
			opt := ""
			if m.Optional {
				opt = "?"
			}
			members = append(members, fmt.Sprintf("%q%s:%s:%s", m.Name, opt, m.Doc.TJSType, k.key(m.Type)))
		}
		slices.Sort(members)
		index := ""
		if t.Index != nil {
			index = ";[]:" + k.key(t.Index.Value)
		}
		return fmt.Sprintf("{%s%s;unmapped%d}", strings.Join(members, ";"), index, len(t.Unmapped))
	case *Unmapped:
		// The same construct: merged, then reported where the first declaration has it.
		return fmt.Sprintf("unmapped(%q)", t.What)
	}
	return fmt.Sprintf("%T", t)
}

// set is the key of the parts of a union or intersection, in any order, each once.
func (k *typeKeys) set(ts []Type, sep string) string {
	keys := make([]string, len(ts))
	for i, e := range ts {
		keys[i] = k.key(e)
	}
	slices.Sort(keys)
	return strings.Join(slices.Compact(keys), sep)
}

// secondIndex marks a second index signature of a merged interface.
const secondIndex = "\x00second index signature"

// checkOverrides fails when a member of the interface name (own) redeclares an inherited one
// (inherited) with a type that cannot be the inherited member's, as TypeScript refuses an
// interface that "incorrectly extends" another: a value of a JSON kind the inherited type does
// not admit (`name: number` over an inherited `name: string`, which a second declaration of an
// interface may try). Only the JSON kinds are compared: a narrower type of the same kinds (a
// literal over a string, a union of fewer kinds) is the refinement that derived declarations make.
func (r *resolver) checkOverrides(name string, inherited, own *model.ObjectType) error {
	index := memberIndexes(inherited)
	for _, m := range own.Members {
		i, ok := index[m.Name]
		if !ok || m.Absent || m.Type == r.never {
			continue
		}
		prev := inherited.Members[i]
		if prev.Absent || prev.Type == r.never {
			continue
		}
		want, got := r.jsonKinds(prev.Type, 0), r.jsonKinds(m.Type, 0)
		if want >= 0 && got >= 0 && got&^want != 0 {
			return m.Pos.Errorf("found member %q of %s of type %s, which the member it redeclares, at %s, of type %s, cannot hold, expected the same type or a narrower one",
				model.Shorten(m.Name), model.Shorten(name), kindsText(got), prev.Pos, kindsText(want))
		}
	}
	return nil
}

// The JSON kinds of a value, as bits.
const (
	kindString = 1 << iota
	kindNumber
	kindBoolean
	kindNull
	kindArray
	kindObject
	kindsAll = kindString | kindNumber | kindBoolean | kindNull | kindArray | kindObject
)

// jsonKinds returns the JSON kinds a value of t may have, or -1 when it does not know them (a
// reference not resolved yet, which resolving here could take for a cycle).
func (r *resolver) jsonKinds(t *model.Type, depth int) int {
	if depth > model.MaxDepth {
		return -1
	}
	switch t.Kind {
	case model.String:
		return kindString
	case model.Integer, model.Number:
		return kindNumber
	case model.Boolean:
		return kindBoolean
	case model.Null:
		return kindNull
	case model.Literal:
		switch t.Literal.Kind {
		case model.String:
			return kindString
		case model.Boolean:
			return kindBoolean
		}
		return kindNumber
	case model.Array:
		return kindArray
	case model.Map, model.Object:
		return kindObject
	case model.Ref:
		if dt, ok := r.types[t.Ref]; ok {
			return r.jsonKinds(dt, depth+1)
		}
		return -1
	case model.Union:
		k := 0
		for _, v := range t.Union.Variants {
			vk := r.jsonKinds(v, depth+1)
			if vk < 0 {
				return -1
			}
			k |= vk
		}
		return k
	}
	return kindsAll
}

// kindsText names the JSON kinds of a set: "string or number".
func kindsText(k int) string {
	var names []string
	for i, n := range []string{"string", "number", "boolean", "null", "array", "object"} {
		if k&(1<<i) != 0 {
			names = append(names, n)
		}
	}
	return strings.Join(names, " or ")
}

// merge adds the members of src to dst, as `extends` does: a member already in dst keeps its
// place and takes the declaration of src (and its doc, unless that is empty). A Rest of src
// replaces dst's.
func merge(dst, src *model.ObjectType) {
	index := memberIndexes(dst)
	for _, m := range src.Members {
		i, ok := index[m.Name]
		if !ok {
			index[m.Name] = len(dst.Members)
			dst.Members = append(dst.Members, m)
			continue
		}
		if docEmpty(m.Doc) {
			m.Doc = dst.Members[i].Doc
		}
		dst.Members[i] = m
	}
	if src.Rest != nil {
		dst.Rest = src.Rest
	}
}

// mergeIntersection adds the members of src, a later part of an intersection, to dst, like
// merge, except that a member is optional only if it is optional in every part that declares it.
func mergeIntersection(dst, src *model.ObjectType) {
	index := memberIndexes(dst)
	for _, m := range src.Members {
		if i, ok := index[m.Name]; ok && !dst.Members[i].Optional {
			m.Optional = false
		}
	}
	merge(dst, src)
}

// memberIndexes maps the member names of o to their indexes.
func memberIndexes(o *model.ObjectType) map[string]int {
	index := make(map[string]int, len(o.Members))
	for i, m := range o.Members {
		if _, dup := index[m.Name]; !dup {
			index[m.Name] = i
		}
	}
	return index
}

func docEmpty(d model.Doc) bool {
	return d.Text == "" && !d.Deprecated && !d.Internal && d.Category == "" && len(d.See) == 0 && len(d.Examples) == 0
}
