package wire

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
)

// The helpers of the values of substituted types: existing Go types that a configuration puts in
// place of schema types (emit.Config.Substitutes). Their contract is encoding/json's: json.Marshal
// and json.Unmarshal encode and decode them (through their MarshalJSON and UnmarshalJSON, if they
// have them), and their Validate() error, if they have one, is checked by the enclosing type's
// Validate. They are in the runtime, not in the code that calls them, so that two outputs that
// share a package (and its runtime) declare them once.

// encodeExternal encodes v, a value of a substituted type (or a pointer to it), as encoding/json
// does: natively where it can (wire_native.go), else with encoding/json. An error is the
// encoder's, at the value's JSON pointer.
func encodeExternal(e *encoder, v any) {
	if !encodeNative(e, v) {
		encodeByJSON(e, v)
	}
}

// encodeByJSON encodes v with encoding/json, and checks its bytes as raw JSON.
func encodeByJSON(e *encoder, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		e.errorf("%v", err)
		e.null()
		return
	}
	e.raw(b)
}

// decodeExternal decodes the next value into v, a pointer to a value of a substituted type, as
// encoding/json does: natively where it can (wire_native.go), else with encoding/json. An error
// names the value's JSON pointer.
func decodeExternal(d *decoder, v any) error {
	if native, err := decodeNative(d, v); native {
		return err
	}
	return decodeByJSON(d, v)
}

// decodeByJSON checks the next value as raw JSON and decodes it into v with encoding/json.
func decodeByJSON(d *decoder, v any) error {
	raw, err := d.raw()
	if err != nil {
		return err
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return d.errorf("%v", err)
	}
	return nil
}

// readExternal reads the next value, of a substituted type T, with encoding/json: the reader of
// the elements of arrays and maps of T.
func readExternal[T any](d *decoder) (T, error) {
	var v T
	err := decodeExternal(d, &v)
	return v, err
}

// zeroExternal reports whether *p, a struct or a value of a substituted type held by an
// optional member encoded when not its zero value (emit.Config.Optional omitzero), is zero as
// encoding/json's omitzero decides: by its IsZero() bool method, if the value or its pointer has
// one, else as reflect.Value.IsZero does. p points to the value. An output without such members
// leaves this function out.
func zeroExternal(p any) bool {
	if z, ok := p.(interface{ IsZero() bool }); ok {
		return z.IsZero()
	}
	return reflect.ValueOf(p).Elem().IsZero()
}

// validateExternal checks v, a value of a substituted type (or a pointer to it), with its Validate
// method, if it has one: its error is a problem at the current JSON pointer or, for a
// *ValidationError (the substitute is a type of this package), its problems below it.
func validateExternal(c *validator, v any) {
	x, ok := v.(interface{ Validate() error })
	if !ok {
		return
	}
	err := x.Validate()
	var verr *ValidationError
	if !errors.As(err, &verr) {
		if err != nil {
			c.report("%v", err)
		}
		return
	}
	unescape := strings.NewReplacer("~1", "/", "~0", "~")
	for _, p := range verr.Problems {
		steps := strings.Split(p.Pointer, "/")[1:]
		for _, s := range steps {
			c.in(unescape.Replace(s))
		}
		c.report("%s", p.Message)
		for range steps {
			c.out()
		}
	}
}

// emptyExternal reports whether v, a value of a substituted type held by an optional member
// encoded when not empty (emit.Config.Optional), is empty as encoding/json's omitempty decides:
// false, 0, "", a nil pointer or interface, an empty array, slice, map or string. A struct is
// never empty. An output without such members leaves this function out.
func emptyExternal(v any) bool {
	x := reflect.ValueOf(v)
	switch x.Kind() {
	case reflect.Invalid:
		return true
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return x.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return x.IsZero()
	}
	return false
}
