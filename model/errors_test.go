package model

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestErrorList: a list is sorted by file, line and column (errors without a position last, in
// their order), keeps one error per position, flattens the lists added to it, and says at most
// MaxErrors errors, then how many more.
func TestErrorList(t *testing.T) {
	var l ErrorList
	l.Add(nil)
	if l.Err() != nil {
		t.Fatalf("no error: got %v", l.Err())
	}
	at := func(file string, line, col int) Pos { return Pos{File: file, Line: line, Col: col} }
	plain := errors.New("emit: no package name")
	l.Add(at("b.yaml", 2, 1).Errorf("second"))
	l.Add(plain)
	l.Add(at("b.yaml", 1, 9).Errorf("first"))
	l.Add(at("b.yaml", 2, 1).Errorf("a follow-on at the same entry"))
	var inner ErrorList
	inner.Add(at("a.ts", 7, 3).Errorf("schema"))
	inner.Add(at("b.yaml", 1, 2).Errorf("column"))
	l.Add(inner.Err())
	want := "a.ts:7:3: schema\nb.yaml:1:2: column\nb.yaml:1:9: first\nb.yaml:2:1: second\nemit: no package name"
	if got := l.Err().Error(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if !errors.Is(l.Err(), plain) {
		t.Error("errors.Is does not find an error of the list")
	}
	if one := (ErrorList{plain}).Err(); one != plain {
		t.Errorf("a list of one is the error itself, got %#v", one)
	}

	var many ErrorList
	for i := range MaxErrors + 3 {
		many.Add(at("c.yaml", i+1, 1).Errorf("mistake %d", i+1))
	}
	lines := strings.Split(many.Err().Error(), "\n")
	if len(lines) != MaxErrors+1 || lines[MaxErrors-1] != fmt.Sprintf("c.yaml:%d:1: mistake %d", MaxErrors, MaxErrors) || lines[MaxErrors] != "and 3 more" {
		t.Errorf("capped list: got %d lines, ending %q", len(lines), lines[len(lines)-2:])
	}
}
