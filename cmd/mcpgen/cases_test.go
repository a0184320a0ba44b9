package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A schemaCase is a schema form that TypeScript accepts (or, with err, one it rejects), run
// through the command as a user would. A valid form generates a package (twice: the output must
// be the same) whose behaviour test, the package's own test file, must pass; an invalid one gives
// one error line at its position and leaves the output directory as it was.
type schemaCase struct {
	name string
	// schema is the schema.ts text; args are the flags besides -schema, -pkg and -o (an
	// embedded version: -spec and no schema).
	schema string
	args   []string
	config string // a configuration file's text, given with -config, or ""
	// note is a line the command must write on stderr (what the configuration leaves out); a
	// valid case without one writes nothing there.
	note string
	// test is the package's test file (package clause and imports included) for a valid form.
	test string
	// pos ("line:col") and err (in the message) are the error of an invalid form; inConfig says
	// that pos is in the configuration file, not in the schema.
	pos, err string
	inConfig bool
}

// duplicateMethodSchema is the start of the schemas of the duplicate method cases: a protocol
// layer with CreateMessageRequest, which each case declares a second request of the same method
// beside.
const duplicateMethodSchema = `export const JSONRPC_VERSION = "2.0";
export type RequestId = string | number;
export interface Request {
  method: string;
  params?: { [key: string]: unknown };
}
export interface Result {
  _meta?: { [key: string]: unknown };
  [key: string]: unknown;
}
export type EmptyResult = Result;
export interface Error {
  code: number;
  message: string;
  data?: unknown;
}
export interface JSONRPCRequest extends Request {
  jsonrpc: typeof JSONRPC_VERSION;
  id: RequestId;
}
export interface JSONRPCNotification {
  jsonrpc: typeof JSONRPC_VERSION;
  method: string;
}
export interface JSONRPCResultResponse {
  jsonrpc: typeof JSONRPC_VERSION;
  id: RequestId;
  result: Result;
}
export interface JSONRPCErrorResponse {
  jsonrpc: typeof JSONRPC_VERSION;
  id?: RequestId;
  error: Error;
}
export interface PingRequest extends JSONRPCRequest {
  method: "ping";
}
export interface CancelledNotification extends JSONRPCNotification {
  method: "notifications/cancelled";
}
export interface CreateMessageRequest extends JSONRPCRequest {
  method: "sampling/createMessage";
  params: { maxTokens: number };
}
export interface CreateMessageResult extends Result {
  model: string;
}
`

