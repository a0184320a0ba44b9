package jsontest

import (
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
		{`{"a":{}}`, `{"a":{"b":0}}`, "/a/b: member added"},
		{`{"x/y":[1,2]}`, `{"x/y":[1]}`, "/x~1y: array of 2 became 1"},
		{`[{"t":"a"}]`, `[{"t":"b"}]`, `/0/t: "a" became "b"`},
		{`{"a":0}`, `{"a":"0"}`, "/a: number became a string"},
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
