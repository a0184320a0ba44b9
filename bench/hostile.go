package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/go-faster/jx"
	"github.com/mcpgen/mcpgen/gen/mcpdraft"
)

// The hostile shapes are valid MCP messages of shapes that a peer can send to make a decoder
// slow: one huge string, objects with a million members, arrays of a million elements, nesting
// near the depth limit (the target: "long strings and objects with a million members decoded at
// least as fast as encoding/json decodes them into any, linear time throughout"). Each shape is
// built at two or three sizes a decade or so apart, so that time per byte shows whether the
// decoders grow linearly.

// A HostileShape is a message of one hostile shape, built at several sizes.
type HostileShape struct {
	// Name is the benchmark name of the shape.
	Name string
	// Type is the schema declaration the messages are instances of.
	Type Type
	// What describes the messages.
	What string
	// Sizes are the sizes the shape is built at, in Unit, smallest first. The last is the large
	// one that benchmarks skip under -short.
	Sizes []int
	// Unit is what Sizes count: "bytes" (of the string), "members", "elements", "levels".
	Unit string
	// Build returns the message of size n.
	Build func(n int) []byte
}

// HostileShapes returns the hostile shapes, in the order of their table.
func HostileShapes() []HostileShape {
	bytesSizes := []int{1e6, 10e6, 50e6}
	counts := []int{10e3, 100e3, 1e6}
	// The deepest document is 10,000 levels, the limit of both decoders: the nesting below the
	// message's own object.
	levels := []int{100, 1000, 9999}
	return []HostileShape{
		{Name: "string", Type: CreateMessageRequestParams, Unit: "bytes", Sizes: bytesSizes,
			What:  "a sampling request whose one message is a text of n bytes of plain ASCII",
			Build: func(n int) []byte { return samplingText(plainText(n)) }},
		{Name: "string-escaped", Type: CreateMessageRequestParams, Unit: "bytes", Sizes: bytesSizes,
			What:  "a sampling request whose one message is a text of n bytes, half of them in escape sequences (`\\\"`, `\\n`, `\\t`, `\\\\`, `\\u00e9`)",
			Build: func(n int) []byte { return samplingText(escapedText(n)) }},
		{Name: "meta-members", Type: CallToolResult, Unit: "members", Sizes: counts,
			What:  "a tools/call result whose _meta has n members (the Extra of a ResultMetaObject)",
			Build: func(n int) []byte { return callToolResult(`"_meta":`+members(n), "") }},
		{Name: "structured-members", Type: CallToolResult, Unit: "members", Sizes: counts,
			What:  "a tools/call result whose structuredContent (free-form JSON, kept raw) is an object of n members",
			Build: func(n int) []byte { return callToolResult(`"structuredContent":`+members(n), "") }},
		{Name: "extra-members", Type: CallToolResult, Unit: "members", Sizes: counts,
			What: "a tools/call result with n members that the schema does not define (its Extra)",
			Build: func(n int) []byte {
				m := members(n)
				return callToolResult(m[1:len(m)-1], "")
			}},
		{Name: "content-array", Type: CallToolResult, Unit: "elements", Sizes: counts,
			What:  `a tools/call result whose content is n text blocks ({"type":"text","text":"item 17"})`,
			Build: func(n int) []byte { return callToolResult("", textBlocks(n)) }},
		{Name: "structured-array", Type: CallToolResult, Unit: "elements", Sizes: counts,
			What:  "a tools/call result whose structuredContent is an array of n numbers",
			Build: func(n int) []byte { return callToolResult(`"structuredContent":`+numbers(n), "") }},
		{Name: "deep-arrays", Type: CallToolResult, Unit: "levels", Sizes: levels,
			What:  "a tools/call result whose structuredContent is n nested arrays",
			Build: func(n int) []byte { return callToolResult(`"structuredContent":`+deepArrays(n), "") }},
		{Name: "deep-objects", Type: CallToolResult, Unit: "levels", Sizes: levels,
			What:  `a tools/call result whose structuredContent is n nested objects ({"a":{"a":...}})`,
			Build: func(n int) []byte { return callToolResult(`"structuredContent":`+deepObjects(n), "") }},
	}
}

// A HostileDecoder is a decoder the hostile shapes are timed with.
type HostileDecoder struct {
	// Name is the benchmark name of the decoder.
	Name string
	// New returns a function that decodes a message of type t.
	New func(t Type) func(data []byte) error
}

