// Package wire is the JSON runtime of the generated MCP types. It is copied
// into every generated package, so it imports only the standard library and
// its exported identifiers are few: the decoding error (DecodeError), the
// decoding limit (MaxDecodeDepth), the validation error (ValidationError,
// Problem) and the Unmarshal, UnmarshalNoCopy and Marshal helpers of
// wire_validate.go.
//
// The decoder is a hand-written scanner over a byte slice. A top-level decode
// (UnmarshalJSON, UnmarshalX, DecodeClientMessage...) copies its input once,
// and the decoded value's strings and raw JSON values alias that copy: a
// string without escapes costs no allocation and no copy, and one with escapes
// is unescaped in place in the copy. UnmarshalNoCopy and the NoCopy message
// decoders skip the copy: the value aliases the caller's input, which is only
// read, and strings with escapes are unescaped into chunks that the value owns.
// Errors are built on the way out of a failed decode: the success path keeps
// no JSON pointer.
package wire

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// MaxDecodeDepth is the deepest nesting of objects and arrays that the decoders of this package
// accept: 10,000 by default, the limit of encoding/json. Deeper input is an error. A program that
// needs more sets it once, before it decodes anything (it is read when a decode starts); the
// decoders recurse once per level, so each level costs some goroutine stack.
var MaxDecodeDepth = 10000

// A DecodeError is an error of decoding: the JSON pointer of the value at
// fault, what is wrong with it, and whether the input is not JSON at all.
//
// Its size is bounded whatever the input: a pointer of more than 32 segments
// keeps its first and last 16 with a segment "…" standing for those between,
// a member name longer than 64 bytes is cut with "…", and messages quote at
// most 64 bytes of a value.
type DecodeError struct {
	// Pointer is the RFC 6901 JSON pointer of the value at fault ("" for
	// the whole input), shortened as said above.
	Pointer string
	// Message says what is wrong.
	Message string
	// Syntax is set when the input is not valid JSON (for a JSON-RPC
	// receiver, a parse error); otherwise it is JSON of the wrong shape.
	Syntax bool

	// segs are the segments of the pointer, innermost first, as the decode
	// unwinds; see push. Pointer is built from them when the error leaves a
	// top-level decode (finish).
	segs  []segment
	nsegs int
}

// A segment is one step of a JSON pointer: a member name, or an array index
// when index >= 0.
type segment struct {
	name  string
	index int
}

const (
	// keptSegments is the number of innermost, and of outermost, segments an error keeps.
	keptSegments = 16
	// maxSegmentName is the longest member name a segment keeps whole, in bytes.
	maxSegmentName = 64
)

func (e *DecodeError) Error() string {
	p := e.Pointer
	if e.nsegs > 0 {
		p = e.pointer()
	}
	if p == "" {
		return "(root): " + e.Message
	}
	return p + ": " + e.Message
}

// push adds the segment of the value that holds the current innermost one.
// It keeps the first keptSegments segments pushed (the innermost) and the
// last keptSegments (the outermost so far), so that an error of any depth
// has a bounded size and costs a bounded amount of work per level.
func (e *DecodeError) push(s segment) {
	if len(e.segs) < 2*keptSegments {
		e.segs = append(e.segs, s)
	} else {
		e.segs[keptSegments+(e.nsegs-keptSegments)%keptSegments] = s
	}
	e.nsegs++
}

// pointer writes the segments as a JSON pointer, outermost first.
func (e *DecodeError) pointer() string {
	var b strings.Builder
	write := func(s segment) {
		b.WriteByte('/')
		if s.index >= 0 {
			b.WriteString(strconv.Itoa(s.index))
			return
		}
		b.WriteString(escapePointer(s.name))
	}
	if e.nsegs <= 2*keptSegments {
		for i := len(e.segs) - 1; i >= 0; i-- {
			write(e.segs[i])
		}
		return b.String()
	}
	// The ring of outer segments, from the last pushed (the outermost) back.
	last := keptSegments + (e.nsegs-1-keptSegments)%keptSegments
	for k := range keptSegments {
		i := last - k
		if i < keptSegments {
			i += keptSegments
		}
		write(e.segs[i])
	}
	b.WriteString("/…")
	for i := keptSegments - 1; i >= 0; i-- {
		write(e.segs[i])
	}
	return b.String()
}

// escapePointer escapes a member name for a JSON pointer (RFC 6901): ~ as ~0, / as ~1.
func escapePointer(name string) string {
	if !strings.ContainsAny(name, "~/") {
		return name
	}
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(name)
}

