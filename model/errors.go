package model

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Error is an error at a position of a file, as Pos.Errorf makes it.
type Error struct {
	Pos Pos
	Msg string
}

func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// MaxErrors is how many errors an ErrorList says; the others are counted.
const MaxErrors = 20

// ErrorList is every error one run found, so that a configuration's mistakes are fixed in one
// go rather than one per run. Add keeps one error per position: a second error at the entry
// already at fault follows from the first.
type ErrorList []error

// Add appends err, unless it is nil or at a position already at fault. The errors of a list are
// added one by one.
func (l *ErrorList) Add(err error) {
	var list ErrorList
	if errors.As(err, &list) {
		for _, e := range list {
			l.Add(e)
		}
		return
	}
	if err == nil {
		return
	}
	if p, ok := errorPos(err); ok && slices.ContainsFunc(*l, func(e error) bool { q, ok := errorPos(e); return ok && q == p }) {
		return
	}
	*l = append(*l, err)
}

// Err returns nil for no error, the error itself for one, else the list sorted by position
// (file, line, column; the errors without one after, in the order they came).
func (l ErrorList) Err() error {
	switch len(l) {
	case 0:
		return nil
	case 1:
		return l[0]
	}
	sorted := slices.Clone(l)
	slices.SortStableFunc(sorted, func(a, b error) int {
		p, okA := errorPos(a)
		q, okB := errorPos(b)
		if okA != okB {
			if okA {
				return -1
			}
			return 1
		}
		return cmp.Or(strings.Compare(p.File, q.File), cmp.Compare(p.Line, q.Line), cmp.Compare(p.Col, q.Col))
	})
	return sorted
}

// Error says the errors one a line, at most MaxErrors of them, then how many more there are.
func (l ErrorList) Error() string {
	var b strings.Builder
	for i, err := range l[:min(len(l), MaxErrors)] {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(err.Error())
	}
	if n := len(l) - MaxErrors; n > 0 {
		fmt.Fprintf(&b, "\nand %d more", n)
	}
	return b.String()
}

// Unwrap returns the errors, for errors.Is and errors.As.
func (l ErrorList) Unwrap() []error { return l }

// errorPos is the position of err, if it has one.
func errorPos(err error) (Pos, bool) {
	var e *Error
	if errors.As(err, &e) && e.Pos.Line > 0 {
		return e.Pos, true
	}
	return Pos{}, false
}
