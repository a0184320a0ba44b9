package wire

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The types of substitutes that the native coding takes by their kind: a named map[string]any
// (as go-sdk's Meta), a named []any, a string type, an integer type.
type (
	nativeMeta  map[string]any
	nativeList  []any
	nativeText  string
	nativeSmall int8
	nativeCount uint16
)

// marshaling has codec methods of its own, which the native coding leaves to encoding/json.
type marshaling map[string]any

func (m marshaling) MarshalJSON() ([]byte, error) { return []byte(`{"custom":true}`), nil }

func (m *marshaling) UnmarshalJSON([]byte) error {
	*m = marshaling{"custom": true}
	return nil
}

// nativeTargets are new zero values of the types that a substitute's decode is given (a pointer
// to each): those the native coding decodes, and some it leaves to encoding/json.
func nativeTargets() []any {
	return []any{new(any), new(map[string]any), new([]any), new(string), new(float64), new(bool),
		new(int), new(int64), new(uint), new(nativeMeta), new(nativeList), new(nativeText),
		new(nativeSmall), new(nativeCount), new(marshaling), new(json.Number), new(*int)}
}

// decodeAs decodes data into v with decode, as a member of an object (so that the decoder's
// depth and names are those of a member), checking that only whitespace follows.
func decodeAs(d *decoder, v any, decode func(*decoder, any) error) error {
	err := decode(d, v)
	if err == nil {
		err = d.end()
	}
	return err
}

// checkNativeDecode decodes data natively and with encoding/json (what decodeExternal did for
// every value before the native coding), into each target, and fails unless both succeed or
// both fail, with the same value. A value that both decode is then encoded natively and by
// json.Marshal, to the same bytes.
func checkNativeDecode(t *testing.T, data []byte) {
	t.Helper()
	for _, want := range nativeTargets() {
		got := reflect.New(reflect.TypeOf(want).Elem()).Interface()
		errWant := decodeAs(newDecoder(data), want, decodeByJSON)
		errGot := decodeAs(topDecoder(data), got, decodeExternal)
		require.Equal(t, errWant == nil, errGot == nil, "%T from %q: encoding/json: %v, native: %v", want, data, errWant, errGot)
		if errWant != nil {
			continue
		}
		require.Equal(t, want, got, "%T from %q", want, data)
		checkNativeEncode(t, reflect.ValueOf(got).Elem().Interface())
	}
}

// checkNativeEncode encodes v natively (as encodeExternal does, through a pointer for a type
// without nil) and by json.Marshal, and fails unless both succeed with the same bytes or both
// fail.
func checkNativeEncode(t *testing.T, v any) {
	t.Helper()
	want, errWant := json.Marshal(v)
	e := newEncoder()
	encodeExternal(e, v)
	got, errGot := e.marshaled()
	require.Equal(t, errWant == nil, errGot == nil, "%#v: encoding/json: %v, native: %v", v, errWant, errGot)
	require.Equal(t, string(want), string(got), "%#v", v)
}

// randomJSON writes a random JSON text of at most depth levels: members with HTML characters,
// escapes, U+2028, non-ASCII text and duplicates; numbers of every form, some beyond float64 or
// int64; and, with a small chance, a byte that breaks it (invalid UTF-8, a lone surrogate, a
// missing comma, a truncation).
func randomJSON(r *rand.Rand, b *strings.Builder, depth int) {
	switch n := r.IntN(10); {
	case n < 2 && depth > 0:
		b.WriteByte('{')
		names := []string{`"a"`, `"<b>&"`, `"\u2028"`, `"caf\u00e9"`, `"é"`, `"a"`, `""`, `"\ud83d\ude00"`}
		for i := range r.IntN(5) {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(names[r.IntN(len(names))] + ":")
			randomJSON(r, b, depth-1)
		}
		b.WriteByte('}')
	case n < 4 && depth > 0:
		b.WriteByte('[')
		for i := range r.IntN(5) {
			if i > 0 {
				b.WriteByte(',')
			}
			randomJSON(r, b, depth-1)
		}
		b.WriteByte(']')
	case n < 6:
		strs := []string{`""`, `"plain"`, `"<script>&amp;</script>"`, `"\u2028\u2029"`, `"line\nbreak\t\"q\"\\"`,
			`"\u0000\u001f"`, `"😀 é"`, `"\ud83d\ude00"`, `"\/"`, "\"\xff\"", `"\ud800"`, "\"\x01\""}
		b.WriteString(strs[r.IntN(len(strs))])
	case n < 8:
		nums := []string{"0", "-0", "1", "-1", "3.0", "1e2", "1E+2", "2.5e-3", "0.1", "123456789012345678",
			"9007199254740993", "18446744073709551616", "-129", "255", "65536", "1e400", "-1e-400", "01", "1.", "-"}
		b.WriteString(nums[r.IntN(len(nums))])
	default:
		lits := []string{"true", "false", "null", "nul", "tru"}
		b.WriteString(lits[r.IntN(len(lits))])
	}
	if r.IntN(200) == 0 {
		b.WriteString([]string{",", "}", "]", " ", "\xff"}[r.IntN(5)])
	}
}

