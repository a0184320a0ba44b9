package backfill

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/mcpgen/mcpgen/backfill/internal/jsonvalue"
	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
)

// A ConversionError reports a part of a request or result that the other side cannot represent:
// an audio block for a provider without audio input, a tool call whose arguments are not a JSON
// object, a tool choice MCP has no mode for. Pointer is a JSON pointer to the offending part of
// the document being converted (the sampling params, the provider's request or response).
type ConversionError struct {
	// Provider is "anthropic" or "openai".
	Provider string
	// Pointer locates the part that cannot be converted, e.g. "/messages/2/content/0".
	Pointer string
	// Reason says what is wrong, and what the other side accepts instead.
	Reason string
}

func (e *ConversionError) Error() string {
	return fmt.Sprintf("%s: %s: %s", e.Provider, e.Pointer, e.Reason)
}

// pointer builds JSON pointers; its methods return extended copies.
type pointer string

func (p pointer) key(k string) pointer { return pointer(string(p) + "/" + jsonvalue.EscapeToken(k)) }

func (p pointer) index(i int) pointer { return pointer(string(p) + "/" + strconv.Itoa(i)) }

func (p pointer) errorf(provider, format string, args ...any) error {
	ptr := string(p)
	if ptr == "" {
		ptr = "/"
	}
	return &ConversionError{Provider: provider, Pointer: ptr, Reason: fmt.Sprintf(format, args...)}
}

// The stop reasons of MCP and the providers. The four that MCP names are mapped to and from the
// providers' spellings; every other value is passed through unchanged in both directions, so an
// unknown stop reason survives a round trip.
var (
	anthropicStopReasons = map[mcp.CreateMessageResultStopReason]string{
		mcp.CreateMessageResultStopReasonEndTurn:      "end_turn",
		mcp.CreateMessageResultStopReasonStopSequence: "stop_sequence",
		mcp.CreateMessageResultStopReasonMaxTokens:    "max_tokens",
		mcp.CreateMessageResultStopReasonToolUse:      "tool_use",
	}
	openAIFinishReasons = map[mcp.CreateMessageResultStopReason]string{
		mcp.CreateMessageResultStopReasonEndTurn:   "stop",
		mcp.CreateMessageResultStopReasonMaxTokens: "length",
		mcp.CreateMessageResultStopReasonToolUse:   "tool_calls",
		// stopSequence is sent as "stop" too (see toOpenAIFinishReason); "stop" comes back as
		// endTurn, since OpenAI does not say whether a stop sequence was hit.
	}
)

// StopReasonRefusal is the MCP stop reason for a model that declined to answer: Anthropic's
// stop_reason "refusal" passes through under that name, and an OpenAI message with a refusal is
// given this stop reason too. MCP does not name it, and allows any string.
const StopReasonRefusal mcp.CreateMessageResultStopReason = "refusal"

func fromProviderStopReason(table map[mcp.CreateMessageResultStopReason]string, s string) *mcp.CreateMessageResultStopReason {
	if s == "" {
		return nil
	}
	for m, p := range table {
		if p == s {
			return &m
		}
	}
	r := mcp.CreateMessageResultStopReason(s)
	return &r
}

func toProviderStopReason(table map[mcp.CreateMessageResultStopReason]string, r *mcp.CreateMessageResultStopReason) string {
	if r == nil {
		return ""
	}
	if p, ok := table[*r]; ok {
		return p
	}
	return string(*r)
}

// decodeToolInput decodes a tool call's arguments, which must be a JSON object, keeping every
// member's JSON exactly.
func decodeToolInput(data []byte) (map[string]json.RawMessage, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		// OpenAI sends "" for a call without arguments.
		return map[string]json.RawMessage{}, nil
	}
	if data[0] != '{' {
		return nil, fmt.Errorf("tool input is not a JSON object: %.60s", data)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("tool input is not valid JSON: %v", err)
	}
	if m == nil {
		m = map[string]json.RawMessage{}
	}
	return m, nil
}

// encodeToolInput encodes a tool call's arguments as a JSON object.
func encodeToolInput(m map[string]json.RawMessage) (json.RawMessage, error) {
	if m == nil {
		return json.RawMessage("{}"), nil
	}
	return json.Marshal(m)
}

// decodeValue decodes JSON into Go values for the SDKs' free-form fields, keeping numbers as
// json.Number so they are encoded again exactly.
func decodeValue(data []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	return d.Decode(v)
}

// contentOf makes message content: one block alone is sent as a single value unless asList.
func contentOf(bs []mcp.SamplingMessageContentBlock, asList bool) mcp.SamplingMessageContent {
	if len(bs) == 1 && !asList {
		return mcp.NewSamplingMessageContent(bs[0])
	}
	if bs == nil {
		bs = []mcp.SamplingMessageContentBlock{}
	}
	return mcp.NewSamplingMessageContentList(bs...)
}

func textBlock(s string) *mcp.TextContent { return &mcp.TextContent{Type: "text", Text: s} }

// toolResultPart is one part of a tool result as the providers take it: text, or an image.
type toolResultPart struct {
	text     string
	isImage  bool
	mimeType string
	data     string
}

// toolResultParts flattens an MCP tool result's content into text and image parts. A resource
// link or an embedded resource (which no provider has a block for) is sent as its MCP JSON in a
// text part, so the model still sees all of it; structuredContent is sent as JSON text when the
// result has no content (a tool SHOULD also put it in content, and then it is not repeated).
// Audio has no place in either provider's tool results and is an error.
func toolResultParts(provider string, p pointer, tr *mcp.ToolResultContent) ([]toolResultPart, error) {
	var parts []toolResultPart
	for i, c := range tr.Content {
		cp := p.key("content").index(i)
		switch c := c.(type) {
		case *mcp.TextContent:
			parts = append(parts, toolResultPart{text: c.Text})
		case *mcp.ImageContent:
			parts = append(parts, toolResultPart{isImage: true, mimeType: c.MimeType, data: c.Data})
		case *mcp.AudioContent:
			return nil, cp.errorf(provider, "a tool result cannot carry audio to this provider")
		default:
			data, err := json.Marshal(c)
			if err != nil {
				return nil, cp.errorf(provider, "encoding the block: %v", err)
			}
			parts = append(parts, toolResultPart{text: string(data)})
		}
	}
	if len(tr.Content) == 0 && tr.StructuredContent != nil {
		data, err := json.Marshal(tr.StructuredContent)
		if err != nil {
			return nil, p.key("structuredContent").errorf(provider, "encoding: %v", err)
		}
		parts = append(parts, toolResultPart{text: string(data)})
	}
	return parts, nil
}

// blockType names a content block's type for errors.
func blockType(b mcp.SamplingMessageContentBlock) string {
	switch b.(type) {
	case *mcp.TextContent:
		return "text"
	case *mcp.ImageContent:
		return "image"
	case *mcp.AudioContent:
		return "audio"
	case *mcp.ToolUseContent:
		return "tool_use"
	case *mcp.ToolResultContent:
		return "tool_result"
	}
	return "a block of unknown type"
}

func ptr[T any](v T) *T { return &v }
