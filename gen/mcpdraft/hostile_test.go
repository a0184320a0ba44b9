package mcpdraft

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Hostile inputs on the real entry points of the generated decoders: what a peer can send to an
// MCP server or client. Every case asserts the error's message, its JSON pointer, whether it is
// marked as not JSON at all (Syntax), and that its text is short. The speed of the decoders on
// hostile shapes (a 50 MB string, a million members, a million elements, nesting near the limit)
// is measured by the benchmarks of the bench module (BenchmarkHostile), not here.

// maxErrorLen bounds the text of the errors of the cases below: none echoes a long member name or
// value, and none has more than 32 segments in its pointer.
const maxErrorLen = 1024

// maxPointerLen bounds the pointer of any decoding error: 16 outer and 16 inner segments, each
// at most 64 bytes of member name (doubled by escaping "~" and "/") and "…", and "/…" between.
const maxPointerLen = 32*(1+2*64+len("…")) + len("/…")

// The entry points the cases go through.
var (
	samplingParams = func(b []byte) error { var v CreateMessageRequestParams; return v.UnmarshalJSON(b) }
	callToolResult = func(b []byte) error { var v CallToolResult; return v.UnmarshalJSON(b) }
	listTools      = func(b []byte) error { var v ListToolsResult; return v.UnmarshalJSON(b) }
	clientMessage  = func(b []byte) error { _, err := DecodeClientMessage(b, nil); return err }
	serverMessage  = func(b []byte) error { _, err := DecodeServerMessage(b, pendingToolsCall); return err }
	// listToolsResponse decodes a response as the answer to a tools/list request.
	listToolsResponse = func(b []byte) error {
		_, err := DecodeServerMessage(b, func(RequestID) (string, bool) { return MethodListTools, true })
		return err
	}
)

// decodeError checks that err is a decoding error (a *DecodeError, or a *MessageError holding
// one) with the given pointer and message, of bounded size, and returns it.
func decodeError(t *testing.T, err error, pointer, message string) *DecodeError {
	t.Helper()
	return decodeErrorOf(t, err, pointer, message, maxErrorLen)
}

// decodeErrorOf is decodeError with the bound of its size.
func decodeErrorOf(t *testing.T, err error, pointer, message string, maxLen int) *DecodeError {
	t.Helper()
	var de *DecodeError
	if !errors.As(err, &de) {
		t.Fatalf("error %v (%T), want a *DecodeError", err, err)
	}
	if de.Pointer != pointer {
		t.Errorf("pointer %q, want %q", clip(de.Pointer), clip(pointer))
	}
	if de.Message != message {
		t.Errorf("message %q, want %q", clip(de.Message), message)
	}
	if n := len(err.Error()); n > maxLen {
		t.Errorf("error of %d bytes, want at most %d: %s", n, maxLen, clip(err.Error()))
	}
	return de
}

// clip shortens a string for a test failure's message.
func clip(s string) string {
	if len(s) > 200 {
		return fmt.Sprintf("%s...(%d bytes)", s[:200], len(s))
	}
	return s
}

// sampling is a sampling request with one message of the given content.
func sampling(content string) string {
	return `{"messages":[{"role":"user","content":` + content + `}],"maxTokens":100}`
}

// toolUse is a sampling request whose one message is a tool use with the given input.
func toolUse(input string) string {
	return `{"messages":[{"role":"assistant","content":{"type":"tool_use","id":"a","name":"f","input":` + input + `}}],"maxTokens":100}`
}