// shorten returns b as valid UTF-8 of at most max bytes, cut with "…" when longer.
func shorten(b []byte, max int) string {
	if len(b) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(b[cut]) {
			cut--
		}
		return strings.ToValidUTF8(string(b[:cut]), "\uFFFD") + "…"
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

// inMember adds the segment of member name to a decoding error of its value; other errors are
// returned as they are.
func inMember(err error, name []byte) error {
	if de, ok := err.(*DecodeError); ok {
		de.push(segment{name: shorten(name, maxSegmentName), index: -1})
	}
	return err
}

// inElem adds the segment of array element i to a decoding error of its value.
func inElem(err error, i int) error {
	if de, ok := err.(*DecodeError); ok {
		de.push(segment{index: i})
	}
	return err
}

// finish makes an error ready for the caller of a top-level decode: its pointer written, and
// whether the input is JSON at all (read again, on the error path only).
func (d *decoder) fail(err error) error {
	if de, ok := err.(*DecodeError); ok {
		if de.nsegs > 0 {
			de.Pointer = de.pointer()
			de.segs, de.nsegs = nil, 0
		}
		de.Syntax = !json.Valid(d.original())
	}
	return err
}

// decoder reads JSON from data.
type decoder struct {
	data     []byte
	pos      int
	depth    int
	maxDepth int
	// own is set when the decoded value may keep data: a copy of the input
	// (topDecoder) or the input itself, handed over by the caller
	// (noCopyDecoder). Strings and raw values then alias it. Otherwise they
	// are copied.
	own bool
	// input is the caller's input of which data is a copy, when there is one.
	// A string value with escapes is unescaped in place in data; dirty is the
	// end of the part of data that may differ from input, and restore copies
	// input over what a failed decode changed.
	input []byte
	dirty int
	// text holds unescaped strings; the decoded value owns it. When it is
	// full, a new chunk replaces it (the strings in the old one keep it).
	text []byte
	// The slabs of the pointers to optional scalars of the decoded value (alloc).
	strs   []string
	bools  []bool
	ints   []int64
	floats []float64
	// names are the member names of the objects being skipped, innermost
	// object last, for finding duplicates; namesBuf is their first storage.
	names    []string
	namesBuf [32]string
}

// decoderState is a checkpoint of a decoder, see save and restore.
type decoderState struct {
	pos, depth int
}

// newDecoder returns a decoder of data that copies what it keeps: for reading
// JSON that another value owns.
func newDecoder(data []byte) *decoder {
	d := &decoder{data: data, maxDepth: MaxDecodeDepth}
	d.names = d.namesBuf[:0]
	return d
}

// topDecoder returns a decoder for a top-level decode: it copies data once,
// and the decoded value's strings and raw values alias the copy.
func topDecoder(data []byte) *decoder {
	d := newDecoder(bytes.Clone(data))
	d.own, d.input = true, data
	return d
}

// noCopyDecoder returns a decoder for a top-level decode of input that the
// caller hands over: the decoded value's strings and raw values alias data
// itself, and strings with escapes are unescaped into chunks of their own
// (unescape), so that data is only read.
func noCopyDecoder(data []byte) *decoder {
	d := newDecoder(data)
	d.own = true
	return d
}

// original returns the input as the caller gave it, for reading it again
// after a failed decode.
func (d *decoder) original() []byte {
	if d.own && d.input != nil {
		return d.input
	}
	return d.data
}

// finish ends a top-level decode: it checks that only whitespace follows the
// value, and makes an error ready for the caller.
func (d *decoder) finish(err error) error {
	if err == nil {
		err = d.end()
	}
	if err != nil {
		return d.fail(err)
	}
	return nil
}

// decodable is a pointer to a generated type, which decodes itself.
type decodable interface {
	decode(d *decoder) error
}

// unmarshal decodes data into v, as a top-level decode.
func unmarshal(data []byte, v decodable) error {
	d := topDecoder(data)
	return d.finish(v.decode(d))
}

// errorf returns an error at the current value; the callers add the segments
// of the values around it.
func (d *decoder) errorf(format string, args ...any) error {
	return &DecodeError{Message: fmt.Sprintf(format, args...)}
}

// peek returns the next non-space byte without consuming it, or 0 at the
// end of input.
func (d *decoder) peek() byte {
	if d.pos < len(d.data) {
		if c := d.data[d.pos]; c > ' ' {
			return c
		}
	}
	for ; d.pos < len(d.data); d.pos++ {
		switch c := d.data[d.pos]; c {
		case ' ', '\t', '\n', '\r':
		default:
			return c
		}
	}
	return 0
}

// found describes the next value, for "expected X, found Y" errors.
func (d *decoder) found() string {
	switch c := d.peek(); {
	case d.pos == len(d.data):
		return "end of input"
	case c == '{':
		return "object"
	case c == '[':
		return "array"
	case c == '"':
		return "string"
	case c == 't' || c == 'f':
		return "boolean"
	case c == 'n':
		return "null"
	case c == '-' || '0' <= c && c <= '9':
		return "number"
	default:
		return fmt.Sprintf("invalid character %q", c)
	}
}

func (d *decoder) save() decoderState {
	return decoderState{pos: d.pos, depth: d.depth}
}

func (d *decoder) restore(s decoderState) {
	d.pos, d.depth = s.pos, s.depth
	if d.dirty > s.pos { // strings of the failed decode were unescaped in place
		copy(d.data[s.pos:d.dirty], d.input[s.pos:d.dirty])
		d.dirty = s.pos
	}
}

// end checks that only whitespace remains.
func (d *decoder) end() error {
	if d.peek(); d.pos < len(d.data) {
		return d.errorf("unexpected %s after top-level value", d.found())
	}
	return nil
}

// null reports whether the next value is null, and if so consumes it.
func (d *decoder) null() (bool, error) {
	if d.peek() != 'n' {
		return false, nil
	}
	return true, d.literal("null")
}

func (d *decoder) bool() (bool, error) {
	switch d.peek() {
	case 't':
		err := d.literal("true")
		return err == nil, err
	case 'f':
		return false, d.literal("false")
	}
	return false, d.errorf("expected boolean, found %s", d.found())
}

// literal consumes word, which the next value must be.
func (d *decoder) literal(word string) error {
	if string(d.data[d.pos:min(len(d.data), d.pos+len(word))]) != word {
		return d.errorf("invalid literal, expected %s", word)
	}
	d.pos += len(word)
	return nil
}

// beginObject consumes the '{' of an object and enters it; member reads its
// members.
func (d *decoder) beginObject() error {
	return d.begin('{', "object")
}

// beginArray consumes the '[' of an array and enters it; elem reads its
// elements.
func (d *decoder) beginArray() error {
	return d.begin('[', "array")
}

func (d *decoder) begin(open byte, kind string) error {
	if d.peek() != open {
		return d.errorf("expected %s, found %s", kind, d.found())
	}
	if d.depth >= d.maxDepth {
		return d.errorf("nesting deeper than %d levels", d.maxDepth)
	}
	d.pos++
	d.depth++
	return nil
}

// member moves to the next member of the object entered by beginObject: it
// consumes the ',' before it, its name and the ':' after it, and returns the
// name; at the end of the object it consumes the '}' and returns ok false. i
// is the number of members read before, prev the name of the last one (for
// errors). The name aliases the input, or the decoder's unescaped text.
func (d *decoder) member(i int, prev []byte) (name []byte, ok bool, err error) {
	c := d.peek()
	if i > 0 {
		switch c {
		case ',':
			d.pos++
			if c = d.peek(); c != '"' {
				return nil, false, inMember(d.errorf("expected member name, found %s", d.found()), prev)
			}
		case '}':
			d.pos++
			d.depth--
			return nil, false, nil
		default:
			return nil, false, inMember(d.errorf("expected ',' or '}' after object member, found %s", d.found()), prev)
		}
	} else if c != '"' {
		if c == '}' {
			d.pos++
			d.depth--
			return nil, false, nil
		}
		return nil, false, d.errorf("expected member name, found %s", d.found())
	}
	start := d.pos + 1
	end, escaped, msg := d.scanString()
	if msg != "" {
		err = d.errorf("member name: %s", msg)
		if q := bytes.IndexByte(d.data[start:], '"'); q >= 0 {
			err = inMember(err, d.data[start:start+q])
		}
		return nil, false, err
	}
	d.pos = end
	name = d.data[start : end-1]
	if escaped {
		name = d.unescape(name)
	}
	if d.peek() != ':' {
		return nil, false, inMember(d.errorf("expected ':' after member name, found %s", d.found()), name)
	}
	d.pos++
	return name, true, nil
}

// elem moves to the next element of the array entered by beginArray: it
// consumes the ',' before it, or at the end of the array the ']' (ok false).
// i is the number of elements read before.
func (d *decoder) elem(i int) (ok bool, err error) {
	c := d.peek()
	if i > 0 {
		switch c {
		case ',':
			d.pos++
			return true, nil
		case ']':
			d.pos++
			d.depth--
			return false, nil
		}
		return false, inElem(d.errorf("expected ',' or ']' after array element, found %s", d.found()), i-1)
	}
	if c == ']' {
		d.pos++
		d.depth--
		return false, nil
	}
	return true, nil
}

// duplicate is the error of a member name that the object has already.
func (d *decoder) duplicate(name []byte) error {
	return inMember(d.errorf("duplicate member name"), name)
}

// memberError is the error of member name of a generated struct's decode, read with the error
// err: a duplicate when dup, the member's bit of the struct's set of members seen before, is not 0
// (the value of a duplicate is read before it is refused, so that a field's case only names its
// bit), else err in the member.
func (d *decoder) memberError(dup uint64, name []byte, err error) error {
	if dup != 0 {
		return d.duplicate(name)
	}
	return inMember(err, name)
}

// missingMember is the error of a generated struct's decode that has not seen every required
// member: required has the bit of each required field, seen those of the members read, and names
// are the fields' JSON names by bit. The first required member missing is named.
func (d *decoder) missingMember(seen, required uint64, names ...string) error {
	return d.errorf("missing required member %q", names[bits.TrailingZeros64(required&^seen)])
}

// object reads an object, calling member for each member. member must
// consume exactly the value, by calling one of the readers. A member name
// that comes twice is an error.
func (d *decoder) object(member func(name string) error) error {
	return d.objectBytes(func(name []byte) error { return member(d.key(name)) })
}

// objectBytes is object for readers that need no name strings.
func (d *decoder) objectBytes(member func(name []byte) error) error {
	if err := d.beginObject(); err != nil {
		return err
	}
	mark := len(d.names)
	defer func() { d.names = d.names[:mark] }()
	var set memberNames
	var name []byte
	for i := 0; ; i++ {
		var ok bool
		var err error
		if name, ok, err = d.member(i, name); !ok {
			return err
		}
		if d.seen(mark, &set, name) {
			return d.duplicate(name)
		}
		d.peek()
		start := d.pos
		if err := member(name); err != nil {
			return inMember(err, name)
		}
		if d.pos == start {
			return inMember(d.errorf("value not read"), name)
		}
	}
}

// array reads an array, calling elem for each element. elem must consume
// exactly the value.
func (d *decoder) array(elem func(i int) error) error {
	if err := d.beginArray(); err != nil {
		return err
	}
	for i := 0; ; i++ {
		ok, err := d.elem(i)
		if !ok {
			return err
		}
		d.peek()
		start := d.pos
		if err := elem(i); err != nil {
			return inElem(err, i)
		}
		if d.pos == start {
			return inElem(d.errorf("value not read"), i)
		}
	}
}

// memberNames is what seen knows of the member names of one object: a set of
// 64 bits, one per hash of a name, and past 16 names the names themselves.
type memberNames struct {
	bloom uint64
	set   map[string]struct{}
}

// seen reports whether name is among the names of the current object, which
// start at d.names[mark], and records it. An object's first names are kept in
// d.names and compared one by one, only when a name's bit of names.bloom (a
// hash of its length and last byte) is set already; past 16, they move to the
// set names.set, so that an object of any size is read in linear time. The
// names alias the input or the decoder's text, which outlive the object.
func (d *decoder) seen(mark int, names *memberNames, name []byte) bool {
	key := unsafeString(name)
	if names.set == nil {
		var bit uint64 = 1
		if len(name) > 0 {
			bit <<= (uint(len(name))*7 + uint(name[len(name)-1])) & 63
		}
		known := d.names[mark:]
		if names.bloom&bit != 0 {
			for _, n := range known {
				if n == key {
					return true
				}
			}
		}
		if len(known) < 16 {
			names.bloom |= bit
			d.names = append(d.names, key)
			return false
		}
		names.set = make(map[string]struct{}, 2*len(known))
		for _, n := range known {
			names.set[n] = struct{}{}
		}
	}
	if _, dup := names.set[key]; dup {
		return true
	}
	names.set[key] = struct{}{}
	return false
}

// key returns a member name as a string for a map of the decoded value.
func (d *decoder) key(name []byte) string {
	if d.own || len(name) == 0 {
		return unsafeString(name)
	}
	return string(name)
}

// unsafeString returns the bytes of b as a string, without a copy: b must
// never change after.
func unsafeString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

func (d *decoder) str() (string, error) {
	if d.peek() != '"' {
		return "", d.errorf("expected string, found %s", d.found())
	}
	if d.own && d.input != nil {
		return d.strInPlace()
	}
	start := d.pos + 1
	end, escaped, msg := d.scanString()
	if msg != "" {
		return "", d.errorf("%s", msg)
	}
	d.pos = end
	raw := d.data[start : end-1]
	switch {
	case escaped:
		return unsafeString(d.unescape(raw)), nil
	case d.own:
		return unsafeString(raw), nil
	}
	return string(raw), nil
}

// strInPlace is str for a decoder that owns a copy of its input: it checks
// the string and unescapes it in the same pass, in place (the unescaped
// string is shorter, and nothing reads these bytes again; restore puts them
// back after a failed decode).
func (d *decoder) strInPlace() (string, error) {
	data := d.data
	start := d.pos + 1
	i := start
	for { // up to the first escape, nothing moves
		i = stringStopAt(data, i)
		if i >= len(data) {
			return "", d.errorf("unexpected end of input in string")
		}
		c := data[i]
		if c == '"' {
			d.pos = i + 1
			return unsafeString(data[start:i]), nil
		}
		if c == '\\' {
			break
		}
		if c < 0x20 {
			return "", d.errorf("control character in string")
		}
		n := utf8Len(data[i:])
		if n == 0 {
			return "", d.errorf("invalid UTF-8 in string")
		}
		i += n
	}
	// From the first escape on, data[start:w] is the string unescaped so far
	// and data[i] the next byte to read, one at which stringStopAt stopped.
	w := i
	for {
		d.dirty = max(d.dirty, i)
		switch c := data[i]; {
		case c == '"':
			d.pos = i + 1
			return unsafeString(data[start:w]), nil
		case c == '\\':
			n, msg := escapeLen(data[i:])
			if msg != "" {
				return "", d.errorf("%s", msg)
			}
			b, _ := appendEscape(data[w:w], data[i:])
			w += len(b)
			i += n
		case c < 0x20:
			return "", d.errorf("control character in string")
		default:
			n := utf8Len(data[i:])
			if n == 0 {
				return "", d.errorf("invalid UTF-8 in string")
			}
			w += copy(data[w:], data[i:i+n])
			i += n
		}
		j := stringStopAt(data, i)
		if j >= len(data) {
			return "", d.errorf("unexpected end of input in string")
		}
		w += copy(data[w:], data[i:j])
		i = j
	}
}

// Bit masks over the 8 bytes of a word, for handling strings 8 bytes at a time (safe8,
// stringStopAt).
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// stringStop marks (1) the bytes at which scanString stops: '"', '\\',
// control characters and the bytes of non-ASCII runes.
const stringStop = "\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01" +
	"\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01" +
	"\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01" +
	"\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01" +
	"\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01"

// scanString validates the string at d.pos, which starts with '"'. It
// returns the index just past the closing quote and whether the string
// has escapes, or an error message.
func (d *decoder) scanString() (end int, escaped bool, msg string) {
	data := d.data
	i := d.pos + 1
	for {
		i = stringStopAt(data, i)
		if i >= len(data) {
			return 0, false, "unexpected end of input in string"
		}
		switch c := data[i]; {
		case c == '"':
			return i + 1, escaped, ""
		case c == '\\':
			n, msg := escapeLen(data[i:])
			if msg != "" {
				return 0, false, msg
			}
			i, escaped = i+n, true
		case c < 0x20:
			return 0, false, "control character in string"
		default:
			n := utf8Len(data[i:])
			if n == 0 {
				return 0, false, "invalid UTF-8 in string"
			}
			i += n
		}
	}
}

// stringStopAt returns the index of the first byte at or after i at which
// scanString stops (see stringStop), or len(data). It reads 8 bytes at a
// time and leaves at the byte itself, so that a short string costs no second
// look at its bytes.
func stringStopAt(data []byte, i int) int {
	for ; i+8 <= len(data); i += 8 {
		w := binary.LittleEndian.Uint64(data[i:])
		q := w ^ (ones * '"')
		s := w ^ (ones * '\\')
		// A byte's high bit is set in stop when it is '"', '\\', below 0x20 or
		// non-ASCII; a borrow can set it in bytes above the first such byte too,
		// never below it, so the lowest set bit is exact.
		stop := ((q-ones)&^q | (s-ones)&^s | (w-ones*0x20)&^w | w) & highs
		if stop != 0 {
			return i + bits.TrailingZeros64(stop)/8
		}
	}
	for ; i < len(data); i++ {
		if stringStop[data[i]] != 0 {
			return i
		}
	}
	return i
}

// utf8Len returns the length of the valid UTF-8 sequence of a non-ASCII rune
// at the start of b, or 0 when there is none.
func utf8Len(b []byte) int {
	c := b[0]
	switch {
	case c >= 0xC2 && c <= 0xDF:
		if len(b) >= 2 && b[1]&0xC0 == 0x80 {
			return 2
		}
		return 0
	case c >= 0xE0 && c <= 0xEF:
		if len(b) >= 3 && b[1]&0xC0 == 0x80 && b[2]&0xC0 == 0x80 {
			if c == 0xE0 && b[1] < 0xA0 || c == 0xED && b[1] > 0x9F { // overlong, surrogate
				return 0
			}
			return 3
		}
		return 0
	}
	r, n := utf8.DecodeRune(b)
	if r == utf8.RuneError && n == 1 {
		return 0
	}
	return n
}

// escapeLen validates the escape sequence at the start of b and returns
// its length. A surrogate pair, \uD83D\uDE00, is one sequence.
func escapeLen(b []byte) (int, string) {
	if len(b) < 2 {
		return 0, "unexpected end of input in string"
	}
	switch b[1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2, ""
	case 'u':
		r, ok := hex4(b[2:])
		switch {
		case !ok:
			return 0, `invalid \u escape`
		case !utf16.IsSurrogate(r):
			return 6, ""
		}
		if r < 0xDC00 && len(b) >= 12 && string(b[6:8]) == `\u` {
			if r2, ok := hex4(b[8:]); ok && 0xDC00 <= r2 && r2 <= 0xDFFF {
				return 12, ""
			}
		}
		return 0, `lone surrogate in \u escape`
	}
	return 0, fmt.Sprintf("invalid escape %q", b[:2])
}

// hex4 decodes the four hex digits at the start of b.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// unescape returns the decoded contents of a string validated by scanString,
// in d.text: the value being decoded owns it.
func (d *decoder) unescape(raw []byte) []byte {
	if len(raw) > textChunk/8 {
		// A long string has a buffer of its own, of its size: in a chunk it
		// would leave much of the chunk before it unused, or much of its own.
		b := appendUnescaped(make([]byte, 0, len(raw)), raw)
		return b[:len(b):len(b)]
	}
	if cap(d.text)-len(d.text) < len(raw) {
		// A new chunk, never larger than the rest of the input.
		d.text = make([]byte, 0, min(textChunk, len(d.data)-d.pos+len(raw)))
	}
	start := len(d.text)
	d.text = appendUnescaped(d.text, raw)
	return d.text[start:len(d.text):len(d.text)]
}

// textChunk is the size of the chunks of unescaped strings (unescape).
const textChunk = 4096

// appendUnescaped appends the decoded contents of a string validated by
// scanString to b.
func appendUnescaped(b, raw []byte) []byte {
	for len(raw) > 0 {
		i := bytes.IndexByte(raw, '\\')
		if i < 0 {
			return append(b, raw...)
		}
		b = append(b, raw[:i]...)
		var n int
		b, n = appendEscape(b, raw[i:])
		raw = raw[i+n:]
	}
	return b
}

// appendEscape appends the character of the escape sequence, validated by
// escapeLen, at the start of esc to b, and returns the sequence's length. It
// reads the sequence before it writes, so b may share memory with esc, ending
// at or before its start.
func appendEscape(b, esc []byte) ([]byte, int) {
	switch c := esc[1]; c {
	case 'b', 'f', 'n', 'r', 't':
		return append(b, "\b\f\n\r\t"[strings.IndexByte("bfnrt", c)]), 2
	case 'u':
		r, _ := hex4(esc[2:])
		if utf16.IsSurrogate(r) {
			r2, _ := hex4(esc[8:])
			return utf8.AppendRune(b, utf16.DecodeRune(r, r2)), 12
		}
		return utf8.AppendRune(b, r), 6
	default: // '"', '\\' or '/'
		return append(b, c), 2
	}
}

// number consumes a number and returns its bytes.
func (d *decoder) number() ([]byte, error) {
	if c := d.peek(); c != '-' && (c < '0' || c > '9') {
		return nil, d.errorf("expected number, found %s", d.found())
	}
	data, i := d.data, d.pos
	digits := func() bool { // consumes digits, reports whether there were any
		start := i
		for i < len(data) && '0' <= data[i] && data[i] <= '9' {
			i++
		}
		return i > start
	}
	if data[i] == '-' {
		i++
	}
	ok := true
	if i < len(data) && data[i] == '0' {
		i++
	} else {
		ok = digits()
	}
	if ok && i < len(data) && data[i] == '.' {
		i++
		ok = digits()
	}
	if ok && i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		ok = digits()
	}
	if !ok {
		return nil, d.errorf("invalid number")
	}
	b := data[d.pos:i]
	d.pos = i
	return b, nil
}

