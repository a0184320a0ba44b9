// Behavior of the package generated from objects.ts; TestBehavior runs it next to the package.

package mcptest

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestRequiredMembersAreAlwaysEncoded(t *testing.T) {
	got := marshal(t, Tool{Name: "t", URITemplate: "u"})
	want := `{"name":"t","maxTokens":0,"tags":[],"headers":{},"input":{},"data":null,"uriTemplate":"u","inputSchema":{"type":"object"}}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestOptionalZeroValuesAreEncoded(t *testing.T) {
	tool := Tool{Name: "t", Temperature: ptr(0.0), IsError: ptr(false), Hints: []string{}, Title: ptr("")}
	got := marshal(t, tool)
	want := `{"name":"t","title":"","temperature":0,"maxTokens":0,"isError":false,"tags":[],"hints":[],"headers":{},"input":{},"data":null,"uriTemplate":"","inputSchema":{"type":"object"}}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestRoundTripKeepsUnknownMembers(t *testing.T) {
	in := `{"name":"t","maxTokens":3,"tags":["a"],"headers":{"b":"2","a":"1"},"input":{"x":[1, 2]},"data":null,` +
		`"uriTemplate":"u","inputSchema":{"type":"object","$schema":"s","additional":true},"zeta":1,"alpha":{"k":"v"}}`
	var tool Tool
	if err := json.Unmarshal([]byte(in), &tool); err != nil {
		t.Fatal(err)
	}
	got := marshal(t, tool)
	want := `{"name":"t","maxTokens":3,"tags":["a"],"headers":{"a":"1","b":"2"},"input":{"x":[1, 2]},"data":null,` +
		`"uriTemplate":"u","inputSchema":{"$schema":"s","type":"object","additional":true},"alpha":{"k":"v"},"zeta":1}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"name":"t"}`, `(root): missing required member "maxTokens"`},
		{`{"name":"t","maxTokens":1,"tags":[],"headers":{},"input":{},"data":1,"uriTemplate":"u","inputSchema":{}}`,
			`/inputSchema: missing required member "type"`},
		{`{"name":null}`, `/name: expected string, found null`},
		{`{"maxTokens":1.5}`, `/maxTokens: not an integer`},
		{`{"tags":["a",2]}`, `/tags/1: expected string, found number`},
		{`{"name":"a","name":"b"}`, `/name: duplicate member name`},
		{`{"name":"a","name":2}`, `/name: duplicate member name`},
	}
	for _, tt := range tests {
		var tool Tool
		err := json.Unmarshal([]byte(tt.in), &tool)
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s: got error %v, want %s", tt.in, err, tt.want)
		}
	}
}

func TestLiteralMembers(t *testing.T) {
	if got, want := marshal(t, Message{}), `{"jsonrpc":"2.0","code":-32700,"flag":true}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	in := `{"jsonrpc":"1.0","code":1,"mode":"other","flag":true}`
	var m Message
	if err := json.Unmarshal([]byte(in), &m); err != nil {
		t.Fatal(err)
	}
	if got := marshal(t, m); got != in {
		t.Errorf("decoding is lossless: got %s, want %s", got, in)
	}
}

func TestTypedExtra(t *testing.T) {
	var tagged Tagged
	if err := json.Unmarshal([]byte(`{"name":"n","b":"2","a":"1"}`), &tagged); err != nil {
		t.Fatal(err)
	}
	if got, want := marshal(t, tagged), `{"name":"n","a":"1","b":"2"}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if err := json.Unmarshal([]byte(`{"name":"n","a":1}`), &tagged); err == nil {
		t.Error("a number in a string index signature decoded")
	}
	if _, err := json.Marshal(Tagged{Name: "n", Extra: map[string]string{"name": "m"}}); err == nil || !strings.Contains(err.Error(), `Extra holds "name"`) {
		t.Errorf("Extra repeating a member: error %v", err)
	}
}

func TestNamedCollections(t *testing.T) {
	var c Counters
	if err := json.Unmarshal([]byte(`{"b":2,"a":1}`), &c); err != nil {
		t.Fatal(err)
	}
	if got, want := marshal(t, c), `{"a":1,"b":2}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if got, want := marshal(t, Names(nil)), `[]`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestAliases(t *testing.T) {
	var r EmptyResult = Result{Extra: map[string]json.RawMessage{"x": json.RawMessage(`1`)}}
	if got, want := marshal(t, Paginated{NextCursor: "c", Result: &r}), `{"nextCursor":"c","result":{"x":1}}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if CursorValue != "cursor" || CodeParseError != -32700 || MaxItems != 100 {
		t.Error("constants")
	}
}

func TestWideStructFindsDuplicatesAndMissingMembers(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"m0":1,"m63":2,"last":"x"}`, ``},
		{`{"m0":1}`, `(root): missing required member "last"`},
		{`{"last":"x","m63":1,"last":"y"}`, `/last: duplicate member name`},
		{`{"last":"x","m63":1,"m63":2}`, `/m63: duplicate member name`},
		{`{"m1":1,"m1":"a"}`, `/m1: duplicate member name`},
	}
	for _, tt := range tests {
		var w Wide
		got := ""
		if err := json.Unmarshal([]byte(tt.in), &w); err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("%s: got error %q, want %q", tt.in, got, tt.want)
		}
	}
}
