// Behavior of the package generated from unions.ts; TestBehavior runs it next to the package.

package mcptest

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func TestDiscriminatedUnion(t *testing.T) {
	tests := []struct {
		in   string
		want any
	}{
		{`{"type":"text","text":"hi"}`, &TextContent{}},
		{`{"type":"te\u0078t","text":"hi"}`, &TextContent{}},
		{`{"type":"image","data":"d","mimeType":"m"}`, &ImageContent{}},
		{`{"type": "video", "url": "x"}`, &UnknownContentBlock{}},
	}
	for _, tt := range tests {
		v, err := UnmarshalContentBlock([]byte(tt.in))
		if err != nil {
			t.Errorf("%s: %v", tt.in, err)
			continue
		}
		if got, want := typeName(v), typeName(tt.want); got != want {
			t.Errorf("%s: got %s, want %s", tt.in, got, want)
		}
	}
	v, _ := UnmarshalContentBlock([]byte(`{"type": "video", "url": "x"}`))
	if got := marshal(t, v.(json.Marshaler)); got != `{"type": "video", "url": "x"}` {
		t.Errorf("unknown variant re-encoded as %s", got)
	}
	if _, err := UnmarshalContentBlock([]byte(`{"text":"hi"}`)); err == nil || err.Error() != `(root): missing member "type"` {
		t.Errorf("missing discriminator: %v", err)
	}
	if got := marshal(t, &TextContent{Text: "hi"}); got != `{"type":"text","text":"hi"}` {
		t.Errorf("variant alone: %s", got)
	}
}

func TestOptionalDiscriminator(t *testing.T) {
	for in, want := range map[string]string{
		`{"message":"m"}`:               "*mcptest.FormParams",
		`{"mode":"form","message":"m"}`: "*mcptest.FormParams",
		`{"mode":"url","url":"u"}`:      "*mcptest.URLParams",
	} {
		v, err := UnmarshalParams([]byte(in))
		if err != nil || typeName(v) != want {
			t.Errorf("%s: got %s, %v; want %s", in, typeName(v), err, want)
		}
	}
}

func TestSharedDiscriminatorValue(t *testing.T) {
	for in, want := range map[string]string{
		`{"type":"string"}`:              "*mcptest.StringSchema",
		`{"type":"string","enum":["a"]}`: "*mcptest.EnumSchema",
		`{"type":"integer"}`:             "*mcptest.NumberSchema",
	} {
		v, err := UnmarshalPrimitiveSchema([]byte(in))
		if err != nil || typeName(v) != want {
			t.Errorf("%s: got %s, %v; want %s", in, typeName(v), err, want)
		}
	}
}

