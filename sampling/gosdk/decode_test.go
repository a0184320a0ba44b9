//lint:file-ignore SA1019 sampling is deprecated as of 2026-07-28 (SEP-2577); this tests the 2025-11-25 flow, in which it remains

package gosdk_test

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
	"github.com/mcpgen/mcpgen/sampling/gosdk"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// decodeCases are sampling request params: the kinds of content the loop sends (which the fast
// decoding takes) and others (which it leaves to the SDK's).
var decodeCases = map[string]decodeCase{
	"text": {`{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}],"maxTokens":10}`, true},
	"every field": {`{"_meta":{"progressToken":7},"messages":[{"role":"user","content":[{"type":"text","text":"hi","_meta":{"a":1},"annotations":{"audience":["user"],"priority":0.5}}]}],
		"modelPreferences":{"hints":[{"name":"claude"}],"costPriority":0.2,"speedPriority":0.3,"intelligencePriority":0.9},"systemPrompt":"be brief","includeContext":"none",
		"temperature":0.7,"maxTokens":100,"stopSequences":["\n\n"],"metadata":{"x":[1,"y",null]},
		"tools":[{"name":"add","description":"adds","inputSchema":{"type":"object","properties":{"numbers":{"type":"array","items":{"type":"number"}}}}}],"toolChoice":{"mode":"auto"}}`, true},
	"the loop's rounds": {`{"messages":[
		{"role":"user","content":{"type":"text","text":"weather and a sum"}},
		{"role":"assistant","content":[{"type":"text","text":"looking"},{"type":"tool_use","id":"w1","name":"get_weather","input":{"city":"Paris","n":[1,2.5,{"deep":true}]}}]},
		{"role":"user","content":[{"type":"tool_result","toolUseId":"w1","content":[{"type":"text","text":"18°C"},{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"}],"structuredContent":{"t":18},"isError":true,"_meta":{"k":"v"}}]},
		{"role":"assistant","content":{"type":"tool_use","id":"a1","name":"add","input":{}}},
		{"role":"user","content":{"type":"tool_result","toolUseId":"a1","content":[]}}
	],"maxTokens":1024,"tools":[{"name":"get_weather","inputSchema":{"type":"object"}},{"name":"add","inputSchema":{"type":"object"}}]}`, true},
	"media":                            {`{"messages":[{"role":"user","content":[{"type":"image","data":"AAEC","mimeType":"image/jpeg"},{"type":"audio","data":"AwQF","mimeType":"audio/wav","annotations":{"lastModified":"2025-01-01T00:00:00Z"}}]}],"maxTokens":1}`, true},
	"a tool result without content":    {`{"messages":[{"role":"user","content":[{"type":"tool_result","toolUseId":"x"}]}],"maxTokens":1}`, true},
	"a resource link in a tool result": {`{"messages":[{"role":"user","content":[{"type":"tool_result","toolUseId":"x","content":[{"type":"resource_link","uri":"file:///a","name":"a"}]}]}],"maxTokens":1}`, false},
	"a tool use in a tool result":      {`{"messages":[{"role":"user","content":[{"type":"tool_result","toolUseId":"x","content":[{"type":"tool_use","id":"y","name":"n","input":{}}]}]}],"maxTokens":1}`, false},
	"an unknown block":                 {`{"messages":[{"role":"user","content":{"type":"video","data":"AA=="}}],"maxTokens":1}`, false},
	"no content":                       {`{"messages":[{"role":"user"}],"maxTokens":1}`, false},
	"null content":                     {`{"messages":[{"role":"user","content":null}],"maxTokens":1}`, false},
	"a null message":                   {`{"messages":[null],"maxTokens":1}`, false},
	"a null block":                     {`{"messages":[{"role":"user","content":[null]}],"maxTokens":1}`, false},
	"not an object":                    {`[1]`, false},
	"numbers":                          {`{"messages":[{"role":"assistant","content":{"type":"tool_use","id":"a","name":"n","input":{"n":12345678901234567890,"m":-0,"e":1.5e3}}}],"maxTokens":1}`, true},
	"a number out of range":            {`{"messages":[{"role":"assistant","content":{"type":"tool_use","id":"a","name":"n","input":{"n":1e400}}}],"maxTokens":1}`, false},
	"a lone surrogate":                 {`{"messages":[{"role":"user","content":{"type":"text","text":"a\ud800b\u00e9"}}],"maxTokens":1}`, true},
	"invalid UTF-8":                    {"{\"messages\":[{\"role\":\"user\",\"content\":{\"type\":\"text\",\"text\":\"a\xffb\"}}],\"maxTokens\":1}", true},
	"base64 with a line break":         {`{"messages":[{"role":"user","content":{"type":"image","data":"AAAA\r\n","mimeType":"x"}}],"maxTokens":1}`, true},
	"invalid base64":                   {`{"messages":[{"role":"user","content":{"type":"image","data":"AA\nA","mimeType":"x"}}],"maxTokens":1}`, false},
	"a member twice":                   {`{"messages":[{"role":"user","content":{"type":"text","text":"a","text":"b"}}],"maxTokens":1}`, true},
	"null messages":                    {`{"messages":null,"maxTokens":1}`, true},
	"no messages":                      {`{"maxTokens":1}`, true},
	// The params, their messages, a message, its content and a tool use's input are 5 levels:
	// 995 more are 1000, as deep as the SDK's decoder takes; deeper is left to it.
	"nested as deep as the SDK takes":  {nested(995), true},
	"nested deeper than that":          {nested(996), false},
	"nested deeper than the SDK takes": {nested(998), false},
}

