package wire

import (
	"encoding/json"
	"errors"
	"testing"
)

// external stands for a substituted type: it encodes as its number, rejects a string, and
// validates that it is not negative.
type external struct{ n int }

func (x external) MarshalJSON() ([]byte, error) {
	if x.n > 1000 {
		return nil, errors.New("too large")
	}
	return json.Marshal(x.n)
}

func (x *external) UnmarshalJSON(data []byte) error { return json.Unmarshal(data, &x.n) }

func (x *external) Validate() error {
	if x.n < 0 {
		return errors.New("negative")
	}
	return nil
}

// nested stands for a substitute that is a type of the package: its problems come below it.
type nested struct{}

func (nested) Validate() error {
	return &ValidationError{Problems: []Problem{{Pointer: "/a~1b/0", Message: "bad"}, {Message: "worse"}}}
}

func TestExternal(t *testing.T) {
	e := newEncoder().retrace() // tracing, for the error's pointer
	e.beginObject()
	e.key("x")
	encodeExternal(e, &external{n: 7})
	e.key("y")
	encodeExternal(e, &external{n: 2000})
	e.endObject()
	if string(e.buf) != `{"x":7,"y":null}` || e.err == nil || e.err.Error() != `/y: json: error calling MarshalJSON for type *wire.external: too large` {
		t.Errorf("encode: %s, %v", e.buf, e.err)
	}

	var x external
	d := newDecoder([]byte(`{"x":-3}`))
	err := d.object(func(string) error { return decodeExternal(d, &x) })
	if err != nil || x.n != -3 {
		t.Errorf("decode: %v, %d", err, x.n)
	}
	d = newDecoder([]byte(`{"x":"3"}`))
	err = d.object(func(string) error { return decodeExternal(d, &x) })
	if err == nil || err.Error() != "/x: json: cannot unmarshal string into Go value of type int" {
		t.Errorf("decode error: %v", err)
	}

	var c validator
	c.in("x")
	validateExternal(&c, &x)
	validateExternal(&c, x) // a value whose Validate has a pointer receiver is not checked
	c.out()
	c.in("n")
	validateExternal(&c, nested{})
	c.out()
	want := "invalid: 3 problems: /x: negative; /n/a~1b/0: bad; /n: worse"
	if err := c.err(); err == nil || err.Error() != want {
		t.Errorf("validate: %v, want %s", err, want)
	}
}
