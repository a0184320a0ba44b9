package wire

import (
	"errors"
	"testing"
)

// TestFailMarksSyntax checks fail, which the generated message decoders call on their errors: a
// decoding error of input that is not JSON is marked Syntax (a JSON-RPC parse error), one of JSON
// of the wrong shape is not.
func TestFailMarksSyntax(t *testing.T) {
	for _, c := range []struct {
		input  string
		syntax bool
	}{
		{`{"a":`, true},
		{`{"a" 1}`, true},
		{`{"a":1}`, false},
		{`[]`, false},
	} {
		d := newDecoder([]byte(c.input))
		err := d.fail(d.errorf("some error"))
		var de *DecodeError
		if !errors.As(err, &de) || de.Syntax != c.syntax {
			t.Errorf("%s: %v (syntax %v), want syntax %v", c.input, err, de != nil && de.Syntax, c.syntax)
		}
	}
	if err := errors.New("other"); newDecoder(nil).fail(err) != err {
		t.Errorf("fail changed an error that is not a *DecodeError")
	}
}
