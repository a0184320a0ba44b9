//go:build ignore

//mcpgen:requires CreateMessageResult SamplingMessage ToolUseContent ToolResultContent

package parts

// validateRules checks the message of a sampling result with the rules that apply to one
// message: tool uses only from the assistant, tool results only from the user and alone, tool
// use ids unique.
func (r *CreateMessageResult) validateRules(c *validator) {
	var buf [8]samplingBlock // most results hold a few blocks: no allocation for them
	blocks, list := r.samplingContent(buf[:0])
	validateMessageBlocks(c, r.samplingRole(), blocks, list, map[string]bool{}, nil)
}