// toolsCall is a tools/call request with the given id, and params of the given members after
// the _meta every request of the draft has.
func toolsCall(id, members string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{` + requestMeta + `,` + members + `}}`
}

// requestMeta is the _meta member that every request of the draft has.
const requestMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

// manyMembers is an object of n members "m0" to "m<n-1>", then the members of more.
func manyMembers(n int, more string) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		fmt.Fprintf(&b, `"m%d":%d,`, i, i)
	}
	return b.String() + more + "}"
}

// A hostileCase is an input that a decoder must reject, and the error it must return.
type hostileCase struct {
	name    string
	decode  func([]byte) error
	data    string
	pointer string
	message string
	// syntax: the input is not JSON at all, as encoding/json's Valid judges it (it accepts
	// invalid UTF-8 in strings, and so does Syntax: such a message is JSON of bad content).
	syntax bool
}

// duplicateMember is the error of a member that an object has twice.
const duplicateMember = "duplicate member name"

// hostileCases are the cases of TestHostileInput.
var hostileCases = []hostileCase{
	// Duplicate members, even where the second would change what the value is.
	{"duplicate type changing the variant", samplingParams,
		sampling(`{"type":"text","text":"hi","type":"image","data":"AA==","mimeType":"image/png"}`),
		"/messages/0/content/type", duplicateMember, false},
	{"duplicate type read first", samplingParams,
		sampling(`{"type":"image","type":"text","text":"hi"}`),
		"/messages/0/content/type", duplicateMember, false},
	{"duplicate by an escape", samplingParams,
		sampling(`{"type":"text","text":"a","t\u0065xt":"b"}`),
		"/messages/0/content/text", duplicateMember, false},
	{"duplicate method", clientMessage,
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","method":"tools/call","params":{` + requestMeta + `,"name":"x"}}`,
		"/method", duplicateMember, false},
	{"duplicate id", clientMessage,
		`{"jsonrpc":"2.0","id":1,"id":2,"method":"tools/list","params":{` + requestMeta + `}}`,
		"/id", duplicateMember, false},
	{"duplicate resultType", serverMessage,
		`{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[],"resultType":"input_required"}}`,
		"/result/resultType", duplicateMember, false},
	{"duplicate known member", callToolResult,
		`{"content":[],"isError":true,"isError":false}`,
		"/isError", duplicateMember, false},
	{"duplicate unknown member (Extra)", callToolResult,
		`{"content":[],"x":1,"x":2}`,
		"/x", duplicateMember, false},
	{"duplicate in a tool's input (free-form)", samplingParams,
		toolUse(`{"city":"Paris","city":"Lyon"}`),
		"/messages/0/content/input/city", duplicateMember, false},
	{"duplicate deep in structuredContent", callToolResult,
		`{"content":[],"structuredContent":{"x":[{"k":1,"k":2}]}}`,
		"/structuredContent/x/0/k", duplicateMember, false},
	{"duplicate past the first 16 members of structuredContent", callToolResult,
		`{"content":[],"structuredContent":` + manyMembers(100, `"m7":0`) + `}`,
		"/structuredContent/m7", duplicateMember, false},
	{"duplicate in _meta", callToolResult,
		`{"content":[],"_meta":{"k":1,"k":2}}`,
		"/_meta/k", duplicateMember, false},
	{"duplicate past the first 16 members of _meta", callToolResult,
		`{"content":[],"_meta":` + manyMembers(100, `"m7":0`) + `}`,
		"/_meta/m7", duplicateMember, false},
	{"duplicate inside a _meta value", callToolResult,
		`{"content":[],"_meta":{"k":{"a":1,"a":2}}}`,
		"/_meta/k/a", duplicateMember, false},
	{"duplicate in a request's _meta", clientMessage,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","_meta":{"a":1,"a":2}}}`,
		"/params/_meta/a", duplicateMember, false},
	{"duplicate in a tool's input schema", listTools,
		`{"tools":[{"name":"a","inputSchema":{"type":"object","properties":{"p":{},"p":{}}}}]}`,
		"/tools/0/inputSchema/properties/p", duplicateMember, false},
	{"duplicate whose value is bad too", callToolResult,
		`{"content":[],"_meta":{"k":1,"k":tru}}`,
		"/_meta/k", duplicateMember, true},

	// Member names that differ from the schema's only by case are never matched.
	{"Type for type", samplingParams,
		sampling(`{"Type":"text","text":"hi"}`),
		"/messages/0/content", `missing member "type"`, false},
	{"ROLE for role", samplingParams,
		`{"messages":[{"ROLE":"user","content":{"type":"text","text":"hi"}}],"maxTokens":1}`,
		"/messages/0", `missing required member "role"`, false},
	{"the Kelvin sign for k (encoding/json folds it)", samplingParams,
		`{"messages":[],"maxTo\u212aens":1}`,
		"", `missing required member "maxTokens"`, false},
	{"METHOD for method", clientMessage,
		`{"jsonrpc":"2.0","id":1,"METHOD":"tools/list"}`,
		"", "not a JSON-RPC message: no method, result or error", false},

	// Invalid UTF-8 and lone surrogates, in values and in member names.
	{"invalid byte in a string", samplingParams,
		sampling("{\"type\":\"text\",\"text\":\"a\xffb\"}"),
		"/messages/0/content/text", "invalid UTF-8 in string", false},
	{"overlong encoding", samplingParams,
		sampling("{\"type\":\"text\",\"text\":\"\xc0\xaf\"}"),
		"/messages/0/content/text", "invalid UTF-8 in string", false},
	{"surrogate encoded in UTF-8", samplingParams,
		sampling("{\"type\":\"text\",\"text\":\"\xed\xa0\x80\"}"),
		"/messages/0/content/text", "invalid UTF-8 in string", false},
	{"truncated sequence", samplingParams,
		sampling("{\"type\":\"text\",\"text\":\"\xe2\x82\"}"),
		"/messages/0/content/text", "invalid UTF-8 in string", false},
	{"lone high surrogate", samplingParams,
		sampling(`{"type":"text","text":"\ud800"}`),
		"/messages/0/content/text", `lone surrogate in \u escape`, false},
	{"lone low surrogate", samplingParams,
		sampling(`{"type":"text","text":"\udc00x"}`),
		"/messages/0/content/text", `lone surrogate in \u escape`, false},
	{"high surrogate before a letter", samplingParams,
		sampling(`{"type":"text","text":"\ud83d\u0041"}`),
		"/messages/0/content/text", `lone surrogate in \u escape`, false},
	{"invalid UTF-8 in a free-form value", callToolResult,
		"{\"content\":[],\"structuredContent\":{\"a\":[\"\xff\"]}}",
		"/structuredContent/a/0", "invalid UTF-8 in string", false},
	{"invalid UTF-8 in a _meta name", callToolResult,
		"{\"content\":[],\"_meta\":{\"a\xffb\":1}}",
		"/_meta/a\uFFFDb", "member name: invalid UTF-8 in string", false},
	{"lone surrogate in a _meta name", callToolResult,
		`{"content":[],"_meta":{"\ud800x":1}}`,
		`/_meta/\ud800x`, `member name: lone surrogate in \u escape`, false},
	{"invalid UTF-8 in a member name of a struct", callToolResult,
		"{\"content\":[],\"\xff\":1}",
		"/\uFFFD", "member name: invalid UTF-8 in string", false},
	{"invalid UTF-8 in an id", clientMessage,
		toolsCall("\"\xff\"", `"name":"x"`),
		"/id", "invalid UTF-8 in string", false},

	// Numbers beyond what the Go type holds.
	{"maxTokens 1e400", samplingParams,
		`{"messages":[],"maxTokens":1e400}`, "/maxTokens", "integer out of range", false},
	{"maxTokens 2^63", samplingParams,
		`{"messages":[],"maxTokens":9223372036854775808}`, "/maxTokens", "integer out of range", false},
	{"maxTokens -2^63-1", samplingParams,
		`{"messages":[],"maxTokens":-9223372036854775809}`, "/maxTokens", "integer out of range", false},
	{"maxTokens with a 20-digit exponent", samplingParams,
		`{"messages":[],"maxTokens":1e99999999999999999999}`, "/maxTokens", "integer out of range", false},
	{"maxTokens 1.5", samplingParams,
		`{"messages":[],"maxTokens":1.5}`, "/maxTokens", "not an integer", false},
	{"maxTokens 1e-400", samplingParams,
		`{"messages":[],"maxTokens":1e-400}`, "/maxTokens", "not an integer", false},
	{"temperature 1e400", samplingParams,
		`{"messages":[],"maxTokens":1,"temperature":1e400}`, "/temperature", "number out of range", false},
	{"id 2^63", clientMessage,
		toolsCall("9223372036854775808", `"name":"x"`), "/id", "integer out of range", false},
	{"id 1e400", clientMessage,
		toolsCall("1e400", `"name":"x"`), "/id", "integer out of range", false},
	{"id of a thousand digits", clientMessage,
		toolsCall(strings.Repeat("9", 1000), `"name":"x"`), "/id", "integer out of range", false},

	// Anything but white space after the value.
	{"a letter after the value", samplingParams,
		`{"messages":[],"maxTokens":1} x`, "", "unexpected invalid character 'x' after top-level value", true},
	{"a second value", samplingParams,
		`{"messages":[],"maxTokens":1}{}`, "", "unexpected object after top-level value", true},
	{"a NUL after the value", callToolResult,
		"{\"content\":[]}\x00", "", `unexpected invalid character '\x00' after top-level value`, true},
	{"a bracket after a message", clientMessage,
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{` + requestMeta + `}}]`, "", "unexpected invalid character ']' after top-level value", true},
}

// TestHostileInput checks that each of hostileCases fails to decode with its error.
func TestHostileInput(t *testing.T) {
	for _, tt := range hostileCases {
		t.Run(tt.name, func(t *testing.T) {
			de := decodeError(t, tt.decode([]byte(tt.data)), tt.pointer, tt.message)
			if de.Syntax != tt.syntax {
				t.Errorf("Syntax %v, want %v", de.Syntax, tt.syntax)
			}
		})
	}
}

// TestCaseVariantsAreUnknown checks that a member whose name differs from a defined one only by
// case is an unknown member, kept in Extra, and changes nothing of the defined one.
func TestCaseVariantsAreUnknown(t *testing.T) {
	var m SamplingMessage
	data := `{"role":"user","ROLE":"assistant","content":{"type":"text","text":"hi","Type":"image","TEXT":"no"}}`
	if err := m.UnmarshalJSON([]byte(data)); err != nil {
		t.Fatal(err)
	}
	text, ok := m.Content.List[0].(*TextContent)
	if !ok {
		t.Fatalf("content is %T, want *TextContent", m.Content.List[0])
	}
	if m.Role != RoleUser || text.Text != "hi" {
		t.Errorf("role %q, text %q: a case variant changed a defined member", m.Role, text.Text)
	}
	if string(m.Extra["ROLE"]) != `"assistant"` || string(text.Extra["Type"]) != `"image"` || string(text.Extra["TEXT"]) != `"no"` {
		t.Errorf("Extra %v and %v, want the case variants there", m.Extra, text.Extra)
	}
}

// nestedArrays is n nested arrays.
func nestedArrays(n int) string {
	return strings.Repeat("[", n) + strings.Repeat("]", n)
}

func TestHostileDepth(t *testing.T) {
	if MaxDecodeDepth != 10000 {
		t.Fatalf("MaxDecodeDepth is %d, want the default 10000", MaxDecodeDepth)
	}
	// The tool input is at depth 5 (the request, messages, the message, its content, the
	// input), so its member "x" holds n arrays in a document of 5+n levels.
	deepInput := func(n int) []byte { return []byte(toolUse(`{"x":` + nestedArrays(n) + `}`)) }

	if err := samplingParams(deepInput(10000 - 5)); err != nil {
		t.Errorf("a document of 10,000 levels: %v", err)
	}
	err := samplingParams(deepInput(10000 - 5 + 1))
	// The pointer keeps the first and last 16 of its 10,000 segments.
	pointer := "/messages/0/content/input/x" + strings.Repeat("/0", 11) + "/…" + strings.Repeat("/0", 16)
	decodeError(t, err, pointer, "nesting deeper than 10000 levels")

	// The same through the message decoder of a server.
	err = clientMessage([]byte(toolsCall("7", `"name":"f","arguments":{"a":`+nestedArrays(10000)+`}`)))
	pointer = "/params/arguments/a" + strings.Repeat("/0", 13) + "/…" + strings.Repeat("/0", 16)
	decodeError(t, err, pointer, "nesting deeper than 10000 levels")
	if len(err.Error()) >= 1024 || !strings.Contains(err.Error(), "/…/") {
		t.Errorf("error of %d bytes, want under 1 KB with /…: %s", len(err.Error()), clip(err.Error()))
	}

	// Objects count as arrays do.
	objects := strings.Repeat(`{"a":`, 10000) + "1" + strings.Repeat("}", 10000)
	err = callToolResult([]byte(`{"content":[],"structuredContent":` + objects + `}`))
	pointer = "/structuredContent" + strings.Repeat("/a", 15) + "/…" + strings.Repeat("/a", 16)
	decodeError(t, err, pointer, "nesting deeper than 10000 levels")

	t.Run("raised", func(t *testing.T) {
		defer func(limit int) { MaxDecodeDepth = limit }(MaxDecodeDepth)
		MaxDecodeDepth = 20000
		var p CreateMessageRequestParams
		if err := p.UnmarshalJSON(deepInput(15000)); err != nil {
			t.Fatalf("15,005 levels under a limit of 20,000: %v", err)
		}
		use := p.Messages[0].Content.List[0].(*ToolUseContent)
		if got := string(use.Input["x"]); got != nestedArrays(15000) {
			t.Errorf("input x of %d bytes, want the 15,000 nested arrays", len(got))
		}
		err := samplingParams(deepInput(20000 - 5 + 1))
		decodeError(t, err, "/messages/0/content/input/x"+strings.Repeat("/0", 11)+"/…"+strings.Repeat("/0", 16),
			"nesting deeper than 20000 levels")
	})
	t.Run("lowered", func(t *testing.T) {
		defer func(limit int) { MaxDecodeDepth = limit }(MaxDecodeDepth)
		MaxDecodeDepth = 8
		if err := samplingParams(deepInput(3)); err != nil {
			t.Fatalf("8 levels under a limit of 8: %v", err)
		}
		decodeError(t, samplingParams(deepInput(4)), "/messages/0/content/input/x/0/0/0", "nesting deeper than 8 levels")
	})
	if MaxDecodeDepth != 10000 {
		t.Errorf("MaxDecodeDepth is %d after the subtests, want it restored", MaxDecodeDepth)
	}
}

// TestHostileErrorsAreBounded checks that an error never repeats a long member name or value
// whole, and that its pointer is bounded however deep the input.
func TestHostileErrorsAreBounded(t *testing.T) {
	mb := strings.Repeat("a", 1<<20)
	name64 := strings.Repeat("a", 64) + "…" // a long member name in a pointer

	t.Run("1 MB member name", func(t *testing.T) { longMemberNames(t, mb, name64) })
	t.Run("long pointer", func(t *testing.T) { longPointers(t) })
	t.Run("50 MB string", func(t *testing.T) { hugeValues(t) })
	t.Run("validation", func(t *testing.T) { longValidatedValues(t, mb, name64) })
}

// longMemberNames checks that the errors of members of a 1 MB name, mb, cut it to name64 in
// their pointers.
func longMemberNames(t *testing.T, mb, name64 string) {
	decodeError(t, callToolResult([]byte(`{"content":[],"_meta":{"`+mb+`":tru}}`)),
		"/_meta/"+name64, "invalid literal, expected true")
	decodeError(t, callToolResult([]byte(`{"content":[],"`+mb+`":tru}`)),
		"/"+name64, "invalid literal, expected true")
	decodeError(t, callToolResult([]byte(`{"content":[],"_meta":{"`+mb+`":1,"`+mb+`":2}}`)),
		"/_meta/"+name64, "duplicate member name")
	decodeError(t, callToolResult([]byte(`{"content":[],"structuredContent":{"`+mb+`":1,"`+mb+`":2}}`)),
		"/structuredContent/"+name64, "duplicate member name")
	decodeError(t, callToolResult([]byte("{\"content\":[],\"_meta\":{\""+mb+"\xff\":1}}")),
		"/_meta/"+name64, "member name: invalid UTF-8 in string")
	decodeError(t, callToolResult([]byte(`{"content":[],"_meta":{"`+mb)),
		"/_meta", "member name: unexpected end of input in string")
	// A name cut in the middle of a rune is cut before it.
	decodeError(t, callToolResult([]byte(`{"content":[],"_meta":{"`+strings.Repeat("é", 1<<19)+`":tru}}`)),
		"/_meta/"+strings.Repeat("é", 32)+"…", "invalid literal, expected true")
}

// longPointers checks that the pointer of an error 40 members of 1 KB names deep keeps 16
// outer and 16 inner segments, and stays within maxPointerLen when escaping doubles the names.
func longPointers(t *testing.T) {
	// 40 nested members of 1 KB names: the pointer keeps 16 outer and 16 inner segments,
	// each name cut at 64 bytes.
	var b, want strings.Builder
	name := func(i int) string { return fmt.Sprintf("%02d", i) + strings.Repeat("n", 1000) }
	want.WriteString("/structuredContent")
	for i := range 40 {
		b.WriteString(`{"` + name(i) + `":`)
		if i < 15 || i >= 24 {
			want.WriteString("/" + name(i)[:64] + "…")
		}
		if i == 14 {
			want.WriteString("/…")
		}
	}
	data := `{"content":[],"structuredContent":` + b.String() + "tru" + strings.Repeat("}", 40) + "}"
	decodeErrorOf(t, callToolResult([]byte(data)), want.String(), "invalid literal, expected true", 34*(1+64+len("…"))+100)

	// The worst case: names that escaping doubles.
	b.Reset()
	for range 40 {
		b.WriteString(`{"` + strings.Repeat("~/", 500) + `":`)
	}
	data = `{"content":[],"structuredContent":` + b.String() + "tru" + strings.Repeat("}", 40) + "}"
	var de *DecodeError
	if err := callToolResult([]byte(data)); !errors.As(err, &de) {
		t.Fatalf("error %v, want a *DecodeError", err)
	}
	if len(de.Pointer) > maxPointerLen || !strings.HasPrefix(de.Pointer, "/structuredContent/~0~1~0~1") {
		t.Errorf("pointer of %d bytes, want at most %d: %s", len(de.Pointer), maxPointerLen, clip(de.Pointer))
	}
}

// hugeValues checks the errors of bad ends of a 50 MB string, and of a 50 MB number.
func hugeValues(t *testing.T) {
	if testing.Short() {
		t.Skip("50 MB inputs are not built under -short")
	}
	// One buffer of 50 MB, whose last bytes each case changes.
	const head = `{"messages":[{"role":"user","content":{"type":"text","text":"`
	data := []byte(head + strings.Repeat("x", 50<<20) + `xx"}}],"maxTokens":100}`)
	if err := samplingParams(data); err != nil {
		t.Fatalf("the 50 MB text: %v", err)
	}
	end := len(data) - len(`"}}],"maxTokens":100}`) // the closing quote
	for _, tt := range []struct {
		last    string // the last bytes of the text
		message string
	}{
		{"x\x01", "control character in string"},
		{"x\xff", "invalid UTF-8 in string"},
		{`\x`, `invalid escape "\\x"`},
		{`\u`, `invalid \u escape`},
	} {
		copy(data[end-2:], tt.last)
		decodeError(t, samplingParams(data), "/messages/0/content/text", tt.message)
	}
	decodeError(t, samplingParams(data[:end-2]), "/messages/0/content/text", "unexpected end of input in string")
	// The string where a number belongs, and a number of 50 MB.
	data = append(data[:0], `{"messages":[],"maxTokens":"`...)
	data = append(data, strings.Repeat("7", 50<<20)...)
	decodeError(t, samplingParams(append(data, `"}`...)), "/maxTokens", "expected number, found string")
	copy(data[len(data)-50<<20-1:], "7")
	decodeError(t, samplingParams(append(data, `}`...)), "/maxTokens", "integer out of range")
}

// longValidatedValues checks that validation quotes at most 64 bytes of mb, a 1 MB value,
// and cuts a 1 MB member name to name64 in a problem's pointer.
func longValidatedValues(t *testing.T, mb, name64 string) {
	// Validation quotes at most 64 bytes of a value too.
	var req JSONRPCRequest
	err := Unmarshal([]byte(`{"jsonrpc":"`+mb+`","id":1,"method":"tools/list"}`), &req)
	var verr *ValidationError
	if !errors.As(err, &verr) || len(err.Error()) > maxErrorLen || !strings.Contains(err.Error(), `/jsonrpc: must be "2.0"`) {
		t.Errorf("error %s, want a short *ValidationError on /jsonrpc", clip(fmt.Sprint(err)))
	}
	// A problem under a member of a 1 MB name: a property of a form's schema.
	p, err := UnmarshalElicitRequestParams([]byte(`{"mode":"form","message":"m","requestedSchema":{"type":"object","properties":{"` +
		mb + `":{"type":"string","format":"` + mb + `"}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	err = p.Validate()
	if !errors.As(err, &verr) || len(verr.Problems) != 1 || len(err.Error()) > maxErrorLen ||
		verr.Problems[0].Pointer != "/requestedSchema/properties/"+name64+"/format" {
		t.Errorf("error %s, want one short problem under the cut name", clip(fmt.Sprint(err)))
	}
}

// TestHostileIDs checks request ids of hostile sizes: a long string id is an id like any other
// (a receiver answers with it), a long number is an error, and neither is repeated in the error.
func TestHostileIDs(t *testing.T) {
	id := `"` + strings.Repeat("i", 1<<20) + `"`
	m, err := DecodeClientMessage([]byte(toolsCall(id, `"name":"x"`)), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.(*CallToolRequest).ID; got != RequestIDString(id[1:len(id)-1]) {
		t.Errorf("id of %d bytes, want the 1 MB string", len(fmt.Sprint(got)))
	}

	// A bad message with that id: the error is short, and it carries the id to answer with.
	err = clientMessage([]byte(toolsCall(id, `"name":5`)))
	decodeError(t, err, "/params/name", "expected string, found number")
	var merr *MessageError
	if !errors.As(err, &merr) || merr.ID != RequestIDString(id[1:len(id)-1]) {
		t.Fatalf("error %T, want a *MessageError with the id", err)
	}
	resp := NewErrorResponse(nil, err)
	if resp.ID != merr.ID || resp.Error.Code != -32602 || len(resp.Error.Message) > maxErrorLen {
		t.Errorf("response id %.20v, code %d, message of %d bytes", resp.ID, resp.Error.Code, len(resp.Error.Message))
	}

	// An integer written with a million digits, and its value 1.
	decodeError(t, clientMessage([]byte(toolsCall(strings.Repeat("9", 1<<20), `"name":"x"`))), "/id", "integer out of range")
	m, err = DecodeClientMessage([]byte(toolsCall("1"+strings.Repeat("0", 1<<20)+"e-1048576", `"name":"x"`)), nil)
	if err != nil || m.(*CallToolRequest).ID != RequestIDNumber(1) {
		t.Errorf("10^1048576 × 10^-1048576 as an id: %v, %v", m, err)
	}
}

// TestHostileTruncation decodes every prefix of valid messages: each is an error, marked as input
// that is not JSON, of bounded size, and none panics.
func TestHostileTruncation(t *testing.T) {
	for _, tt := range []struct {
		file   string
		decode func([]byte) error
	}{
		{"CreateMessageRequestParams/request-with-tools.json", samplingParams},
		{"CreateMessageRequestParams/follow-up-with-tool-results.json", samplingParams},
		{"CallToolResult/result-with-structured-content.json", callToolResult},
		{"ListToolsResult/tools-list-with-cursor-and-ttl.json", listTools},
		{"CallToolRequest/call-tool-request.json", clientMessage},
		{"ListToolsResultResponse/list-tools-result-response.json", listToolsResponse},
	} {
		t.Run(tt.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("..", "testdata", "examples", "draft", filepath.FromSlash(tt.file)))
			if err != nil {
				t.Fatal(err)
			}
			var compact bytes.Buffer
			if err := json.Compact(&compact, data); err != nil {
				t.Fatal(err)
			}
			data = compact.Bytes()
			if err := tt.decode(data); err != nil {
				t.Fatalf("the whole message: %v", err)
			}
			messages := map[string]int{}
			for n := range len(data) {
				err := tt.decode(data[:n])
				var de *DecodeError
				if !errors.As(err, &de) {
					t.Fatalf("%d of %d bytes: error %v (%T), want a *DecodeError", n, len(data), err, err)
				}
				if !de.Syntax || len(err.Error()) > maxErrorLen {
					t.Errorf("%d of %d bytes: Syntax %v, error of %d bytes: %v", n, len(data), de.Syntax, len(err.Error()), err)
				}
				messages[de.Message]++
			}
			// The errors say what ended too soon.
			for m := range messages {
				switch {
				case strings.Contains(m, "end of input"), strings.HasPrefix(m, "invalid literal"),
					m == "invalid number",                                        // 1. or 1e or -
					m == `invalid \u escape`, m == `lone surrogate in \u escape`, // within an escape
					m == "invalid UTF-8 in string", m == "member name: invalid UTF-8 in string": // within a rune
				default:
					t.Errorf("a truncated message gives %q", m)
				}
			}
		})
	}
}
