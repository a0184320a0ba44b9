package mcpdraft

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unsafe"

	"github.com/mcpgen/mcpgen/gen/internal/jsonvalue"
)

// These tests pin down, on the generated draft package, the wire behaviour that hand-written Go
// MCP types get wrong (DESIGN.md, "Who uses it, and what hurts them today").

func marshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("json.Marshal: %v", err)
	}
	return string(b)
}

func requireJSON(t *testing.T, got, want string) {
	t.Helper()
	if err := jsonvalue.Equal([]byte(want), []byte(got)); err != nil {
		t.Errorf("%v\n got: %s\nwant: %s", err, got, want)
	}
}

// roundTrip decodes data into v and requires the encoding to be the same JSON value.
func roundTrip(t *testing.T, data string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(data), v); err != nil {
		t.Fatalf("json.Unmarshal: %v", err)
	}
	requireJSON(t, marshal(t, v), data)
}

func TestZeroValuesAreNeitherDroppedNorInvented(t *testing.T) {
	params := CreateMessageRequestParams{
		Messages:    []SamplingMessage{{Role: RoleUser, Content: NewSamplingMessageContent(&TextContent{Text: ""})}},
		MaxTokens:   0,
		Temperature: ptr(0.0),
	}
	requireJSON(t, marshal(t, params),
		`{"messages":[{"role":"user","content":{"type":"text","text":""}}],"maxTokens":0,"temperature":0}`)

	// A decoded false is kept, an absent member stays absent.
	roundTrip(t, `{"type":"tool_result","toolUseId":"t1","content":[],"isError":false}`, new(ToolResultContent))
	roundTrip(t, `{"type":"tool_result","toolUseId":"t1","content":[]}`, new(ToolResultContent))
	roundTrip(t, `{"completion":{"values":[],"hasMore":false},"resultType":"complete"}`, new(CompleteResult))

	// Required members are encoded even when nil or empty; empty optional ones only when set.
	requireJSON(t, marshal(t, ToolUseContent{ID: "t1", Name: "f"}),
		`{"type":"tool_use","id":"t1","name":"f","input":{}}`)
	requireJSON(t, marshal(t, ToolResultContent{ToolUseID: "t1"}),
		`{"type":"tool_result","toolUseId":"t1","content":[]}`)
	requireJSON(t, marshal(t, ClientCapabilities{}), `{}`)
	requireJSON(t, marshal(t, ClientCapabilities{Roots: map[string]json.RawMessage{}, Sampling: &ClientCapabilitiesSampling{Tools: JSONObject{}}}),
		`{"roots":{},"sampling":{"tools":{}}}`)
}

func TestUnionsAreTyped(t *testing.T) {
	var msg SamplingMessage
	roundTrip(t, `{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"weather","input":{"city":"Paris"}}]}`, &msg)
	if !msg.Content.IsList || len(msg.Content.List) != 1 {
		t.Fatalf("content = %+v, want a list of one", msg.Content)
	}
	use, ok := msg.Content.List[0].(*ToolUseContent)
	if !ok {
		t.Fatalf("content[0] is %T, want *ToolUseContent", msg.Content.List[0])
	}
	var args struct{ City string }
	if err := DecodeObject(use.Input, &args); err != nil || args.City != "Paris" {
		t.Errorf("DecodeObject(input) = %+v, %v", args, err)
	}
	if input, err := EncodeObject(args); err != nil || string(input["City"]) != `"Paris"` {
		t.Errorf("EncodeObject = %s, %v", input, err)
	}

	// The single form stays single.
	roundTrip(t, `{"role":"user","content":{"type":"tool_result","toolUseId":"a","content":[{"type":"text","text":"18°C"}]}}`, &msg)
	if msg.Content.IsList {
		t.Errorf("single content decoded as a list")
	}

	for _, tt := range []struct {
		data string
		want string
	}{
		{`1`, "mcpdraft.RequestIDNumber"},
		{`"1"`, "mcpdraft.RequestIDString"},
	} {
		id, err := UnmarshalRequestID([]byte(tt.data))
		if err != nil {
			t.Fatal(err)
		}
		if got := typeString(id); got != tt.want {
			t.Errorf("RequestID %s decoded as %s, want %s", tt.data, got, tt.want)
		}
	}
}

func typeString(v any) string { return fmt.Sprintf("%T", v) }

// ptr returns a pointer to v (new(v) needs Go 1.26; the gen module builds and tests with Go 1.23).
func ptr[T any](v T) *T { return &v }

