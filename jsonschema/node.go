package jsonschema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/mcpgen/mcpgen/model"
)

// node is a decoded JSON value that remembers where it starts in the file. Objects keep their
// members in file order, which encoding/json's maps would lose.
type node struct {
	off    int // byte offset of the value's first byte
	kind   string
	fields []field // object members
	elems  []*node // array elements
	str    string  // string value, or the source text of a number
	bool   bool
}

// Node kinds, named as JSON Schema names them so messages can use them directly.
const (
	kindObject = "object"
	kindArray  = "array"
	kindString = "string"
	kindNumber = "number"
	kindBool   = "boolean"
	kindNull   = "null"
)

// field is one member of a JSON object.
type field struct {
	key string
	off int // byte offset of the key's opening quote
	val *node
}

// get returns the member with the given key, or nil.
func (n *node) get(key string) *field {
	for i := range n.fields {
		if n.fields[i].key == key {
			return &n.fields[i]
		}
	}
	return nil
}

// list returns the members of an object node; nil has none.
func (n *node) list() []field {
	if n == nil {
		return nil
	}
	return n.fields
}

// decoder builds nodes from the token stream of encoding/json, using the input offset before each
// token to find where the token starts.
type decoder struct {
	dec   *json.Decoder
	data  []byte
	depth int // of the value being decoded
}

// maxJSONDepth bounds the nesting of JSON values. A type nests a few JSON values deep
// ({"type": "object", "properties": {"a": ...}}), so this is more than model.MaxDepth types allow.
const maxJSONDepth = 4 * model.MaxDepth

// parseJSON decodes a whole JSON document. A syntax error carries the byte offset of the problem.
func parseJSON(data []byte) (*node, error) {
	d := &decoder{dec: json.NewDecoder(bytes.NewReader(data)), data: data}
	d.dec.UseNumber()
	n, err := d.value()
	if err != nil {
		return nil, err
	}
	off := int(d.dec.InputOffset())
	if rest := bytes.TrimLeft(data[off:], " \t\r\n"); len(rest) > 0 {
		return nil, &syntaxError{len(data) - len(rest), "unexpected data after the top-level value"}
	}
	return n, nil
}

// syntaxError is a JSON decoding error at a byte offset.
type syntaxError struct {
	off int
	msg string
}

func (e *syntaxError) Error() string { return e.msg }

// token returns the next token and the offset where it starts.
func (d *decoder) token() (int, json.Token, error) {
	off := int(d.dec.InputOffset())
	for off < len(d.data) && strings.IndexByte(" \t\r\n,:", d.data[off]) >= 0 {
		off++
	}
	tok, err := d.dec.Token()
	var se *json.SyntaxError
	switch {
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return off, nil, &syntaxError{off, "unexpected end of JSON input"}
	case errors.As(err, &se):
		return off, nil, &syntaxError{int(se.Offset), err.Error()}
	case err != nil:
		return off, nil, &syntaxError{off, err.Error()}
	}
	return off, tok, nil
}

func (d *decoder) value() (*node, error) {
	off, tok, err := d.token()
	if err != nil {
		return nil, err
	}
	if d.depth++; d.depth > maxJSONDepth {
		return nil, &syntaxError{off, fmt.Sprintf("found JSON values nested more than %d deep, expected at most %d", maxJSONDepth, maxJSONDepth)}
	}
	defer func() { d.depth-- }()
	n := &node{off: off}
	switch tok := tok.(type) {
	case json.Delim:
		if tok == '{' {
			return n, d.object(n)
		}
		return n, d.array(n)
	case string:
		n.kind, n.str = kindString, tok
	case json.Number:
		n.kind, n.str = kindNumber, tok.String()
	case bool:
		n.kind, n.bool = kindBool, tok
	case nil:
		n.kind = kindNull
	default:
		return nil, &syntaxError{off, fmt.Sprintf("unexpected token %v", tok)}
	}
	return n, nil
}

func (d *decoder) object(n *node) error {
	n.kind = kindObject
	for d.dec.More() {
		off, tok, err := d.token()
		if err != nil {
			return err
		}
		key, _ := tok.(string) // the decoder only returns strings in key position
		if n.get(key) != nil {
			return &syntaxError{off, fmt.Sprintf("duplicate key %q", model.Shorten(key))}
		}
		val, err := d.value()
		if err != nil {
			return err
		}
		n.fields = append(n.fields, field{key: key, off: off, val: val})
	}
	_, _, err := d.token() // '}'
	return err
}

func (d *decoder) array(n *node) error {
	n.kind = kindArray
	for d.dec.More() {
		val, err := d.value()
		if err != nil {
			return err
		}
		n.elems = append(n.elems, val)
	}
	_, _, err := d.token() // ']'
	return err
}