// smallInt reads an integer of at most 18 digits, without fraction or
// exponent, which is the number at d.pos; ok is false for any other number
// (or none), which the caller reads the long way.
func (d *decoder) smallInt() (v int64, neg, ok bool) {
	data, i := d.data, d.pos
	neg = i < len(data) && data[i] == '-'
	if neg {
		i++
	}
	start := i
	for i < len(data) && i-start < 19 && data[i]-'0' <= 9 {
		v = v*10 + int64(data[i]-'0')
		i++
	}
	switch n := i - start; {
	case n == 0 || n == 19 || n > 1 && data[start] == '0':
		return 0, false, false
	case i < len(data) && (data[i] == '.' || data[i] == 'e' || data[i] == 'E' || data[i]-'0' <= 9):
		return 0, false, false
	}
	d.pos = i
	if neg {
		v = -v
	}
	return v, neg, true
}

func (d *decoder) float64() (float64, error) {
	if c := d.peek(); c == '-' || '0' <= c && c <= '9' {
		if s := d.save(); true {
			if v, neg, ok := d.smallInt(); ok {
				if -1<<53 <= v && v <= 1<<53 {
					if v == 0 && neg {
						return math.Copysign(0, -1), nil
					}
					return float64(v), nil
				}
				d.restore(s) // read the digits again, to round as ParseFloat does
			}
		}
	}
	b, err := d.number()
	if err != nil {
		return 0, err
	}
	f, err := strconv.ParseFloat(unsafeString(b), 64)
	if err != nil {
		return 0, d.errorf("number out of range")
	}
	return f, nil
}