// refusedCases are params that the fast decoding takes but not as the SDK's does (member names
// in another case, which encoding/json matches and the SDK's decoder does not): sdkParams must
// refuse them whichever decoding ran, since the member is not sent either way.
var refusedCases = map[string]string{
	"a member named in another case": `{"messages":[{"role":"user","content":{"type":"text","text":"a","Text":"b"}}],"maxTokens":1}`,
	"the type named in another case": `{"messages":[{"role":"user","content":{"Type":"text","text":"a"}}],"maxTokens":1}`,
	"a role named in another case":   `{"messages":[{"Role":"user","content":{"type":"text","text":"a"}}],"maxTokens":1}`,
}

type decodeCase struct {
	params string
	fast   bool // whether the fast decoding takes it
}

// nested is params of a tool use whose input nests depth arrays.
func nested(depth int) string {
	return `{"messages":[{"role":"assistant","content":{"type":"tool_use","id":"a","name":"n","input":{"x":` +
		strings.Repeat("[", depth) + strings.Repeat("]", depth) + `}}}],"maxTokens":1}`
}

// TestDecodeSDKParams: the fast decoding of sampling params gives what the SDK's own decoding
// gives, for every request it takes, and leaves the others to it.
func TestDecodeSDKParams(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "spec", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	cases := maps.Clone(decodeCases)
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), `"messages"`) {
			cases[file] = decodeCase{string(data), true}
		}
	}
	for name, c := range cases {
		got, ok := gosdk.DecodeSDKParams([]byte(c.params))
		if ok != c.fast {
			t.Errorf("%s: taken %v, want %v", name, ok, c.fast)
		}
		if !ok {
			continue
		}
		var want sdk.CreateMessageWithToolsParams
		if err := json.Unmarshal([]byte(c.params), &want); err != nil {
			t.Errorf("%s: the SDK does not decode it: %v", name, err)
			continue
		}
		if !reflect.DeepEqual(got, &want) {
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(&want)
			t.Errorf("%s: the fast decoding differs from the SDK's:\n got %s\nwant %s", name, g, w)
		}
	}
}

// TestDecodeSDKParamsRefused: params that the fast decoding reads otherwise than the SDK's are
// refused by sdkParams, as they are when the SDK's decoding reads them.
func TestDecodeSDKParamsRefused(t *testing.T) {
	for name, params := range refusedCases {
		if _, ok := gosdk.DecodeSDKParams([]byte(params)); !ok {
			t.Errorf("%s: not taken by the fast decoding, which the case is for", name)
		}
		if p, err := gosdk.SDKParams([]byte(params)); err == nil {
			got, _ := json.Marshal(p)
			t.Errorf("%s: taken, as %s", name, got)
		}
		var want sdk.CreateMessageWithToolsParams
		if err := json.Unmarshal([]byte(params), &want); err == nil {
			sent, err := json.Marshal(&want)
			if err != nil {
				t.Fatal(err)
			}
			if gosdk.Compare([]byte(params), sent) == nil {
				t.Errorf("%s: the SDK's decoding sends it unchanged: %s", name, sent)
			}
		}
	}
}

// BenchmarkToSDKParams converts the params of a round of the tool loop (a prompt, a tool use and
// its result, another tool use and its result) to the SDK's, as Handler does for its
// InputRequests.
func BenchmarkToSDKParams(b *testing.B) {
	var p mcp.CreateMessageRequestParams
	if err := mcp.Unmarshal([]byte(decodeCases["the loop's rounds"].params), &p); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := gosdk.ToSDKParams(&p); err != nil {
			b.Fatal(err)
		}
	}
}
