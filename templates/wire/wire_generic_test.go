package wire

import (
	"encoding/json"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The helpers below are called by generated code only; these tests hold them to their contracts
// in place.

// point decodes itself from a JSON number, as a generated type decodes itself from its JSON.
type point struct{ x int64 }

func (p *point) decode(d *decoder) error {
	v, err := d.int64()
	p.x = v
	return err
}

func TestUnmarshalCopiesOnce(t *testing.T) {
	data := []byte(`  "s\"x"  `)
	var got string
	err := unmarshal(data, decodableFunc(func(d *decoder) (err error) {
		got, err = d.str()
		return err
	}))
	require.NoError(t, err)
	for i := range data {
		data[i] = 'X'
	}
	assert.Equal(t, `s"x`, got, "the value must not alias the caller's input")

	err = unmarshal([]byte(`1 2`), decodableFunc(func(d *decoder) error { return d.skip() }))
	assert.EqualError(t, err, "(root): unexpected number after top-level value")
}

func TestGenericReaders(t *testing.T) {
	ints := func(d *decoder) ([]int64, error) { return decodeSlice(d, (*decoder).int64) }
	d := topDecoder([]byte(`[1,2,3]`))
	s, err := ints(d)
	require.NoError(t, err)
	assert.Equal(t, []int64{1, 2, 3}, s)

	s, err = ints(newDecoder([]byte(`[]`)))
	require.NoError(t, err)
	assert.NotNil(t, s, "an empty array is an empty slice, not nil")
	assert.Empty(t, s)

	_, err = ints(newDecoder([]byte(`[1,"x"]`)))
	assert.EqualError(t, finish(err), "/1: expected number, found string")

	points, err := decodeSliceOf[point](newDecoder([]byte(`[4,5]`)))
	require.NoError(t, err)
	assert.Equal(t, []point{{4}, {5}}, points)

	p, err := decodeInto[point](newDecoder([]byte(`6`)))
	require.NoError(t, err)
	assert.Equal(t, point{6}, p)

	m, err := decodeMapOf[point](newDecoder([]byte(`{"a":1,"b":2}`)))
	require.NoError(t, err)
	assert.Equal(t, map[string]point{"a": {1}, "b": {2}}, m)

	_, err = decodeMap(newDecoder([]byte(`{"a":1,"a":2}`)), (*decoder).int64)
	assert.EqualError(t, finish(err), "/a: duplicate member name")

	var extra map[string]int64
	d = newDecoder([]byte(`7`))
	require.NoError(t, decodeEntry(d, &extra, []byte("k"), (*decoder).int64))
	assert.Equal(t, map[string]int64{"k": 7}, extra)
	assert.EqualError(t, decodeEntry(newDecoder([]byte(`8`)), &extra, []byte("k"), (*decoder).int64), "(root): duplicate member name")

	var raw map[string]json.RawMessage
	require.NoError(t, newDecoder([]byte(`{"z":1}`)).extraRaw(&raw, []byte("q")))
	assert.Equal(t, `{"z":1}`, string(raw["q"]))
}

// finish writes the pointer of a decoding error, as a top-level decode does.
func finish(err error) error {
	if err == nil {
		return nil
	}
	return newDecoder(nil).fail(err)
}

func TestArrayOf(t *testing.T) {
	first := func(a *arrayOf[int64]) int { *a.next() = 1; return cap(a.s) }
	assert.Equal(t, 8, first(&arrayOf[int64]{}), "8 bytes each: 8 fit in 128 bytes")
	var big arrayOf[[200]byte]
	big.next()
	assert.Equal(t, 1, cap(big.s), "at least one")
	var empty arrayOf[struct{}]
	empty.next()
	assert.Equal(t, 8, cap(empty.s), "at most 8")

	var none arrayOf[string]
	assert.Equal(t, []string{}, none.done(), "an empty array is an empty slice, not nil")

	// Past the first room, the elements go on in a scratch slice: the result has exactly their
	// number, and the scratch goes back to its pool emptied.
	for _, n := range []int{1, 8, 9, 100, 3} {
		var a arrayOf[*int]
		want := make([]*int, n)
		for i := range n {
			want[i] = new(int)
			*want[i] = i
			*a.next() = want[i]
		}
		scratch := a.scratch
		got := a.done()
		assert.Equal(t, want, got)
		if n <= 8 {
			assert.Nil(t, scratch, "%d elements fit in the first room", n)
			continue
		}
		assert.Equal(t, n, cap(got), "%d elements: a slice of their length", n)
		require.NotNil(t, scratch)
		assert.Zero(t, len(*scratch))
		assert.Equal(t, make([]*int, n), (*scratch)[:n], "the scratch keeps no pointer")
	}
}

func TestAlloc(t *testing.T) {
	var d decoder
	var ps []*string
	for range 100 {
		ps = append(ps, alloc(&d.strs))
	}
	for i, p := range ps {
		*p = string(rune('a' + i%26))
	}
	for i, p := range ps {
		assert.Equal(t, string(rune('a'+i%26)), *p, "each pointer is a value of its own")
	}
	assert.LessOrEqual(t, cap(d.strs), 64, "chunks of at most 64")
	*alloc(&d.bools), *alloc(&d.ints), *alloc(&d.floats) = true, 1, 1.5
	assert.Equal(t, []bool{true}, d.bools)
	assert.Equal(t, []int64{1}, d.ints)
	assert.Equal(t, []float64{1.5}, d.floats)
}

func TestEncodeRawMap(t *testing.T) {
	e := newEncoder()
	e.rawMap(map[string]json.RawMessage{"b": json.RawMessage(`[1]`), "a": json.RawMessage(`{}`)})
	out, err := e.marshaled()
	require.NoError(t, err)
	assert.Equal(t, `{"a":{},"b":[1]}`, string(out), "members sorted by name")
}

func TestReadExternal(t *testing.T) {
	v, err := readExternal[map[string]int](newDecoder([]byte(`{"n":3}`)))
	require.NoError(t, err)
	assert.Equal(t, map[string]int{"n": 3}, v)
}

func TestMemberSetHoldsTheTableNames(t *testing.T) {
	var s memberSet
	assert.Equal(t, maxTableNames, 8*int(unsafe.Sizeof(s)), "a memberSet has a bit for every name a table can hold")
	s.add(maxTableNames - 1)
	assert.True(t, s.has(maxTableNames-1))
}

// pair decodes itself as a generated struct does: each member's case names its bit of seen, and
// one check after the switch finds a duplicate (memberError).
type pair struct{ A, B int64 }

func (v *pair) decode(d *decoder) (err error) {
	*v = pair{}
	if err = d.beginObject(); err != nil {
		return err
	}
	var (
		name []byte
		ok   bool
		seen uint64
	)
	for i := 0; ; i++ {
		if name, ok, err = d.member(i, name); !ok {
			break
		}
		var bit uint64
		switch string(name) {
		case "a":
			bit = 1 << 0
			v.A, err = d.int64()
		case "b":
			bit = 1 << 1
			v.B, err = d.int64()
		default:
			err = d.skip()
		}
		if err != nil || seen&bit != 0 {
			return d.memberError(seen&bit, name, err)
		}
		seen |= bit
	}
	return err
}

func TestMemberError(t *testing.T) {
	tests := []struct{ in, err string }{
		{`{"a":1,"b":2,"c":3,"c":4}`, ""}, // an unknown member's duplicate is found elsewhere (Extra)
		{`{"a":1,"b":2,"a":3}`, "/a: duplicate member name"},
		{`{"b":1,"b":"x"}`, "/b: duplicate member name"}, // the duplicate, not its value's error
		{`{"a":1,"b":"x"}`, "/b: expected number, found string"},
		{`{"a":1,"b":2`, "/b: expected ',' or '}' after object member, found end of input"},
	}
	for _, tt := range tests {
		var v pair
		err := unmarshal([]byte(tt.in), &v)
		if tt.err == "" {
			require.NoError(t, err, tt.in)
			assert.Equal(t, pair{1, 2}, v)
			continue
		}
		assert.EqualError(t, err, tt.err, tt.in)
	}
}
