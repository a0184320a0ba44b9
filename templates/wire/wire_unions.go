package wire

import "slices"

// The helpers of the decoders of unions: choosing a variant of a union of objects by its required
// members, reading a discriminator, and trying the alternatives of a JSON kind in order.

// objectVariant describes a variant of a union of objects, for decodeVariant.
type objectVariant[U any] struct {
	name     string   // the Go type
	required []string // the names of its required members
	known    []string // the names of all its members
	// alloc returns a new variant, as the union and as the value to decode into.
	alloc func() (U, decodable)
}

// decodable is a pointer to a generated type, which decodes itself.
type decodable interface {
	decode(d *decoder) error
}

// decodeVariant decodes the object at d as one of the candidates (indexes into variants) of the
// union named union. The candidates whose required members are all present are tried in order
// of specificity: more required members first, then more of their members present in the
// object, then their order in candidates. The first that decodes wins. After a failure, a
// candidate is tried only if it defines every member present that a failed one defines; if none
// decodes, the error is the first one's.
func decodeVariant[U any](d *decoder, union string, variants []objectVariant[U], candidates ...int) (U, error) {
	if len(candidates) == 1 {
		u, v := variants[candidates[0]].alloc()
		return u, v.decode(d)
	}
	var zero U
	members, err := d.members()
	if err != nil {
		return zero, err
	}
	var fits, present []int // the candidates that fit, most specific first, and their members present
	missing := ""
	for _, c := range candidates {
		v := &variants[c]
		if m := missingMember(members, v.required); m != "" {
			if missing != "" {
				missing += ", "
			}
			missing += v.name + " needs \"" + m + "\""
			continue
		}
		n := 0
		for _, name := range v.known {
			if members[name] {
				n++
			}
		}
		i := len(fits)
		for i > 0 && (len(v.required) > len(variants[fits[i-1]].required) ||
			len(v.required) == len(variants[fits[i-1]].required) && n > present[i-1]) {
			i--
		}
		fits = append(fits[:i], append([]int{c}, fits[i:]...)...)
		present = append(present[:i], append([]int{n}, present[i:]...)...)
	}
	if len(fits) == 0 {
		return zero, d.errorf("no variant of %s fits: %s", union, missing)
	}
	var first error
	var failed []int
	for _, c := range fits {
		if !knowsAll(&variants[c], variants, failed, members) {
			continue
		}
		s := d.save()
		u, v := variants[c].alloc()
		err := v.decode(d)
		if err == nil {
			return u, nil
		}
		if first == nil {
			first = err
		}
		failed = append(failed, c)
		d.restore(s)
	}
	return zero, first
}

// knowsAll reports whether v defines every member of the object (members) that one of the
// failed variants defines: only then may v be chosen after them. A variant that knows less
// would take what failed to decode as unknown members, and hide the error.
func knowsAll[U any](v *objectVariant[U], variants []objectVariant[U], failed []int, members map[string]bool) bool {
	for _, f := range failed {
		for _, name := range variants[f].known {
			if members[name] && !slices.Contains(v.known, name) {
				return false
			}
		}
	}
	return true
}

// missingMember returns the first of names that is not in members, or "".
func missingMember(members map[string]bool, names []string) string {
	for _, name := range names {
		if !members[name] {
			return name
		}
	}
	return ""
}

// lookupTag returns the string value of the member name of the object at d, and whether the
// object has it. A value that is not a string is an error. The object is not consumed.
func lookupTag(d *decoder, name string) (string, bool, error) {
	raw, ok, err := d.lookup(name)
	if err != nil || !ok {
		return "", false, err
	}
	tag := decoder{data: raw}
	if tag.peek() != '"' {
		return "", false, d.errorf("member %q must be a string, found %s", name, tag.found())
	}
	s, err := tag.str()
	return s, true, err
}

// decodeFirst decodes the value at d with the first of decoders that succeeds; if none does, the
// error is the first one's.
func decodeFirst[U any](d *decoder, decoders ...func(d *decoder) (U, error)) (U, error) {
	var first error
	for _, decode := range decoders {
		s := d.save()
		v, err := decode(d)
		if err == nil {
			return v, nil
		}
		if first == nil {
			first = err
		}
		d.restore(s)
	}
	var zero U
	return zero, first
}
