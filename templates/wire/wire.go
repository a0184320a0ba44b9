// Package wire is the JSON runtime of the generated MCP types. It is copied
// into every generated package, so it imports only the standard library and
// its exported identifiers are few: the validation error (ValidationError,
// Problem) and the Unmarshal and Marshal helpers of wire_validate.go.
package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// maxDepth is the deepest nesting of objects and arrays the decoder accepts.
const maxDepth = 10000

// A segment is one step of a JSON pointer: a member name, or an array
// index when index >= 0. A segment with index noSegment is not shown: it
// stands for an object or array whose first value is not reached yet.
type segment struct {
	name  []byte
	index int
}

const (
	memberSegment = -1
	noSegment     = -2
)

// A DecodeError is an error of decoding: the JSON pointer of the value at
// fault, what is wrong with it, and whether the input is not JSON at all.
type DecodeError struct {
	// Pointer is the RFC 6901 JSON pointer of the value at fault ("" for
	// the whole input).
	Pointer string
	// Message says what is wrong.
	Message string
	// Syntax is set when the input is not valid JSON (for a JSON-RPC
	// receiver, a parse error); otherwise it is JSON of the wrong shape.
	Syntax bool
}

func (e *DecodeError) Error() string {
	if e.Pointer == "" {
		return "(root): " + e.Message
	}
	return e.Pointer + ": " + e.Message
}

