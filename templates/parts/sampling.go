//go:build ignore

//mcpgen:requires CreateMessageRequestParams SamplingMessage ToolUseContent ToolResultContent

package parts

import (
	"maps"
	"slices"
)

// The rules of sampling with tools that the schema cannot state (the spec's client/sampling page:
// "Message Content Constraints", "Tool Use and Result Balance", "Message Roles"), checked by the
// Validate methods of CreateMessageRequestParams and CreateMessageResult. Nothing the spec allows
// is rejected: an assistant message may mix text and tool uses, parallel tool results may come in
// any order, and a single tool result may stand alone as the message content.

// validateRules checks the conversation of a sampling request:
//   - tool uses appear only in assistant messages, tool results only in user messages;
//   - a user message holding tool results holds nothing else;
//   - every assistant message with tool uses is followed immediately by a user message of tool
//     results answering each of its tool uses, before any other message;
//   - a tool result answers a tool use of the message just before it, once;
//   - tool use ids are unique in the conversation.
func (p *CreateMessageRequestParams) validateRules(c *validator) {
	c.in("messages")
	defer c.out()
	var buf [8]samplingBlock // the blocks of a message, read for the configured shapes
	blocks, n := p.countToolUses(buf[:0])
	seen := make(map[string]bool, n) // every tool use id of the conversation, sized once
	open := map[string]bool{}        // the ids of the previous message's tool uses: true until answered
	openAt := -1                     // the index of that message, -1 when it has none
	pending := 0                     // how many of open are true
	var uses []string                // the tool use ids of a message
	var results []toolResult         // the tool results of a message
	var list bool                    // whether the message's content is a list of blocks
	for i := range p.samplingMessages() {
		m := p.samplingMessage(i)
		if m == nil {
			continue // Validate reports a nil message
		}
		c.at(i)
		blocks, list = m.samplingContent(blocks[:0])
		uses = validateMessageBlocks(c, m.samplingRole(), blocks, list, seen, uses[:0])
		results = toolResults(blocks, results[:0])
		switch {
		case openAt >= 0 && len(results) == 0:
			c.report("the tool uses of message %d (%s) are not answered: the message after them must hold their tool results", openAt, unansweredIDs(open))
		case openAt >= 0:
			for _, r := range results {
				unanswered, asked := open[r.id]
				if !unanswered {
					c.atContent(list, r.index)
					c.in("toolUseId")
					if asked {
						c.report("%s answers a tool use of message %d that is already answered", quoteValue(r.id), openAt)
					} else {
						c.report("%s answers no tool use of message %d", quoteValue(r.id), openAt)
					}
					c.out()
					c.outContent(list)
					continue
				}
				open[r.id] = false
				pending--
			}
			if pending > 0 {
				c.report("the tool uses %s of message %d are not answered", unansweredIDs(open), openAt)
			}
		default:
			for _, r := range results {
				c.atContent(list, r.index)
				c.in("toolUseId")
				c.report("%s answers no tool use: the message before is not an assistant message with that tool use", quoteValue(r.id))
				c.out()
				c.outContent(list)
			}
		}
		clear(open)
		openAt = -1
		if len(uses) > 0 {
			openAt = i
			for _, id := range uses {
				open[id] = true
			}
			pending = len(open)
		}
		c.out()
	}
	if openAt >= 0 {
		c.report("the tool uses %s of the last message (%d) are not answered", unansweredIDs(open), openAt)
	}
}

// countToolUses returns how many tool uses the conversation holds, and blocks, grown to hold the
// blocks of its messages.
func (p *CreateMessageRequestParams) countToolUses(blocks []samplingBlock) ([]samplingBlock, int) {
	n := 0
	for i := range p.samplingMessages() {
		if m := p.samplingMessage(i); m != nil {
			blocks, _ = m.samplingContent(blocks[:0])
			for _, b := range blocks {
				if b.kind == samplingToolUse {
					n++
				}
			}
		}
	}
	return blocks, n
}

// unansweredIDs writes the ids of open that are not answered yet, sorted, for a message.
func unansweredIDs(open map[string]bool) string {
	if !mapHas(open, true) { // all answered: nothing to sort
		return ""
	}
	s := ""
	for _, id := range slices.Sorted(maps.Keys(open)) {
		if !open[id] {
			continue
		}
		if s != "" {
			s += ", "
		}
		s += quoteValue(id)
	}
	return s
}

// mapHas reports whether m has the value v.
func mapHas(m map[string]bool, v bool) bool {
	for _, x := range m {
		if x == v {
			return true
		}
	}
	return false
}
