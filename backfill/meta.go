package backfill

// This file is the only one that knows how _meta, the toolChoice extension and a tool's
// inputSchema are represented in the generated types: when gen/ changes those representations,
// only this file changes.

import (
	"encoding/json"
	"fmt"

	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
)

// MetaKey is the _meta key of a CreateMessageResult under which the backfill records what the
// provider said that the result has no member for: the provider, its message id, the stop
// sequence that ended generation, and the token usage. The value is a [ResultInfo].
const MetaKey = "io.github.mcpgen/backfill"

// ResultInfo is the value of a result's _meta[MetaKey].
type ResultInfo struct {
	// Provider is "anthropic" or "openai".
	Provider string `json:"provider"`
	// ID is the provider's id of the message (Anthropic "msg_...") or completion (OpenAI
	// "chatcmpl-...").
	ID string `json:"id,omitempty"`
	// StopSequence is the stop sequence that ended generation, when the provider says which
	// (Anthropic does, OpenAI does not).
	StopSequence string `json:"stopSequence,omitempty"`
	// Usage is the token usage the provider reported.
	Usage *Usage `json:"usage,omitempty"`
}

// Usage is a provider's token count for one request.
type Usage struct {
	InputTokens  int64 `json:"inputTokens"`
	OutputTokens int64 `json:"outputTokens"`
	// CacheReadInputTokens are input tokens read from the provider's prompt cache (Anthropic
	// cache_read_input_tokens, OpenAI prompt_tokens_details.cached_tokens).
	CacheReadInputTokens int64 `json:"cacheReadInputTokens,omitempty"`
	// CacheCreationInputTokens are input tokens written to the prompt cache (Anthropic
	// cache_creation_input_tokens).
	CacheCreationInputTokens int64 `json:"cacheCreationInputTokens,omitempty"`
}

// Info returns what the backfill recorded in r's _meta, or nil when r has no such record.
func Info(r *mcp.CreateMessageResult) (*ResultInfo, error) {
	if r.Meta == nil {
		return nil, nil
	}
	raw, ok := r.Meta.Extra[MetaKey]
	if !ok {
		return nil, nil
	}
	var info ResultInfo
	if err := json.Unmarshal(raw, &info); err != nil {
		return nil, fmt.Errorf("_meta[%q]: %v", MetaKey, err)
	}
	return &info, nil
}

func setInfo(r *mcp.CreateMessageResult, info *ResultInfo) error {
	data, err := json.Marshal(info)
	if err != nil {
		return err
	}
	if r.Meta == nil {
		r.Meta = &mcp.MetaObject{}
	}
	if r.Meta.Extra == nil {
		r.Meta.Extra = map[string]json.RawMessage{}
	}
	r.Meta.Extra[MetaKey] = data
	return nil
}

// DisableParallelToolUseMember is the member of toolChoice by which a server asks for at most
// one tool call per turn: {"mode": "auto", "disableParallelToolUse": true}. The spec leaves
// parallel tool use to the provider and allows implementations to expose this control as an
// extension; it becomes Anthropic's disable_parallel_tool_use and OpenAI's
// parallel_tool_calls: false.
const DisableParallelToolUseMember = "disableParallelToolUse"

// DisableParallelToolUse sets the [DisableParallelToolUseMember] extension on tc.
func DisableParallelToolUse(tc *mcp.ToolChoice) {
	if tc.Extra == nil {
		tc.Extra = map[string]json.RawMessage{}
	}
	tc.Extra[DisableParallelToolUseMember] = json.RawMessage("true")
}

// parallelToolUseDisabled reports whether tc carries the extension with the value true.
func parallelToolUseDisabled(provider string, tc *mcp.ToolChoice) (bool, error) {
	if tc == nil {
		return false, nil
	}
	raw, ok := tc.Extra[DisableParallelToolUseMember]
	if !ok {
		return false, nil
	}
	var b bool
	if err := json.Unmarshal(raw, &b); err != nil {
		return false, pointer("/toolChoice").key(DisableParallelToolUseMember).errorf(provider, "must be a boolean")
	}
	return b, nil
}

