package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// run calls read on a decoder for input, then checks the input ends.
func run(input string, read func(d *decoder) error) error {
	d := newDecoder([]byte(input))
	if err := read(d); err != nil {
		return err
	}
	return d.end()
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestStr(t *testing.T) {
	tests := []struct {
		in, want, err string
	}{
		{in: `"abc"`, want: "abc"},
		{in: ` "" `, want: ""},
		{in: `"a\nb\t\r\b\f\/\\\""`, want: "a\nb\t\r\b\f/\\\""},
		{in: `"caf\u00e9 caf\u00C9"`, want: "café cafÉ"},
		{in: `"\ud83d\ude00 \uD83D\uDE00"`, want: "😀 😀"},
		{in: `"\u0000"`, want: "\x00"},
		{in: `"é😀"`, want: "é😀"},
		{in: `"\ud83d"`, err: `(root): lone surrogate in \u escape`},
		{in: `"\ude00"`, err: `(root): lone surrogate in \u escape`},
		{in: `"\ud83d\u0041"`, err: `(root): lone surrogate in \u escape`},
		{in: `"\ud83dx\ude00"`, err: `(root): lone surrogate in \u escape`},
		{in: `"\u12"`, err: `(root): invalid \u escape`},
		{in: `"\u12g4"`, err: `(root): invalid \u escape`},
		{in: `"\x"`, err: `(root): invalid escape "\\x"`},
		{in: "\"\xff\"", err: "(root): invalid UTF-8 in string"},
		{in: "\"\xed\xa0\x80\"", err: "(root): invalid UTF-8 in string"}, // encoded surrogate
		{in: "\"a\x01\"", err: "(root): control character in string"},
		{in: "\"a\n\"", err: "(root): control character in string"},
		{in: `"abc`, err: "(root): unexpected end of input in string"},
		{in: `"abc\`, err: "(root): unexpected end of input in string"},
		{in: `12`, err: "(root): expected string, found number"},
		{in: ``, err: "(root): expected string, found end of input"},
		{in: `"a" "b"`, err: "(root): unexpected string after top-level value"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			var got string
			err := run(tt.in, func(d *decoder) (err error) {
				got, err = d.str()
				return err
			})
			assert.Equal(t, tt.err, errText(err))
			if tt.err == "" {
				assert.Equal(t, tt.want, got)
			}
		})
	}
}

func TestNumbers(t *testing.T) {
	tests := []struct {
		in       string
		i        int64
		iErr     string
		f        float64
		fErr     string
		skipOnly bool
	}{
		{in: "0", i: 0, f: 0},
		{in: "-0", i: 0, f: math.Copysign(0, -1)},
		{in: "3", i: 3, f: 3},
		{in: "3.0", i: 3, f: 3},
		{in: "3e2", i: 300, f: 300},
		{in: "3E+2", i: 300, f: 300},
		{in: "300e-2", i: 3, f: 3},
		{in: "0.05e2", i: 5, f: 5},
		{in: "-12.50e1", i: -125, f: -125},
		{in: "0e999999999999999999999", i: 0, f: 0},
		{in: "3.5", iErr: "(root): not an integer", f: 3.5},
		{in: "1e-7", iErr: "(root): not an integer", f: 1e-7},
		{in: "9223372036854775807", i: math.MaxInt64, f: 9223372036854775807},
		{in: "-9223372036854775808", i: math.MinInt64, f: -9223372036854775808},
		{in: "-9.223372036854775808e18", i: math.MinInt64, f: -9223372036854775808},
		{in: "9223372036854775808", iErr: "(root): integer out of range", f: 9223372036854775808},
		{in: "1e19", iErr: "(root): integer out of range", f: 1e19},
		{in: "1e999999999999999999999", iErr: "(root): integer out of range", fErr: "(root): number out of range"},
		{in: "1e-999999999999999999999", iErr: "(root): not an integer", f: 0},
		{in: "1e400", iErr: "(root): integer out of range", fErr: "(root): number out of range"},
		{in: "01", iErr: "(root): unexpected number after top-level value", fErr: "(root): unexpected number after top-level value"},
		{in: "-", iErr: "(root): invalid number", fErr: "(root): invalid number"},
		{in: "1.", iErr: "(root): invalid number", fErr: "(root): invalid number"},
		{in: ".5", iErr: "(root): expected number, found invalid character '.'", fErr: "(root): expected number, found invalid character '.'"},
		{in: "1e", iErr: "(root): invalid number", fErr: "(root): invalid number"},
		{in: "1e+", iErr: "(root): invalid number", fErr: "(root): invalid number"},
		{in: "+1", iErr: "(root): expected number, found invalid character '+'", fErr: "(root): expected number, found invalid character '+'"},
		{in: `"1"`, iErr: "(root): expected number, found string", fErr: "(root): expected number, found string"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			var i int64
			err := run(tt.in, func(d *decoder) (err error) {
				i, err = d.int64()
				return err
			})
			assert.Equal(t, tt.iErr, errText(err), "int64")
			assert.Equal(t, tt.i, i, "int64")
			var f float64
			err = run(tt.in, func(d *decoder) (err error) {
				f, err = d.float64()
				return err
			})
			assert.Equal(t, tt.fErr, errText(err), "float64")
			assert.Equal(t, math.Float64bits(tt.f), math.Float64bits(f), "float64 %v", f)
		})
	}
}

func TestLiterals(t *testing.T) {
	tests := []struct {
		in     string
		isNull bool
		b      bool
		bErr   string
		nErr   string
	}{
		{in: "true", b: true},
		{in: " false ", b: false},
		{in: "null", isNull: true, bErr: "(root): expected boolean, found null"},
		{in: "nul", isNull: true, bErr: "(root): expected boolean, found null", nErr: "(root): invalid literal, expected null"},
		{in: "tru", bErr: "(root): invalid literal, expected true"},
		{in: "falsey", bErr: "(root): unexpected invalid character 'y' after top-level value"},
		{in: "1", bErr: "(root): expected boolean, found number"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			var b bool
			err := run(tt.in, func(d *decoder) (err error) {
				b, err = d.bool()
				return err
			})
			assert.Equal(t, tt.bErr, errText(err), "bool")
			assert.Equal(t, tt.b, b)

			d := newDecoder([]byte(tt.in))
			isNull, err := d.null()
			assert.Equal(t, tt.nErr, errText(err), "null")
			assert.Equal(t, tt.isNull, isNull)
			if !isNull {
				assert.Equal(t, strings.TrimSpace(tt.in)[0], d.peek(), "null must not consume")
			}
		})
	}
}

func TestRaw(t *testing.T) {
	tests := []struct {
		in, want, err string
	}{
		{in: ` {"a" : [1, {"b": null}], "c":"\u00e9"} `, want: `{"a" : [1, {"b": null}], "c":"\u00e9"}`},
		{in: `[]`, want: `[]`},
		{in: `{}`, want: `{}`},
		{in: `-1.5e3`, want: `-1.5e3`},
		{in: "{\"a\":[1,{\"b\":\"\xff\"}]}", err: "/a/1/b: invalid UTF-8 in string"},
		{in: `{"a":1,"a":2}`, err: "/a: duplicate member name"},
		{in: `{"a":1,"\u0061":2}`, err: "/a: duplicate member name"},
		{in: `[{"x":{"a":1,"b":2,"a":3}}]`, err: "/0/x/a: duplicate member name"},
		{in: `{"a":{"x":1},"b":{"x":1}}`, want: `{"a":{"x":1},"b":{"x":1}}`},
		{in: `{"a/b":{"c~d":[tru]}}`, err: "/a~1b/c~0d/0: invalid literal, expected true"},
		{in: "{\"a\xffb\":1}", err: "/a\uFFFDb: member name: invalid UTF-8 in string"},
		{in: `{"a":1,}`, err: "/a: expected member name, found invalid character '}'"},
		{in: `{"a" 1}`, err: "/a: expected ':' after member name, found number"},
		{in: `{"a":1 "b":2}`, err: "/a: expected ',' or '}' after object member, found string"},
		{in: `[1 2]`, err: "/0: expected ',' or ']' after array element, found number"},
		{in: `[1,]`, err: "/1: expected value, found invalid character ']'"},
		{in: `{1:2}`, err: "(root): expected member name, found number"},
		{in: `{"a":`, err: "/a: expected value, found end of input"},
		{in: `{"ab`, err: "(root): member name: unexpected end of input in string"},
		{in: `[`, err: "/0: expected value, found end of input"},
		{in: `{"a":[1,2`, err: "/a/1: expected ',' or ']' after array element, found end of input"},
		{in: `}`, err: "(root): expected value, found invalid character '}'"},
		{in: `[] []`, err: "(root): unexpected array after top-level value"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			var got json.RawMessage
			err := run(tt.in, func(d *decoder) (err error) {
				got, err = d.raw()
				return err
			})
			assert.Equal(t, tt.err, errText(err))
			if tt.err == "" {
				assert.Equal(t, tt.want, string(got))
			}
			assert.Equal(t, tt.err, errText(run(tt.in, (*decoder).skip)), "skip")
		})
	}
}

func TestRawCopies(t *testing.T) {
	data := []byte(`{"a":1}`)
	got, err := newDecoder(data).raw()
	require.NoError(t, err)
	data[1] = 'X'
	assert.Equal(t, `{"a":1}`, string(got))
}

func TestDuplicateInLargeObject(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{`)
	for i := range 100 {
		fmt.Fprintf(&b, `"m%d":%d,`, i, i)
	}
	valid := b.String() + `"last":0}`
	dup := b.String() + `"m7":0}`
	require.NoError(t, run(valid, (*decoder).skip))
	assert.EqualError(t, run(dup, (*decoder).skip), "/m7: duplicate member name")
}

func TestNesting(t *testing.T) {
	const maxDepth = 10000
	require.Equal(t, maxDepth, MaxDecodeDepth)
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	require.NoError(t, run(deep(maxDepth), (*decoder).skip))
	err := run(deep(maxDepth+1), (*decoder).skip)
	require.Error(t, err)
	// The pointer keeps its first and last 16 segments.
	assert.Equal(t, strings.Repeat("/0", 16)+"/…"+strings.Repeat("/0", 16)+": nesting deeper than 10000 levels", err.Error())
	assert.False(t, json.Valid([]byte(deep(maxDepth+1))), "same limit as encoding/json")

	objects := strings.Repeat(`{"a":`, maxDepth+1) + "1" + strings.Repeat("}", maxDepth+1)
	assert.Error(t, run(objects, (*decoder).skip))
	// A truncated deep input fails without a panic.
	assert.Error(t, run(strings.Repeat(`[{"a":`, 3000), (*decoder).skip))
}

// TestTypedDecode reads the way generated code does, with a pointer to the
// failing value in the error.
func TestTypedDecode(t *testing.T) {
	type content struct{ typ, text string }
	decodeContent := func(d *decoder) (content, error) {
		var c content
		typ, ok, err := d.lookup("type")
		if err != nil {
			return c, err
		}
		if !ok {
			return c, d.errorf("missing type")
		}
		if string(typ) != `"text"` {
			return c, d.errorf("unknown type %s", typ)
		}
		return c, d.object(func(name string) (err error) {
			switch name {
			case "type":
				c.typ, err = d.str()
			case "text":
				c.text, err = d.str()
			default:
				err = d.skip()
			}
			return err
		})
	}
	decode := func(in string) ([]content, error) {
		var out []content
		d := newDecoder([]byte(in))
		err := d.object(func(name string) error {
			if name != "content" {
				return d.skip()
			}
			return d.array(func(int) error {
				c, err := decodeContent(d)
				out = append(out, c)
				return err
			})
		})
		if err == nil {
			err = d.end()
		}
		return out, err
	}

	got, err := decode(`{"x":[1],"content":[{"text":"hi","type":"text","more":{}}]}`)
	require.NoError(t, err)
	assert.Equal(t, []content{{"text", "hi"}}, got)

	_, err = decode(`{"content":[{"type":"text","text":"a"},{"type":"image"}]}`)
	assert.EqualError(t, err, `/content/1: unknown type "image"`)
	_, err = decode(`{"content":[{"type":"text","text":5}]}`)
	assert.EqualError(t, err, `/content/0/text: expected string, found number`)
	_, err = decode(`{"content":[{"type":"text","type":"text"}]}`)
	assert.EqualError(t, err, `/content/0/type: duplicate member name`)
	_, err = decode(`{"content":{}}`)
	assert.EqualError(t, err, `/content: expected array, found object`)
	_, err = decode(`[]`)
	assert.EqualError(t, err, `(root): expected object, found array`)

	// A member callback that reads nothing is an error, not a hang.
	err = newDecoder([]byte(`{"a":1}`)).object(func(string) error { return nil })
	assert.EqualError(t, err, "/a: value not read")
	err = newDecoder([]byte(`[1]`)).array(func(int) error { return nil })
	assert.EqualError(t, err, "/0: value not read")
}

func TestMembersLookup(t *testing.T) {
	d := newDecoder([]byte(` {"type":"text","b":{"c":[1]},"a":null} `))
	names, err := d.members()
	require.NoError(t, err)
	assert.Equal(t, map[string]bool{"type": true, "b": true, "a": true}, names)

	v, ok, err := d.lookup("b")
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, `{"c":[1]}`, string(v))
	v, ok, err = d.lookup("missing")
	require.NoError(t, err)
	assert.False(t, ok)
	assert.Nil(t, v)

	// Nothing was consumed.
	raw, err := d.raw()
	require.NoError(t, err)
	assert.Equal(t, `{"type":"text","b":{"c":[1]},"a":null}`, string(raw))

	for _, in := range []string{`[1]`, `"x"`, ``} {
		_, err := newDecoder([]byte(in)).members()
		assert.ErrorContains(t, err, "(root): expected object, found ")
		_, _, err = newDecoder([]byte(in)).lookup("a")
		assert.ErrorContains(t, err, "(root): expected object, found ")
	}
	_, err = newDecoder([]byte(`{"a":1,"a":2}`)).members()
	assert.EqualError(t, err, "/a: duplicate member name")
	_, _, err = newDecoder([]byte(`{"a":1,"b":"\x"}`)).lookup("c")
	assert.EqualError(t, err, `/b: invalid escape "\\x"`)
	// lookup reads the object up to the member only.
	v, ok, err = newDecoder([]byte(`{"a":1,"b":"\x"}`)).lookup("a")
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, `1`, string(v))
}

func TestSaveRestore(t *testing.T) {
	d := newDecoder([]byte(`{"a":[1,"x"]}`))
	var errs []string
	err := d.object(func(string) error {
		return d.array(func(int) error {
			s := d.save()
			_, err := d.int64()
			if err == nil {
				return nil
			}
			errs = append(errs, err.Error())
			d.restore(s)
			_, err = d.str()
			return err
		})
	})
	require.NoError(t, err)
	// Inside a decode an error has no pointer yet: the values around it add their segments as
	// it is returned.
	assert.Equal(t, []string{"(root): expected number, found string"}, errs)

	// After an error deep inside, restore rewinds to the checkpoint.
	d = newDecoder([]byte(`{"a":{"b":1}}`))
	s := d.save()
	err = d.object(func(string) error {
		return d.object(func(string) error { return fmt.Errorf("stop") })
	})
	require.EqualError(t, err, "stop")
	d.restore(s)
	assert.EqualError(t, d.errorf("here"), "(root): here")
	assert.Equal(t, byte('{'), d.peek())
}

// encoderCases are TestEncoder's writes to an encoder, each with the output or the error it must give.
var encoderCases = []struct {
	name  string
	write func(e *encoder)
	want  string
	err   string
}{
	{"object", func(e *encoder) {
		e.beginObject()
		e.key("a")
		e.int64(-42)
		e.key("b")
		e.beginArray()
		e.elem(0)
		e.bool(true)
		e.elem(1)
		e.null()
		e.elem(2)
		e.float64(1.5)
		e.endArray()
		e.key("c")
		e.beginObject()
		e.endObject()
		e.key("d")
		e.beginArray()
		e.endArray()
		e.endObject()
	}, `{"a":-42,"b":[true,null,1.5],"c":{},"d":[]}`, ""},
	{"raw", func(e *encoder) {
		e.beginArray()
		e.elem(0)
		e.raw(json.RawMessage(` {"x": 1} `))
		e.elem(1)
		e.raw(nil)
		e.endArray()
	}, `[ {"x": 1} ,null]`, ""},
	{"extra", func(e *encoder) {
		e.beginObject()
		e.key("known")
		e.str("k")
		e.extra(map[string]json.RawMessage{"z": json.RawMessage(`1`), "a<": json.RawMessage(`"x"`)})
		e.endObject()
	}, `{"known":"k","a\u003c":"x","z":1}`, ""},
	{"invalid UTF-8 pointer", func(e *encoder) {
		e.beginObject()
		e.key("a/b")
		e.beginArray()
		e.elem(0)
		e.str("ok")
		e.elem(1)
		e.str("bad \xff")
		e.endArray()
		e.endObject()
	}, "", `/a~1b/1: invalid UTF-8 in string`},
	{"invalid key", func(e *encoder) {
		e.beginObject()
		e.key("\xfe")
		e.null()
		e.endObject()
	}, "", "/\uFFFD: invalid UTF-8 in string"},
	{"NaN", func(e *encoder) { e.float64(math.NaN()) }, "", "(root): unsupported number NaN"},
	{"Inf", func(e *encoder) {
		e.beginArray()
		e.elem(0)
		e.float64(math.Inf(-1))
		e.endArray()
	}, "", "/0: unsupported number -Inf"},
	{"invalid raw", func(e *encoder) {
		e.beginObject()
		e.key("r")
		e.raw(json.RawMessage(`{"a":}`))
		e.endObject()
	}, "", "/r: invalid raw JSON: /a: expected value, found invalid character '}'"},
	{"raw with a duplicate member", func(e *encoder) {
		e.raw(json.RawMessage(`{"a":1,"a":2}`))
	}, "", "(root): invalid raw JSON: /a: duplicate member name"},
	{"raw with invalid UTF-8", func(e *encoder) {
		e.raw(json.RawMessage("\"\xff\""))
	}, "", "(root): invalid raw JSON: (root): invalid UTF-8 in string"},
	{"raw object", func(e *encoder) {
		e.rawObject(json.RawMessage(` {"a":1}`))
	}, ` {"a":1}`, ""},
	{"raw object that is not one", func(e *encoder) {
		e.rawObject(json.RawMessage(`"text"`))
	}, "", "(root): raw JSON of an unknown variant must be an object, found string"},
	{"empty raw object", func(e *encoder) {
		e.rawObject(nil)
	}, "", "(root): raw JSON of an unknown variant must be an object, found end of input"},
	{"extra", func(e *encoder) {
		e.beginObject()
		e.key("text")
		e.str("x")
		e.extra(map[string]json.RawMessage{"z": json.RawMessage(`1`), "a": json.RawMessage(`[]`)}, "text")
		e.endObject()
	}, `{"text":"x","a":[],"z":1}`, ""},
	{"extra with a defined member", func(e *encoder) {
		e.beginObject()
		e.key("text")
		e.str("x")
		e.extra(map[string]json.RawMessage{"text": json.RawMessage(`"y"`)}, "type", "text")
		e.endObject()
	}, "", `/text: Extra holds "text", a member the type defines`},
	{"first error kept", func(e *encoder) {
		e.errorf("first %d", 1)
		e.errorf("second")
	}, "", "(root): first 1"},
}

func TestEncoder(t *testing.T) {
	for _, tt := range encoderCases {
		t.Run(tt.name, func(t *testing.T) {
			got, err := encodeWith(tt.write)
			assert.Equal(t, tt.err, errText(err))
			if tt.err == "" {
				assert.Equal(t, tt.want, string(got))
				assert.True(t, json.Valid(got))
			}
		})
	}
}

func TestEncodeLikeEncodingJSON(t *testing.T) {
	strs := []string{
		"", "plain", `quote " backslash \ slash /`, "\n\r\t\b\f\x00\x01\x1f\x7f",
		"<script>&amp;</script>", "é ü 😀 \u2028 \u2029 \u00a0 \ufeff \U0010ffff",
	}
	for _, s := range strs {
		want, err := json.Marshal(s)
		require.NoError(t, err)
		var e encoder
		e.str(s)
		require.NoError(t, e.err)
		assert.Equal(t, string(want), string(e.buf), "%q", s)
	}

	floats := []float64{
		0, math.Copysign(0, -1), 1, -1, 0.1, 0.2, 1.0 / 3, 100, 1e6, 1e20, 1e21, 1e-6, 1e-7,
		123456789012345680000, 5e-324, 1.7976931348623157e308, -1e-300, 12345.678e-10,
		math.MaxInt64, 2.5e-8, 1e100,
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		f := math.Float64frombits(r.Uint64())
		if !math.IsNaN(f) && !math.IsInf(f, 0) {
			floats = append(floats, f)
		}
	}
	for _, f := range floats {
		want, err := json.Marshal(f)
		require.NoError(t, err)
		var e encoder
		e.float64(f)
		require.NoError(t, e.err)
		require.Equal(t, string(want), string(e.buf), "%v", f)
	}
}

func FuzzEncodeStr(f *testing.F) {
	f.Add("a<b>&\u2028\x00é")
	f.Fuzz(func(t *testing.T, s string) {
		var e encoder
		e.str(s)
		if !utf8.ValidString(s) {
			require.Error(t, e.err)
			return
		}
		want, err := json.Marshal(s)
		require.NoError(t, err)
		require.Equal(t, string(want), string(e.buf))
	})
}

// duplicateOrSurrogate reports whether valid JSON data has a duplicate
// member name or a lone surrogate escape, which encoding/json accepts.
func duplicateOrSurrogate(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	var stack []map[string]bool
	expectKey := false
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, map[string]bool{})
			expectKey = true
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		case json.Delim('['):
			stack = append(stack, nil)
		default:
			if s, ok := tok.(string); ok && expectKey {
				if stack[len(stack)-1][s] {
					return true
				}
				stack[len(stack)-1][s] = true
				expectKey = false
				continue
			}
		}
		expectKey = len(stack) > 0 && stack[len(stack)-1] != nil
	}
	// A high surrogate escape must be directly followed by a low one.
	high := false
	for i := 0; i < len(data); i++ {
		if data[i] != '\\' {
			if high {
				return true
			}
			continue
		}
		i++
		r := rune(-1)
		if data[i] == 'u' {
			r, _ = hex4(data[i+1:])
			i += 4
		}
		if high != (0xDC00 <= r && r <= 0xDFFF) {
			return true
		}
		high = 0xD800 <= r && r < 0xDC00
	}
	return high
}

func FuzzDecoder(f *testing.F) {
	for _, s := range []string{
		`{"a":[1,{"b":"\u00e9\ud83d\ude00"}],"c":-1.5e3,"d":true,"e":null}`,
		` [] `, `"x"`, `{"a":1,"a":2}`, `"\ud83d"`, "\"\xff\"", `[[[[`, `1e999`,
		`{"a":{"b":{}},"c":[]}`, `{"\u0061":1,"a":2}`,
		`"caf\u00e9 \"a\"\n\tb → é\\ \ud83d\ude00 end of a longer string"`, `"x\u00e"`, "\"a\\n\x01\"",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d := newDecoder(data)
		got, err := d.raw()
		if err == nil {
			err = d.end()
		}
		valid := json.Valid(data) && utf8.Valid(data) && !duplicateOrSurrogate(data)
		if valid {
			require.NoError(t, err)
			require.Equal(t, string(bytes.Trim(data, " \t\r\n")), string(got))
		} else if err == nil {
			t.Fatalf("accepted invalid input %q", data)
		}
		// A string read by a top-level decode (checked and unescaped in place in its copy of the
		// input) is encoding/json's string, and the caller's input is left as it was.
		in := bytes.Clone(data)
		td := topDecoder(in)
		s, err := td.str()
		if err == nil {
			err = td.end()
		}
		var want string
		isString := bytes.HasPrefix(bytes.TrimLeft(data, " \t\r\n"), []byte(`"`)) // json.Unmarshal takes null too
		if isString && json.Unmarshal(data, &want) == nil && utf8.Valid(data) && !duplicateOrSurrogate(data) {
			require.NoError(t, err)
			require.Equal(t, want, s)
		} else if err == nil {
			t.Fatalf("accepted invalid string %q", data)
		}
		require.Equal(t, data, in)
		// A decode that keeps the caller's input (NoCopy) reads the same string, unescaped into a
		// buffer of its own, and only reads the input.
		nd := noCopyDecoder(in)
		s2, err2 := nd.str()
		if err2 == nil {
			err2 = nd.end()
		}
		require.Equal(t, err == nil, err2 == nil, "%v / %v", err, err2)
		require.Equal(t, s, s2)
		require.Equal(t, data, in)
		// The typed readers never panic either.
		_, _ = newDecoder(data).anyValue()
		_, _ = newDecoder(data).members()
		_, _, _ = newDecoder(data).lookup("a")
		_, _ = newDecoder(data).int64()
	})
}

