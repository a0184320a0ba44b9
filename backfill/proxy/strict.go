package proxy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mcpgen/mcpgen/backfill/internal/jsonvalue"
)

// An ambiguousError is a message with two members of the same name in an object, or two that
// differ only in case: peers read such a message differently (Go's encoding/json matches names
// ignoring case and keeps the last; others keep the first, or refuse it), so the proxy could check
// one reading and forward another.
type ambiguousError struct{ reason string }

func (e *ambiguousError) Error() string { return e.reason }

// freeFormMembers hold values whose member names are the user's (tool arguments, structured
// content, a schema's properties): there, names that differ only in case are distinct names and
// are allowed; a name given twice is not, anywhere.
var freeFormMembers = map[string]bool{
	"arguments": true, "input": true, "structuredContent": true,
	"properties": true, "patternProperties": true, "$defs": true, "definitions": true,
}

// checkStrict reports an *ambiguousError for a JSON document with a duplicate member, or members
// whose names differ only in case outside free-form values; nil for an unambiguous one, or one that
// is not JSON (what does not parse is left to the reader).
func checkStrict(data []byte) error {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	err := strictValue(d, "", false, 0)
	var amb *ambiguousError
	if errors.As(err, &amb) {
		return err
	}
	return nil
}

// maxDepth bounds the nesting the check walks, as encoding/json bounds what it decodes: deeper
// documents are left to the reader, which refuses them.
const maxDepth = 10000

var errTooDeep = errors.New("nested too deep")

func strictValue(d *json.Decoder, at string, freeForm bool, depth int) error {
	if depth > maxDepth {
		return errTooDeep
	}
	t, err := d.Token()
	if err != nil {
		return err
	}
	switch t {
	case json.Delim('{'):
		seen := map[string]bool{}
		folded := map[string]string{}
		for d.More() {
			kt, err := d.Token()
			if err != nil {
				return err
			}
			k, _ := kt.(string)
			if seen[k] {
				return &ambiguousError{fmt.Sprintf("%s: member %q appears twice", pointerOf(at), k)}
			}
			seen[k] = true
			if !freeForm {
				f := strings.ToLower(strings.ToUpper(k))
				if prev, ok := folded[f]; ok {
					return &ambiguousError{fmt.Sprintf("%s: members %q and %q differ only in case", pointerOf(at), prev, k)}
				}
				folded[f] = k
			}
			if err := strictValue(d, at+"/"+jsonvalue.EscapeToken(k), freeForm || freeFormMembers[k], depth+1); err != nil {
				return err
			}
		}
		_, err = d.Token()
		return err
	case json.Delim('['):
		for i := 0; d.More(); i++ {
			if err := strictValue(d, fmt.Sprintf("%s/%d", at, i), freeForm, depth+1); err != nil {
				return err
			}
		}
		_, err = d.Token()
		return err
	}
	return nil
}

func pointerOf(at string) string {
	if at == "" {
		return "the message"
	}
	return at
}
