package wire

import (
	"encoding"
	"encoding/json"
	"reflect"
	"strconv"
	"unicode/utf8"
)

// The native coding of substituted types: the values that encoding/json decodes into an
// interface (map[string]any, []any, string, float64, bool, nil), and the types without codec
// methods of their own whose kind is one of those (a named map[string]any, a string type, an int),
// are coded by this runtime's scanner and encoder, to the bytes and values encoding/json gives
// them. Handing them to encoding/json would cost a reflective walk, a check of its bytes again
// and, for a generated type coded by encoding/json, a compaction of the output. Any other value,
// and a value whose type has MarshalJSON, MarshalText, UnmarshalJSON or UnmarshalText, is coded by
// encoding/json (encodeExternal, decodeExternal).

// generatedCodec is a pointer to a type of this package whose codecs are generated: its
// MarshalJSON and AppendJSON run its encode, its UnmarshalJSON its decode. (A type that keeps
// hand-written codecs, Config.TagCodecs, has no AppendJSON.)
type generatedCodec interface {
	encode(e *encoder)
	decode(d *decoder) error
	AppendJSON(dst []byte) ([]byte, error)
}

// encodeNative writes v as json.Marshal writes it, if v is a value it writes itself, and reports
// whether it was.
func encodeNative(e *encoder, v any) bool {
	switch x := v.(type) {
	case generatedCodec:
		return encodeGenerated(e, x)
	case nil:
		e.null()
	case string:
		e.text(x)
	case float64:
		e.float64(x)
	case bool:
		e.bool(x)
	case int:
		e.int64(int64(x))
	case int64:
		e.int64(x)
	case map[string]any:
		encodeMapOfAny(e, x)
	case []any:
		encodeSliceOfAny(e, x)
	case json.Number, json.Marshaler, encoding.TextMarshaler:
		return false
	default:
		return encodeKind(e, reflect.ValueOf(v))
	}
	return true
}

