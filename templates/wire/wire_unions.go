package wire

import (
	"math/bits"
	"slices"
)

// The helpers of the decoders of unions: choosing a variant of a union of objects by its required
// members, reading a discriminator, and trying the alternatives of a JSON kind in order.

// objectVariant describes a variant of a union of objects, for decodeVariant.
type objectVariant[U any] struct {
	name     string   // the Go type
	required []string // the names of its required members
	known    []string // the names of all its members
	// alloc returns a new variant, as the union and as the value to decode into.
	alloc func() (U, decodable)

	// requiredSet and knownSet are required and known as sets of the table's names.
	requiredSet, knownSet memberSet
}

// A memberSet is a set of the member names of a variantTable, by their index in the table.
type memberSet [4]uint64

// maxTableNames is the number of member names a variantTable can hold.
const maxTableNames = 256

func (s *memberSet) add(i int)      { s[i/64] |= 1 << (i % 64) }
func (s *memberSet) has(i int) bool { return s[i/64]&(1<<(i%64)) != 0 }
func (s memberSet) and(t memberSet) (u memberSet) {
	for i := range s {
		u[i] = s[i] & t[i]
	}
	return u
}

// subsetOf reports whether every member of s is in t.
func (s memberSet) subsetOf(t memberSet) bool {
	for i := range s {
		if s[i]&^t[i] != 0 {
			return false
		}
	}
	return true
}

func (s memberSet) len() (n int) {
	for _, w := range s {
		n += bits.OnesCount64(w)
	}
	return n
}

// A variantTable is the variants of a union of objects, and the index of every member name that
// one of them defines.
type variantTable[U any] struct {
	variants []objectVariant[U]
	index    map[string]int
}

// newVariantTable indexes the member names of variants. The generator checks that they are at
// most maxTableNames.
func newVariantTable[U any](variants ...objectVariant[U]) *variantTable[U] {
	variants = slices.Clone(variants)
	t := &variantTable[U]{variants: variants, index: map[string]int{}}
	set := func(names []string) (s memberSet) {
		for _, name := range names {
			i, ok := t.index[name]
			if !ok {
				i = len(t.index)
				t.index[name] = i
			}
			s.add(i)
		}
		return s
	}
	for i := range variants {
		v := &variants[i]
		v.knownSet = set(v.known)
		v.requiredSet = set(v.required)
	}
	return t
}

// present reads the object at d, without consuming it, and returns the set of the table's names
// among its members. It checks the object as skip does.
func (t *variantTable[U]) present(d *decoder) (memberSet, error) {
	var present memberSet
	defer d.restore(d.save())
	if err := d.beginObject(); err != nil {
		return present, err
	}
	mark := len(d.names)
	defer func() { d.names = d.names[:mark] }()
	var set memberNames
	var name []byte
	for i := 0; ; i++ {
		var ok bool
		var err error
		if name, ok, err = d.member(i, name); !ok {
			return present, err
		}
		if d.seen(mark, &set, name) {
			return present, d.duplicate(name)
		}
		if i, ok := t.index[string(name)]; ok {
			present.add(i)
		}
		if err := d.skip(); err != nil {
			return present, inMember(err, name)
		}
	}
}

// decodeVariant decodes the object at d as one of the candidates (indexes into the table) of the
// union named union. The candidates whose required members are all present are tried in order
// of specificity: more required members first, then more of their members present in the
// object, then their order in candidates. The first that decodes wins. After a failure, a
// candidate is tried only if it defines every member present that a failed one defines; if none
// decodes, the error is the first one's.
//
// Choosing reads the object once before decoding it (present), a pass that reads each byte once
// and builds nothing; a failed candidate costs a decode of the object, at most once per
// candidate.
func decodeVariant[U any](d *decoder, union string, t *variantTable[U], candidates ...int) (U, error) {
	variants := t.variants
	if len(candidates) == 1 {
		u, v := variants[candidates[0]].alloc()
		return u, v.decode(d)
	}
	var zero U
	present, err := t.present(d)
	if err != nil {
		return zero, err
	}
	var fitsBuf, countBuf [16]int
	fits, counts := fitsBuf[:0], countBuf[:0] // the candidates that fit, most specific first, and their members present
	missing := ""
	for _, c := range candidates {
		v := &variants[c]
		if !v.requiredSet.subsetOf(present) {
			for _, name := range v.required {
				if !present.has(t.index[name]) {
					if missing != "" {
						missing += ", "
					}
					missing += v.name + " needs \"" + name + "\""
					break
				}
			}
			continue
		}
		n := v.knownSet.and(present).len()
		r := len(v.required)
		i := len(fits)
		for i > 0 && (r > len(variants[fits[i-1]].required) || r == len(variants[fits[i-1]].required) && n > counts[i-1]) {
			i--
		}
		fits = append(fits, 0)
		counts = append(counts, 0)
		copy(fits[i+1:], fits[i:])
		copy(counts[i+1:], counts[i:])
		fits[i], counts[i] = c, n
	}
	if len(fits) == 0 {
		return zero, d.errorf("no variant of %s fits: %s", union, missing)
	}
	var first error
	var failed memberSet // the members present that a failed candidate defines
	for _, c := range fits {
		v := &variants[c]
		if !failed.subsetOf(v.knownSet) {
			// v would take what failed to decode as unknown members, and hide the error.
			continue
		}
		s := d.save()
		u, dv := v.alloc()
		err := dv.decode(d)
		if err == nil {
			return u, nil
		}
		if first == nil {
			first = err
		}
		for i, w := range v.knownSet.and(present) {
			failed[i] |= w
		}
		d.restore(s)
	}
	return zero, first
}

