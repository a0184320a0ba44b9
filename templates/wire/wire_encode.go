package wire

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"
)

// encoder appends JSON to buf. Errors are sticky: the first one is kept,
// and the caller returns err.
//
// The generated MarshalJSON and AppendJSON run an encode once, keeping no
// JSON pointer. When it fails, they run it again on the same encoder with
// trace set (retrace): encoding is deterministic, so the second run fails at
// the same value, and this time the encoder knows its pointer.
type encoder struct {
	buf []byte
	err error
	// untraced is the error of the first run of a retraced encode.
	untraced error
	// start is the length of buf before the value: what a retrace keeps.
	start int
	// scratch is the buffer of MarshalJSON, kept from one call to the next.
	scratch []byte
	// keys is scratch space for sorting the keys of maps.
	keys []string
	// trace is set on the second run of a failed encode: stack then tracks
	// the open objects and arrays.
	trace bool
	stack []segment
	// check validates raw JSON values.
	check decoder
	// raws counts the raw JSON values written as they are (raw), which encoding/json would
	// compact: encodeGenerated tells by it whether its output is encoding/json's.
	raws int
}

// maxPooledBuffer is the largest buffer an encoder keeps for the next MarshalJSON.
const maxPooledBuffer = 1 << 20

var encoders = sync.Pool{New: func() any { return new(encoder) }}

// newEncoder returns an encoder for MarshalJSON, with a buffer of an earlier
// call; marshaled returns its output and gives the encoder back.
func newEncoder() *encoder {
	e := encoders.Get().(*encoder)
	e.buf = e.scratch[:0]
	e.start = 0
	return e
}

// appendEncoder returns an encoder for AppendJSON, which appends to dst;
// appended returns the extended buffer and gives the encoder back.
func appendEncoder(dst []byte) *encoder {
	e := encoders.Get().(*encoder)
	e.buf = dst
	e.start = len(dst)
	return e
}

// retrace prepares a second run of an encode that failed, which finds the
// JSON pointer of the value at fault.
func (e *encoder) retrace() *encoder {
	e.buf = e.buf[:e.start]
	e.untraced, e.err = e.err, nil
	e.trace = true
	e.stack = e.stack[:0]
	return e
}

// marshaled returns a copy of the output (nil on error) and the error, and
// gives the encoder back to the pool.
func (e *encoder) marshaled() ([]byte, error) {
	var out []byte
	err := e.error()
	if err == nil {
		out = make([]byte, len(e.buf))
		copy(out, e.buf)
	}
	e.scratch = nil
	if cap(e.buf) <= maxPooledBuffer {
		e.scratch = e.buf[:0]
	}
	e.release()
	return out, err
}

// appended returns the extended buffer (the original one on error) and the
// error, and gives the encoder back to the pool.
func (e *encoder) appended() ([]byte, error) {
	out, err := e.buf, e.error()
	if err != nil {
		out = out[:e.start]
	}
	e.release()
	return out, err
}

// error returns the error of the encode.
func (e *encoder) error() error {
	if e.err == nil && e.untraced != nil { // the second run did not fail as the first did
		return e.untraced
	}
	return e.err
}

func (e *encoder) release() {
	e.buf, e.err, e.untraced, e.trace = nil, nil, nil, false
	clear(e.stack)
	e.stack = e.stack[:0]
	encoders.Put(e)
}

// An encodeError is an error of encoding: a value that has no JSON encoding.
type encodeError struct {
	pointer, message string
}

func (e *encodeError) Error() string {
	if e.pointer == "" {
		return "(root): " + e.message
	}
	return e.pointer + ": " + e.message
}

// errorf records an error prefixed by the current pointer (when tracing), if
// none yet.
func (e *encoder) errorf(format string, args ...any) {
	if e.err != nil {
		return
	}
	err := &encodeError{message: fmt.Sprintf(format, args...)}
	if e.trace {
		segs := slices.Clone(e.stack)
		slices.Reverse(segs) // innermost first, as a DecodeError holds them
		de := DecodeError{}
		for _, s := range segs {
			if s.index != noSegment {
				s.name = shorten([]byte(s.name), maxSegmentName)
				de.push(s)
			}
		}
		if de.nsegs > 0 {
			err.pointer = de.pointer()
		}
	}
	e.err = err
}

// noSegment is the index of a segment that is not part of a pointer: an object or array whose
// first value is not reached yet.
const noSegment = -2

func (e *encoder) beginObject() { e.begin('{') }
func (e *encoder) endObject()   { e.end('}') }
func (e *encoder) beginArray()  { e.begin('[') }
func (e *encoder) endArray()    { e.end(']') }