// encodeKind is encodeNative for a value of another type, written by its kind: through a pointer,
// a string, a boolean, an integer, a float64, or a map or slice of the underlying type
// map[string]any or []any.
func encodeKind(e *encoder, x reflect.Value) bool {
	if x.Kind() == reflect.Pointer {
		if x.IsNil() {
			e.null()
			return true
		}
		if x.Type().Elem() == reflect.TypeFor[json.Number]() {
			return false
		}
		x = x.Elem()
	}
	switch x.Kind() {
	case reflect.String:
		e.text(x.String())
	case reflect.Bool:
		e.bool(x.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.int64(x.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		e.buf = strconv.AppendUint(e.buf, x.Uint(), 10)
	case reflect.Float64:
		e.float64(x.Float())
	case reflect.Map, reflect.Slice:
		mapOfAny, sliceOfAny := reflect.TypeFor[map[string]any](), reflect.TypeFor[[]any]()
		switch {
		case x.Type().ConvertibleTo(mapOfAny):
			encodeMapOfAny(e, x.Convert(mapOfAny).Interface().(map[string]any))
		case x.Type().ConvertibleTo(sliceOfAny):
			encodeSliceOfAny(e, x.Convert(sliceOfAny).Interface().([]any))
		default:
			return false
		}
	default:
		return false
	}
	return true
}

// encodeGenerated writes v, a pointer to a value of a generated type, with its encode, as
// json.Marshal does with its MarshalJSON: null when nil. Output holding raw JSON values is taken
// back (and reported not written): encoding/json would compact them.
func encodeGenerated(e *encoder, v generatedCodec) bool {
	if reflect.ValueOf(v).IsNil() {
		e.null()
		return true
	}
	start, raws := len(e.buf), e.raws
	v.encode(e)
	if e.raws != raws {
		e.buf = e.buf[:start]
		return false
	}
	return true
}

// encodeAnyValue writes v, a value held by an interface, as json.Marshal writes it.
func encodeAnyValue(e *encoder, v any) {
	if !encodeNative(e, v) {
		encodeByJSON(e, v)
	}
}

// encodeMapOfAny writes m as json.Marshal does: null when nil, else its entries sorted by key.
func encodeMapOfAny(e *encoder, m map[string]any) {
	if m == nil {
		e.null()
		return
	}
	e.beginObject()
	keys, mark := sortedKeys(e, m)
	for _, k := range keys {
		e.keyStart(k)
		e.text(k)
		e.buf = append(e.buf, ':')
		encodeAnyValue(e, m[k])
	}
	e.releaseKeys(mark)
	e.endObject()
}

// encodeSliceOfAny writes s as json.Marshal does: null when nil.
func encodeSliceOfAny(e *encoder, s []any) {
	if s == nil {
		e.null()
		return
	}
	e.beginArray()
	for i, x := range s {
		e.elem(i)
		encodeAnyValue(e, x)
	}
	e.endArray()
}

// text writes s as json.Marshal does: as str does, but invalid UTF-8 is written as U+FFFD
// (which encoding/json replaces it by), not an error.
func (e *encoder) text(s string) {
	if utf8.ValidString(s) {
		e.str(s)
		return
	}
	b, _ := json.Marshal(s) // a string always encodes
	e.buf = append(e.buf, b...)
}

// decodeNative decodes the next value into v, a pointer to a value of a substituted type, as
// json.Unmarshal would, if v is a value it decodes itself, and reports whether it was. A map,
// slice or interface that holds a value already is left to encoding/json, which decodes into what
// it holds.
func decodeNative(d *decoder, v any) (bool, error) {
	switch p := v.(type) {
	case generatedCodec:
		return true, p.decode(d)
	case *any:
		if *p != nil && reflect.TypeOf(*p).Kind() == reflect.Pointer {
			return false, nil
		}
		x, err := d.anyValue()
		if err == nil {
			*p = x
		}
		return true, err
	case *map[string]any:
		if *p != nil {
			return false, nil
		}
		m, err := d.nullableMapOfAny()
		if err == nil {
			*p = m
		}
		return true, err
	case *[]any:
		if *p != nil {
			return false, nil
		}
		s, err := d.nullableSliceOfAny()
		if err == nil {
			*p = s
		}
		return true, err
	case *json.Number, json.Unmarshaler, encoding.TextUnmarshaler:
		return false, nil
	}
	x := reflect.ValueOf(v)
	if x.Kind() != reflect.Pointer || x.IsNil() {
		return false, nil
	}
	if x.Elem().Kind() == reflect.Pointer && x.Elem().Type().Implements(reflect.TypeFor[generatedCodec]()) {
		return true, decodeGeneratedPointer(d, x.Elem())
	}
	return decodeKind(d, x.Elem())
}

// decodeGeneratedPointer decodes the next value into p, a pointer to a generated type, as
// json.Unmarshal does: null sets it to nil, another value is decoded into what it points to, a
// new value if it is nil.
func decodeGeneratedPointer(d *decoder, p reflect.Value) error {
	if null, err := d.null(); null || err != nil {
		if err == nil {
			p.SetZero()
		}
		return err
	}
	if p.IsNil() {
		p.Set(reflect.New(p.Type().Elem()))
	}
	return p.Interface().(generatedCodec).decode(d)
}

// decodeKind is decodeNative for a value of another type, decoded by its kind: a string, a
// boolean, an integer, a float64, or a nil map or slice of the underlying type map[string]any or
// []any. null leaves a value as it is, as json.Unmarshal does.
func decodeKind(d *decoder, x reflect.Value) (bool, error) {
	var v any
	var err error
	switch kind := x.Kind(); {
	case kind == reflect.Map && x.IsNil() && x.Type().ConvertibleTo(reflect.TypeFor[map[string]any]()):
		v, err = d.nullableMapOfAny()
	case kind == reflect.Slice && x.IsNil() && x.Type().ConvertibleTo(reflect.TypeFor[[]any]()):
		v, err = d.nullableSliceOfAny()
	case kind != reflect.String && kind != reflect.Bool && kind != reflect.Float64 &&
		(kind < reflect.Int || kind > reflect.Uintptr):
		return false, nil
	case d.peek() == 'n':
		return true, d.literal("null")
	case kind == reflect.String:
		v, err = d.str()
	case kind == reflect.Bool:
		v, err = d.bool()
	case kind == reflect.Float64:
		v, err = d.float64()
	default:
		return true, d.integer(x)
	}
	if err == nil {
		x.Set(reflect.ValueOf(v).Convert(x.Type()))
	}
	return true, err
}

// integer decodes a number into x, of an integer kind, as json.Unmarshal does: only digits,
// without fraction or exponent, in the range of x's type.
func (d *decoder) integer(x reflect.Value) error {
	b, err := d.number()
	if err != nil {
		return err
	}
	if reflect.Int <= x.Kind() && x.Kind() <= reflect.Int64 {
		n, err := strconv.ParseInt(unsafeString(b), 10, 64)
		if err != nil || x.OverflowInt(n) {
			return d.errorf("cannot decode number %s into %s", b, x.Type())
		}
		x.SetInt(n)
		return nil
	}
	n, err := strconv.ParseUint(unsafeString(b), 10, 64)
	if err != nil || x.OverflowUint(n) {
		return d.errorf("cannot decode number %s into %s", b, x.Type())
	}
	x.SetUint(n)
	return nil
}

// anyValue reads the next value as json.Unmarshal reads one into an interface: an object as a
// map[string]any, an array as an []any, a number as a float64, a string, a boolean, null as nil.
// Strings alias the input as the decoder's other strings do.
func (d *decoder) anyValue() (any, error) {
	switch c := d.peek(); {
	case c == '{':
		m, err := d.mapOfAny()
		if err != nil {
			return nil, err
		}
		return m, nil
	case c == '[':
		s, err := d.sliceOfAny()
		if err != nil {
			return nil, err
		}
		return s, nil
	case c == '"':
		return d.str()
	case c == 't' || c == 'f':
		return d.bool()
	case c == 'n':
		return nil, d.literal("null")
	case c == '-' || '0' <= c && c <= '9':
		return d.float64()
	}
	return nil, d.errorf("expected value, found %s", d.found())
}

// mapOfAny reads an object whose values anyValue reads.
func (d *decoder) mapOfAny() (map[string]any, error) {
	m := map[string]any{}
	err := d.objectBytes(func(name []byte) error {
		x, err := d.anyValue()
		m[d.key(name)] = x
		return err
	})
	return m, err
}

// sliceOfAny reads an array whose elements anyValue reads.
func (d *decoder) sliceOfAny() ([]any, error) {
	s := []any{}
	err := d.array(func(int) error {
		x, err := d.anyValue()
		s = append(s, x)
		return err
	})
	return s, err
}

// nullableMapOfAny is mapOfAny that reads null as nil, as json.Unmarshal does into a nil map.
func (d *decoder) nullableMapOfAny() (map[string]any, error) {
	if null, err := d.null(); null || err != nil {
		return nil, err
	}
	return d.mapOfAny()
}

// nullableSliceOfAny is sliceOfAny that reads null as nil, as json.Unmarshal does into a nil slice.
func (d *decoder) nullableSliceOfAny() ([]any, error) {
	if null, err := d.null(); null || err != nil {
		return nil, err
	}
	return d.sliceOfAny()
}
