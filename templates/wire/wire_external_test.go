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

// omitted reports whether encoding/json leaves out a member of type T holding v, tagged
// omitempty: the reference emptyExternal follows.
func omitted[T any](t *testing.T, v T) bool {
	t.Helper()
	b, err := json.Marshal(struct {
		X T `json:"x,omitempty"`
	}{v})
	if err != nil {
		t.Fatal(err)
	}
	return string(b) == "{}"
}

// TestEmptyExternal holds emptyExternal to encoding/json's omitempty on values of every kind.
func TestEmptyExternal(t *testing.T) {
	type label string
	type meta map[string]any
	type list []int
	type object struct{ A int }
	var nilMeta meta
	var nilPointer *object
	cases := []struct {
		name    string
		empty   bool
		omitted bool
	}{
		{"false", emptyExternal(false), omitted(t, false)},
		{"true", emptyExternal(true), omitted(t, true)},
		{"0", emptyExternal(0), omitted(t, 0)},
		{"1.5", emptyExternal(1.5), omitted(t, 1.5)},
		{"uint 0", emptyExternal(uint8(0)), omitted(t, uint8(0))},
		{`""`, emptyExternal(label("")), omitted(t, label(""))},
		{`"a"`, emptyExternal(label("a")), omitted(t, label("a"))},
		{"nil map", emptyExternal(nilMeta), omitted(t, nilMeta)},
		{"empty map", emptyExternal(meta{}), omitted(t, meta{})},
		{"map", emptyExternal(meta{"a": 1}), omitted(t, meta{"a": 1})},
		{"empty slice", emptyExternal(list{}), omitted(t, list{})},
		{"slice", emptyExternal(list{1}), omitted(t, list{1})},
		{"array", emptyExternal([1]int{}), omitted(t, [1]int{})},
		{"struct", emptyExternal(object{}), omitted(t, object{})},
		{"nil pointer", emptyExternal(nilPointer), omitted(t, nilPointer)},
		{"pointer", emptyExternal(&object{}), omitted(t, &object{})},
		{"nil", emptyExternal(nil), omitted[any](t, nil)},
	}
	for _, c := range cases {
		if c.empty != c.omitted {
			t.Errorf("%s: emptyExternal %v, encoding/json omits it: %v", c.name, c.empty, c.omitted)
		}
	}
}

// omittedZero reports whether encoding/json leaves out a member of type T holding v, tagged
// omitzero: the reference zeroExternal follows.
func omittedZero[T any](t *testing.T, v T) bool {
	t.Helper()
	b, err := json.Marshal(struct {
		X T `json:"x,omitzero"`
	}{v})
	if err != nil {
		t.Fatal(err)
	}
	return string(b) == "{}"
}

// zeroByValue and zeroByPointer have IsZero methods, which omitzero asks before reflection.
type zeroByValue struct{ N int }

func (z zeroByValue) IsZero() bool { return z.N < 0 }

type zeroByPointer struct{ N int }

func (z *zeroByPointer) IsZero() bool { return z.N == 7 }

// TestZeroExternal holds zeroExternal to encoding/json's omitzero on structs and substitutes,
// with and without IsZero methods.
func TestZeroExternal(t *testing.T) {
	type object struct {
		A int
		M map[string]any
	}
	cases := []struct {
		name        string
		zero, omits bool
	}{
		{"empty struct", zeroExternal(&object{}), omittedZero(t, object{})},
		{"struct", zeroExternal(&object{A: 1}), omittedZero(t, object{A: 1})},
		{"struct with an empty map", zeroExternal(&object{M: map[string]any{}}), omittedZero(t, object{M: map[string]any{}})},
		{"IsZero on the value, false", zeroExternal(&zeroByValue{}), omittedZero(t, zeroByValue{})},
		{"IsZero on the value, true", zeroExternal(&zeroByValue{N: -1}), omittedZero(t, zeroByValue{N: -1})},
		{"IsZero on the pointer, false", zeroExternal(&zeroByPointer{}), omittedZero(t, zeroByPointer{})},
		{"IsZero on the pointer, true", zeroExternal(&zeroByPointer{N: 7}), omittedZero(t, zeroByPointer{N: 7})},
		{"array", zeroExternal(&[2]int{}), omittedZero(t, [2]int{})},
		{"0", zeroExternal(new(int)), omittedZero(t, 0)},
	}
	for _, c := range cases {
		if c.zero != c.omits {
			t.Errorf("%s: zeroExternal %v, encoding/json omits it: %v", c.name, c.zero, c.omits)
		}
	}
}