func (e *encoder) begin(c byte) {
	e.buf = append(e.buf, c)
	if e.trace {
		e.stack = append(e.stack, segment{index: noSegment})
	}
}

func (e *encoder) end(c byte) {
	e.buf = append(e.buf, c)
	if e.trace {
		e.stack = e.stack[:len(e.stack)-1]
	}
}

// member writes a comma if needed and the quoted name of a member with its
// ':', which the generated code writes as a constant: quoted is `"name":`,
// the name encoded as str encodes it.
func (e *encoder) member(quoted string) {
	if e.buf[len(e.buf)-1] != '{' {
		e.buf = append(e.buf, ',')
	}
	e.buf = append(e.buf, quoted...)
	if e.trace {
		var name string
		_ = json.Unmarshal([]byte(quoted[:len(quoted)-1]), &name)
		e.stack[len(e.stack)-1] = segment{name: name, index: -1}
	}
}

// key writes a comma if needed, the quoted name and ':'.
func (e *encoder) key(name string) {
	e.keyStart(name)
	e.str(name)
	e.buf = append(e.buf, ':')
}

// keyStart is the start of key, before the quoted name: a comma if needed, and the member's
// segment when tracing.
func (e *encoder) keyStart(name string) {
	if e.buf[len(e.buf)-1] != '{' {
		e.buf = append(e.buf, ',')
	}
	if e.trace {
		e.stack[len(e.stack)-1] = segment{name: name, index: -1}
	}
}

// elem writes a comma if needed before element i.
func (e *encoder) elem(i int) {
	if e.buf[len(e.buf)-1] != '[' {
		e.buf = append(e.buf, ',')
	}
	if e.trace {
		e.stack[len(e.stack)-1].index = i
	}
}

// unsafeBytes returns the bytes of s, without a copy: they must not be changed.
func unsafeBytes(s string) []byte {
	return unsafe.Slice(unsafe.StringData(s), len(s))
}

// safe8 reports whether the 8 bytes of w (a little-endian load of a string)
// are all printable ASCII that str writes as they are: not '"', '\\', '<',
// '>' or '&'.
func safe8(w uint64) bool {
	q := w ^ (ones * '"')
	s := w ^ (ones * '\\')
	lt := w ^ (ones * '<')
	gt := w ^ (ones * '>')
	amp := w ^ (ones * '&')
	special := (w - ones*0x20) | (q - ones) | (s - ones) | (lt - ones) | (gt - ones) | (amp - ones)
	return (special|w)&highs == 0
}

// str writes s quoted and escaped like encoding/json, which also escapes
// <, >, &, U+2028 and U+2029. Invalid UTF-8 is an error.
func (e *encoder) str(s string) {
	const hex = "0123456789abcdef"
	b := append(e.buf, '"')
	start := 0
	for i := 0; i < len(s); {
		for i+8 <= len(s) && safe8(binary.LittleEndian.Uint64(unsafeBytes(s[i:i+8]))) {
			i += 8
		}
		if i >= len(s) {
			break
		}
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				e.errorf("invalid UTF-8 in string")
			}
			if r != '\u2028' && r != '\u2029' {
				i += size
				continue
			}
			b = append(b, s[start:i]...)
			b = append(b, `\u202`...)
			b = append(b, hex[r&0xF])
			i += size
			start = i
			continue
		}
		if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
			i++
			continue
		}
		b = append(b, s[start:i]...)
		if j := strings.IndexByte("\"\\\b\f\n\r\t", c); j >= 0 {
			b = append(b, '\\', `"\bfnrt`[j])
		} else {
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
		}
		i++
		start = i
	}
	b = append(b, s[start:]...)
	e.buf = append(b, '"')
}

func (e *encoder) int64(v int64) {
	e.buf = strconv.AppendInt(e.buf, v, 10)
}

// float64 writes v like encoding/json: as an ES6 number, in exponent form
// below 1e-6 and from 1e21 on. NaN and infinities are errors.
func (e *encoder) float64(v float64) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		e.errorf("unsupported number %v", v)
		e.null()
		return
	}
	format := byte('f')
	if abs := math.Abs(v); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b := strconv.AppendFloat(e.buf, v, format, -1, 64)
	if n := len(b); format == 'e' && string(b[n-4:n-1]) == "e-0" {
		b[n-2] = b[n-1] // e-07 becomes e-7
		b = b[:n-1]
	}
	e.buf = b
}

func (e *encoder) bool(v bool) {
	e.buf = strconv.AppendBool(e.buf, v)
}

func (e *encoder) null() {
	e.buf = append(e.buf, "null"...)
}

