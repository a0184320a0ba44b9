// Behavior of the Validate methods generated from validate.ts, and of Unmarshal and Marshal;
// TestBehavior runs it next to the package.

package mcptest

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// expectProblems checks that err is a *ValidationError (through errors.As) with exactly the
// problems want ("pointer: message", in order) and the JSON-RPC code.
func expectProblems(t *testing.T, err error, code int, want ...string) {
	t.Helper()
	var verr *ValidationError
	if !errors.As(err, &verr) {
		t.Fatalf("got %v (%T), want a *ValidationError with %q", err, err, want)
	}
	var got []string
	for _, p := range verr.Problems {
		got = append(got, p.String())
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("problems:\n got: %q\nwant: %q", got, want)
	}
	if verr.Code != code {
		t.Errorf("code %d, want %d", verr.Code, code)
	}
}

// decoded decodes data into a new T, which must succeed.
func decoded[T any, P interface {
	*T
	json.Unmarshaler
}](t *testing.T, data string) P {
	t.Helper()
	v := P(new(T))
	if err := v.UnmarshalJSON([]byte(data)); err != nil {
		t.Fatalf("decode %s: %v", data, err)
	}
	return v
}

const (
	invalidRequest = -32600
	invalidParams  = -32602
)

// A valid request: the zero value of a constant member stands for the constant.
func validRequest() *SampleRequest {
	return &SampleRequest{
		ID: SampleRequestIDNumber(1),
		Params: SampleParams{Messages: []Message{
			{Role: RoleUser, Content: NewMessageContent(&TextContent{Text: "hi"})},
		}},
	}
}

func TestValidateValid(t *testing.T) {
	if err := validRequest().Validate(); err != nil {
		t.Errorf("a request built in Go: %v", err)
	}
	data := `{"jsonrpc":"2.0","id":"a","method":"sample","params":{"messages":[` +
		`{"role":"assistant","content":[{"type":"text","text":"x"},{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"}],` +
		`"stopReason":"anything a provider says","mode":"none","replies":[{"role":"user","content":[]}],` +
		`"blocks":{"a":{"type":"text","text":"y"}},"_meta":{"k":1}}],` +
		`"limits":{"ttlMs":0,"priority":1,"total":null,"values":["a","b","c"],"uri":"https://example.com/a?b#c",` +
		`"uriTemplate":"file:///{path}","when":"2025-11-25T10:00:00.5+01:00","contact":"not checked"},"schema":{"type":"object","properties":{"a":{}},"x":1}},"extra":true}`
	if err := decoded[SampleRequest](t, data).Validate(); err != nil {
		t.Errorf("a request with every member: %v", err)
	}
	if err := (&ErrorResponse{ID: ErrorResponseIDString("a"), Error: InvalidParamsError{Message: "m"}}).Validate(); err != nil {
		t.Errorf("an error response: %v", err)
	}
}

func TestValidateConstants(t *testing.T) {
	// A constant member set to another value in Go, the discriminator of a variant included.
	expectProblems(t, (&TextContent{Type: "image", Text: "x"}).Validate(), invalidParams,
		`/type: must be "text", not "image"`)
	expectProblems(t, (&ObjectSchema{Type: "array"}).Validate(), invalidParams,
		`/type: must be "object", not "array"`)
	expectProblems(t, (&InvalidParamsError{Code: -32600, Retryable: ptr(true)}).Validate(), invalidParams,
		`/code: must be -32602, not -32600`)

	// Decoding keeps a wrong constant, byte for byte; Validate reports it.
	v := decoded[TextContent](t, `{"type":"image","text":"x"}`)
	expectProblems(t, v.Validate(), invalidParams, `/type: must be "text", not "image"`)
	if got := marshal(t, v); got != `{"type":"image","text":"x"}` {
		t.Errorf("re-encoded as %s", got)
	}
	expectProblems(t, decoded[InvalidParamsError](t, `{"code":-32601,"message":"m"}`).Validate(), invalidParams,
		`/code: must be -32602, not -32601`)
}

// The zero value of a constant member stands for the constant in Go, so the zero value cannot come
// from the wire: encoding would replace it with the constant, and Validate could not see it.
func TestDecodingRejectsAZeroConstant(t *testing.T) {
	for _, tt := range []struct {
		data string
		v    json.Unmarshaler
		want string
	}{
		{`{"type":"","text":"x"}`, new(TextContent), `/type: must be "text", not ""`},
		{`{"type":""}`, new(ObjectSchema), `/type: must be "object", not ""`},
		{`{"code":0,"message":"m"}`, new(InvalidParamsError), `/code: must be -32602, not 0`},
		{`{"code":-32602,"message":"m","retryable":false}`, new(InvalidParamsError), `/retryable: must be true, not false`},
		{`{"jsonrpc":"","id":1,"method":"sample","params":{"messages":[]}}`, new(SampleRequest), `/jsonrpc: must be "2.0", not ""`},
		{`{"jsonrpc":"2.0","id":1,"method":"","params":{"messages":[]}}`, new(SampleRequest), `/method: must be "sample", not ""`},
	} {
		if err := json.Unmarshal([]byte(tt.data), tt.v); err == nil || err.Error() != tt.want {
			t.Errorf("%s: got %v, want %s", tt.data, err, tt.want)
		}
	}
}