// decodeVariantOrBase is decodeVariant for a union whose variant base takes any object: one
// without required members, which keeps the members it does not define (the base Result of a
// union of results). When no candidate decodes the object, base decodes it, and the members the
// candidates failed on are kept as its unknown members. It serves the results decoded without
// the method of the request they answer: their members are only a guess at their type, and a
// result of a method this version does not know (an elicitation result in a version without
// elicitation) may look like another method's. If base fails too, the error is the candidates'.
func decodeVariantOrBase[U any](d *decoder, union string, t *variantTable[U], base int, candidates ...int) (U, error) {
	s := d.save()
	u, err := decodeVariant(d, union, t, candidates...)
	if err == nil {
		return u, nil
	}
	d.restore(s)
	b, dv := t.variants[base].alloc()
	if dv.decode(d) != nil {
		d.restore(s)
		return u, err
	}
	return b, nil
}

// lookupTag returns the string value of the member name of the object at d, and whether the
// object has it. A value that is not a string is an error. The object is not consumed, and it is
// read up to that member only: when the discriminator comes first, as it does in nearly every
// message, choosing a variant costs the reading of one member.
func lookupTag(d *decoder, name string) (string, bool, error) {
	if tag, ok := firstTag(d, name); ok {
		return tag, true, nil
	}
	defer d.restore(d.save())
	if err := d.beginObject(); err != nil {
		return "", false, err
	}
	mark := len(d.names)
	defer func() { d.names = d.names[:mark] }()
	var set memberNames
	var n []byte
	for i := 0; ; i++ {
		var ok bool
		var err error
		if n, ok, err = d.member(i, n); !ok {
			return "", false, err
		}
		if d.seen(mark, &set, n) {
			return "", false, d.duplicate(n)
		}
		if string(n) == name {
			if d.peek() != '"' {
				return "", false, d.errorf("member %q must be a string, found %s", name, d.found())
			}
			tag, err := d.tag()
			return tag, err == nil, inMember(err, n)
		}
		if err := d.skip(); err != nil {
			return "", false, inMember(err, n)
		}
	}
}

// firstTag is lookupTag's short way, for an object whose first member is the discriminator with
// a string value: it returns the value and true, without consuming anything. Otherwise it returns
// false, and lookupTag reads the object as usual (and finds any error).
func firstTag(d *decoder, name string) (string, bool) {
	defer d.restore(d.save())
	if d.beginObject() != nil {
		return "", false
	}
	if n, ok, err := d.member(0, nil); !ok || err != nil || string(n) != name || d.peek() != '"' {
		return "", false
	}
	tag, err := d.tag()
	return tag, err == nil
}

// tag reads the string at d, a discriminator, without changing the input (str unescapes in
// place): the variant's decoder reads the member again.
func (d *decoder) tag() (string, error) {
	start := d.pos + 1
	end, escaped, msg := d.scanString()
	if msg != "" {
		return "", d.errorf("%s", msg)
	}
	d.pos = end
	raw := d.data[start : end-1]
	switch {
	case escaped:
		return string(appendUnescaped(nil, raw)), nil
	case d.own:
		return unsafeString(raw), nil
	}
	return string(raw), nil
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

// encodeVariant writes v, a pointer variant of the union named union. A nil pointer encodes
// nothing: it is an error, as a nil union value is.
func encodeVariant[P interface {
	comparable
	encode(*encoder)
}](e *encoder, v P, union string) {
	var nilPointer P
	if v == nilPointer {
		e.errorf("nil %s", union)
		return
	}
	v.encode(e)
}