// message is a realistic ~1 KB MCP message: a sampling request.
const message = `{"jsonrpc":"2.0","id":42,"method":"sampling/createMessage","params":{` +
	`"messages":[{"role":"user","content":{"type":"text","text":"What is the weather like in Paris today? Please answer briefly \u2014 in one sentence."}},` +
	`{"role":"assistant","content":{"type":"text","text":"It is sunny and 21 \u00b0C in Paris, with a light breeze from the west."}},` +
	`{"role":"user","content":{"type":"image","data":"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==","mimeType":"image/png"}}],` +
	`"modelPreferences":{"hints":[{"name":"claude-3-sonnet"},{"name":"claude"}],"costPriority":0.3,"speedPriority":0.8,"intelligencePriority":0.5},` +
	`"systemPrompt":"You are a helpful assistant that answers questions about the weather. Keep answers short and factual.",` +
	`"includeContext":"thisServer","temperature":0.7,"maxTokens":1000,"stopSequences":["\n\nHuman:","\n\nAssistant:"],` +
	`"metadata":{"requestSource":"weather-tool","trace":{"spanId":"7f3a9c21b4e8d560","sampled":true,"attempt":1}},` +
	`"_meta":{"progressToken":"tok-8b1e2d","io.modelcontextprotocol/related-task":{"taskId":"task-1234"}}}}`