func TestValidateEnums(t *testing.T) {
	expectProblems(t, Role("system").Validate(), invalidParams, `(root): "system" is not one of "user", "assistant"`)
	expectProblems(t, Role("").Validate(), invalidParams, `(root): "" is not one of "user", "assistant"`)
	if err := StopReason("anything").Validate(); err != nil {
		t.Errorf("an open enum: %v", err)
	}
	msg := decoded[Message](t, `{"role":"system","content":[],"stopReason":"","mode":"sometimes"}`)
	expectProblems(t, msg.Validate(), invalidParams,
		`/role: "system" is not one of "user", "assistant"`,
		`/mode: "sometimes" is not one of "auto", "none"`)
}

func TestValidateBounds(t *testing.T) {
	limits := func(data string) *Limits {
		return decoded[Limits](t, `{"values":[],"uri":"u:",`+data+`}`)
	}
	for _, data := range []string{
		`"ttlMs":0,"total":1,"priority":0`,
		`"ttlMs":9007199254740993,"total":null,"priority":1`,
		`"ttlMs":1,"total":2,"priority":0.5`,
	} {
		if err := limits(data).Validate(); err != nil {
			t.Errorf("%s: %v", data, err)
		}
	}
	expectProblems(t, limits(`"ttlMs":-1,"total":0,"priority":1.5`).Validate(), invalidParams,
		`/ttlMs: -1 is less than the minimum 0`,
		`/priority: 1.5 is greater than the maximum 1`,
		`/total: 0 is less than the minimum 1`)
	expectProblems(t, limits(`"ttlMs":0,"total":1,"priority":-0.001`).Validate(), invalidParams,
		`/priority: -0.001 is less than the minimum 0`)
	expectProblems(t, (&Limits{TTLMs: -5, URI: "u:", Total: ptr(int64(-9223372036854775808))}).Validate(), invalidParams,
		`/ttlMs: -5 is less than the minimum 0`,
		`/total: -9223372036854775808 is less than the minimum 1`)
}

func TestValidateFormats(t *testing.T) {
	expectProblems(t, (&ImageContent{Data: "not base64!", MimeType: "image/png"}).Validate(), invalidParams,
		`/data: "not base64!" is not a valid byte: length is not a multiple of 4`)
	expectProblems(t, (&ImageContent{Data: "aGVsbG8-", MimeType: "image/png"}).Validate(), invalidParams,
		`/data: "aGVsbG8-" is not a valid byte: invalid character "-" at offset 7`)
	if err := (&ImageContent{Data: "", MimeType: "image/png"}).Validate(); err != nil {
		t.Errorf("empty data is valid base64: %v", err)
	}
	expectProblems(t, (&Limits{Values: []string{}, URI: "relative/path", URITemplate: ptr("{oops"), When: ptr("yesterday"), Contact: ptr("not checked")}).Validate(), invalidParams,
		`/uri: "relative/path" is not a valid uri: no scheme`,
		`/uriTemplate: "{oops" is not a valid uri-template: unclosed expression`,
		`/when: "yesterday" is not a valid date-time: want YYYY-MM-DDThh:mm:ss and an offset`)
	// A long value is shortened in the message, between two characters; a character not allowed
	// is named as it is written.
	long := "x:" + strings.Repeat("é", 40)
	expectProblems(t, (&Limits{URI: long}).Validate(), invalidParams,
		`/uri: "x:`+strings.Repeat("é", 31)+`"... is not a valid uri: path: character "é" not allowed`)
}

func TestValidateMaxItems(t *testing.T) {
	if err := (&Limits{Values: []string{"a", "b", "c"}, URI: "u:"}).Validate(); err != nil {
		t.Errorf("3 items: %v", err)
	}
	expectProblems(t, (&Limits{Values: []string{"a", "b", "c", "d"}, URI: "u:"}).Validate(), invalidParams,
		`/values: has 4 items, more than the maximum 3`)
}

