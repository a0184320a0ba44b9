package jsonvalue

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestEqual(t *testing.T) {
	tests := []struct {
		a, b string
		err  string // "" when equal; else a substring of the error
	}{
		{`{"a":1,"b":[true,null,"x"]}`, `{"b":[true,null,"x"],"a":1}`, ""},
		{`{"n":1}`, `{"n":1.0}`, ""},
		{`{"n":100}`, `{"n":1e2}`, ""},
		{`{"n":12345678901234567890}`, `{"n":12345678901234567891}`, "/n: number 12345678901234567890 became 12345678901234567891"},
		{`{"a":{"b":false}}`, `{"a":{}}`, "/a/b: member lost"},
		{`{"a":{"b":{}}}`, `{"a":{}}`, "/a/b: member lost"},
		{`{"a":{}}`, `{"a":{"b":0}}`, "/a/b: member added"},
		{`{"x/y":[1,2]}`, `{"x/y":[1]}`, "/x~1y: array of 2 became 1"},
		{`[{"t":"a"}]`, `[{"t":"b"}]`, `/0/t: "a" became "b"`},
		{`{"a":0}`, `{"a":"0"}`, "/a: number became a string"},
		{`{"a":[]}`, `{"a":{}}`, "/a: array became an object"},
		{`{"a":null}`, `{"a":false}`, "/a: <nil> became false"},
		{`{}`, `[]`, "(root): object became an array"},
		{`{"a":2}`, `{"a":1,"a":2}`, `second document: duplicate member "a"`},
		{`{"a":1}`, `{"a":1}}`, "second document: trailing data"},
		{`[1] [2]`, `[1]`, "first document: trailing data"},
	}
	for _, tt := range tests {
		err := Equal([]byte(tt.a), []byte(tt.b))
		switch {
		case tt.err == "" && err != nil:
			t.Errorf("Equal(%s, %s) = %v, want nil", tt.a, tt.b, err)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("Equal(%s, %s) = %v, want %q", tt.a, tt.b, err, tt.err)
		}
	}
}

func TestDifferences(t *testing.T) {
	var a, b any
	if err := json.Unmarshal([]byte(`{"a~b":1,"c":[1,2],"d":{"e":null},"f":true}`), &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(`{"a~b":1.0,"c":[1],"d":{"e":null,"g":"x"},"h":false}`), &b); err != nil {
		t.Fatal(err)
	}
	var got []string
	for d := range Differences(a, b) {
		got = append(got, d.Error())
	}
	want := []string{
		"/c: array of 2 became 1 elements",
		"/d/g: member added",
		"/f: member lost",
		"/h: member added",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("differences:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for range Differences(a, b) {
		break // stopping early must not panic
	}
}

func TestEscapeToken(t *testing.T) {
	for in, want := range map[string]string{"": "", "a": "a", "a/b": "a~1b", "~": "~0", "~1/": "~01~1", "/~": "~1~0"} {
		if got := EscapeToken(in); got != want {
			t.Errorf("EscapeToken(%q) = %q, want %q", in, got, want)
		}
	}
}
