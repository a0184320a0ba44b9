package speclint

import (
	"slices"
	"strings"
)

// The rules of sampling with tools that the schema cannot state (the spec's client/sampling
// page), as the generated Validate methods check them (templates/parts/sampling.go and
// sampling_messages.go, which run on generated types): here on the JSON of an example that has
// the structure of its type. A test holds the two to the same verdicts.

// The declarations the rules apply to.
const (
	samplingRequestDecl = "CreateMessageRequestParams"
	samplingResultDecl  = "CreateMessageResult"
)

// samplingRules checks n, a value of the declaration decl without other problems, against the
// sampling rules if decl has them.
func (r *reader) samplingRules(n *jnode, decl string) {
	if r.s.Decl("ToolUseContent") == nil || n.kind != jObject {
		return // a version without sampling with tools
	}
	switch decl {
	case samplingRequestDecl:
		if m := n.get("messages"); m != nil && m.val.kind == jArray {
			r.in("messages")
			r.conversation(m.val)
			r.out()
		}
	case samplingResultDecl:
		r.messageBlocks(n, map[string]bool{})
	}
}

// conversation checks the messages of a sampling request: every assistant message with tool
// uses is followed by a user message answering each of them, before any other message; a tool
// result answers a tool use of the message just before it, once; tool use ids are unique.
func (r *reader) conversation(messages *jnode) {
	seen := map[string]bool{}
	open := map[string]bool{} // the ids of the previous message's tool uses: true until answered
	openAt := -1              // the index of that message, -1 when it has none
	for i, m := range messages.elems {
		r.at(i)
		uses := r.messageBlocks(m, seen)
		results := toolResults(m)
		switch {
		case openAt >= 0 && len(results) == 0:
			r.report(m, "the tool uses of message %d (%s) are not answered: the message after them must hold their tool results", openAt, unanswered(open))
		case openAt >= 0:
			for _, res := range results {
				r.answer(res, open, openAt)
			}
			if slices.Contains(mapValues(open), true) {
				r.report(m, "the tool uses %s of message %d are not answered", unanswered(open), openAt)
			}
		default:
			for _, res := range results {
				r.atResult(res, "%s answers no tool use: the message before is not an assistant message with that tool use", describeNode(res.id))
			}
		}
		clear(open)
		openAt = -1
		if len(uses) > 0 {
			openAt = i
			for _, id := range uses {
				open[id] = true
			}
		}
		r.out()
	}
	if openAt >= 0 {
		r.report(messages, "the tool uses %s of the last message (%d) are not answered", unanswered(open), openAt)
	}
}

// answer checks a tool result against the open tool uses of message openAt.
func (r *reader) answer(res toolResult, open map[string]bool, openAt int) {
	pending, asked := open[res.id.str]
	switch {
	case !asked:
		r.atResult(res, "%s answers no tool use of message %d", describeNode(res.id), openAt)
	case !pending:
		r.atResult(res, "%s answers a tool use of message %d that is already answered", describeNode(res.id), openAt)
	default:
		open[res.id.str] = false
	}
}

// toolResult is a tool result block of a message: its toolUseId, and where it is.
type toolResult struct {
	id    *jnode
	index int  // in the content
	list  bool // whether the content is a list
}

// atResult reports the toolUseId of a tool result of the current message.
func (r *reader) atResult(res toolResult, format string, args ...any) {
	r.in("content")
	if res.list {
		r.at(res.index)
	}
	r.in("toolUseId")
	r.report(res.id, format, args...)
	r.out()
	if res.list {
		r.out()
	}
	r.out()
}

// blocks returns the content blocks of a message, and whether its content is a list.
func blocks(m *jnode) ([]*jnode, bool) {
	c := m.get("content")
	switch {
	case c == nil:
		return nil, false
	case c.val.kind == jArray:
		return c.val.elems, true
	}
	return []*jnode{c.val}, false
}

func blockType(b *jnode) string {
	if t := b.get("type"); t != nil && t.val.kind == jString {
		return t.val.str
	}
	return ""
}

func toolResults(m *jnode) []toolResult {
	list, isList := blocks(m)
	var out []toolResult
	for i, b := range list {
		if id := b.get("toolUseId"); blockType(b) == "tool_result" && id != nil && id.val.kind == jString {
			out = append(out, toolResult{id: id.val, index: i, list: isList})
		}
	}
	return out
}

// messageBlocks checks the blocks of one message (tool uses only from the assistant, tool
// results only from the user and alone, tool use ids unique among seen) and returns the ids of
// its tool uses.
func (r *reader) messageBlocks(m *jnode, seen map[string]bool) []string {
	role := ""
	if f := m.get("role"); f != nil {
		role = f.val.str
	}
	list, isList := blocks(m)
	var uses []string
	hasResult, hasOther := false, false
	for i, b := range list {
		r.in("content")
		if isList {
			r.at(i)
		}
		switch blockType(b) {
		case "tool_use":
			if role != "assistant" {
				r.report(b, "a tool use must be in an assistant message, not in a message of role %q", role)
			}
			if id := b.get("id"); id != nil && id.val.kind == jString {
				if seen[id.val.str] {
					r.in("id")
					r.report(id.val, "tool use id %s is used twice in the conversation", describeNode(id.val))
					r.out()
				}
				seen[id.val.str] = true
				uses = append(uses, id.val.str)
			}
			hasOther = true
		case "tool_result":
			if role != "user" {
				r.report(b, "a tool result must be in a user message, not in a message of role %q", role)
			}
			hasResult = true
		default:
			hasOther = true
		}
		if isList {
			r.out()
		}
		r.out()
	}
	if hasResult && hasOther {
		r.report(m, "a message with tool results must hold only tool results")
	}
	return uses
}

// unanswered writes the ids of open that are not answered yet, sorted.
func unanswered(open map[string]bool) string {
	var ids []string
	for id, pending := range open {
		if pending {
			ids = append(ids, `"`+id+`"`)
		}
	}
	slices.Sort(ids)
	return strings.Join(ids, ", ")
}

func mapValues(m map[string]bool) []bool {
	out := make([]bool, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}
