package wire

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// shape is a stand-in for a generated union; circle and square are its variants.
type shape interface{ isShape() }

type circle struct{ fields map[string]json.RawMessage }
type square struct{ fields map[string]json.RawMessage }

func (*circle) isShape() {}
func (*square) isShape() {}

// decodeFields decodes any object, then checks that its required members are present (as a
// generated decoder does).
func decodeFields(d *decoder, required ...string) (map[string]json.RawMessage, error) {
	m := map[string]json.RawMessage{}
	err := d.object(func(name string) (err error) {
		m[name], err = d.raw()
		return err
	})
	if err != nil {
		return nil, err
	}
	for _, r := range required {
		if _, ok := m[r]; !ok {
			return nil, d.errorf("missing required member %q", r)
		}
	}
	return m, nil
}

func (c *circle) decode(d *decoder) (err error) {
	c.fields, err = decodeFields(d, "r")
	if err == nil && string(c.fields["r"]) == "-1" {
		err = d.errorf("negative radius")
	}
	return err
}

func (s *square) decode(d *decoder) (err error) {
	s.fields, err = decodeFields(d, "side", "x")
	return err
}

var shapes = []objectVariant[shape]{
	{name: "circle", required: []string{"r"}, known: []string{"r", "x", "label"}, alloc: func() (shape, decodable) { v := new(circle); return v, v }},
	{name: "square", required: []string{"side", "x"}, known: []string{"side", "x", "label"}, alloc: func() (shape, decodable) { v := new(square); return v, v }},
}

func TestDecodeVariant(t *testing.T) {
	tests := []struct {
		in, want, err string
	}{
		{`{"r":1}`, "*wire.circle", ""},
		{`{"side":1,"x":0}`, "*wire.square", ""},
		// Both fit: more required members first.
		{`{"r":1,"side":2,"x":0}`, "*wire.square", ""},
		// The more specific one fails to decode: the next is tried.
		{`{"r":1,"side":2,"x":0,"label":"a"}`, "*wire.square", ""},
		{`{"r":-1}`, "", "(root): negative radius"},
		{`{"label":"a"}`, "", `(root): no variant of shape fits: circle needs "r", square needs "side"`},
		{`[1]`, "", "(root): expected object, found array"},
	}
	for _, tt := range tests {
		d := newDecoder([]byte(tt.in))
		v, err := decodeVariant(d, "shape", newVariantTable(shapes...), 0, 1)
		if tt.err != "" {
			assert.EqualError(t, err, tt.err, tt.in)
			continue
		}
		require.NoError(t, err, tt.in)
		assert.Equal(t, tt.want, typeName(v), tt.in)
		require.NoError(t, d.end(), tt.in)
	}

	// A failed variant is not replaced by one that would take its members as unknown: the
	// error is returned (square defines "label" and "x"; circle does not define "side").
	pickySquare := objectVariant[shape]{name: "square", required: []string{"side", "x"}, known: []string{"side", "x"}, alloc: func() (shape, decodable) {
		v := new(square)
		return v, decodableFunc(func(d *decoder) error {
			if err := d.skip(); err != nil {
				return err
			}
			return d.errorf("bad side")
		})
	}}
	_, err := decodeVariant(newDecoder([]byte(`{"r":1,"side":"bad","x":0}`)), "shape", newVariantTable(pickySquare, strictCircle), 0, 1)
	assert.EqualError(t, err, "(root): bad side")

	// A variant that defines every member the failed one defines may still be chosen.
	roundSquare := objectVariant[shape]{name: "circle", required: []string{"side", "x"}, known: []string{"side", "x", "r"}, alloc: shapes[0].alloc}
	v, err := decodeVariant(newDecoder([]byte(`{"r":1,"side":"bad","x":0}`)), "shape", newVariantTable(pickySquare, roundSquare), 0, 1)
	require.NoError(t, err)
	assert.Equal(t, "*wire.circle", typeName(v))

	// A single candidate is decoded directly, whatever its required members.
	_, err = decodeVariant(newDecoder([]byte(`{"side":1}`)), "shape", newVariantTable(shapes...), 1)
	assert.EqualError(t, err, `(root): missing required member "x"`)
}

func TestDecodeVariantSpecificity(t *testing.T) {
	// Same required members: the one with more of its members present wins, then the first.
	vs := []objectVariant[shape]{
		{name: "circle", required: []string{"r"}, known: []string{"r"}, alloc: shapes[0].alloc},
		{name: "square", required: []string{"r"}, known: []string{"r", "label"}, alloc: func() (shape, decodable) {
			v := new(square)
			return v, decodableFunc(func(d *decoder) (err error) { v.fields, err = decodeFields(d, "r"); return err })
		}},
	}
	v, err := decodeVariant(newDecoder([]byte(`{"r":1,"label":"a"}`)), "shape", newVariantTable(vs...), 0, 1)
	require.NoError(t, err)
	assert.Equal(t, "*wire.square", typeName(v))
	v, err = decodeVariant(newDecoder([]byte(`{"r":1}`)), "shape", newVariantTable(vs...), 0, 1)
	require.NoError(t, err)
	assert.Equal(t, "*wire.circle", typeName(v))
}

// strictCircle is a circle that defines only "r".
var strictCircle = objectVariant[shape]{name: "circle", required: []string{"r"}, known: []string{"r"}, alloc: shapes[0].alloc}

type decodableFunc func(d *decoder) error

func (f decodableFunc) decode(d *decoder) error { return f(d) }