// int64 reads a number with an integer value in the int64 range. The
// value is computed exactly from the digits: 3, 3.0 and 3e2 are integers.
func (d *decoder) int64() (int64, error) {
	if c := d.peek(); c == '-' || '0' <= c && c <= '9' {
		if v, _, ok := d.smallInt(); ok {
			return v, nil
		}
	}
	b, err := d.number()
	if err != nil {
		return 0, err
	}
	s, sign := unsafeString(b), ""
	if v, err := strconv.ParseInt(s, 10, 64); err == nil {
		return v, nil
	}
	// The number is sign digits × 10^scale, digits without leading or
	// trailing zeros.
	if s[0] == '-' {
		s, sign = s[1:], "-"
	}
	mantissa, exp := s, "0"
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mantissa, exp = s[:i], s[i+1:]
	}
	scale, err := strconv.Atoi(exp)
	if err != nil { // too large for int: beyond any number of digits
		scale = math.MaxInt32 * (1 - 2*strings.Count(exp, "-"))
	}
	scale = max(min(scale, math.MaxInt32), math.MinInt32)
	intPart, frac, _ := strings.Cut(mantissa, ".")
	digits := strings.TrimLeft(intPart+frac, "0")
	trimmed := strings.TrimRight(digits, "0")
	scale += len(digits) - len(trimmed) - len(frac)
	switch {
	case trimmed == "":
		return 0, nil
	case scale < 0:
		return 0, d.errorf("not an integer")
	case len(trimmed)+scale <= 19:
		v, err := strconv.ParseInt(sign+trimmed+strings.Repeat("0", scale), 10, 64)
		if err == nil {
			return v, nil
		}
	}
	return 0, d.errorf("integer out of range")
}