func TestRequiredMembersDecide(t *testing.T) {
	var h Holder
	in := holder(`"contents":[{"uri":"u","text":"t"},{"uri":"u","blob":"b"}]`)
	if err := json.Unmarshal([]byte(in), &h); err != nil {
		t.Fatal(err)
	}
	if typeName(h.Contents[0]) != "*mcptest.TextResourceContents" || typeName(h.Contents[1]) != "*mcptest.BlobResourceContents" {
		t.Errorf("got %s, %s", typeName(h.Contents[0]), typeName(h.Contents[1]))
	}
	err := json.Unmarshal([]byte(holder(`"contents":[{"uri":"u"}]`)), &h)
	want := `/contents/0: no variant of HolderContents fits: TextResourceContents needs "text", BlobResourceContents needs "blob"`
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

func TestKindUnion(t *testing.T) {
	for in, want := range map[string]string{
		`"a"`: "mcptest.RequestIDString", `7`: "mcptest.RequestIDNumber",
	} {
		v, err := UnmarshalRequestID([]byte(in))
		if err != nil || typeName(v) != want {
			t.Errorf("%s: got %s, %v", in, typeName(v), err)
		}
	}
	if _, err := UnmarshalRequestID([]byte(`true`)); err == nil || err.Error() != "(root): expected a string or a number" {
		t.Errorf("boolean id: %v", err)
	}
	for in, want := range map[string]string{
		`null`: "mcptest.HolderValueNull", `["a"]`: "mcptest.HolderValueArray", `false`: "mcptest.HolderValueBoolean",
	} {
		v, err := UnmarshalHolderValue([]byte(in))
		if err != nil || typeName(v) != want || marshal(t, v.(json.Marshaler)) != in {
			t.Errorf("%s: got %s, %v", in, typeName(v), err)
		}
	}
}

func TestOneOrMany(t *testing.T) {
	for _, in := range []string{`{"type":"text","text":"a"}`, `[{"type":"text","text":"a"}]`, `[]`} {
		var s HolderSample
		if err := json.Unmarshal([]byte(in), &s); err != nil {
			t.Fatal(err)
		}
		if got := marshal(t, s); got != in {
			t.Errorf("got %s, want %s", got, in)
		}
	}
	if got := marshal(t, NewHolderSampleList(&TextContent{Text: "a"})); got != `[{"type":"text","text":"a"}]` {
		t.Errorf("list of one: %s", got)
	}
	if _, err := json.Marshal(HolderSample{}); err == nil || !strings.Contains(err.Error(), "HolderSample holds 0 values and is not a list") {
		t.Errorf("empty single value: %v", err)
	}
}

func TestNullable(t *testing.T) {
	var h Holder
	if err := json.Unmarshal([]byte(holder(`"ttl":null`)), &h); err != nil || h.TTL != nil {
		t.Fatalf("null: %v %v", h.TTL, err)
	}
	if err := json.Unmarshal([]byte(holder(`"ttl":5`)), &h); err != nil || h.TTL == nil || *h.TTL != 5 {
		t.Fatalf("5: %v %v", h.TTL, err)
	}
	h.TTL = nil
	if got := marshal(t, h); !strings.Contains(got, `"ttl":null`) {
		t.Errorf("nil encodes as %s", got)
	}
}

func TestNilUnionIsAnError(t *testing.T) {
	h := Holder{Content: []ContentBlock{nil}}
	_, err := json.Marshal(h)
	if err == nil || !strings.Contains(err.Error(), "/content/0: nil ContentBlock") {
		t.Errorf("got %v", err)
	}
	h = Holder{Content: []ContentBlock{(*TextContent)(nil)}}
	if _, err := json.Marshal(h); err == nil {
		t.Error("a nil *TextContent encoded")
	}
}

func TestTypedResults(t *testing.T) {
	tests := []struct{ method, in, want string }{
		{"items/list", `{"items":[]}`, "*mcptest.ListResult"},
		{"items/list", `{"inputRequests":{"a":"b"}}`, "*mcptest.InputRequiredResult"},
		{"ping", `{}`, "*mcptest.Result"},
	}
	for _, tt := range tests {
		v, err := UnmarshalServerResultFor(tt.method, []byte(tt.in))
		if err != nil || typeName(v) != tt.want {
			t.Errorf("%s %s: got %s, %v; want %s", tt.method, tt.in, typeName(v), err, tt.want)
		}
	}
}

// TestResultWithoutMethod: decoded without the method of its request, a result is typed by its
// members; when the variant they point to does not decode it, the base Result takes it, with its
// members in Extra. With the method, the method's result type must fit.
func TestResultWithoutMethod(t *testing.T) {
	in := `{"items":{"not":"a list"},"action":"accept"}`
	for _, decode := range []func([]byte) (ServerResult, error){
		UnmarshalServerResult,
		func(b []byte) (ServerResult, error) { return UnmarshalServerResultFor("other/method", b) },
	} {
		v, err := decode([]byte(in))
		if err != nil {
			t.Fatalf("decoding %s: %v", in, err)
		}
		r, ok := v.(*Result)
		if !ok {
			t.Fatalf("decoding %s: got %T, want *Result", in, v)
		}
		if string(r.Extra["items"]) != `{"not":"a list"}` || string(r.Extra["action"]) != `"accept"` {
			t.Errorf("Extra: %v", r.Extra)
		}
		if err := r.Validate(); err != nil {
			t.Errorf("Validate: %v", err)
		}
		out, err := json.Marshal(v)
		if err != nil || string(out) != `{"action":"accept","items":{"not":"a list"}}` {
			t.Errorf("encoding: %s, %v", out, err)
		}
	}
	if _, err := UnmarshalServerResultFor("items/list", []byte(in)); err == nil {
		t.Errorf("items/list: the method's result type must fit")
	}
	// What the base cannot decode either is still an error.
	if _, err := UnmarshalServerResult([]byte(`{"items":[],"items":[]}`)); err == nil {
		t.Errorf("a duplicate member must be an error")
	}
}

// holder is a JSON Holder with every required member, member (`"name":value`) replacing one.
func holder(member string) string {
	members := []string{`"content":[]`, `"contents":[]`, `"id":1`, `"value":"v"`, `"sample":[]`, `"ttl":null`,
		`"shape":{"kind":"circle","radius":1}`}
	for i, m := range members {
		if strings.SplitN(m, ":", 2)[0] == strings.SplitN(member, ":", 2)[0] {
			members[i] = member
		}
	}
	return "{" + strings.Join(members, ",") + "}"
}

func typeName(v any) string {
	return fmt.Sprintf("%T", v)
}

func TestOddDiscriminators(t *testing.T) {
	for data, want := range map[string]string{
		`{"kind":"a<b","x":"1"}`:         "*mcptest.Angle",
		`{"kind":"a\u003cb","x":"1"}`:    "*mcptest.Angle",
		"{\"kind\":\"c`d\",\"y\":\"2\"}": "*mcptest.Tick",
		`{"kind":"a>b","x":"1"}`:         "*mcptest.UnknownOdd",
	} {
		v, err := UnmarshalOdd([]byte(data))
		if err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		if got := fmt.Sprintf("%T", v); got != want {
			t.Errorf("%s decoded as %s, want %s", data, got, want)
		}
	}
}
