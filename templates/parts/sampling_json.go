//go:build ignore

//mcpgen:requires SamplingMessage ToolUseContent ToolResultContent
//mcpgen:ondemand

package parts

import "encoding/json"

// The readers of the sampling rules for content whose Go type the output does not define (a
// substitute: `any`, an SDK's own content type): the value is encoded with encoding/json, as the
// SDK sends it, and its blocks are read back from the JSON. The readers generated for such
// content call these; an output without such content has none of them.

// samplingContentJSON appends the blocks of a message's content v to blocks, and reports
// whether the content is a list: a JSON array is a list of blocks, any other value one block.
func samplingContentJSON(v any, blocks []samplingBlock) ([]samplingBlock, bool) {
	raw, err := json.Marshal(v)
	if err != nil {
		return blocks, false // Validate or encoding reports the value
	}
	var list []json.RawMessage
	if raw[0] == '[' && json.Unmarshal(raw, &list) == nil {
		for _, b := range list {
			blocks = append(blocks, samplingBlockRaw(b))
		}
		return blocks, true
	}
	return append(blocks, samplingBlockRaw(raw)), false
}

// samplingBlockJSON reads the content block v from its JSON encoding.
func samplingBlockJSON(v any) samplingBlock {
	raw, err := json.Marshal(v)
	if err != nil {
		return samplingBlock{}
	}
	return samplingBlockRaw(raw)
}

// samplingBlockRaw reads a content block from its JSON (the encoding of a substitute, or the raw
// JSON of a union's Unknown variant): a tool use, a tool result, or another block (any value
// that is not an object of those types).
func samplingBlockRaw(raw []byte) samplingBlock {
	var b struct {
		Type      string `json:"type"`
		ID        string `json:"id"`
		ToolUseID string `json:"toolUseId"`
	}
	if len(raw) == 0 || raw[0] != '{' || json.Unmarshal(raw, &b) != nil {
		return samplingBlock{}
	}
	switch b.Type {
	case "tool_use":
		return samplingBlock{kind: samplingToolUse, id: b.ID}
	case "tool_result":
		return samplingBlock{kind: samplingToolResult, id: b.ToolUseID}
	}
	return samplingBlock{}
}