// skip consumes one value, validating it.
func (d *decoder) skip() error {
	switch c := d.peek(); {
	case c == '"':
		end, _, msg := d.scanString()
		if msg != "" {
			return d.errorf("%s", msg)
		}
		d.pos = end
		return nil
	case c == '{':
		return d.skipObject()
	case c == '[':
		if err := d.beginArray(); err != nil {
			return err
		}
		for i := 0; ; i++ {
			ok, err := d.elem(i)
			if !ok {
				return err
			}
			if err := d.skip(); err != nil {
				return inElem(err, i)
			}
		}
	case c == 't':
		return d.literal("true")
	case c == 'f':
		return d.literal("false")
	case c == 'n':
		return d.literal("null")
	case c == '-' || '0' <= c && c <= '9':
		_, err := d.number()
		return err
	}
	return d.errorf("expected value, found %s", d.found())
}

// skipObject consumes an object, validating it.
func (d *decoder) skipObject() error {
	if err := d.beginObject(); err != nil {
		return err
	}
	mark := len(d.names)
	var set memberNames
	var name []byte
	var err error
	for i := 0; ; i++ {
		var ok bool
		if name, ok, err = d.member(i, name); !ok {
			break
		}
		if d.seen(mark, &set, name) {
			err = d.duplicate(name)
			break
		}
		if err = d.skip(); err != nil {
			err = inMember(err, name)
			break
		}
	}
	clear(d.names[mark:])
	d.names = d.names[:mark]
	return err
}