// What decoding cannot produce, a value built in Go can: nil unions and nil variants.
func TestValidateNilUnions(t *testing.T) {
	r := validRequest()
	r.ID = nil
	expectProblems(t, r.Validate(), invalidRequest, `/id: missing required value`)

	m := Message{Role: RoleUser, Content: NewMessageContent((*TextContent)(nil))}
	expectProblems(t, m.Validate(), invalidParams, `/content: nil *TextContent`)
	m = Message{Role: RoleUser, Content: NewMessageContentList(&TextContent{}, (*ImageContent)(nil))}
	expectProblems(t, m.Validate(), invalidParams, `/content/1: nil *ImageContent`)

	// A nil in an array or a map cannot be encoded either.
	m = Message{Role: RoleUser, Content: NewMessageContentList(&TextContent{}, nil)}
	expectProblems(t, m.Validate(), invalidParams, `/content/1: nil ContentBlock`)
	m = Message{Role: RoleUser, Content: NewMessageContent(nil)}
	expectProblems(t, m.Validate(), invalidParams, `/content: nil ContentBlock`)
	m = Message{Role: RoleUser, Content: NewMessageContentList(), Blocks: map[string]ContentBlock{"a": &TextContent{}, "b": nil}}
	expectProblems(t, m.Validate(), invalidParams, `/blocks/b: nil ContentBlock`)
	for _, m := range []Message{
		{Role: RoleUser, Content: NewMessageContentList(&TextContent{}, nil)},
		{Role: RoleUser, Content: NewMessageContent(nil)},
		{Role: RoleUser, Content: NewMessageContentList(), Blocks: map[string]ContentBlock{"b": nil}},
	} {
		if _, err := json.Marshal(&m); err == nil {
			t.Errorf("%+v encoded", m)
		}
	}
}

func TestValidateUnknownVariant(t *testing.T) {
	msg := decoded[Message](t, `{"role":"user","content":[{"type":"text","text":"a"},{"type":"video","url":"x"}]}`)
	expectProblems(t, msg.Validate(), invalidParams, `/content/1/type: "video" is not one of "text", "image" (unknown ContentBlock)`)
	if got := marshal(t, msg); got != `{"role":"user","content":[{"type":"text","text":"a"},{"type":"video","url":"x"}]}` {
		t.Errorf("re-encoded as %s", got)
	}
	block, err := UnmarshalContentBlock([]byte(`{"type":"","x":1}`))
	if err != nil {
		t.Fatal(err)
	}
	expectProblems(t, block.(*UnknownContentBlock).Validate(), invalidParams, `/type: "" is not one of "text", "image" (unknown ContentBlock)`)
}

func TestValidateExtraHoldingAMember(t *testing.T) {
	m := Message{Role: RoleUser, Content: NewMessageContentList(), Extra: map[string]json.RawMessage{
		"role": json.RawMessage(`"assistant"`), "other": json.RawMessage(`1`), "_meta": json.RawMessage(`{}`),
	}}
	expectProblems(t, m.Validate(), invalidParams,
		`/role: is set in Extra, but the type defines it`,
		`/_meta: is set in Extra, but the type defines it`)
}

func TestValidateOneOrMany(t *testing.T) {
	for _, content := range []MessageContent{
		NewMessageContent(&TextContent{}), NewMessageContentList(), NewMessageContentList(&TextContent{}, &TextContent{}),
	} {
		if err := content.Validate(); err != nil {
			t.Errorf("%+v: %v", content, err)
		}
	}
	expectProblems(t, (&MessageContent{}).Validate(), invalidParams, `(root): holds 0 values and is not a list`)
	two := MessageContent{List: []ContentBlock{&TextContent{}, &TextContent{Type: "x"}}}
	expectProblems(t, (&Message{Role: RoleUser, Content: two}).Validate(), invalidParams, `/content: holds 2 values and is not a list`)
}

// Validate recurses into every member and reports every problem, in the order of the members.
func TestValidateCollectsEveryProblem(t *testing.T) {
	data := `{"jsonrpc":"1.0","id":1,"method":"sample","params":{"messages":[` +
		`{"role":"user","content":{"type":"image","data":"???","mimeType":"m"},"replies":[` +
		`{"role":"assistant","content":[],"replies":[{"role":"robot","content":[{"type":"audio"}]}]}]},` +
		`{"role":"system","content":[{"type":"text","text":"t"}],"mode":"all"}],` +
		`"limits":{"ttlMs":-1,"total":0,"values":[1,2,3,4],"uri":"u:"},"schema":{"type":"array"}}}`
	data = strings.Replace(data, `[1,2,3,4]`, `["1","2","3","4"]`, 1)
	r := decoded[SampleRequest](t, data)
	want := []string{
		`/jsonrpc: must be "2.0", not "1.0"`,
		`/params/messages/0/content/data: "???" is not a valid byte: length is not a multiple of 4`,
		`/params/messages/0/replies/0/replies/0/role: "robot" is not one of "user", "assistant"`,
		`/params/messages/0/replies/0/replies/0/content/0/type: "audio" is not one of "text", "image" (unknown ContentBlock)`,
		`/params/messages/1/role: "system" is not one of "user", "assistant"`,
		`/params/messages/1/mode: "all" is not one of "auto", "none"`,
		`/params/limits/ttlMs: -1 is less than the minimum 0`,
		`/params/limits/total: 0 is less than the minimum 1`,
		`/params/limits/values: has 4 items, more than the maximum 3`,
		`/params/schema/type: must be "object", not "array"`,
	}
	// A problem in the envelope makes the request invalid; problems in params alone, its params.
	expectProblems(t, r.Validate(), invalidRequest, want...)
	if got := r.Validate().Error(); !strings.HasPrefix(got, `invalid: 10 problems: /jsonrpc: must be "2.0", not "1.0"; /params/messages/0/`) {
		t.Errorf("the error text: %s", got)
	}
	r.JSONRPC = "2.0"
	expectProblems(t, r.Validate(), invalidParams, want[1:]...)
	// The params alone: the pointers start at the params.
	var params []string
	for _, w := range want[1:] {
		params = append(params, strings.TrimPrefix(w, "/params"))
	}
	expectProblems(t, r.Params.Validate(), invalidParams, params...)
}

