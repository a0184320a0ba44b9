//lint:file-ignore SA1019 sampling is deprecated as of 2026-07-28 (SEP-2577); this adapts the 2025-11-25 flow, in which it remains

package gosdk

import (
	"bytes"
	"encoding/json"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// decodeSDKParams decodes the JSON of sampling request params into the SDK's types as the SDK's
// own decoding does (SamplingMessageV2.UnmarshalJSON), for the content the loop sends: text,
// image and audio blocks, tool uses and tool results (of text, image and audio). It reports false
// for anything else, which the SDK's decoding is left to, and for JSON nested deeper than the
// SDK's decoder takes (sdkMaxDepth).
//
// Member names differing only in case from the SDK's (such as "Text") are taken by
// encoding/json here and not by the SDK's decoder; either way the member named so is not sent,
// and sdkParams' comparison refuses the request.
//
// It exists for the cost: the SDK decodes each message, and each block of its content, with a
// decoder that allocates a 32 KB buffer, so a request of a few messages costs hundreds of
// kilobytes of garbage, at every round of every call. sdkParams compares the JSON of the result
// with the request's either way, so a difference from the SDK's decoding cannot pass unseen.
func decodeSDKParams(data []byte) (*sdk.CreateMessageWithToolsParams, bool) {
	if tooDeep(data, sdkMaxDepth) {
		return nil, false
	}
	// fields are the params' fields without their messages: the outer Messages (shallower) takes
	// the member "messages" from the embedded one.
	type fields sdk.CreateMessageWithToolsParams
	var wire struct {
		fields
		Messages []*struct {
			Role    sdk.Role        `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(data, &wire); err != nil {
		return nil, false
	}
	out := sdk.CreateMessageWithToolsParams(wire.fields)
	if wire.Messages != nil { // null or absent stays nil, as in the SDK's decoding
		out.Messages = make([]*sdk.SamplingMessageV2, 0, len(wire.Messages))
	}
	for _, m := range wire.Messages {
		if m == nil {
			return nil, false
		}
		var blocks []*wireContent
		switch raw := bytes.TrimLeft(m.Content, " \t\r\n"); {
		case len(raw) > 0 && raw[0] == '[':
			if json.Unmarshal(raw, &blocks) != nil {
				return nil, false
			}
		case len(raw) > 0 && raw[0] == '{':
			var b wireContent
			if json.Unmarshal(raw, &b) != nil {
				return nil, false
			}
			blocks = []*wireContent{&b}
		default:
			return nil, false
		}
		content := make([]sdk.Content, 0, len(blocks))
		for _, b := range blocks {
			c, ok := b.content(true)
			if !ok {
				return nil, false
			}
			content = append(content, c)
		}
		out.Messages = append(out.Messages, &sdk.SamplingMessageV2{Role: m.Role, Content: content})
	}
	return &out, true
}

// sdkMaxDepth is the nesting the SDK's decoder takes in a message (its internal/json refuses
// deeper JSON, counting brackets as tooDeep does).
const sdkMaxDepth = 1000

// tooDeep reports whether JSON nests objects and arrays deeper than limit. The params' depth is
// at least that of each of their messages, so params no deeper than the SDK's limit hold no
// message that its decoder refuses for depth; deeper ones are left to it, which decides.
func tooDeep(data []byte, limit int) bool {
	depth, inString, escaped := 0, false, false
	for _, b := range data {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case b == '\\':
				escaped = true
			case b == '"':
				inString = false
			}
		case b == '"':
			inString = true
		case b == '{' || b == '[':
			if depth++; depth > limit {
				return true
			}
		case b == '}' || b == ']':
			depth = max(depth-1, 0)
		}
	}
	return false
}

// wireContent is a content block's JSON, of the kinds decodeSDKParams takes (the SDK's own is
// unexported).
type wireContent struct {
	Type              string           `json:"type"`
	Text              string           `json:"text"`
	MIMEType          string           `json:"mimeType"`
	Data              []byte           `json:"data"`
	Meta              sdk.Meta         `json:"_meta"`
	Annotations       *sdk.Annotations `json:"annotations"`
	ID                string           `json:"id"`
	Name              string           `json:"name"`
	Input             map[string]any   `json:"input"`
	ToolUseID         string           `json:"toolUseId"`
	Content           []*wireContent   `json:"content"`
	StructuredContent any              `json:"structuredContent"`
	IsError           bool             `json:"isError"`
}

// content returns the SDK's block, as the SDK's decoding makes it; top is whether the block is a
// message's (rather than a tool result's).
func (w *wireContent) content(top bool) (sdk.Content, bool) {
	if w == nil {
		return nil, false
	}
	switch w.Type {
	case "text":
		return &sdk.TextContent{Text: w.Text, Meta: w.Meta, Annotations: w.Annotations}, true
	case "image":
		return &sdk.ImageContent{MIMEType: w.MIMEType, Data: w.Data, Meta: w.Meta, Annotations: w.Annotations}, true
	case "audio":
		return &sdk.AudioContent{MIMEType: w.MIMEType, Data: w.Data, Meta: w.Meta, Annotations: w.Annotations}, true
	case "tool_use":
		if top {
			return &sdk.ToolUseContent{ID: w.ID, Name: w.Name, Input: w.Input, Meta: w.Meta}, true
		}
	case "tool_result":
		if top {
			c := &sdk.ToolResultContent{ToolUseID: w.ToolUseID, StructuredContent: w.StructuredContent, IsError: w.IsError, Meta: w.Meta}
			if w.Content != nil {
				c.Content = make([]sdk.Content, 0, len(w.Content))
				for _, n := range w.Content {
					nc, ok := n.content(false)
					if !ok {
						return nil, false
					}
					c.Content = append(c.Content, nc)
				}
			}
			return c, true
		}
	}
	return nil, false
}
