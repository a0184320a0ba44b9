package boundary

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// maxCanonicalDepth bounds the nesting of a value Canonical writes.
const maxCanonicalDepth = 1000

// Canonical writes a JSON value compacted, with the members of its objects sorted by name (as
// UTF-8 bytes) at every depth, so that two spellings of one value (spacing, member order,
// escapes in strings) give the same text. Strings are written as encoding/json writes them
// (invalid UTF-8 becomes U+FFFD); numbers are kept as written ("1" and "1.0" differ). An object
// with a member name twice, trailing data, or nesting deeper than 1000 levels is an error.
func Canonical(data []byte) (string, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var b strings.Builder
	if err := canonicalValue(d, &b, 0); err != nil {
		return "", err
	}
	if _, err := d.Token(); err != io.EOF {
		return "", errors.New("trailing data after the JSON value")
	}
	return b.String(), nil
}

func canonicalValue(d *json.Decoder, b *strings.Builder, depth int) error {
	if depth > maxCanonicalDepth {
		return fmt.Errorf("nested deeper than %d levels", maxCanonicalDepth)
	}
	tok, err := d.Token()
	if err != nil {
		if err == io.EOF {
			return errors.New("unexpected end of JSON input")
		}
		return err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '[':
			b.WriteByte('[')
			for i := 0; d.More(); i++ {
				if i > 0 {
					b.WriteByte(',')
				}
				if err := canonicalValue(d, b, depth+1); err != nil {
					return err
				}
			}
			if _, err := d.Token(); err != nil {
				return err
			}
			b.WriteByte(']')
		case '{':
			type member struct{ name, text string }
			var members []member
			seen := map[string]bool{}
			for d.More() {
				tok, err := d.Token()
				if err != nil {
					return err
				}
				name := tok.(string) // the decoder allows only a string here
				if seen[name] {
					return fmt.Errorf("member %q appears twice", name)
				}
				seen[name] = true
				var v strings.Builder
				if err := canonicalValue(d, &v, depth+1); err != nil {
					return err
				}
				members = append(members, member{name, v.String()})
			}
			if _, err := d.Token(); err != nil {
				return err
			}
			slices.SortFunc(members, func(x, y member) int { return strings.Compare(x.name, y.name) })
			b.WriteByte('{')
			for i, m := range members {
				if i > 0 {
					b.WriteByte(',')
				}
				writeString(b, m.name)
				b.WriteByte(':')
				b.WriteString(m.text)
			}
			b.WriteByte('}')
		default:
			return fmt.Errorf("unexpected %v", t)
		}
	case string:
		writeString(b, t)
	case json.Number:
		b.WriteString(t.String())
	case bool:
		if t {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case nil:
		b.WriteString("null")
	}
	return nil
}

func writeString(b *strings.Builder, s string) {
	data, _ := json.Marshal(s) // a string always encodes
	b.Write(data)
}

// CallToolBinding is the salient part of a tools/call request, to which its states are bound:
// the tool's name, a NUL, and its arguments as CanonicalObject writes them.
func CallToolBinding(name string, args map[string]json.RawMessage) (string, error) {
	canonical, err := CanonicalObject(args)
	if err != nil {
		return "", err
	}
	return name + "\x00" + canonical, nil
}

// CanonicalObject writes a free-form object (a tool's arguments) as Canonical does; nil is {}.
func CanonicalObject(m map[string]json.RawMessage) (string, error) {
	if m == nil {
		m = map[string]json.RawMessage{}
	}
	data, err := json.Marshal(m)
	if err != nil {
		return "", err
	}
	return Canonical(data)
}