func TestValidateCodes(t *testing.T) {
	r := validRequest()
	r.Method = "other"
	expectProblems(t, r.Validate(), invalidRequest, `/method: must be "sample", not "other"`)
	r = validRequest()
	r.Extra = map[string]json.RawMessage{"jsonrpc": json.RawMessage(`"2.0"`)}
	expectProblems(t, r.Validate(), invalidRequest, `/jsonrpc: is set in Extra, but the type defines it`)
	r = validRequest()
	r.Params.Messages[0].Role = "bot"
	expectProblems(t, r.Validate(), invalidParams, `/params/messages/0/role: "bot" is not one of "user", "assistant"`)

	// An error response: its error is the body, like params.
	resp := ErrorResponse{ID: ErrorResponseIDNumber(1), Error: InvalidParamsError{Code: 1}}
	expectProblems(t, resp.Validate(), invalidParams, `/error/code: must be -32602, not 1`)
	resp.JSONRPC = "1.0"
	expectProblems(t, resp.Validate(), invalidRequest, `/jsonrpc: must be "2.0", not "1.0"`, `/error/code: must be -32602, not 1`)
}

// Unmarshal decodes and validates in one call: a decoding error as json.Unmarshal gives it, or
// the *ValidationError that Validate gives.
func TestUnmarshalValidates(t *testing.T) {
	invalid := `{"jsonrpc":"2.0","id":1,"method":"sample","params":{"messages":[{"role":"bot","content":[{"type":"video"}]}]}}`
	var r SampleRequest
	err := Unmarshal([]byte(invalid), &r)
	want := decoded[SampleRequest](t, invalid).Validate()
	if !reflect.DeepEqual(err, want) {
		t.Errorf("Unmarshal: %v\nValidate: %v", err, want)
	}
	expectProblems(t, fmt.Errorf("receive: %w", err), invalidParams,
		`/params/messages/0/role: "bot" is not one of "user", "assistant"`,
		`/params/messages/0/content/0/type: "video" is not one of "text", "image" (unknown ContentBlock)`)
	if r.Params.Messages[0].Role != "bot" {
		t.Errorf("Unmarshal did not decode the value: %+v", r)
	}

	var verr *ValidationError
	err = Unmarshal([]byte(`{"jsonrpc":"2.0","id":1,"method":"sample"}`), &r)
	if err == nil || errors.As(err, &verr) || err.Error() != `(root): missing required member "params"` {
		t.Errorf("a decoding error: %v", err)
	}
	if err := Unmarshal([]byte(`{"jsonrpc":"2.0","id":1,"method":"sample","params":{"messages":[]}}`), &r); err != nil {
		t.Errorf("a valid request: %v", err)
	}
}

// Marshal validates before encoding: an invalid value gives the error Validate gives, and no
// bytes.
func TestMarshalValidates(t *testing.T) {
	r := validRequest()
	r.Params.Schema = &ObjectSchema{Type: "array"}
	r.Params.Messages = append(r.Params.Messages, Message{Role: RoleAssistant, Content: NewMessageContentList(nil)})
	b, err := Marshal(r)
	if b != nil {
		t.Errorf("Marshal wrote %s", b)
	}
	if want := r.Validate(); !reflect.DeepEqual(err, want) {
		t.Errorf("Marshal: %v\nValidate: %v", err, want)
	}
	expectProblems(t, err, invalidParams,
		`/params/messages/1/content/0: nil ContentBlock`,
		`/params/schema/type: must be "object", not "array"`)

	b, err = Marshal(validRequest())
	want := `{"jsonrpc":"2.0","id":1,"method":"sample","params":{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}]}}`
	if err != nil || string(b) != want {
		t.Errorf("a valid request: %s, %v; want %s", b, err, want)
	}
}
