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
		at        string // the JSON pointer the error names
	}{
		{`{"a":1,"b":{"c":[{"d":1,"D":2}]}}`, true, "/b/c/0:"},
		{`{"a":1,"a":2}`, true, "the message:"},
		{`{"params":{"arguments":{"x":1,"X":2}}}`, false, ""},
		{`{"params":{"arguments":{"x":1,"x":2}}}`, true, "/params/arguments:"},
		{`{"a/b":{"m~n":{"x":1,"x":2}}}`, true, "/a~1b/m~0n:"},
		{`{"k":1,"K":2}`, true, "the message:"}, // the Kelvin sign folds to k, as in encoding/json
		{`{"a":"A"}`, false, ""},
		{`not json`, false, ""},
		{strings.Repeat("[", 1<<20) + strings.Repeat("]", 1<<20), false, ""},
	} {
		err := checkStrict([]byte(tt.doc))
		if (err != nil) != tt.ambiguous || err != nil && !strings.HasPrefix(err.Error(), tt.at) {
			t.Errorf("%.60s: %v (want an error at %q)", tt.doc, err, tt.at)
		}
	}
}