// pathError returns the error "<pointer>: <message>", where pointer is the
// RFC 6901 JSON pointer of path, or "(root)".
func pathError(path []segment, format string, args ...any) *DecodeError {
	var b strings.Builder
	for _, s := range path {
		switch {
		case s.index >= 0:
			fmt.Fprintf(&b, "/%d", s.index)
		case s.index == memberSegment:
			name := strings.ToValidUTF8(string(s.name), "\uFFFD")
			b.WriteString("/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(name))
		}
	}
	return &DecodeError{Pointer: b.String(), Message: fmt.Sprintf(format, args...)}
}

// fail finishes a decoding error for the caller of a top-level decode: it
// records whether the input is JSON at all. The check reads the input again,
// on the error path only.
func (d *decoder) fail(err error) error {
	if de, ok := err.(*DecodeError); ok {
		de.Syntax = !json.Valid(d.data)
	}
	return err
}

// decoder reads JSON from data; it tracks the JSON pointer of the value
// being read, for errors.
type decoder struct {
	data  []byte
	pos   int
	depth int
	path  []segment
	seen  [][]byte // member names of the open objects, innermost last
	buf   []byte   // scratch space for unescaping
}

// decoderState is a checkpoint of a decoder, see save and restore.
type decoderState struct {
	pos, depth, pathLen int
}

func newDecoder(data []byte) *decoder {
	return &decoder{data: data}
}

// errorf returns an error prefixed by the pointer of the current value.
func (d *decoder) errorf(format string, args ...any) error {
	return pathError(d.path, format, args...)
}

// peek returns the next non-space byte without consuming it, or 0 at the
// end of input.
func (d *decoder) peek() byte {
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
	return decoderState{pos: d.pos, depth: d.depth, pathLen: len(d.path)}
}

func (d *decoder) restore(s decoderState) {
	d.pos, d.depth, d.path = s.pos, s.depth, d.path[:s.pathLen]
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

// object reads an object, calling member for each member with the
// member's name pushed on the pointer path. member must consume exactly
// the value, by calling one of the readers.
func (d *decoder) object(member func(name string) error) error {
	return d.objectBytes(func(name []byte) error { return member(string(name)) })
}

// objectBytes is object for readers that need no name strings.
func (d *decoder) objectBytes(member func(name []byte) error) error {
	seen := len(d.seen)
	defer func() { d.seen = d.seen[:seen] }()
	var set map[string]bool // the names, once the object has many
	return d.container('{', '}', "object", "object member", func(int) error {
		name, err := d.name()
		if err != nil {
			return err
		}
		if d.duplicate(seen, &set, name) {
			return d.errorf("duplicate member name")
		}
		if d.peek() != ':' {
			return d.errorf("expected ':' after member name, found %s", d.found())
		}
		d.pos++
		return d.value(func() error { return member(name) })
	})
}

// array reads an array, calling elem for each element with its index
// pushed on the pointer path. elem must consume exactly the value.
func (d *decoder) array(elem func(i int) error) error {
	return d.container('[', ']', "array", "array element", func(i int) error {
		d.path[len(d.path)-1].index = i
		return d.value(func() error { return elem(i) })
	})
}

// container reads the items of an object or array, separated by commas,
// with a segment for them on the pointer path.
func (d *decoder) container(open, close byte, kind, itemKind string, item func(i int) error) error {
	if d.peek() != open {
		return d.errorf("expected %s, found %s", kind, d.found())
	}
	if d.depth == maxDepth {
		return d.errorf("nesting deeper than %d levels", maxDepth)
	}
	d.pos++
	d.depth++
	top := len(d.path)
	d.path = append(d.path, segment{index: noSegment})
	defer func() {
		d.path = d.path[:top]
		d.depth--
	}()
	if d.peek() == close {
		d.pos++
		return nil
	}
	for i := 0; ; i++ {
		if err := item(i); err != nil {
			return err
		}
		switch d.peek() {
		case ',':
			d.pos++
		case close:
			d.pos++
			return nil
		default:
			return d.errorf("expected ',' or '%c' after %s, found %s", close, itemKind, d.found())
		}
	}
}

// value calls read, which must consume one value.
func (d *decoder) value(read func() error) error {
	d.peek()
	start := d.pos
	if err := read(); err != nil {
		return err
	}
	if d.pos == start {
		return d.errorf("value not read")
	}
	return nil
}

// name reads a member name and puts it on the pointer path.
func (d *decoder) name() ([]byte, error) {
	top := &d.path[len(d.path)-1]
	if d.peek() != '"' {
		return nil, d.errorf("expected member name, found %s", d.found())
	}
	end, escaped, msg := d.scanString()
	if msg != "" {
		if q := bytes.IndexByte(d.data[d.pos+1:], '"'); q >= 0 {
			*top = segment{name: d.data[d.pos+1 : d.pos+1+q], index: memberSegment}
		}
		return nil, d.errorf("member name: %s", msg)
	}
	name := d.data[d.pos+1 : end-1]
	d.pos = end
	if escaped {
		name = unescape(nil, name)
	}
	*top = segment{name: name, index: memberSegment}
	return name, nil
}

// duplicate reports whether name was seen before in the current object,
// whose names start at d.seen[seen], and records it. Objects with many
// members move their names to the set *set, to stay linear.
func (d *decoder) duplicate(seen int, set *map[string]bool, name []byte) bool {
	if *set == nil {
		names := d.seen[seen:]
		if slices.ContainsFunc(names, func(n []byte) bool { return bytes.Equal(n, name) }) {
			return true
		}
		if len(names) < 16 {
			d.seen = append(d.seen, name)
			return false
		}
		*set = make(map[string]bool, 2*len(names))
		for _, n := range names {
			(*set)[string(n)] = true
		}
	}
	if (*set)[string(name)] {
		return true
	}
	(*set)[string(name)] = true
	return false
}

func (d *decoder) str() (string, error) {
	if d.peek() != '"' {
		return "", d.errorf("expected string, found %s", d.found())
	}
	end, escaped, msg := d.scanString()
	if msg != "" {
		return "", d.errorf("%s", msg)
	}
	raw := d.data[d.pos+1 : end-1]
	d.pos = end
	if escaped {
		d.buf = unescape(d.buf[:0], raw)
		return string(d.buf), nil
	}
	return string(raw), nil
}

// scanString validates the string at d.pos, which starts with '"'. It
// returns the index just past the closing quote and whether the string
// has escapes, or an error message.
func (d *decoder) scanString() (end int, escaped bool, msg string) {
	data := d.data
	for i := d.pos + 1; i < len(data); {
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
		case c < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size == 1 {
				return 0, false, "invalid UTF-8 in string"
			}
			i += size
		}
	}
	return 0, false, "unexpected end of input in string"
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
	r, err := strconv.ParseUint(string(b[:4]), 16, 32)
	return rune(r), err == nil
}

// unescape appends the decoded contents of a string validated by
// scanString to b.
func unescape(b, raw []byte) []byte {
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c != '\\' {
			b = append(b, c)
			continue
		}
		i++
		switch c = raw[i]; c {
		case 'b', 'f', 'n', 'r', 't':
			b = append(b, "\b\f\n\r\t"[strings.IndexByte("bfnrt", c)])
		case 'u':
			r, _ := hex4(raw[i+1:])
			i += 4
			if utf16.IsSurrogate(r) {
				r2, _ := hex4(raw[i+3:])
				r = utf16.DecodeRune(r, r2)
				i += 6
			}
			b = utf8.AppendRune(b, r)
		default: // '"', '\\' or '/'
			b = append(b, c)
		}
	}
	return b
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

func (d *decoder) float64() (float64, error) {
	b, err := d.number()
	if err != nil {
		return 0, err
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return 0, d.errorf("number out of range")
	}
	return f, nil
}

// int64 reads a number with an integer value in the int64 range. The
// value is computed exactly from the digits: 3, 3.0 and 3e2 are integers.
func (d *decoder) int64() (int64, error) {
	b, err := d.number()
	if err != nil {
		return 0, err
	}
	if v, err := strconv.ParseInt(string(b), 10, 64); err == nil {
		return v, nil
	}
	// The number is sign digits × 10^scale, digits without leading or
	// trailing zeros.
	s, sign := string(b), ""
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
	case c == '{':
		return d.objectBytes(func([]byte) error { return d.skip() })
	case c == '[':
		return d.array(func(int) error { return d.skip() })
	case c == '"':
		end, _, msg := d.scanString()
		if msg != "" {
			return d.errorf("%s", msg)
		}
		d.pos = end
		return nil
	case c == 't' || c == 'f':
		_, err := d.bool()
		return err
	case c == 'n':
		_, err := d.null()
		return err
	case c == '-' || '0' <= c && c <= '9':
		_, err := d.number()
		return err
	}
	return d.errorf("expected value, found %s", d.found())
}