// raw validates one value and returns its bytes: a slice of the input the
// decoded value owns, or a copy.
func (d *decoder) raw() (json.RawMessage, error) {
	d.peek()
	start := d.pos
	if err := d.skip(); err != nil {
		return nil, err
	}
	if d.own {
		return d.data[start:d.pos:d.pos], nil
	}
	return bytes.Clone(d.data[start:d.pos]), nil
}

// rawMap decodes a free-form object: its members as raw values.
func (d *decoder) rawMap() (map[string]json.RawMessage, error) {
	if err := d.beginObject(); err != nil {
		return nil, err
	}
	m := map[string]json.RawMessage{}
	var name []byte
	for i := 0; ; i++ {
		var ok bool
		var err error
		if name, ok, err = d.member(i, name); !ok {
			return m, err
		}
		if err = d.rawEntry(m, name); err != nil {
			return m, inMember(err, name)
		}
	}
}

// rawEntry decodes the value of member name into m, which must not have it yet.
//
// The map is looked up once per member, by the assignment: a name it had already leaves its
// length unchanged. (A lookup before the value, then the assignment, hashes every name twice:
// a third of the time of an object of a million members.) When the value is bad too, the
// duplicate is the error, as if it had been found first.
func (d *decoder) rawEntry(m map[string]json.RawMessage, name []byte) error {
	v, err := d.raw()
	if err != nil {
		if _, dup := m[unsafeString(name)]; dup {
			return d.errorf("duplicate member name")
		}
		m[d.key(name)] = v
		return err
	}
	n := len(m)
	if m[d.key(name)] = v; len(m) == n {
		return d.errorf("duplicate member name")
	}
	return nil
}