// schemaCases is the generator's table of schema forms that once were refused or mistranslated.
var schemaCases = []schemaCase{{
	name: "resultwithoutmethod",
	schema: `export interface Result {
  _meta?: { [key: string]: unknown };
  [key: string]: unknown;
}
export type EmptyResult = Result;
export interface TextContent {
  type: "text";
  text: string;
}
export interface CallToolRequest {
  method: "tools/call";
  params: { name: string };
}
export interface CallToolResult extends Result {
  content: TextContent[];
  isError?: boolean;
}
export interface ListRootsRequest {
  method: "roots/list";
}
export interface ListRootsResult extends Result {
  roots: string[];
}
export type ServerResult = EmptyResult | CallToolResult;
`,
	test: `package resultwithoutmethod

import (
	"encoding/json"
	"strings"
	"testing"
)

// An elicitation result, which this schema does not define, looks like a CallToolResult whose
// content is not an array: decoded without its method, it is the base Result, not an error.
func TestResultWithoutMethod(t *testing.T) {
	in := ` + "`" + `{"action":"accept","content":{"name":"octocat"}}` + "`" + `
	for _, method := range []string{"", "elicitation/create"} {
		var v ServerResult
		var err error
		if method == "" {
			v, err = UnmarshalServerResult([]byte(in))
		} else {
			v, err = UnmarshalServerResultFor(method, []byte(in))
		}
		if err != nil {
			t.Fatalf("%q: %v", method, err)
		}
		r, ok := v.(*Result)
		if !ok {
			t.Fatalf("%q: got %T, want *Result", method, v)
		}
		if string(r.Extra["content"]) != ` + "`" + `{"name":"octocat"}` + "`" + ` || string(r.Extra["action"]) != ` + "`" + `"accept"` + "`" + ` {
			t.Errorf("%q: Extra %v", method, r.Extra)
		}
		if err := v.Validate(); err != nil {
			t.Errorf("%q: Validate: %v", method, err)
		}
		if out, err := json.Marshal(v); err != nil || string(out) != ` + "`" + `{"action":"accept","content":{"name":"octocat"}}` + "`" + ` {
			t.Errorf("%q: encoding: %s %v", method, out, err)
		}
	}
	// A result that fits its members' guess keeps its type.
	v, err := UnmarshalServerResult([]byte(` + "`" + `{"content":[{"type":"text","text":"hi"}]}` + "`" + `))
	if _, ok := v.(*CallToolResult); !ok || err != nil {
		t.Errorf("got %T, %v; want *CallToolResult", v, err)
	}
	// Knowing the method, its result type must fit.
	if _, err := UnmarshalServerResultFor(MethodCallTool, []byte(in)); err == nil || !strings.Contains(err.Error(), "/content: expected array") {
		t.Errorf("tools/call: %v", err)
	}
}
`,
}, {
	name: "inlinenametaken",
	schema: `export interface TextContent {
  type: "text";
  text: string;
}
export interface ImageContent {
  type: "image";
  data: string;
}
export interface UserMessage {
  role: "user";
  content: UserMessageContent | UserMessageContent[];
  hint?: { level: number };
}
export type UserMessageContent = TextContent | ImageContent;
/** A declaration with the name the inline type of UserMessage.hint would take. */
export interface UserMessageHint {
  text: string;
}
`,
	test: `package inlinenametaken

import (
	"encoding/json"
	"testing"
)

// The declarations keep their names; the inline types whose derived names they have take the
// next free ones: UserMessageContent2 and UserMessageHint2.
func TestInlineNameTaken(t *testing.T) {
	var _ UserMessageContent = &TextContent{} // the declared union
	var _ UserMessageHint = UserMessageHint{Text: "a declaration"}
	var m UserMessage
	in := ` + "`" + `{"role":"user","content":[{"type":"text","text":"a"},{"type":"image","data":"AA=="}],"hint":{"level":2}}` + "`" + `
	if err := json.Unmarshal([]byte(in), &m); err != nil {
		t.Fatal(err)
	}
	var content UserMessageContent2 = m.Content
	if !content.IsList || len(content.List) != 2 {
		t.Fatalf("content: %+v", content)
	}
	if _, ok := content.List[1].(*ImageContent); !ok {
		t.Errorf("content[1]: %T", content.List[1])
	}
	var hint *UserMessageHint2 = m.Hint
	if hint == nil || hint.Level != 2 {
		t.Errorf("hint: %+v", hint)
	}
	out, err := json.Marshal(m)
	if err != nil || string(out) != in {
		t.Errorf("encoding: %s %v", out, err)
	}
}
`,
}, {
	name: "nevermember",
	schema: `export interface ToolResult {
  content: string;
  /** Must not be provided: this result has no structured content. */
  structuredContent: never;
  isError?: boolean;
}
export interface Base {
  kind: string;
  legacy?: string;
}
export interface Derived extends Base {
  legacy: never;
}
`,
	test: `package nevermember

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestNeverMember(t *testing.T) {
	if _, ok := reflect.TypeFor[ToolResult]().FieldByName("StructuredContent"); ok {
		t.Error("a member that must be absent has no field")
	}
	if _, ok := reflect.TypeFor[Derived]().FieldByName("Legacy"); ok {
		t.Error("an inherited member redeclared never has no field")
	}
	var v ToolResult
	if err := json.Unmarshal([]byte(` + "`" + `{"content":"a"}` + "`" + `), &v); err != nil || v.Validate() != nil {
		t.Fatalf("without the member: %v, %v", err, v.Validate())
	}
	err := json.Unmarshal([]byte(` + "`" + `{"content":"a","structuredContent":{"x":1}}` + "`" + `), &v)
	if err == nil || !strings.Contains(err.Error(), "/structuredContent: must not be present") {
		t.Errorf("decoding: %v", err)
	}
	var d Derived
	err = json.Unmarshal([]byte(` + "`" + `{"kind":"k","legacy":"x"}` + "`" + `), &d)
	if err == nil || !strings.Contains(err.Error(), "/legacy: must not be present") {
		t.Errorf("decoding Derived: %v", err)
	}
	// Put in Extra by hand: Validate reports it, encoding refuses to write it.
	v = ToolResult{Content: "a", Extra: map[string]json.RawMessage{"structuredContent": json.RawMessage(` + "`" + `{}` + "`" + `)}}
	if err := v.Validate(); err == nil || !strings.Contains(err.Error(), "/structuredContent: must not be present") {
		t.Errorf("Validate: %v", err)
	}
	if out, err := json.Marshal(v); err == nil || !strings.Contains(err.Error(), "must not be present") {
		t.Errorf("encoding: %s %v", out, err)
	}
	out, err := json.Marshal(ToolResult{Content: "a"})
	if err != nil || string(out) != ` + "`" + `{"content":"a"}` + "`" + ` {
		t.Errorf("encoding: %s %v", out, err)
	}
}
`,
}, {
	name: "date",
	schema: `export interface Event {
  at: Date;
  seen?: Date;
  log?: Date[];
}
export type Stamp = Date;
export interface Entry {
  stamp: Stamp;
}
`,
	test: `package date

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestDate(t *testing.T) {
	in := ` + "`" + `{"at":"2025-11-25T10:00:00.120+01:00","seen":"1990-12-31T23:59:60Z","log":["2024-02-29t00:00:00z"]}` + "`" + `
	var e Event
	if err := json.Unmarshal([]byte(in), &e); err != nil {
		t.Fatal(err)
	}
	var at string = e.At
	var seen *string = e.Seen
	if at != "2025-11-25T10:00:00.120+01:00" || seen == nil {
		t.Errorf("kept as written: %q %v", at, seen)
	}
	if err := e.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
	if out, err := json.Marshal(e); err != nil || string(out) != in {
		t.Errorf("lossless: %s %v", out, err)
	}
	e.At, e.Seen = "yesterday", new(string)
	err := e.Validate()
	if err == nil || !strings.Contains(err.Error(), ` + "`" + `/at: "yesterday" is not a valid date-time` + "`" + `) || !strings.Contains(err.Error(), "/seen: ") {
		t.Errorf("Validate: %v", err)
	}
	if err := (&Entry{Stamp: "2023-02-29T00:00:00Z"}).Validate(); err == nil || !strings.Contains(err.Error(), "/stamp: ") {
		t.Errorf("an alias of Date: %v", err)
	}
}
`,
}, {
	name: "mergeconflict",
	schema: `export interface Tool {
  name: string;
  title?: string;
}
export interface Tool {
  name: number;
}
`,
	pos: "6:3",
	err: `found member "name" of Tool declared again with another type than at `,
}, {
	// The member the second declaration redeclares is inherited, as Tool's name is in the spec.
	name: "mergeinherited",
	schema: `export interface BaseMetadata {
  name: string;
}
export interface Tool extends BaseMetadata {
  title?: string;
}
export interface Tool {
  name: number;
}
`,
	pos: "8:3",
	err: `found member "name" of Tool of type number, which the member it redeclares, at `,
}, {
	name: "mergeoptionality",
	schema: `export interface Tool {
  name: string;
}
export interface Tool {
  name?: string;
}
`,
	pos: "5:3",
	err: `found member "name" of Tool declared again with another optionality than at `,
}, {
	// An interface declared again after another declaration: its members are its own, so the
	// inline type of X.c is XC, declared after X (it was named after Y, the declaration before it).
	name: "mergeseparated",
	schema: `export interface X {
  a: string;
}
export interface Y {
  b: string;
}
export interface X {
  c: { d: string };
}
`,
	test: `package mergeseparated

import (
	"encoding/json"
	"testing"
)

func TestMergeSeparated(t *testing.T) {
	in := ` + "`" + `{"a":"1","c":{"d":"2"}}` + "`" + `
	var x X
	if err := json.Unmarshal([]byte(in), &x); err != nil {
		t.Fatal(err)
	}
	var c XC = x.C
	if x.A != "1" || c.D != "2" {
		t.Errorf("%+v", x)
	}
	if out, err := json.Marshal(x); err != nil || string(out) != in {
		t.Errorf("encoding: %s %v", out, err)
	}
}
`,
}, {
	name: "mergeidentical",
	schema: `export interface Tool {
  name: string;
  tags: { [key: string]: string[] } | null;
}
/** A tool. */
export interface Tool {
  /** Its name. */
  name: string;
  tags: { [key: string]: string[] } | null;
  title?: string;
}
`,
	test: `package mergeidentical

import (
	"encoding/json"
	"testing"
)

func TestMergeIdentical(t *testing.T) {
	in := ` + "`" + `{"name":"a","tags":null,"title":"A"}` + "`" + `
	var tool Tool
	if err := json.Unmarshal([]byte(in), &tool); err != nil {
		t.Fatal(err)
	}
	if tool.Name != "a" || tool.Title == nil || *tool.Title != "A" {
		t.Errorf("%+v", tool)
	}
	if out, err := json.Marshal(tool); err != nil || string(out) != in {
		t.Errorf("encoding: %s %v", out, err)
	}
}
`,
}, {
	name:   "samplingsubset",
	args:   []string{"-spec", "2025-11-25"},
	config: "types: [CreateMessageRequestParams]\n",
	note:   "left out sampling_capabilities.go (CreateMessageRequestParams.CheckCapabilities): it needs ClientCapabilities, which is not generated",
	test: `package samplingsubset

import (
	"strings"
	"testing"
)

// Without ClientCapabilities in the selection, Validate still checks the rules of sampling with
// tools; only CheckCapabilities is left out.
func TestSamplingRulesInASubset(t *testing.T) {
	unanswered := []byte(` + "`" + `{"maxTokens":100,"messages":[
		{"role":"user","content":{"type":"text","text":"What is the weather?"}},
		{"role":"assistant","content":{"type":"tool_use","id":"c1","name":"get_weather","input":{"city":"Paris"}}},
		{"role":"user","content":{"type":"text","text":"never mind"}}]}` + "`" + `)
	var p CreateMessageRequestParams
	err := Unmarshal(unanswered, &p)
	if err == nil || !strings.Contains(err.Error(), "not answered") {
		t.Errorf("a tool use never answered: %v", err)
	}
	answered := []byte(` + "`" + `{"maxTokens":100,"messages":[
		{"role":"user","content":{"type":"text","text":"What is the weather?"}},
		{"role":"assistant","content":{"type":"tool_use","id":"c1","name":"get_weather","input":{"city":"Paris"}}},
		{"role":"user","content":[{"type":"tool_result","toolUseId":"c1","content":[{"type":"text","text":"18°C"}]}]}]}` + "`" + `)
	if err := Unmarshal(answered, &p); err != nil {
		t.Errorf("a tool use answered: %v", err)
	}
	mixed := []byte(` + "`" + `{"maxTokens":100,"messages":[
		{"role":"assistant","content":{"type":"tool_use","id":"c1","name":"get_weather","input":{}}},
		{"role":"user","content":[{"type":"tool_result","toolUseId":"c1","content":[]},{"type":"text","text":"and?"}]}]}` + "`" + `)
	if err := Unmarshal(mixed, &p); err == nil || !strings.Contains(err.Error(), "only tool results") {
		t.Errorf("tool results mixed with text: %v", err)
	}
}
`,
}, {
	name: "sdkshapes",
	schema: `export interface Result {
  _meta?: { [key: string]: unknown };
}
export interface TextContent {
  type: "text";
  text: string;
}
export interface Tool {
  name: string;
  title?: string;
}
export interface ListToolsResult extends Result {
  tools: Tool[];
  nextCursor?: string;
}
export interface CallToolResult extends Result {
  content: TextContent[];
}
`,
	// An SDK's own shapes through the command: declarations merged into the schema, values with
	// omitempty, element pointers, an embedded _meta, lenient decoding, implicit constants.
	config: `optional: omitempty
elements: pointer
embed: [Result._meta]
decode: lenient
literals: implicit
declarations: |
  export interface ListToolsResult {
    ttlMs?: number;
  }
`,
	test: `package sdkshapes

import (
	"encoding/json"
	"testing"
)

func TestShapes(t *testing.T) {
	r := ListToolsResult{Tools: []*Tool{{Name: "a"}}, TTLMs: 0}
	b, err := json.Marshal(r)
	if err != nil || string(b) != ` + "`" + `{"tools":[{"name":"a"}]}` + "`" + ` {
		t.Errorf("Marshal = %s, %v", b, err)
	}
	var d ListToolsResult
	if err := json.Unmarshal([]byte(` + "`" + `{"_meta":{},"tools":[null],"ttlMs":5}` + "`" + `), &d); err != nil {
		t.Fatal(err)
	}
	if d.MetaObject == nil || d.Tools[0] != nil || d.TTLMs != 5 { // the embedded field is named by its type
		t.Errorf("decoded %+v", d)
	}
	if err := d.Validate(); err == nil {
		t.Error("a nil element is invalid")
	}
	// decode: lenient decodes as encoding/json does: null is the zero value, a missing required
	// member is no error.
	for _, in := range []string{` + "`" + `null` + "`" + `, ` + "`" + `{}` + "`" + `, ` + "`" + `{"tools":null,"nextCursor":null,"_meta":null}` + "`" + `, ` + "`" + `{"tools":[null]}` + "`" + `} {
		var l ListToolsResult
		if err := json.Unmarshal([]byte(in), &l); err != nil {
			t.Errorf("%s: %v", in, err)
		}
	}
	if err := json.Unmarshal([]byte(` + "`" + `{"tools":7}` + "`" + `), &d); err == nil {
		t.Error("a value of the wrong kind is still an error")
	}
	// literals: implicit: TextContent has no Type field; the codec writes and checks "text".
	b, err = json.Marshal(CallToolResult{Content: []*TextContent{{Text: "hi"}}})
	if err != nil || string(b) != ` + "`" + `{"content":[{"type":"text","text":"hi"}]}` + "`" + ` {
		t.Errorf("Marshal = %s, %v", b, err)
	}
	var c CallToolResult
	if err := json.Unmarshal(b, &c); err != nil || c.Content[0].Text != "hi" {
		t.Errorf("Unmarshal = %+v, %v", c, err)
	}
	if err := json.Unmarshal([]byte(` + "`" + `{"type":"image","text":"x"}` + "`" + `), &TextContent{}); err == nil {
		t.Error("another constant is an error")
	}
}
`,
}, {
	// A base that embeds a base: CacheableResult extends Result, and DiscoverResult, which
	// extends CacheableResult, embeds Cacheable alone (which embeds Result). Nested bases were
	// refused as "leaves out members of its base CacheableResult", though nothing is left out.
	name:   "nestedbases",
	args:   []string{"-spec", "2026-07-28"},
	config: "types: [DiscoverResult, Result, CacheableResult]\nembed: [Result, CacheableResult]\nrename:\n  CacheableResult: Cacheable\n",
	test: `package nestedbases

import (
	"encoding/json"
	"testing"
)

func TestNestedBases(t *testing.T) {
	ttl := int64(60)
	r := DiscoverResult{
		Cacheable:         Cacheable{Result: Result{ResultType: ResultTypeComplete}, TTLMs: ttl, CacheScope: CacheableCacheScopePublic},
		SupportedVersions: []string{"2026-07-28"},
	}
	r.Meta = &ResultMetaObject{} // promoted through Cacheable and Result
	b, err := json.Marshal(r)
	want := ` + "`" + `{"_meta":{},"resultType":"complete","ttlMs":60,"cacheScope":"public","supportedVersions":["2026-07-28"],"capabilities":{}}` + "`" + `
	if err != nil || string(b) != want {
		t.Errorf("Marshal = %s, %v\nwant %s", b, err, want)
	}
	var d DiscoverResult
	if err := json.Unmarshal(b, &d); err != nil || d.TTLMs != 60 || d.Result.Meta == nil || d.CacheScope != "public" {
		t.Errorf("Unmarshal = %+v, %v", d, err)
	}
	if err := d.Validate(); err != nil {
		t.Error(err)
	}
	d.Cacheable.CacheScope = "shared"
	if err := d.Validate(); err == nil {
		t.Error("a closed enum's other value is invalid through the bases too")
	}
}
`,
}, {
	// A member that a declaration declares again, with the same Go field as its base's: the
	// base holds it (SubscriptionsListenResult narrows Result's _meta; both are Meta here).
	name:   "embedredeclared",
	args:   []string{"-spec", "2026-07-28"},
	config: "types: [SubscriptionsListenResult, Result]\nembed: [Result]\nsubstitute:\n  ResultMetaObject: map[string]any\n  SubscriptionsListenResultMetaObject: map[string]any\noptional:\n  SubscriptionsListenResult._meta: pointer\n",
	test: `package embedredeclared

import (
	"encoding/json"
	"testing"
)

func TestRedeclaredMemberInBase(t *testing.T) {
	r := SubscriptionsListenResult{Result: Result{Meta: map[string]any{"id": "s1"}, ResultType: ResultTypeComplete}}
	b, err := json.Marshal(r)
	if err != nil || string(b) != ` + "`" + `{"_meta":{"id":"s1"},"resultType":"complete"}` + "`" + ` {
		t.Errorf("Marshal = %s, %v", b, err)
	}
	var d SubscriptionsListenResult
	if err := json.Unmarshal(b, &d); err != nil || d.Meta["id"] != "s1" {
		t.Errorf("Unmarshal = %+v, %v", d, err)
	}
}
`,
}, {
	// Declared again with another Go field than its base's, the member is named with the
	// difference: SubscriptionsListenResult's _meta is required and of its own type.
	name:     "embedredeclaredotherwise",
	args:     []string{"-spec", "2026-07-28"},
	config:   "types: [SubscriptionsListenResult, Result]\nembed: [Result]\n",
	inConfig: true,
	pos:      "2:9",
	err:      "embed: the member \"_meta\" of SubscriptionsListenResult, declared again, is not the field Meta of its base Result (Meta *ResultMetaObject `json:\"_meta,omitzero\"` there, Meta SubscriptionsListenResultMetaObject `json:\"_meta\"` here)",
}, {
	// Members left out (omit): no field; decoding takes one as a member the schema does not
	// define (kept in Extra), a required one is not required, and an entry on the declaration
	// that declares a member reaches the declarations that inherit it.
	name:   "omitmembers",
	args:   []string{"-spec", "2026-07-28"},
	config: "types: [CreateMessageResult, SamplingMessage, CancelledNotificationParams, ResourceListChangedNotification]\nomit:\n  - SamplingMessage._meta\n  - CancelledNotificationParams._meta\n  - ResourceListChangedNotification.jsonrpc\n",
	test: `package omitmembers

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestOmittedMembers(t *testing.T) {
	for _, v := range []any{SamplingMessage{}, CreateMessageResult{}, CancelledNotificationParams{}} {
		if _, ok := reflect.TypeOf(v).FieldByName("Meta"); ok {
			t.Errorf("%T has a Meta field", v)
		}
	}
	if _, ok := reflect.TypeOf(ResourceListChangedNotification{}).FieldByName("JSONRPC"); ok {
		t.Error("ResourceListChangedNotification has a JSONRPC field")
	}
	in := ` + "`" + `{"role":"user","content":{"type":"text","text":"hi"},"_meta":{"a":1}}` + "`" + `
	var m SamplingMessage
	if err := json.Unmarshal([]byte(in), &m); err != nil || string(m.Extra["_meta"]) != ` + "`" + `{"a":1}` + "`" + ` {
		t.Fatalf("decoded %+v, %v", m, err)
	}
	if b, err := json.Marshal(m); err != nil || string(b) != in {
		t.Errorf("encoded %s, %v", b, err)
	}
	var n ResourceListChangedNotification
	if err := json.Unmarshal([]byte(` + "`" + `{"method":"notifications/resources/list_changed"}` + "`" + `), &n); err != nil {
		t.Errorf("a required member left out is not required: %v", err)
	}
	if b, err := json.Marshal(n); err != nil || string(b) != ` + "`" + `{"method":"notifications/resources/list_changed"}` + "`" + ` {
		t.Errorf("encoded %s, %v", b, err)
	}
}
`,
}, {
	// A union's discriminator cannot be left out: encoding the variant would not write it.
	name:     "omitdiscriminator",
	args:     []string{"-spec", "2026-07-28"},
	config:   "types: [CallToolResult]\nomit: [TextContent.type]\n",
	inConfig: true,
	pos:      "2:8",
	err:      "omit: TextContent.type is the discriminator of the union ContentBlock",
}, {
	// Aliases as defined types: EmptyResult is a struct type of its own with Result's fields and
	// codec, a variant of the result unions all the same; Cursor a string type of its own.
	name:   "definedtypes",
	args:   []string{"-spec", "2026-07-28"},
	config: "defined: [EmptyResult, Cursor]\n",
	test: `package definedtypes

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestDefinedTypes(t *testing.T) {
	if reflect.TypeOf(EmptyResult{}) == reflect.TypeOf(Result{}) || reflect.TypeOf(Cursor("")) == reflect.TypeOf("") {
		t.Fatal("an alias, not a defined type")
	}
	r, err := UnmarshalServerResult([]byte(` + "`" + `{"resultType":"complete","_meta":{"k":1}}` + "`" + `))
	e, ok := r.(*EmptyResult)
	if err != nil || !ok || e.ResultType != ResultTypeComplete || e.Meta == nil {
		t.Fatalf("decoded %#v, %v", r, err)
	}
	if b, err := json.Marshal(e); err != nil || string(b) != ` + "`" + `{"_meta":{"k":1},"resultType":"complete"}` + "`" + ` {
		t.Errorf("encoded %s, %v", b, err)
	}
	var bad EmptyResult
	if err := json.Unmarshal([]byte(` + "`" + `{"resultType":7}` + "`" + `), &bad); err == nil {
		t.Error("Result's decoder is EmptyResult's")
	}
	if err := (&EmptyResult{ResultType: "complete"}).Validate(); err != nil {
		t.Error(err)
	}
	l := ListToolsResult{NextCursor: ptr(Cursor("c2")), Tools: []Tool{}}
	if b, err := json.Marshal(l); err != nil || string(b) != ` + "`" + `{"resultType":"complete","nextCursor":"c2","ttlMs":0,"cacheScope":"","tools":[]}` + "`" + ` {
		t.Errorf("encoded %s, %v", b, err)
	}
}

func ptr[T any](v T) *T { return &v }
`,
}, {
	// A rename onto a name that the output derives from another declaration's (the validate
	// function of a union, written with validate.go) is refused at the entry: the package would
	// declare it twice.
	name: "renameontovalidate",
	schema: `export interface TextContent {
  type: "text";
  text: string;
}
export interface ImageContent {
  type: "image";
  data: string;
}
export type ContentBlock = TextContent | ImageContent;
export interface Tool {
  name: string;
}
`,
	config:   "rename:\n  Tool: validateContentBlock\n",
	inConfig: true,
	pos:      "2:9",
	err:      "declaration Tool: Go name validateContentBlock is the name of the function of union ContentBlock",
}, {
	// The same for the decoders of the protocol layer, written after every declaration.
	name:     "renameontodecoder",
	args:     []string{"-spec", "draft"},
	config:   "rename:\n  Tool: DecodeServerMessageNoCopy\n",
	inConfig: true,
	pos:      "2:9",
	err:      "declaration Tool: Go name DecodeServerMessageNoCopy is the name of the protocol layer",
}, {
	// Two requests with the same method (a draft of 2026 declares SamplingInputRequest next to
	// CreateMessageRequest): the typed result decodes had a duplicate case and did not compile.
	name: "duplicatemethod",
	schema: duplicateMethodSchema + `/** The same method, as a server asks for it inside a result: it names no result of its own. */
export interface SamplingInputRequest extends Request {
  method: "sampling/createMessage";
  params: { maxTokens: number };
}
export interface ElicitRequest extends JSONRPCRequest {
  method: "elicitation/create";
  params: { message: string };
}
export interface ElicitResult extends Result {
  action: "accept" | "decline" | "cancel";
}
/** The same method with a result of its own, which no message union lists. */
export interface ElicitInputRequest extends Request {
  method: "elicitation/create";
  params: { message: string };
}
export interface ElicitInputResult extends Result {
  content: string;
}
export type InputRequest = SamplingInputRequest | ElicitInputRequest;
export type ClientRequest = PingRequest;
export type ServerRequest = PingRequest | CreateMessageRequest | ElicitRequest;
export type ClientNotification = CancelledNotification;
export type ServerNotification = CancelledNotification;
export type ClientResult = EmptyResult | CreateMessageResult | ElicitResult | ElicitInputResult;
export type ServerResult = EmptyResult;
`,
	test: `package duplicatemethod

import (
	"reflect"
	"slices"
	"testing"
)

// Two requests of the schema have the method sampling/createMessage, and two elicitation/create.
// A method has the results of the request that names a result of its own (CreateMessageRequest,
// not SamplingInputRequest), or else of the one a message union lists (ElicitRequest, not
// ElicitInputRequest).
func TestDuplicateMethod(t *testing.T) {
	if MethodSamplingInput != MethodCreateMessage || MethodElicitInput != MethodElicit {
		t.Fatal("each request keeps its method constant")
	}
	for _, tc := range []struct {
		method, in string
		want       any
	}{
		{MethodSamplingInput, ` + "`" + `{"model":"m"}` + "`" + `, &CreateMessageResult{}},
		{MethodElicit, ` + "`" + `{"action":"accept","content":"x"}` + "`" + `, &ElicitResult{}},
	} {
		for _, decode := range []func(string, []byte) (any, error){
			func(m string, b []byte) (any, error) { return UnmarshalClientResultFor(m, b) },
			func(m string, b []byte) (any, error) { return UnmarshalAnyResultFor(m, b) },
		} {
			v, err := decode(tc.method, []byte(tc.in))
			if err != nil || reflect.TypeOf(v) != reflect.TypeOf(tc.want) {
				t.Errorf("%s: got %T, %v; want %T", tc.method, v, err, tc.want)
			}
		}
	}
	// The method table has one entry per method, from the message unions.
	info, ok := LookupMethod("elicitation/create")
	if !ok || info.Message != reflect.TypeFor[*ElicitRequest]() || !slices.Equal(info.Results, []reflect.Type{reflect.TypeFor[*ElicitResult]()}) {
		t.Errorf("elicitation/create: %+v", info)
	}
	info, ok = LookupMethod("sampling/createMessage")
	if !ok || info.Message != reflect.TypeFor[*CreateMessageRequest]() || !slices.Equal(info.Results, []reflect.Type{reflect.TypeFor[*CreateMessageResult]()}) {
		t.Errorf("sampling/createMessage: %+v", info)
	}
	m, err := DecodeServerMessage([]byte(` + "`" + `{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{"maxTokens":9}}` + "`" + `), nil)
	if r, ok := m.(*CreateMessageRequest); err != nil || !ok || r.Params.MaxTokens != 9 {
		t.Errorf("request: %T %+v, %v", m, m, err)
	}
	// A request inside a result decodes as its own type.
	var in InputRequest
	if in, err = UnmarshalInputRequest([]byte(` + "`" + `{"method":"elicitation/create","params":{"message":"?"}}` + "`" + `)); err != nil {
		t.Fatal(err)
	}
	if _, ok := in.(*ElicitInputRequest); !ok {
		t.Errorf("input request: %T", in)
	}
}
`,
}, {
	// Two requests with the same method and different results, neither a message: the method's
	// result type cannot be chosen.
	name: "duplicatemethodresults",
	schema: duplicateMethodSchema + `export interface SamplingRequest extends Request {
  method: "sampling/createMessage";
  params: { maxTokens: number };
}
export interface SamplingResult extends Result {
  text: string;
}
export type ClientRequest = PingRequest;
export type ServerRequest = PingRequest;
export type ClientNotification = CancelledNotification;
export type ServerNotification = CancelledNotification;
export type ClientResult = EmptyResult | CreateMessageResult | SamplingResult;
export type ServerResult = EmptyResult;
`,
	pos: "48:18",
	// The message names SamplingRequest and the method, then CreateMessageRequest and its position.
	err: "schema.ts:41:18), with other results (SamplingResult, not CreateMessageResult): the typed decode of a result by its method cannot choose",
}, {
	// Two messages with the same method: the method table cannot describe it by one type.
	name: "duplicatemethodmessages",
	schema: duplicateMethodSchema + `export interface SamplingRequest extends JSONRPCRequest {
  method: "sampling/createMessage";
  params: { maxTokens: number };
}
export type ClientRequest = PingRequest;
export type ServerRequest = PingRequest | CreateMessageRequest | SamplingRequest;
export type ClientNotification = CancelledNotification;
export type ServerNotification = CancelledNotification;
export type ClientResult = EmptyResult | CreateMessageResult;
export type ServerResult = EmptyResult;
`,
	pos: "48:18",
	err: "schema.ts:41:18), and both are variants of the message unions: the method table describes a method by one message type",
}, {
	// An Error without a data member: NewErrorResponse wrote Data into it and did not compile.
	name:   "errorwithoutdata",
	schema: errorWithoutDataSchema,
	test: `package errorwithoutdata

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// A message that is not JSON is answered with a parse error, whose object has no data.
func TestErrorWithoutData(t *testing.T) {
	_, err := DecodeServerMessage([]byte("{"), nil)
	if err == nil {
		t.Fatal("no error for a message that is not JSON")
	}
	r := NewErrorResponse(nil, err)
	if r.Error.Code != -32700 || r.Error.Message == "" {
		t.Errorf("error object: %+v", r.Error)
	}
	b, err := json.Marshal(r)
	if err != nil || !strings.Contains(string(b), ` + "`" + `"id":null` + "`" + `) || strings.Contains(string(b), ` + "`" + `"data"` + "`" + `) {
		t.Errorf("response: %s, %v", b, err)
	}
	// The doc of NewErrorResponse does not promise data either.
	src, err := os.ReadFile("protocol.go")
	if err != nil || !strings.Contains(string(src), "// NewErrorResponse returns") || strings.Contains(string(src), "as the data") {
		t.Errorf("the doc of NewErrorResponse promises data (%v)", err)
	}
}
`,
}, {
	// An Error whose code is not a number is no error object: the protocol layer, which makes it
	// an error, is refused at its declaration.
	name:   "errornotobject",
	schema: strings.Replace(errorWithoutDataSchema, "  code: number;", "  code: string;", 1),
	pos:    "12:18",
	err:    "declaration Error, the error of JSONRPCErrorResponse: a JSON-RPC error response holds an error object",
}}