// HostileDecoders returns the decoders of the hostile shapes, in the order of their table:
// mcpgen's draft types (UnmarshalJSON of the message's type, without Validate), encoding/json
// into an any (the reference: the standard library's cost), and the jx Skip floor.
func HostileDecoders() []HostileDecoder {
	return []HostileDecoder{
		{Name: "mcpgen-draft", New: func(t Type) func([]byte) error {
			switch t {
			case CreateMessageRequestParams:
				//lint:ignore SA1019 sampling is deprecated in the draft, and still in it
				return func(data []byte) error { return new(mcpdraft.CreateMessageRequestParams).UnmarshalJSON(data) }
			case CallToolResult:
				return func(data []byte) error { return new(mcpdraft.CallToolResult).UnmarshalJSON(data) }
			}
			panic("no hostile shape of type " + t)
		}},
		{Name: "any", New: func(Type) func([]byte) error {
			return func(data []byte) error {
				var v any
				return json.Unmarshal(data, &v)
			}
		}},
		{Name: "jx.Skip", New: func(Type) func([]byte) error {
			var d jx.Decoder
			return func(data []byte) error {
				d.ResetBytes(data)
				return d.Skip()
			}
		}},
	}
}

// HostileSizeName names a size of a shape in a benchmark name: 50MB, 1M (members or elements),
// 9999 (levels).
func HostileSizeName(n int, unit string) string {
	switch {
	case unit == "bytes" && n%1e6 == 0:
		return fmt.Sprintf("%dMB", n/1e6)
	case unit == "levels":
		return strconv.Itoa(n)
	case n%1e6 == 0:
		return fmt.Sprintf("%dM", n/1e6)
	case n%1e3 == 0:
		return fmt.Sprintf("%dk", n/1e3)
	}
	return strconv.Itoa(n)
}

// samplingText is a sampling request with one user message of one text block, text being the
// JSON string's contents (escaped already).
func samplingText(text string) []byte {
	var b bytes.Buffer
	b.Grow(len(text) + 100)
	b.WriteString(`{"messages":[{"role":"user","content":{"type":"text","text":"`)
	b.WriteString(text)
	b.WriteString(`"}}],"maxTokens":100}`)
	return b.Bytes()
}

// plainText is n bytes of ASCII text without escapes.
func plainText(n int) string {
	const unit = "The quick brown fox jumps over the lazy dog. "
	return strings.Repeat(unit, n/len(unit)+1)[:n]
}

// escapedText is n bytes of the contents of a JSON string, half of them in escape sequences:
// whole units of escaped text, then plain bytes up to n.
func escapedText(n int) string {
	const unit = `say \"hi\"\n\tcafe\u00e9 a\\b `
	units := n / len(unit)
	return strings.Repeat(unit, units) + strings.Repeat("x", n-units*len(unit))
}

// callToolResult is a tools/call result with the given members (none if ""), and content
// (an empty array if "").
func callToolResult(members, content string) []byte {
	if content == "" {
		content = "[]"
	}
	var b bytes.Buffer
	b.Grow(len(members) + len(content) + 64)
	b.WriteString(`{"resultType":"complete","content":`)
	b.WriteString(content)
	if members != "" {
		b.WriteByte(',')
		b.WriteString(members)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// members is an object of n members, "m0000000":0 to "m0999999":999999 for a million.
func members(n int) string {
	b := make([]byte, 0, n*20+2)
	b = append(b, '{')
	for i := range n {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `"m0000000":`...)
		name := b[len(b)-9 : len(b)-2]
		for j, v := len(name)-1, i; j >= 0 && v > 0; j, v = j-1, v/10 {
			name[j] = byte('0' + v%10)
		}
		b = strconv.AppendInt(b, int64(i), 10)
	}
	return string(append(b, '}'))
}

// textBlocks is an array of n text content blocks.
func textBlocks(n int) string {
	var b []byte
	b = append(b, '[')
	for i := range n {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"type":"text","text":"item `...)
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, `"}`...)
	}
	return string(append(b, ']'))
}

// numbers is an array of the numbers 0 to n-1.
func numbers(n int) string {
	var b []byte
	b = append(b, '[')
	for i := range n {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(i), 10)
	}
	return string(append(b, ']'))
}

// deepArrays is n nested arrays, the innermost empty.
func deepArrays(n int) string {
	return strings.Repeat("[", n) + strings.Repeat("]", n)
}

// deepObjects is n nested objects of one member "a", the innermost holding 1.
func deepObjects(n int) string {
	return strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n)
}