// TestNativeDecodeAsJSON holds the native decoding to encoding/json's on random JSON values,
// into every target: the same error-or-not and the same value, and the native encoding of it to
// json.Marshal's bytes.
func TestNativeDecodeAsJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		var b strings.Builder
		randomJSON(r, &b, 4)
		checkNativeDecode(t, []byte(b.String()))
	}
}

// TestNativeEncodeAsJSON holds the native encoding to json.Marshal's bytes, and errors, on values
// that a program builds rather than decodes: integers, named types, invalid UTF-8, numbers
// without a JSON form, values with codec methods of their own, nested in maps and slices.
func TestNativeEncodeAsJSON(t *testing.T) {
	n := 7
	values := []any{
		nil, "a<b>&c\u2028", "bad \xff utf-8", 0.0, math.Copysign(0, -1), 1e21, 1e-7, 123456789.125,
		math.NaN(), math.Inf(1), true, 42, int64(-1 << 62), uint(7), &n, (*int)(nil),
		nativeMeta{"progressToken": "t", "n": 3}, nativeList{1, "x"}, nativeText("<t>"), nativeSmall(-3),
		nativeCount(9), marshaling{"ignored": 1}, json.Number("12.50"), json.RawMessage(`{"b" : "<x>"}`),
		map[string]any{"z": 1, "a": []any{map[string]any{"\xff": nil}}, "m": nativeMeta{"k": float32(0.1)}},
		map[string]any{"bad": make(chan int)}, []any{math.Inf(-1)}, map[string]any(nil), []any(nil),
		struct{ A int }{A: 1}, []string{"<"}, []byte("bytes"),
	}
	for _, v := range values {
		checkNativeEncode(t, v)
	}
}

// TestNativeDecodeKeeps holds the native decoding to json.Unmarshal where a value is there
// already: a map is merged into, an interface holding a pointer decodes into it, null leaves a
// scalar as it was.
func TestNativeDecodeKeeps(t *testing.T) {
	m := map[string]any{"old": true}
	n := 5
	var held any = &n
	s := "kept"
	require.NoError(t, decodeAs(topDecoder([]byte(`{"new":1}`)), &m, decodeExternal))
	require.NoError(t, decodeAs(topDecoder([]byte(`7`)), &held, decodeExternal))
	require.NoError(t, decodeAs(topDecoder([]byte(`null`)), &s, decodeExternal))
	assert.Equal(t, map[string]any{"old": true, "new": 1.0}, m)
	assert.Equal(t, 7, n)
	assert.Equal(t, "kept", s)
}

