package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpgen/mcpgen/bench/internal/jsonvalue"
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
	for d := range jsonvalue.Differences(w, g) {
		diffs = append(diffs, Diff{Pointer: d.Pointer, Want: show(d.A), Got: show(d.B)})
	}
	return diffs, nil
}

// decodeValue reads one JSON document, numbers as json.Number. Unlike jsonvalue.Decode it keeps
// the last of a member written twice, as encoding/json does, so that Hold compares what a codec
// makes of such a document rather than refusing it.
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

func show(v any) string {
	if v == jsonvalue.Absent {
		return ""
	}
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(data)
}