// members returns the set of member names of the object at the current
// position, without consuming it.
func (d *decoder) members() (map[string]bool, error) {
	names := make(map[string]bool)
	err := d.scanObject(func(name []byte) { names[string(name)] = true })
	if err != nil {
		return nil, err
	}
	return names, nil
}

// scanObject reads the object at the current position, without consuming it,
// calling member with the name of each member. It checks the object as skip
// does.
func (d *decoder) scanObject(member func(name []byte)) error {
	defer d.restore(d.save())
	return d.objectBytes(func(name []byte) error {
		member(name)
		return d.skip()
	})
}

// lookup returns the raw value of the member name of the object at the
// current position, without consuming the object. It reads the object up to
// that member only.
func (d *decoder) lookup(name string) (json.RawMessage, bool, error) {
	defer d.restore(d.save())
	if err := d.beginObject(); err != nil {
		return nil, false, err
	}
	var set memberNames
	mark := len(d.names)
	defer func() { d.names = d.names[:mark] }()
	var n []byte
	for i := 0; ; i++ {
		var ok bool
		var err error
		if n, ok, err = d.member(i, n); !ok {
			return nil, false, err
		}
		if d.seen(mark, &set, n) {
			return nil, false, d.duplicate(n)
		}
		if string(n) == name {
			v, err := d.raw()
			return v, true, inMember(err, n)
		}
		if err := d.skip(); err != nil {
			return nil, false, inMember(err, n)
		}
	}
}

// extraRaw decodes the value of member name into *m (the Extra of a struct, made on its first
// member), which must not have it yet.
func (d *decoder) extraRaw(m *map[string]json.RawMessage, name []byte) error {
	if *m == nil {
		*m = map[string]json.RawMessage{}
	}
	return d.rawEntry(*m, name)
}

// The readers of arrays and maps, given a reader of their elements: `read`, a function of the
// decoder, or the decode method of a generated type (P).

