// Package samplingtest holds the table tests of the rules of sampling with tools (the spec's
// client/sampling page) and of CheckCapabilities, written once as JSON and run in every generated
// package that has the rules (mcp20251125, mcp20260728, mcpdraft) by a small test of that package,
// which gives the runner its types through a [Package].
package samplingtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// A Problem is one problem a case expects: a JSON pointer from the validated value and a message.
type Problem struct {
	Pointer string
	Message string
}

// String writes the problem as the error text of a ValidationError does.
func (p Problem) String() string {
	if p.Pointer == "" {
		return "(root): " + p.Message
	}
	return p.Pointer + ": " + p.Message
}

// Value is what the generated types have: the JSON codecs and Validate.
type Value interface {
	json.Marshaler
	json.Unmarshaler
	Validate() error
}

// Package gives the runner the types and functions of one generated package.
type Package struct {
	// Params, Result and Request return a new CreateMessageRequestParams, CreateMessageResult
	// and CreateMessageRequest.
	Params, Result, Request func() Value
	// Envelope is the JSON of a CreateMessageRequest of the package's version around %s, its
	// params.
	Envelope string
	// Unmarshal and Marshal are the package's Unmarshal and Marshal.
	Unmarshal func(data []byte, v Value) error
	Marshal   func(v Value) ([]byte, error)
	// CheckCapabilities decodes params and client (a ClientCapabilities; nil stands for a nil
	// *ClientCapabilities) and returns params.CheckCapabilities(client).
	CheckCapabilities func(params, client []byte) error
	// Problems unpacks an error of the package with errors.As into its *ValidationError; ok is
	// false when the error is not one.
	Problems func(err error) (problems []Problem, code int, ok bool)
}

// invalidParams is the JSON-RPC code of every problem of these cases: they lie in params or in a
// result (the 2025-11-25 page: "Tool result missing in request: -32602 (Invalid params)",
// "Tool results mixed with other content: -32602 (Invalid params)").
const invalidParams = -32602

// Run runs every case of [Cases] against the package p.
func Run(t *testing.T, p Package) {
	for _, c := range Cases() {
		t.Run(c.Rule+"/"+c.Name, func(t *testing.T) {
			t.Logf("spec: %s", c.Spec)
			switch {
			case c.Client != "" || c.NoClient:
				var client []byte
				if !c.NoClient {
					client = []byte(c.Client)
				}
				p.expect(t, "CheckCapabilities", p.CheckCapabilities([]byte(c.Params), client), c.Want)
			case c.Params != "":
				p.validate(t, p.Params, c.Params, c.Want)
				// The same params in a request: the pointers start at /params, and problems in
				// params still make invalid params, not an invalid request.
				want := make([]Problem, len(c.Want))
				for i, w := range c.Want {
					want[i] = Problem{"/params" + w.Pointer, w.Message}
				}
				p.validate(t, p.Request, fmt.Sprintf(p.Envelope, c.Params), want)
			default:
				p.validate(t, p.Result, c.Result, c.Want)
			}
		})
	}
}

// validate decodes data into a new value and checks that Validate gives exactly want, and that
// Unmarshal and Marshal agree with it.
func (p Package) validate(t *testing.T, newValue func() Value, data string, want []Problem) {
	t.Helper()
	v := newValue()
	if err := json.Unmarshal([]byte(data), v); err != nil {
		t.Fatalf("the case does not decode: %v\n%s", err, data)
	}
	err := v.Validate()
	p.expect(t, "Validate", err, want)

	// Unmarshal is decode and Validate in one call: the same error.
	u := newValue()
	if uerr := p.Unmarshal([]byte(data), u); !sameError(uerr, err) {
		t.Errorf("Unmarshal gives %v, Validate gives %v", uerr, err)
	}
	// Marshal is Validate and encode: the same error and no bytes, or the encoding of the value.
	b, merr := p.Marshal(v)
	switch {
	case !sameError(merr, err):
		t.Errorf("Marshal gives %v, Validate gives %v", merr, err)
	case merr != nil && b != nil:
		t.Errorf("Marshal refused the value but wrote %s", b)
	case merr == nil:
		want, _ := v.MarshalJSON()
		if !bytes.Equal(b, want) {
			t.Errorf("Marshal wrote %s, MarshalJSON writes %s", b, want)
		}
	}
}

// sameError reports whether two errors are both nil or hold equal validation errors.
func sameError(a, b error) bool {
	return reflect.DeepEqual(a, b)
}

// expect checks that err holds exactly the problems want, in order, with code -32602, and that
// its text names each of them; nil want expects no error.
func (p Package) expect(t *testing.T, what string, err error, want []Problem) {
	t.Helper()
	if len(want) == 0 {
		if err != nil {
			t.Errorf("%s: the case is valid, got %v", what, err)
		}
		return
	}
	got, code, ok := p.Problems(err)
	if !ok {
		t.Fatalf("%s: got %v (%T), want a *ValidationError with %d problems", what, err, err, len(want))
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: problems\n got: %s\nwant: %s", what, lines(got), lines(want))
	}
	if code != invalidParams {
		t.Errorf("%s: code %d, want %d (invalid params)", what, code, invalidParams)
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w.String()) {
			t.Errorf("%s: the error text %q does not say %q", what, err.Error(), w.String())
		}
	}
}

func lines(ps []Problem) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString("\n\t" + p.String())
	}
	return b.String()
}
