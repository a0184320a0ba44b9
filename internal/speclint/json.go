package speclint

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// A small JSON reader that keeps where each value starts, so that a finding in an example points
// at the value at fault. It is strict as the generated decoders are: RFC 8259 syntax, UTF-8,
// no duplicate member.

// jkind is the JSON kind of a value, named as messages name it.
type jkind string

const (
	jObject jkind = "object"
	jArray  jkind = "array"
	jString jkind = "string"
	jNumber jkind = "number"
	jBool   jkind = "boolean"
	jNull   jkind = "null"
)

// jnode is a JSON value.
type jnode struct {
	kind   jkind
	off    int      // of the value's first byte
	fields []jfield // an object's members, in order
	elems  []*jnode // an array's elements
	str    string   // a string's value, a number's text
	bool   bool
}

// jfield is a member of an object.
type jfield struct {
	key string
	off int // of the key's opening quote
	val *jnode
}

// get returns the member named key, or nil.
func (n *jnode) get(key string) *jfield {
	for i := range n.fields {
		if n.fields[i].key == key {
			return &n.fields[i]
		}
	}
	return nil
}

// jsonError is a syntax error at a byte offset.
type jsonError struct {
	off int
	msg string
}

func (e *jsonError) Error() string { return e.msg }

// maxJSONDepth bounds the nesting of an example.
const maxJSONDepth = 1000

// parseJSON reads one JSON document.
func parseJSON(data []byte) (*jnode, error) {
	p := &jparser{data: data}
	p.space()
	n, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i < len(data) {
		return nil, p.errorf("found %s after the value, expected the end of the document", p.found())
	}
	return n, nil
}

type jparser struct {
	data []byte
	i    int
}

func (p *jparser) errorf(format string, args ...any) error {
	return &jsonError{p.i, fmt.Sprintf(format, args...)}
}

// found describes the input at the current offset for a message.
func (p *jparser) found() string {
	if p.i >= len(p.data) {
		return "the end of the document"
	}
	r, _ := utf8.DecodeRune(p.data[p.i:])
	return strconv.QuoteRune(r)
}

