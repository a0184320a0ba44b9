package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strconv"
	"strings"
)

// Hold reports whether a codec holds a document: it decodes the document (and validates it, if
// the codec does), encodes the value again, and compares the two as JSON values (object members
// in any order, numbers by value). It returns nil when they are equal, and otherwise an error
// saying what was lost: the decoder's or encoder's error, or a [*LossError].
func Hold(c Codec, data []byte) error {
	v, err := c.Decode(data)
	if err != nil {
		return fmt.Errorf("decode: %s", oneLine(err))
	}
	out, err := c.Encode(v)
	if err != nil {
		return fmt.Errorf("encode: %s", oneLine(err))
	}
	diffs, err := DiffJSON(data, out)
	if err != nil {
		return fmt.Errorf("encode: %w", err)
	}
	if len(diffs) > 0 {
		return &LossError{Diffs: diffs}
	}
	return nil
}

// A LossError says how a document encoded again differs from the document decoded.
type LossError struct {
	Diffs []Diff
}

func (e *LossError) Error() string {
	const shown = 2
	var b strings.Builder
	b.WriteString("re-encodes differently: ")
	for i, d := range e.Diffs[:min(shown, len(e.Diffs))] {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(d.String())
	}
	if n := len(e.Diffs) - shown; n > 0 {
		fmt.Fprintf(&b, "; %d more", n)
	}
	return b.String()
}

// A Diff is one difference between two JSON values.
type Diff struct {
	// Pointer is the JSON pointer of the value that differs.
	Pointer string
	// Want is the value in the document decoded; Got in the document encoded. Either is ""
	// when the value is missing there.
	Want, Got string
}

func (d Diff) String() string {
	p := d.Pointer
	if p == "" {
		p = "the document"
	}
	switch {
	case d.Got == "":
		return p + " dropped (was " + clip(d.Want) + ")"
	case d.Want == "":
		return p + " added (" + clip(d.Got) + ")"
	}
	return p + ": " + clip(d.Want) + " became " + clip(d.Got)
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:37] + "..."
	}
	return s
}

// oneLine returns the first line of an error's message, clipped: a reason that fits a table.
func oneLine(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	if len(s) > 160 {
		return s[:157] + "..."
	}
	return s
}

// DiffJSON compares two JSON documents as values and returns their differences, in document
// order (object members sorted by name).
func DiffJSON(want, got []byte) ([]Diff, error) {
	w, err := decodeValue(want)
	if err != nil {
		return nil, fmt.Errorf("first document: %w", err)
	}
	g, err := decodeValue(got)
	if err != nil {
		return nil, fmt.Errorf("second document: %w", err)
	}
	var diffs []Diff
	diffValues(&diffs, "", w, g)
	return diffs, nil
}

func decodeValue(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("data after the value at offset %d", dec.InputOffset())
	}
	return v, nil
}

func diffValues(diffs *[]Diff, ptr string, want, got any) {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			break
		}
		keys := slices.Collect(maps.Keys(w))
		for k := range g {
			if _, ok := w[k]; !ok {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			p := ptr + "/" + escapePointer(k)
			wv, inW := w[k]
			gv, inG := g[k]
			switch {
			case !inG:
				*diffs = append(*diffs, Diff{Pointer: p, Want: show(wv)})
			case !inW:
				*diffs = append(*diffs, Diff{Pointer: p, Got: show(gv)})
			default:
				diffValues(diffs, p, wv, gv)
			}
		}
		return
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			break
		}
		for i := range w {
			diffValues(diffs, ptr+"/"+strconv.Itoa(i), w[i], g[i])
		}
		return
	case json.Number:
		if g, ok := got.(json.Number); ok && sameNumber(w, g) {
			return
		}
	default: // string, bool, nil
		if want == got {
			return
		}
	}
	*diffs = append(*diffs, Diff{Pointer: ptr, Want: show(want), Got: show(got)})
}

func sameNumber(a, b json.Number) bool {
	x, ok1 := new(big.Rat).SetString(string(a))
	y, ok2 := new(big.Rat).SetString(string(b))
	return ok1 && ok2 && x.Cmp(y) == 0
}

func show(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(data)
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}
