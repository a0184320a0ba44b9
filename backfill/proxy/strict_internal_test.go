package proxy

import (
	"strings"
	"testing"
)

// TestCheckStrict: duplicates anywhere, case collisions outside free-form values; a document
// nested deeper than encoding/json decodes is left to the reader (not walked to the end of the
// stack).
func TestCheckStrict(t *testing.T) {
	for _, tt := range []struct {
		doc       string
		ambiguous bool
	}{
		{`{"a":1,"b":{"c":[{"d":1,"D":2}]}}`, true},
		{`{"a":1,"a":2}`, true},
		{`{"params":{"arguments":{"x":1,"X":2}}}`, false},
		{`{"params":{"arguments":{"x":1,"x":2}}}`, true},
		{`{"k":1,"K":2}`, true}, // the Kelvin sign folds to k, as in encoding/json
		{`{"a":"A"}`, false},
		{`not json`, false},
		{strings.Repeat("[", 1<<20) + strings.Repeat("]", 1<<20), false},
	} {
		err := checkStrict([]byte(tt.doc))
		if (err != nil) != tt.ambiguous {
			t.Errorf("%.60s: %v", tt.doc, err)
		}
	}
}
