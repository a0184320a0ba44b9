//go:build ignore

//mcpgen:requires SamplingMessage ToolUseContent ToolResultContent

package parts

// The rules of sampling with tools that apply to one message, which the rules of a sampling
// request (sampling.go) and of a sampling result (sampling_result.go) share. They read the
// messages through readers generated for the configured shapes (validate.go: samplingRole,
// samplingContent, ...), never through the fields themselves, so that they hold whatever the
// configuration makes of the members: a list or a single block, pointers or values, a union or a
// substituted type.

// samplingBlock is a content block as the sampling rules read it: its kind and, for a tool use
// its id, for a tool result the id of the tool use it answers. isNil is set for a nil block of
// its kind, which Validate reports elsewhere and the rules skip.
type samplingBlock struct {
	kind  samplingKind
	id    string
	isNil bool
}

// samplingKind is the kind of a content block that the rules tell apart.
type samplingKind int

const (
	samplingOther samplingKind = iota
	samplingToolUse
	samplingToolResult
)

// validateMessageBlocks checks the blocks of one message (its content, a list or a single
// block), with the message on the path, and appends the ids of its tool uses to uses. seen holds
// the tool use ids met so far.
func validateMessageBlocks(c *validator, role string, blocks []samplingBlock, list bool, seen map[string]bool, uses []string) []string {
	hasResult, hasOther := false, false
	for i, b := range blocks {
		c.atContent(list, i)
		switch b.kind {
		case samplingToolUse:
			if role != "assistant" {
				c.report("a tool use must be in an assistant message, not in a message of role %s", quoteValue(role))
			}
			if !b.isNil {
				if seen[b.id] {
					c.in("id")
					c.report("tool use id %s is used twice in the conversation", quoteValue(b.id))
					c.out()
				}
				seen[b.id] = true
				uses = append(uses, b.id)
			}
			hasOther = true
		case samplingToolResult:
			if role != "user" {
				c.report("a tool result must be in a user message, not in a message of role %s", quoteValue(role))
			}
			hasResult = true
		default:
			hasOther = true
		}
		c.outContent(list)
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

// toolResults appends the tool results of a message's blocks to results.
func toolResults(blocks []samplingBlock, results []toolResult) []toolResult {
	for i, b := range blocks {
		if b.kind == samplingToolResult && !b.isNil {
			results = append(results, toolResult{b.id, i})
		}
	}
	return results
}

// atContent and outContent put block i of a message's content on the path: an array index when
// the content is a list, nothing when it is a single block.
func (c *validator) atContent(list bool, i int) {
	c.in("content")
	if list {
		c.at(i)
	}
}

func (c *validator) outContent(list bool) {
	if list {
		c.out()
	}
	c.out()
}