func TestForwardCompatibility(t *testing.T) {
	// An unknown content type, unknown members and _meta keys survive a round trip.
	const data = `{"role":"assistant","model":"m","resultType":"complete","stopReason":"refusal",
		"content":{"type":"video","url":"https://example.com/v.mp4","frames":1200},
		"_meta":{"com.example/trace":{"id":12345678901234567890123}},"x-extension":[1,2,3]}`
	var res CreateMessageResult
	roundTrip(t, data, &res)
	unknown, ok := res.Content.List[0].(*UnknownSamplingMessageContentBlock)
	if !ok {
		t.Fatalf("content is %T, want *UnknownSamplingMessageContentBlock", res.Content.List[0])
	}
	if !strings.Contains(string(unknown.Raw), `"frames":1200`) {
		t.Errorf("raw = %s", unknown.Raw)
	}
	if res.StopReason == nil || *res.StopReason != "refusal" {
		t.Errorf("open enum stopReason = %v", res.StopReason)
	}
	if string(res.Extra["x-extension"]) != `[1,2,3]` {
		t.Errorf("extra = %v", res.Extra)
	}
	// Large integers in free-form JSON are kept exactly.
	if !strings.Contains(marshal(t, res), "12345678901234567890123") {
		t.Errorf("large integer lost: %s", marshal(t, res))
	}
}