// inputSchemaJSON returns a tool's input schema as JSON.
func inputSchemaJSON(t *mcp.Tool) ([]byte, error) {
	return json.Marshal(&t.InputSchema)
}

// inputSchemaFromJSON makes a tool's input schema from JSON; an absent schema is {"type":
// "object"}, which accepts any arguments.
func inputSchemaFromJSON(data []byte) (mcp.ToolInputSchema, error) {
	var s mcp.ToolInputSchema
	if len(data) == 0 || string(data) == "null" {
		return mcp.ToolInputSchema{Type: "object"}, nil
	}
	err := json.Unmarshal(data, &s)
	return s, err
}

// ThinkingMetaKey is the _meta key of a content block under which the backfill keeps the
// Anthropic thinking blocks (thinking and redacted_thinking) that came right before that block in
// the model's answer. MCP has no block for a model's reasoning, but Anthropic requires it back,
// unmodified and in its place, when a conversation continues after a tool use (models that think
// by default do so from API version 2026-10-21 on): a server that sends the assistant message back
// as it got it, _meta included (the tool loop of package sampling does), keeps it, and
// [ToAnthropicRequest] puts the blocks back before the block that carries them. The value is an
// array of the blocks as the Messages API writes them ({"type": "thinking", "thinking": ...,
// "signature": ...} or {"type": "redacted_thinking", "data": ...}).
const ThinkingMetaKey = "io.github.mcpgen/backfill/thinking"

// thinkingBlock is an Anthropic thinking or redacted_thinking block as kept in _meta.
type thinkingBlock struct {
	Type      string  `json:"type"`
	Thinking  *string `json:"thinking,omitempty"`
	Signature *string `json:"signature,omitempty"`
	Data      *string `json:"data,omitempty"`
}

// blockMeta returns where a content block keeps its _meta, or nil for a block without one.
func blockMeta(b mcp.SamplingMessageContentBlock) **mcp.MetaObject {
	switch b := b.(type) {
	case *mcp.TextContent:
		return &b.Meta
	case *mcp.ImageContent:
		return &b.Meta
	case *mcp.AudioContent:
		return &b.Meta
	case *mcp.ToolUseContent:
		return &b.Meta
	case *mcp.ToolResultContent:
		return &b.Meta
	}
	return nil
}

// attachThinking keeps thinking blocks in b's _meta.
func attachThinking(b mcp.SamplingMessageContentBlock, blocks []thinkingBlock) error {
	m := blockMeta(b)
	if m == nil {
		return fmt.Errorf("a %T cannot carry _meta", b)
	}
	data, err := json.Marshal(blocks)
	if err != nil {
		return err
	}
	if *m == nil {
		*m = &mcp.MetaObject{}
	}
	if (*m).Extra == nil {
		(*m).Extra = map[string]json.RawMessage{}
	}
	(*m).Extra[ThinkingMetaKey] = data
	return nil
}

// thinkingOf returns the thinking blocks kept in b's _meta; p locates b for errors.
func thinkingOf(p pointer, b mcp.SamplingMessageContentBlock) ([]thinkingBlock, error) {
	m := blockMeta(b)
	if m == nil || *m == nil {
		return nil, nil
	}
	raw, ok := (*m).Extra[ThinkingMetaKey]
	if !ok {
		return nil, nil
	}
	mp := p.key("_meta").key(ThinkingMetaKey)
	var blocks []thinkingBlock
	if err := json.Unmarshal(raw, &blocks); err != nil {
		return nil, mp.errorf(ProviderAnthropic, "must be an array of thinking blocks: %v", err)
	}
	for i, t := range blocks {
		switch {
		case t.Type == "thinking" && t.Thinking != nil && t.Signature != nil:
		case t.Type == "redacted_thinking" && t.Data != nil:
		default:
			return nil, mp.index(i).errorf(ProviderAnthropic, `must be {"type": "thinking", "thinking", "signature"} or {"type": "redacted_thinking", "data"}`)
		}
	}
	return blocks, nil
}