// TestNativeDecodeErrors: the native decoding's errors are the decoder's, at JSON pointers.
func TestNativeDecodeErrors(t *testing.T) {
	for _, c := range []struct {
		in, err string
		v       any
	}{
		{`{"a":[1,{"b":"\ud800"}]}`, `/a/1/b: lone surrogate in \u escape`, new(any)},
		{`{"a":1,"a":2}`, `/a: duplicate member name`, new(map[string]any)},
		{`"x"`, `(root): expected object, found string`, new(nativeMeta)},
		{`1.5`, `(root): cannot decode number 1.5 into wire.nativeSmall`, new(nativeSmall)},
		{`300`, `(root): cannot decode number 300 into wire.nativeSmall`, new(nativeSmall)},
		{`[1e400]`, `/0: number out of range`, new([]any)},
	} {
		err := decodeAs(topDecoder([]byte(c.in)), c.v, decodeExternal)
		var de *DecodeError
		require.True(t, errors.As(err, &de), "%s: %v", c.in, err)
		assert.Equal(t, c.err, fmt.Sprint(newDecoder(nil).fail(err)), c.in)
	}
}

// FuzzNativeCoding holds the native decoding to encoding/json's on any input, into every target,
// and the native encoding of what both decode to json.Marshal's bytes.
func FuzzNativeCoding(f *testing.F) {
	for _, s := range []string{`{"a":[1,"<x>",{"b":null}],"c":true}`, `"\u2028"`, `-0`, `1e400`, `{"a":1,"a":2}`, "\"\xff\""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkNativeDecode(t, data)
	})
}

// generated stands for a generated type: its codecs are its encode and decode, which its
// MarshalJSON, AppendJSON and UnmarshalJSON run, as generated code has them.
type generated struct {
	Name  string
	Extra json.RawMessage
}

func (v *generated) encode(e *encoder) {
	e.beginObject()
	e.key("name")
	e.str(v.Name)
	if v.Extra != nil {
		e.key("extra")
		e.raw(v.Extra)
	}
	e.endObject()
}

func (v *generated) decode(d *decoder) error {
	*v = generated{}
	if null, err := d.null(); err != nil || null {
		return err
	}
	return d.object(func(name string) (err error) {
		switch name {
		case "name":
			v.Name, err = d.str()
		case "extra":
			v.Extra, err = d.raw()
		default:
			err = d.skip()
		}
		return err
	})
}

func (v generated) MarshalJSON() ([]byte, error) { return marshalJSON(v.encode) }

func (v generated) AppendJSON(dst []byte) ([]byte, error) { return appendJSON(dst, v.encode) }

func (v *generated) UnmarshalJSON(data []byte) error { return unmarshal(data, v) }

// TestNativeGenerated holds the coding of a substitute of a generated type by its own encode and
// decode to encoding/json's, which calls its MarshalJSON and UnmarshalJSON: the same bytes
// (raw values compacted and HTML-escaped as encoding/json does), the same values, null as nil.
func TestNativeGenerated(t *testing.T) {
	for _, v := range []*generated{nil, {Name: "<a>"}, {Name: "b", Extra: json.RawMessage(`{"x": "<y>" }`)}} {
		checkNativeEncode(t, v)
	}
	for _, in := range []string{`null`, `{"name":"<a>","extra":{"x": 1}}`, `{"name":1}`, `{"name":"a","name":"b"}`} {
		want, got := new(*generated), new(*generated)
		errWant := decodeAs(newDecoder([]byte(in)), want, decodeByJSON)
		errGot := decodeAs(topDecoder([]byte(in)), got, decodeExternal)
		require.Equal(t, errWant == nil, errGot == nil, "%s: %v / %v", in, errWant, errGot)
		if errWant == nil {
			assert.Equal(t, want, got, in)
		}
		var wantValue, gotValue generated
		errWant = decodeAs(newDecoder([]byte(in)), &wantValue, decodeByJSON)
		errGot = decodeAs(topDecoder([]byte(in)), &gotValue, decodeExternal)
		require.Equal(t, errWant == nil, errGot == nil, "%s: %v / %v", in, errWant, errGot)
		if errWant == nil {
			assert.Equal(t, wantValue, gotValue, in)
		}
	}
}

// TestMissingMember holds missingMember to naming the first required member not seen.
func TestMissingMember(t *testing.T) {
	d := newDecoder(nil)
	err := d.missingMember(0b001, 0b101, "a", "b", "c")
	require.Error(t, err)
	assert.Contains(t, err.Error(), `missing required member "c"`)
	err = d.missingMember(0b100, 0b101, "a", "b", "c")
	assert.Contains(t, err.Error(), `missing required member "a"`)
}