// raw writes r as is if it is valid JSON (as the decoder reads it); an empty
// r writes null.
func (e *encoder) raw(r json.RawMessage) {
	if len(r) == 0 {
		e.null()
		return
	}
	if err := e.checkRaw(r); err != nil {
		e.errorf("invalid raw JSON: %v", err)
		e.null()
		return
	}
	e.buf = append(e.buf, r...)
	e.raws++
}

// checkRaw validates a raw value as the decoder would read it.
func (e *encoder) checkRaw(r []byte) error {
	switch string(r) { // the usual small values
	case "true", "false", "null", "{}", "[]", `""`:
		return nil
	}
	d := &e.check
	d.data, d.pos, d.depth, d.maxDepth = r, 0, 0, MaxDecodeDepth
	d.names = d.namesBuf[:0]
	err := d.skip()
	if err == nil {
		err = d.end()
	}
	d.data = nil
	return err
}

// rawObject is raw for a value that must be a JSON object (an unknown variant of a union).
func (e *encoder) rawObject(r json.RawMessage) {
	if first := strings.TrimLeft(string(r), " \t\r\n"); first == "" || first[0] != '{' {
		d := decoder{data: r}
		e.errorf("raw JSON of an unknown variant must be an object, found %s", d.found())
		e.null()
		return
	}
	e.raw(r)
}

// sortedKeys returns the keys of m in order, in the encoder's scratch space;
// the caller gives it back with releaseKeys(mark).
func sortedKeys[V any](e *encoder, m map[string]V) (keys []string, mark int) {
	mark = len(e.keys)
	for k := range m {
		e.keys = append(e.keys, k)
	}
	keys = e.keys[mark:]
	slices.Sort(keys)
	return keys, mark
}

// releaseKeys gives back the scratch space of sortedKeys.
func (e *encoder) releaseKeys(mark int) {
	clear(e.keys[mark:])
	e.keys = e.keys[:mark]
}

// extra writes the members of m, sorted by name, into the current object. A name in known (the
// members the type defines) is an error: it would be written twice. It inlines, so that an empty
// Extra, the usual one, costs its length check.
func (e *encoder) extra(m map[string]json.RawMessage, known ...string) {
	if len(m) > 0 {
		e.extraMembers(m, known)
	}
}

// extraMembers is extra for a map that is not empty.
func (e *encoder) extraMembers(m map[string]json.RawMessage, known []string) {
	if extraHoldsKnown(e, m, known) {
		return
	}
	keys, mark := sortedKeys(e, m)
	for _, name := range keys {
		e.key(name)
		e.raw(m[name])
	}
	e.releaseKeys(mark)
}

// extraHoldsAbsent reports whether m, the Extra of a struct, holds one of the members names that
// must not be present, and records that as an encoding error: such a member is never written.
func extraHoldsAbsent[V any](e *encoder, m map[string]V, names []string) bool {
	for _, name := range names {
		if _, ok := m[name]; ok {
			e.key(name)
			e.errorf("Extra holds %q, a member that must not be present", name)
			return true
		}
	}
	return false
}

// extraHoldsKnown reports whether m, the Extra of a struct, holds one of the known members (which
// would be written twice), and records that as an encoding error.
func extraHoldsKnown[V any](e *encoder, m map[string]V, known []string) bool {
	for _, name := range known {
		if _, ok := m[name]; ok {
			e.key(name)
			e.errorf("Extra holds %q, a member the type defines", name)
			return true
		}
	}
	return false
}

// rawMap writes a free-form object: the members of m, sorted by name.
func (e *encoder) rawMap(m map[string]json.RawMessage) {
	e.beginObject()
	keys, mark := sortedKeys(e, m)
	for _, name := range keys {
		e.key(name)
		e.raw(m[name])
	}
	e.releaseKeys(mark)
	e.endObject()
}

// marshalJSON is the MarshalJSON of a generated type: encode is the value's encode method. A
// method value rather than an interface: it does not escape, nor does the value it is bound to.
func marshalJSON(encode func(e *encoder)) ([]byte, error) {
	return encodeRetraced(newEncoder(), encode).marshaled()
}

// appendJSON is the AppendJSON of a generated type, marshalJSON appending to dst.
func appendJSON(dst []byte, encode func(e *encoder)) ([]byte, error) {
	return encodeRetraced(appendEncoder(dst), encode).appended()
}

// encodeRetraced runs encode with e and returns e. An encode that fails runs again with the
// encoder tracing the JSON pointer, for the error.
func encodeRetraced(e *encoder, encode func(e *encoder)) *encoder {
	encode(e)
	if e.err != nil {
		encode(e.retrace())
	}
	return e
}