func (p *jparser) space() {
	for p.i < len(p.data) {
		switch p.data[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *jparser) value(depth int) (*jnode, error) {
	if depth > maxJSONDepth {
		return nil, p.errorf("found values nested more than %d deep", maxJSONDepth)
	}
	n := &jnode{off: p.i}
	if p.i >= len(p.data) {
		return nil, p.errorf("found the end of the document, expected a value")
	}
	switch c := p.data[p.i]; {
	case c == '{':
		n.kind = jObject
		return n, p.object(n, depth)
	case c == '[':
		n.kind = jArray
		return n, p.array(n, depth)
	case c == '"':
		s, err := p.string()
		n.kind, n.str = jString, s
		return n, err
	case c == '-' || '0' <= c && c <= '9':
		s, err := p.number()
		n.kind, n.str = jNumber, s
		return n, err
	}
	for word, kind := range map[string]jkind{"true": jBool, "false": jBool, "null": jNull} {
		if p.i+len(word) <= len(p.data) && string(p.data[p.i:p.i+len(word)]) == word {
			p.i += len(word)
			n.kind, n.bool = kind, word == "true"
			return n, nil
		}
	}
	return nil, p.errorf("found %s, expected a value", p.found())
}

func (p *jparser) object(n *jnode, depth int) error {
	p.i++ // {
	p.space()
	if p.i < len(p.data) && p.data[p.i] == '}' {
		p.i++
		return nil
	}
	var seen map[string]bool
	for {
		p.space()
		off := p.i
		if p.i >= len(p.data) || p.data[p.i] != '"' {
			return p.errorf("found %s, expected a member name", p.found())
		}
		key, err := p.string()
		if err != nil {
			return err
		}
		if seen == nil {
			seen = map[string]bool{}
		}
		if seen[key] {
			return &jsonError{off, fmt.Sprintf("found the member %q twice", key)}
		}
		seen[key] = true
		p.space()
		if p.i >= len(p.data) || p.data[p.i] != ':' {
			return p.errorf("found %s, expected ':'", p.found())
		}
		p.i++
		p.space()
		val, err := p.value(depth + 1)
		if err != nil {
			return err
		}
		n.fields = append(n.fields, jfield{key: key, off: off, val: val})
		p.space()
		if done, err := p.next('}'); done || err != nil {
			return err
		}
	}
}

// next reads the ',' between two items or the closing delimiter, reporting which.
func (p *jparser) next(end byte) (bool, error) {
	if p.i < len(p.data) {
		switch p.data[p.i] {
		case ',':
			p.i++
			return false, nil
		case end:
			p.i++
			return true, nil
		}
	}
	return false, p.errorf("found %s, expected ',' or '%c'", p.found(), end)
}

func (p *jparser) array(n *jnode, depth int) error {
	p.i++ // [
	p.space()
	if p.i < len(p.data) && p.data[p.i] == ']' {
		p.i++
		return nil
	}
	for {
		p.space()
		val, err := p.value(depth + 1)
		if err != nil {
			return err
		}
		n.elems = append(n.elems, val)
		p.space()
		if done, err := p.next(']'); done || err != nil {
			return err
		}
	}
}

// string reads a string literal: its escapes, and its text, which must be UTF-8 without control
// characters.
func (p *jparser) string() (string, error) {
	start := p.i
	p.i++ // "
	var b strings.Builder
	for p.i < len(p.data) {
		c := p.data[p.i]
		switch {
		case c == '"':
			p.i++
			return b.String(), nil
		case c == '\\':
			if err := p.escape(&b); err != nil {
				return "", err
			}
		case c < 0x20:
			return "", p.errorf("found the control character %q in a string, expected it escaped", rune(c))
		case c < utf8.RuneSelf:
			b.WriteByte(c)
			p.i++
		default:
			r, size := utf8.DecodeRune(p.data[p.i:])
			if r == utf8.RuneError && size == 1 {
				return "", p.errorf("found the byte 0x%02x in a string, which is not UTF-8", c)
			}
			b.Write(p.data[p.i : p.i+size])
			p.i += size
		}
	}
	return "", &jsonError{start, "found a string without its closing quote"}
}

var escapes = map[byte]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// escape reads one escape sequence of a string. A lone surrogate becomes U+FFFD.
func (p *jparser) escape(b *strings.Builder) error {
	if p.i+1 >= len(p.data) {
		return p.errorf("found a string without its closing quote")
	}
	e := p.data[p.i+1]
	if c, ok := escapes[e]; ok {
		b.WriteByte(c)
		p.i += 2
		return nil
	}
	if e != 'u' {
		return p.errorf("found the escape \\%c, which JSON does not have", e)
	}
	r, ok := p.hex4(p.i + 2)
	if !ok {
		return p.errorf("found a malformed \\u escape")
	}
	p.i += 6
	if utf16.IsSurrogate(r) {
		low, ok := rune(0), false
		if p.i+1 < len(p.data) && p.data[p.i] == '\\' && p.data[p.i+1] == 'u' {
			low, ok = p.hex4(p.i + 2)
		}
		if pair := utf16.DecodeRune(r, low); ok && pair != utf8.RuneError {
			r = pair
			p.i += 6
		} else {
			r = utf8.RuneError
		}
	}
	b.WriteRune(r)
	return nil
}

// hex4 reads the four hex digits of a \u escape at offset i.
func (p *jparser) hex4(i int) (rune, bool) {
	if i+4 > len(p.data) {
		return 0, false
	}
	v, err := strconv.ParseUint(string(p.data[i:i+4]), 16, 32)
	return rune(v), err == nil
}

// number reads a number as RFC 8259 writes it, and returns its text.
func (p *jparser) number() (string, error) {
	start := p.i
	digits := func() int {
		n := 0
		for p.i < len(p.data) && '0' <= p.data[p.i] && p.data[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	if p.data[p.i] == '-' {
		p.i++
	}
	switch {
	case p.i < len(p.data) && p.data[p.i] == '0':
		p.i++
	case digits() == 0:
		return "", p.errorf("found %s, expected a digit", p.found())
	}
	if p.i < len(p.data) && p.data[p.i] == '.' {
		p.i++
		if digits() == 0 {
			return "", p.errorf("found %s, expected a digit after '.'", p.found())
		}
	}
	if p.i < len(p.data) && (p.data[p.i] == 'e' || p.data[p.i] == 'E') {
		p.i++
		if p.i < len(p.data) && (p.data[p.i] == '+' || p.data[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return "", p.errorf("found %s, expected a digit in the exponent", p.found())
		}
	}
	return string(p.data[start:p.i]), nil
}