// raw validates one value and returns a copy of its bytes.
func (d *decoder) raw() (json.RawMessage, error) {
	d.peek()
	start := d.pos
	if err := d.skip(); err != nil {
		return nil, err
	}
	return bytes.Clone(d.data[start:d.pos]), nil
}

// members returns the set of member names of the object at the current
// position, without consuming it.
func (d *decoder) members() (map[string]bool, error) {
	defer d.restore(d.save())
	names := make(map[string]bool)
	err := d.objectBytes(func(name []byte) error {
		names[string(name)] = true
		return d.skip()
	})
	if err != nil {
		return nil, err
	}
	return names, nil
}

// lookup returns the raw value of the member name of the object at the
// current position, without consuming the object.
func (d *decoder) lookup(name string) (json.RawMessage, bool, error) {
	defer d.restore(d.save())
	var value json.RawMessage
	err := d.objectBytes(func(n []byte) error {
		if string(n) != name {
			return d.skip()
		}
		var err error
		value, err = d.raw()
		return err
	})
	if err != nil {
		return nil, false, err
	}
	return value, value != nil, nil
}

// encoder appends JSON to buf. Errors are sticky: the first one is kept,
// and the caller returns err.
type encoder struct {
	buf   []byte
	err   error
	stack []encoderFrame // the open objects and arrays
}

// newEncoder returns an encoder with room for a typical message, so that encoding one seldom
// grows its buffers.
func newEncoder() encoder {
	return encoder{buf: make([]byte, 0, 512), stack: make([]encoderFrame, 0, 8)}
}

// An encoderFrame is an open object or array and its current member or
// element, like a segment: index is noSegment before the first one.
type encoderFrame struct {
	name  string
	index int
}

// errorf records an error prefixed by the current pointer, if none yet.
func (e *encoder) errorf(format string, args ...any) {
	if e.err != nil {
		return
	}
	path := make([]segment, len(e.stack))
	for i, f := range e.stack {
		path[i] = segment{name: []byte(f.name), index: f.index}
	}
	e.err = errors.New(pathError(path, format, args...).Error())
}

func (e *encoder) beginObject() { e.begin('{') }
func (e *encoder) endObject()   { e.end('}') }
func (e *encoder) beginArray()  { e.begin('[') }
func (e *encoder) endArray()    { e.end(']') }

func (e *encoder) begin(c byte) {
	e.buf = append(e.buf, c)
	e.stack = append(e.stack, encoderFrame{index: noSegment})
}

func (e *encoder) end(c byte) {
	e.buf = append(e.buf, c)
	e.stack = e.stack[:len(e.stack)-1]
}

// key writes a comma if needed, the quoted name and ':'.
func (e *encoder) key(name string) {
	top := &e.stack[len(e.stack)-1]
	if top.index != noSegment {
		e.buf = append(e.buf, ',')
	}
	*top = encoderFrame{name: name, index: memberSegment}
	e.str(name)
	e.buf = append(e.buf, ':')
}

// elem writes a comma if needed before an element.
func (e *encoder) elem() {
	top := &e.stack[len(e.stack)-1]
	if top.index != noSegment {
		e.buf = append(e.buf, ',')
	}
	top.index = max(top.index, -1) + 1
}

// str writes s quoted and escaped like encoding/json, which also escapes
// <, >, &, U+2028 and U+2029. Invalid UTF-8 is an error.
func (e *encoder) str(s string) {
	const hex = "0123456789abcdef"
	b := append(e.buf, '"')
	start := 0
	for i := 0; i < len(s); {
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

// raw writes r as is if it is valid JSON; an empty r writes null.
func (e *encoder) raw(r json.RawMessage) {
	if len(r) == 0 {
		e.null()
		return
	}
	d := decoder{data: r}
	err := d.skip()
	if err == nil {
		err = d.end()
	}
	if err != nil {
		e.errorf("invalid raw JSON: %v", err)
		e.null()
		return
	}
	e.buf = append(e.buf, r...)
}

// rawObject is raw for a value that must be a JSON object (an unknown variant of a union).
func (e *encoder) rawObject(r json.RawMessage) {
	if d := (decoder{data: r}); d.peek() != '{' {
		e.errorf("raw JSON of an unknown variant must be an object, found %s", d.found())
		e.null()
		return
	}
	e.raw(r)
}

// extra writes the members of m, sorted by name, into the current object. A name in known (the
// members the type defines) is an error: it would be written twice.
func (e *encoder) extra(m map[string]json.RawMessage, known ...string) {
	if len(m) == 0 || extraHoldsKnown(e, m, known) {
		return
	}
	for _, name := range slices.Sorted(maps.Keys(m)) {
		e.key(name)
		e.raw(m[name])
	}
}

// extraHoldsKnown reports whether m, the Extra of a struct, holds one of the known members (which
// would be written twice), and records that as an encoding error.
func extraHoldsKnown[V any](e *encoder, m map[string]V, known []string) bool {
	for _, name := range known {
		if _, ok := m[name]; ok {
			e.errorf("Extra holds %q, a member the type defines", name)
			return true
		}
	}
	return false
}