func TestBenchmarkMessage(t *testing.T) {
	require.True(t, json.Valid([]byte(message)))
	got, err := newDecoder([]byte(message)).anyValue()
	require.NoError(t, err)
	var want map[string]any
	require.NoError(t, json.Unmarshal([]byte(message), &want))
	assert.Equal(t, want, got)

	var e encoder
	encodeAnyValue(&e, want)
	require.NoError(t, e.err)
	marshaled, err := json.Marshal(want)
	require.NoError(t, err)
	assert.Equal(t, string(marshaled), string(e.buf))
}

func BenchmarkDecode(b *testing.B) {
	data := []byte(message)
	b.Run("wire", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if _, err := newDecoder(data).anyValue(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("wire-raw", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if _, err := newDecoder(data).raw(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json-valid", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if !json.Valid(data) {
				b.Fatal("invalid")
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			var m map[string]any
			if err := json.Unmarshal(data, &m); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkEncode(b *testing.B) {
	var v map[string]any
	if err := json.Unmarshal([]byte(message), &v); err != nil {
		b.Fatal(err)
	}
	b.Run("wire", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(message)))
		for b.Loop() {
			e := encoder{buf: make([]byte, 0, 2048)}
			encodeAnyValue(&e, v)
			if e.err != nil {
				b.Fatal(e.err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(message)))
		for b.Loop() {
			if _, err := json.Marshal(v); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// encodeWith runs write as the generated MarshalJSON runs an encode: once, and on an error again
// with the pointer traced.
func encodeWith(write func(e *encoder)) ([]byte, error) {
	e := newEncoder()
	write(e)
	if e.err != nil {
		write(e.retrace())
	}
	return e.marshaled()
}

func TestNewEncoder(t *testing.T) {
	write := func(e *encoder) {
		e.beginObject()
		e.member(`"a":`)
		e.int64(1)
		e.key("b")
		e.str("x")
		e.endObject()
	}
	for range 3 { // the pooled encoders start clean
		got, err := encodeWith(write)
		require.NoError(t, err)
		assert.Equal(t, `{"a":1,"b":"x"}`, string(got))
	}
	// AppendJSON appends; on an error it returns the buffer as it was.
	e := appendEncoder([]byte("prefix "))
	write(e)
	got, err := e.appended()
	require.NoError(t, err)
	assert.Equal(t, `prefix {"a":1,"b":"x"}`, string(got))
	e = appendEncoder([]byte("prefix "))
	e.beginArray()
	e.elem(0)
	e.str("\xff")
	e.endArray()
	got, err = e.appended()
	assert.EqualError(t, err, "(root): invalid UTF-8 in string")
	assert.Equal(t, "prefix ", string(got))
}

// TestExtraHoldsAbsent: a member that must not be present is never written; an Extra holding it
// is an encoding error at its pointer.
func TestExtraHoldsAbsent(t *testing.T) {
	write := func(extra map[string]json.RawMessage) func(e *encoder) {
		return func(e *encoder) {
			e.beginObject()
			e.member(`"a":`)
			e.int64(1)
			if extraHoldsAbsent(e, extra, []string{"gone"}) {
				return
			}
			e.extra(extra, "a")
			e.endObject()
		}
	}
	got, err := encodeWith(write(map[string]json.RawMessage{"other": json.RawMessage(`2`)}))
	require.NoError(t, err)
	assert.Equal(t, `{"a":1,"other":2}`, string(got))
	got, err = encodeWith(write(map[string]json.RawMessage{"gone": json.RawMessage(`2`)}))
	assert.EqualError(t, err, `/gone: Extra holds "gone", a member that must not be present`)
	assert.Nil(t, got)
}