// errorWithoutDataSchema is duplicateMethodSchema with an Error that has no data member, and
// message unions of one request each.
var errorWithoutDataSchema = strings.Replace(duplicateMethodSchema, "  data?: unknown;\n", "", 1) + `export type ClientRequest = PingRequest;
export type ServerRequest = PingRequest | CreateMessageRequest;
export type ClientNotification = CancelledNotification;
export type ServerNotification = CancelledNotification;
export type ClientResult = EmptyResult | CreateMessageResult;
export type ServerResult = EmptyResult;
`

// TestSchemaCases runs the table of schema cases (schemaCases) through the command.
func TestSchemaCases(t *testing.T) {
	dir := t.TempDir()
	module := filepath.Join(dir, "module")
	writeFile(t, filepath.Join(module, "go.mod"), "module example.com/cases\n\ngo 1.23\n")
	valid := 0
	for _, tc := range schemaCases {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{}, tc.args...)
			schema := filepath.Join(dir, tc.name, "schema.ts")
			if tc.schema != "" {
				writeFile(t, schema, tc.schema)
				args = append(args, "-schema", schema, "-spec", "case")
			}
			config := filepath.Join(dir, tc.name, "mcpgen.yaml")
			if tc.config != "" {
				args = append(args, "-config", writeFile(t, config, tc.config))
			}
			args = append(args, "-pkg", tc.name)
			gen := func(out string) (int, string) {
				var stdout, stderr bytes.Buffer
				code := cli(append(args, "-o", out), &stdout, &stderr)
				assert.Empty(t, stdout.String())
				return code, stderr.String()
			}

			if tc.err != "" {
				// The output directory holds an earlier package, which must stay as it was.
				out := filepath.Join(dir, tc.name, "out")
				var discard bytes.Buffer
				require.Equal(t, 0, cli([]string{"-o", out}, &discard, &discard))
				before := snapshot(t, out)
				code, msg := gen(out)
				assert.Equal(t, 2, code)
				at := schema
				if tc.inConfig {
					at = config
				}
				assert.True(t, strings.HasPrefix(msg, "mcpgen: "+at+":"+tc.pos+": "), "want mcpgen: %s:%s: ..., got %q", at, tc.pos, msg)
				assert.Contains(t, msg, tc.err)
				assert.Equal(t, 1, strings.Count(msg, "\n"), "one line: %q", msg)
				assert.Equal(t, before, snapshot(t, out), "the output directory changed")
				assertNoTemps(t, out)
				return
			}

			valid++
			out := filepath.Join(module, tc.name)
			code, msg := gen(out)
			require.Equal(t, 0, code, msg)
			if tc.note != "" {
				assert.Contains(t, msg, tc.note)
			} else {
				assert.Empty(t, msg)
			}
			again := filepath.Join(dir, tc.name, "again")
			code, _ = gen(again)
			require.Equal(t, 0, code)
			assert.Equal(t, snapshot(t, out), snapshot(t, again), "the same schema gives the same package")
			writeFile(t, filepath.Join(out, "case_test.go"), tc.test)
		})
	}
	if testing.Short() || valid == 0 {
		return
	}
	// One go command for every valid case: each package's test runs next to it.
	cmd := exec.Command("go", "test", "./...")
	cmd.Dir = module
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	output, err := cmd.CombinedOutput()
	require.NoError(t, err, "go test in the module of the cases:\n%s", output)
	t.Logf("go test:\n%s", output)
}
