//go:build ignore

//mcpgen:requires SamplingMessage ToolUseContent ToolResultContent

package parts

// The rules of sampling with tools that apply to one message, which the rules of a sampling
// request (sampling.go) and of a sampling result (sampling_result.go) share.

// validateMessageBlocks checks the blocks of one message, with the message on the path, and
// appends the ids of its tool uses to uses. seen holds the tool use ids met so far.
func validateMessageBlocks(c *validator, role Role, content *SamplingMessageContent, seen map[string]bool, uses []string) []string {
	hasResult, hasOther := false, false
	for i, b := range content.List {
		c.atContent(content, i)
		switch b := b.(type) {
		case *ToolUseContent:
			if role != RoleAssistant {
				c.report("a tool use must be in an assistant message, not in a message of role %s", quoteValue(string(role)))
			}
			if b != nil {
				if seen[b.ID] {
					c.in("id")
					c.report("tool use id %s is used twice in the conversation", quoteValue(b.ID))
					c.out()
				}
				seen[b.ID] = true
				uses = append(uses, b.ID)
			}
			hasOther = true
		case *ToolResultContent:
			if role != RoleUser {
				c.report("a tool result must be in a user message, not in a message of role %s", quoteValue(string(role)))
			}
			hasResult = true
		default:
			hasOther = true
		}
		c.outContent(content)
	}
	if hasResult && hasOther {
		c.report("a message with tool results must hold only tool results")
	}
	return uses
}

// toolResult is a tool result of a message: the tool use it answers, and its index in the
// message's content.
type toolResult struct {
	id    string
	index int
}

// toolResults appends the tool results of a message to results.
func toolResults(content *SamplingMessageContent, results []toolResult) []toolResult {
	for i, b := range content.List {
		if r, ok := b.(*ToolResultContent); ok && r != nil {
			results = append(results, toolResult{r.ToolUseID, i})
		}
	}
	return results
}

// atContent and outContent put block i of a message's content on the path: an array index when
// the content is a list, nothing when it is a single block.
func (c *validator) atContent(content *SamplingMessageContent, i int) {
	c.in("content")
	if content.IsList {
		c.at(i)
	}
}

func (c *validator) outContent(content *SamplingMessageContent) {
	if content.IsList {
		c.out()
	}
	c.out()
}