func TestDecodingIsStrict(t *testing.T) {
	for _, tt := range []struct {
		name, data, want string
	}{
		{"missing required member", `{"messages":[{"content":{"type":"text","text":"hi"}}],"maxTokens":10}`,
			`/messages/0: missing required member "role"`},
		{"member names are case-sensitive", `{"messages":[],"MaxTokens":10}`,
			`missing required member "maxTokens"`},
		{"duplicate member", `{"messages":[],"maxTokens":10,"maxTokens":20}`,
			`/maxTokens: duplicate member name`},
		{"invalid UTF-8", "{\"messages\":[],\"maxTokens\":1,\"systemPrompt\":\"\xff\"}",
			`/systemPrompt: invalid UTF-8`},
		{"integer required", `{"messages":[],"maxTokens":1.5}`,
			`/maxTokens: `},
		{"null for a non-nullable member", `{"messages":null,"maxTokens":1}`,
			`/messages: `},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var p CreateMessageRequestParams
			err := json.Unmarshal([]byte(tt.data), &p)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestTypedMessageDecoding(t *testing.T) {
	req, err := UnmarshalClientRequest([]byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"weather","arguments":{"city":"Paris"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	call, ok := req.(*CallToolRequest)
	if !ok {
		t.Fatalf("decoded %T, want *CallToolRequest", req)
	}
	if call.Method != MethodCallTool || call.Params.Name != "weather" {
		t.Errorf("decoded %+v", call)
	}

	// A result is decoded knowing the method of its request: an empty-looking result of
	// tools/call is still a CallToolResult (or the InputRequiredResult tools/call may return).
	res, err := UnmarshalServerResultFor(MethodCallTool, []byte(`{"resultType":"complete","content":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := res.(*CallToolResult); !ok {
		t.Errorf("decoded %T, want *CallToolResult", res)
	}

	// Without the method, the most specific variant whose required members are present wins.
	res, err = UnmarshalServerResult([]byte(`{"resultType":"complete","tools":[],"ttlMs":0,"cacheScope":"public"}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := res.(*ListToolsResult); !ok {
		t.Errorf("decoded %T, want *ListToolsResult", res)
	}

	// A request has every member of a notification: the request wins when "id" is present.
	for data, want := range map[string]string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`:                        "*mcpdraft.JSONRPCRequest",
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`:          "*mcpdraft.JSONRPCNotification",
		`{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete"}}`:     "*mcpdraft.JSONRPCResultResponse",
		`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no"}}`: "*mcpdraft.JSONRPCErrorResponse",
	} {
		m, err := UnmarshalJSONRPCMessage([]byte(data))
		if err != nil {
			t.Fatal(err)
		}
		if got := typeString(m); got != want {
			t.Errorf("%s decoded as %s, want %s", data, got, want)
		}
	}

	// The form elicitation's discriminator is optional.
	p, err := UnmarshalElicitRequestParams([]byte(`{"message":"name?","requestedSchema":{"type":"object","properties":{}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := p.(*ElicitRequestFormParams); !ok {
		t.Errorf("decoded %T, want *ElicitRequestFormParams", p)
	}
}

// TestErrorsAreNotHidden checks that a malformed variant is an error, not a less specific
// variant holding the bad members as unknown ones.
func TestErrorsAreNotHidden(t *testing.T) {
	for _, tt := range []struct {
		name   string
		decode func([]byte) (any, error)
		data   string
		want   string
	}{
		{"request with a bad id", func(b []byte) (any, error) { return UnmarshalJSONRPCMessage(b) },
			`{"jsonrpc":"2.0","id":1.5,"method":"tools/call"}`, `/id: `},
		{"request with a null id", func(b []byte) (any, error) { return UnmarshalJSONRPCMessage(b) },
			`{"jsonrpc":"2.0","id":null,"method":"tools/call"}`, `/id: `},
		{"tool result missing a member", func(b []byte) (any, error) {
			var v CallToolResultResponse
			return &v, json.Unmarshal(b, &v)
		}, `{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[{"type":"text"}]}}`,
			`/result/content/0: missing required member "text"`},
		{"typed result of the wrong shape", func(b []byte) (any, error) { return UnmarshalServerResultFor(MethodCallTool, b) },
			`{"resultType":"complete","content":5}`, `/content: expected array`},
		{"enum schema with a bad enum", func(b []byte) (any, error) { return UnmarshalPrimitiveSchemaDefinition(b) },
			`{"type":"string","enum":5}`, `/enum: expected array`},
		{"discriminator that is not a string", func(b []byte) (any, error) { return UnmarshalContentBlock(b) },
			`{"type":5,"text":"x"}`, `member "type" must be a string, found number`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			v, err := tt.decode([]byte(tt.data))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("decoded %T, error %v; want an error containing %q", v, err, tt.want)
			}
		})
	}
}

func TestEncodingErrors(t *testing.T) {
	for _, tt := range []struct {
		name string
		v    any
		want string
	}{
		{"Extra repeating a member", TextContent{Text: "x", Extra: map[string]json.RawMessage{"text": json.RawMessage(`"y"`)}},
			`Extra holds "text", a member the type defines`},
		{"invalid raw JSON in Extra", TextContent{Extra: map[string]json.RawMessage{"k": json.RawMessage(`{"a":1,"a":2}`)}},
			`/k: invalid raw JSON: /a: duplicate member name`},
		{"unknown variant that is not an object", CallToolResult{Content: []ContentBlock{&UnknownContentBlock{Raw: json.RawMessage(`"str"`)}}},
			`/content/0: raw JSON of an unknown variant must be an object`},
		{"nil required union", SamplingMessage{Role: RoleUser}, `/content`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := json.Marshal(tt.v)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// TestDecodedValuesDoNotAliasTheInput overwrites the input after decoding: every string, raw
// value and map key of the value must be its own (a caller reuses its read buffer).
func TestDecodedValuesDoNotAliasTheInput(t *testing.T) {
	data := []byte(`{"messages":[{"role":"user","content":{"type":"text","text":"plain text"}},` +
		`{"role":"assistant","content":[{"type":"text","text":"esc\"aped\n"},{"type":"tool_use","id":"u1","name":"get","input":{"city":"Paris"}}]},` +
		`{"role":"user","content":{"type":"tool_result","toolUseId":"u1","content":[],"structuredContent":{"t":21}}}],` +
		`"maxTokens":10,"systemPrompt":"be brief","_meta":{"k":"v"},"x-extra":[1,2]}`)
	var p CreateMessageRequestParams
	if err := json.Unmarshal(data, &p); err != nil {
		t.Fatal(err)
	}
	before := marshal(t, &p)
	for i := range data {
		data[i] = 'X'
	}
	if after := marshal(t, &p); after != before {
		t.Errorf("the value changed with its input:\nbefore %s\nafter  %s", before, after)
	}
}

// TestUnmarshalNoCopy decodes input that the caller hands over: the value equals what Unmarshal
// gives, its unescaped strings point into the input instead of a copy, and the input is only read.
func TestUnmarshalNoCopy(t *testing.T) {
	data := []byte(`{"messages":[{"role":"user","content":{"type":"text","text":"plain text"}},` +
		`{"role":"assistant","content":[{"type":"text","text":"esc\"aped\n"},{"type":"tool_use","id":"u1","name":"get","input":{"city":"Paris"}}]},` +
		`{"role":"user","content":{"type":"tool_result","toolUseId":"u1","content":[],"structuredContent":{"t":21}}}],` +
		`"maxTokens":10,"systemPrompt":"be brief","_meta":{"k":"v"},"x-extra":[1,2]}`)
	in := bytes.Clone(data)
	var want, got CreateMessageRequestParams
	if err := Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	if err := UnmarshalNoCopy(in, &got); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(in, data) {
		t.Fatalf("UnmarshalNoCopy changed its input:\n%s", in)
	}
	requireJSON(t, marshal(t, &got), marshal(t, &want))
	inInput := func(s string) bool {
		p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
		start := uintptr(unsafe.Pointer(&in[0]))
		return p >= start && p < start+uintptr(len(in))
	}
	if s := *got.SystemPrompt; !inInput(s) {
		t.Errorf("systemPrompt %q is a copy, not the input's bytes", s)
	}
	if s := got.Messages[1].Content.List[0].(*TextContent).Text; inInput(s) || s != "esc\"aped\n" {
		t.Errorf("an escaped string is unescaped into memory of its own, got %q", s)
	}

	// Errors are those of Unmarshal, and a failed decode leaves the input as it was too.
	for _, bad := range []string{
		`{"messages":[],"maxTokens":1,"maxTokens":2}`,
		`{"messages":[{"role":"user","content":{"type":"text","text":"a\"b` + "\x01" + `"}}],"maxTokens":1}`,
		`{"messages":[{"role":"robot","content":{"type":"text","text":"x"}}],"maxTokens":1}`,
		`{"messages":[`,
	} {
		data := []byte(bad)
		in := bytes.Clone(data)
		var p CreateMessageRequestParams
		want := Unmarshal(data, &p)
		got := UnmarshalNoCopy(in, &p)
		if want == nil || got == nil || got.Error() != want.Error() {
			t.Errorf("%s:\n got %v\nwant %v", bad, got, want)
		}
		if !bytes.Equal(in, data) {
			t.Errorf("%s: the input changed to %s", bad, in)
		}
	}
}