// decodeSlice reads an array, each element with read. An empty array is an empty slice, not nil.
func decodeSlice[T any](d *decoder, read func(*decoder) (T, error)) ([]T, error) {
	if err := d.beginArray(); err != nil {
		return nil, err
	}
	var a arrayOf[T]
	for i := 0; ; i++ {
		ok, err := d.elem(i)
		if !ok {
			return a.done(), err
		}
		v, err := read(d)
		*a.next() = v
		if err != nil {
			return a.done(), inElem(err, i)
		}
	}
}

// decodeSliceOf reads an array of a generated type, decoding each element in place.
func decodeSliceOf[T any, P interface {
	*T
	decodable
}](d *decoder) ([]T, error) {
	if err := d.beginArray(); err != nil {
		return nil, err
	}
	var a arrayOf[T]
	for i := 0; ; i++ {
		ok, err := d.elem(i)
		if !ok {
			return a.done(), err
		}
		if err := P(a.next()).decode(d); err != nil {
			return a.done(), inElem(err, i)
		}
	}
}

// arrayOf collects the elements of an array being decoded, for a slice of exactly their number.
// The first elements go into a slice with room for as many as fit in 128 bytes (at least one, at
// most 8): a short array costs one allocation. A longer one goes on in a scratch slice kept from
// one decode to the next, and is copied once into a slice of its length: growing it by append
// would leave garbage of about its size again, for the collector.
type arrayOf[T any] struct {
	s       []T
	scratch *[]T
}

// next returns a pointer to a new zero element at the end of the array.
func (a *arrayOf[T]) next() *T {
	switch {
	case a.s == nil:
		var zero T
		a.s = make([]T, 0, min(max(1, 128/max(1, int(unsafe.Sizeof(zero)))), 8))
	case len(a.s) == cap(a.s) && a.scratch == nil:
		a.scratch = scratchPool[T]().Get().(*[]T)
		a.s = append((*a.scratch)[:0], a.s...)
	}
	var zero T
	a.s = append(a.s, zero)
	return &a.s[len(a.s)-1]
}

// done returns the elements: an empty array is an empty slice, not nil.
func (a *arrayOf[T]) done() []T {
	if a.scratch == nil {
		if a.s == nil {
			return []T{}
		}
		return a.s
	}
	s := make([]T, len(a.s))
	copy(s, a.s)
	clear(a.s) // the scratch must not keep the elements' memory alive
	*a.scratch = a.s[:0]
	scratchPool[T]().Put(a.scratch)
	return s
}

// scratchPools holds, for each element type T (keyed by a nil *T), a sync.Pool of *[]T: the
// scratch slices of arrayOf.
var scratchPools sync.Map

func scratchPool[T any]() *sync.Pool {
	key := any((*T)(nil))
	if p, ok := scratchPools.Load(key); ok {
		return p.(*sync.Pool)
	}
	p, _ := scratchPools.LoadOrStore(key, &sync.Pool{New: func() any { return new([]T) }})
	return p.(*sync.Pool)
}

// decodeMap reads an object into a map, each value with read. A member name that comes twice is
// an error.
func decodeMap[V any](d *decoder, read func(*decoder) (V, error)) (map[string]V, error) {
	if err := d.beginObject(); err != nil {
		return nil, err
	}
	m := map[string]V{}
	var name []byte
	for i := 0; ; i++ {
		var ok bool
		var err error
		if name, ok, err = d.member(i, name); !ok {
			return m, err
		}
		if err := decodeEntry(d, &m, name, read); err != nil {
			return m, inMember(err, name)
		}
	}
}

// decodeMapOf reads an object into a map of a generated type.
func decodeMapOf[T any, P interface {
	*T
	decodable
}](d *decoder) (map[string]T, error) {
	return decodeMap(d, decodeInto[T, P])
}

// decodeInto reads a value of a generated type.
func decodeInto[T any, P interface {
	*T
	decodable
}](d *decoder) (T, error) {
	var v T
	err := P(&v).decode(d)
	return v, err
}

// decodeEntry decodes the value of member name into *m (made on its first member) with read; m
// must not have the member yet.
func decodeEntry[V any](d *decoder, m *map[string]V, name []byte, read func(*decoder) (V, error)) error {
	if *m == nil {
		*m = map[string]V{}
	}
	v, err := read(d)
	if err != nil { // as in rawEntry: a duplicate is the error, then the value's
		if _, dup := (*m)[unsafeString(name)]; dup {
			return d.errorf("duplicate member name")
		}
		(*m)[d.key(name)] = v
		return err
	}
	n := len(*m)
	if (*m)[d.key(name)] = v; len(*m) == n {
		return d.errorf("duplicate member name")
	}
	return nil
}

// alloc returns a pointer to a new zero value, the next of a slab: the values of a decode are
// allocated in chunks of up to 64, which the decoded value owns (a pointer kept keeps its chunk).
func alloc[T any](slab *[]T) *T {
	s := *slab
	if len(s) == cap(s) {
		s = make([]T, 0, min(max(4, 2*cap(s)), 64))
	}
	s = s[:len(s)+1]
	*slab = s
	return &s[len(s)-1]
}