func TestLookupTag(t *testing.T) {
	tests := []struct {
		in, want string
		found    bool
	}{
		{`{"type":"text","text":"x"}`, "text", true},
		{`{"text":"x","type":"te\u0078t"}`, "text", true},
		{`{"type":"a<b&c\u2028"}`, "a<b&c\u2028", true},
		{"{\"type\":\"c`d\"}", "c`d", true},
		{`{"type":""}`, "", true},
		{`{"text":"x"}`, "", false},
	}
	for _, tt := range tests {
		d := newDecoder([]byte(tt.in))
		got, found, err := lookupTag(d, "type")
		require.NoError(t, err, tt.in)
		assert.Equal(t, tt.want, got, tt.in)
		assert.Equal(t, tt.found, found, tt.in)
		require.NoError(t, d.skip(), "lookupTag must not consume the object")
		require.NoError(t, d.end())
	}
	for _, in := range []string{`{"type":3}`, `{"type":null}`, `{"type":["text"]}`} {
		_, _, err := lookupTag(newDecoder([]byte(in)), "type")
		assert.ErrorContains(t, err, `(root): member "type" must be a string, found `, in)
	}
}

func TestDecodeFirst(t *testing.T) {
	ints := func(d *decoder) (any, error) {
		var n []int64
		err := d.array(func(int) error { v, err := d.int64(); n = append(n, v); return err })
		return n, err
	}
	strs := func(d *decoder) (any, error) {
		var s []string
		err := d.array(func(int) error { v, err := d.str(); s = append(s, v); return err })
		return s, err
	}
	d := newDecoder([]byte(`["a","b"]`))
	v, err := decodeFirst(d, ints, strs)
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b"}, v)
	require.NoError(t, d.end())

	_, err = decodeFirst(newDecoder([]byte(`[true]`)), ints, strs)
	assert.EqualError(t, err, "/0: expected number, found boolean")
}

func typeName(v any) string {
	switch v.(type) {
	case *circle:
		return "*wire.circle"
	case *square:
		return "*wire.square"
	}
	return "?"
}

func TestObjectHelpers(t *testing.T) {
	type args struct {
		City string `json:"city"`
		Days int    `json:"days"`
	}
	m, err := EncodeObject(args{City: "Paris", Days: 3})
	require.NoError(t, err)
	assert.Equal(t, map[string]json.RawMessage{"city": json.RawMessage(`"Paris"`), "days": json.RawMessage(`3`)}, m)

	var got args
	require.NoError(t, DecodeObject(m, &got))
	assert.Equal(t, args{City: "Paris", Days: 3}, got)

	_, err = EncodeObject([]int{1})
	assert.EqualError(t, err, "(root): expected object, found array")
	assert.Error(t, DecodeObject(map[string]json.RawMessage{"days": json.RawMessage(`"x"`)}, &got))
}

func TestDecodeVariantOrBase(t *testing.T) {
	// base takes any object (no required members) and keeps what it does not define.
	base := objectVariant[shape]{name: "circle", required: []string{}, known: []string{}, alloc: func() (shape, decodable) {
		v := new(circle)
		return v, decodableFunc(func(d *decoder) (err error) { v.fields, err = decodeFields(d); return err })
	}}
	vs := newVariantTable(base, shapes[1])
	tests := []struct {
		in, want, err string
	}{
		{`{"side":1,"x":0}`, "*wire.square", ""},
		{`{"r":1}`, "*wire.circle", ""},
		// What base cannot decode either stays an error: the candidates'.
		{`{"side":1,"x":0,"x":1}`, "", `/x: duplicate member name`},
		{`[1]`, "", "(root): expected object, found array"},
		// square needs "x": only base fits.
		{`{"side":1}`, "*wire.circle", ""},
	}
	for _, tt := range tests {
		d := newDecoder([]byte(tt.in))
		v, err := decodeVariantOrBase(d, "shape", vs, 0, 0, 1)
		if tt.err != "" {
			assert.EqualError(t, err, tt.err, tt.in)
			continue
		}
		require.NoError(t, err, tt.in)
		assert.Equal(t, tt.want, typeName(v), tt.in)
		require.NoError(t, d.end(), tt.in)
	}

	// A candidate that fits by its members and fails to decode gives way to base, which keeps
	// every member; the decoder is where base left it.
	failing := objectVariant[shape]{name: "square", required: []string{"side"}, known: []string{"side"}, alloc: func() (shape, decodable) {
		v := new(square)
		return v, decodableFunc(func(d *decoder) error {
			if err := d.skip(); err != nil {
				return err
			}
			return d.errorf("bad side")
		})
	}}
	d := newDecoder([]byte(`{"side":"wrong","label":"a"} `))
	v, err := decodeVariantOrBase(d, "shape", newVariantTable(base, failing), 0, 0, 1)
	require.NoError(t, err)
	require.IsType(t, &circle{}, v)
	assert.Equal(t, map[string]json.RawMessage{"side": json.RawMessage(`"wrong"`), "label": json.RawMessage(`"a"`)}, v.(*circle).fields)
	require.NoError(t, d.end())

	// The plain decodeVariant returns the candidate's error instead.
	_, err = decodeVariant(newDecoder([]byte(`{"side":"wrong"}`)), "shape", newVariantTable(base, failing), 0, 1)
	assert.EqualError(t, err, "(root): bad side")
}

// word is a pointer variant with an encoder, as a generated struct is.
type word struct{ text string }

func (w *word) encode(e *encoder) { e.str(w.text) }

func TestEncodeVariant(t *testing.T) {
	e := newEncoder()
	encodeVariant(e, &word{"hi"}, "Shape")
	b, err := e.marshaled()
	require.NoError(t, err)
	assert.Equal(t, `"hi"`, string(b))

	e = newEncoder()
	encodeVariant(e, (*word)(nil), "Shape")
	_, err = e.marshaled()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "nil Shape")
}
