package backfill

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/anthropics/anthropic-sdk-go/v2"
	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
)

// ProviderAnthropic names the Anthropic Messages API in errors and in [ResultInfo].
const ProviderAnthropic = "anthropic"

var anthropicImageTypes = []string{"image/jpeg", "image/png", "image/gif", "image/webp"}

// ToAnthropicRequest converts sampling params to a request of the Anthropic Messages API for
// model. What cannot be sent (audio, an image of a type Anthropic does not take, an unknown
// content block) is a [*ConversionError] naming its place in p; what Anthropic has no field for
// (model preferences, includeContext, metadata, _meta) is left out, as the README's table says.
func ToAnthropicRequest(p *mcp.CreateMessageRequestParams, model string) (anthropic.MessageNewParams, error) {
	const prov = ProviderAnthropic
	r := anthropic.MessageNewParams{Model: anthropic.Model(model), MaxTokens: p.MaxTokens}
	if p.MaxTokens < 1 {
		return r, pointer("/maxTokens").errorf(prov, "must be at least 1, not %d", p.MaxTokens)
	}
	if p.SystemPrompt != nil && *p.SystemPrompt != "" {
		r.System = []anthropic.TextBlockParam{{Text: *p.SystemPrompt}}
	}
	// API version 2026-10-21 has no sampling parameters (temperature, top_p, top_k): a request
	// with any of them is refused, so temperature is not sent and the model's default applies.
	if p.StopSequences != nil {
		r.StopSequences = append([]string{}, p.StopSequences...)
	}
	for i := range p.Messages {
		mp := pointer("/messages").index(i)
		m, ok, err := toAnthropicMessageParam(mp, &p.Messages[i])
		if err != nil {
			return r, err
		}
		if ok {
			r.Messages = append(r.Messages, m)
		}
	}
	for i := range p.Tools {
		t, err := toAnthropicTool(pointer("/tools").index(i), &p.Tools[i])
		if err != nil {
			return r, err
		}
		r.Tools = append(r.Tools, t)
	}
	if len(p.Tools) > 0 && p.ToolChoice != nil {
		tc, err := toAnthropicToolChoice(p.ToolChoice)
		if err != nil {
			return r, err
		}
		r.ToolChoice = tc
	}
	return r, nil
}

// toAnthropicMessageParam converts one message; ok is false when nothing of it is left to send
// (all its texts were empty).
func toAnthropicMessageParam(p pointer, m *mcp.SamplingMessage) (out anthropic.MessageParam, ok bool, err error) {
	const prov = ProviderAnthropic
	if m.Role != mcp.RoleUser && m.Role != mcp.RoleAssistant {
		return out, false, p.key("role").errorf(prov, "unknown role %q", m.Role)
	}
	blocks, err := toAnthropicBlocks(p, m)
	if err != nil || len(blocks) == 0 {
		return out, false, err
	}
	if m.Role == mcp.RoleUser {
		out.OfUser = &anthropic.UserMessageParam{Content: blocks}
	} else {
		out.OfAssistant = &anthropic.AssistantMessageParam{Content: blocks}
	}
	return out, true, nil
}

func toAnthropicBlocks(p pointer, m *mcp.SamplingMessage) ([]anthropic.ContentBlockParamUnion, error) {
	const prov = ProviderAnthropic
	var out []anthropic.ContentBlockParamUnion
	for j, b := range m.Content.List {
		bp := p.key("content")
		if m.Content.IsList {
			bp = bp.index(j)
		}
		if m.Role == mcp.RoleAssistant {
			thinking, err := thinkingOf(bp, b)
			if err != nil {
				return nil, err
			}
			for _, t := range thinking {
				out = append(out, thinkingParam(t))
			}
		}
		var c anthropic.ContentBlockParamUnion
		switch b := b.(type) {
		case *mcp.TextContent:
			if b.Text == "" {
				// Anthropic rejects empty text blocks; an empty text says nothing to the model.
				continue
			}
			c.OfText = &anthropic.TextBlockParam{Text: b.Text}
		case *mcp.ImageContent:
			img, err := toAnthropicImage(bp, b.MimeType, b.Data)
			if err != nil {
				return nil, err
			}
			c.OfImage = img
		case *mcp.AudioContent:
			return nil, bp.errorf(prov, "the Messages API does not accept audio (%s); use a provider that does, or transcribe it", b.MimeType)
		case *mcp.ToolUseContent:
			input, err := encodeToolInput(b.Input)
			if err != nil {
				return nil, bp.key("input").errorf(prov, "%v", err)
			}
			c.OfToolUse = &anthropic.ToolUseBlockParam{ID: b.ID, Name: b.Name, Input: input}
		case *mcp.ToolResultContent:
			tr, err := toAnthropicToolResult(bp, b)
			if err != nil {
				return nil, err
			}
			c.OfToolResult = tr
		case *mcp.UnknownSamplingMessageContentBlock:
			return nil, bp.errorf(prov, "content block of unknown type: %.80s", b.Raw)
		default:
			return nil, bp.errorf(prov, "unsupported content block %T", b)
		}
		out = append(out, c)
	}
	return out, nil
}

func thinkingParam(t thinkingBlock) anthropic.ContentBlockParamUnion {
	if t.Type == "redacted_thinking" {
		return anthropic.ContentBlockParamUnion{OfRedactedThinking: &anthropic.RedactedThinkingBlockParam{Data: *t.Data}}
	}
	return anthropic.ContentBlockParamUnion{OfThinking: &anthropic.ThinkingBlockParam{Thinking: *t.Thinking, Signature: *t.Signature}}
}

// withThinking attaches the pending thinking blocks to b.
func withThinking(b mcp.SamplingMessageContentBlock, pending *[]thinkingBlock) error {
	if len(*pending) == 0 {
		return nil
	}
	err := attachThinking(b, *pending)
	*pending = nil
	return err
}

func toAnthropicImage(p pointer, mimeType, data string) (*anthropic.ImageBlockParam, error) {
	for _, t := range anthropicImageTypes {
		if mimeType == t {
			return &anthropic.ImageBlockParam{Source: anthropic.ImageBlockParamSourceUnion{
				OfBase64: &anthropic.Base64ImageSourceParam{Data: data, MediaType: anthropic.Base64ImageSourceMediaType(mimeType)},
			}}, nil
		}
	}
	return nil, p.key("mimeType").errorf(ProviderAnthropic, "the Messages API takes images of type %s, not %q", strings.Join(anthropicImageTypes, ", "), mimeType)
}

func toAnthropicToolResult(p pointer, tr *mcp.ToolResultContent) (*anthropic.ToolResultBlockParam, error) {
	parts, err := toolResultParts(ProviderAnthropic, p, tr)
	if err != nil {
		return nil, err
	}
	out := &anthropic.ToolResultBlockParam{ToolUseID: tr.ToolUseID}
	if tr.IsError != nil {
		out.IsError = anthropic.Bool(*tr.IsError)
	}
	for i, part := range parts {
		var c anthropic.ToolResultBlockParamContentUnion
		if part.isImage {
			img, err := toAnthropicImage(p.key("content").index(i), part.mimeType, part.data)
			if err != nil {
				return nil, err
			}
			c.OfImage = img
		} else {
			if part.text == "" {
				continue
			}
			c.OfText = &anthropic.TextBlockParam{Text: part.text}
		}
		out.Content = append(out.Content, c)
	}
	return out, nil
}

func toAnthropicTool(p pointer, t *mcp.Tool) (anthropic.ToolUnionParam, error) {
	schema, err := inputSchemaJSON(t)
	if err != nil {
		return anthropic.ToolUnionParam{}, p.key("inputSchema").errorf(ProviderAnthropic, "%v", err)
	}
	tp := &anthropic.ToolParam{Name: t.Name}
	if err := decodeValue(schema, &tp.InputSchema); err != nil {
		return anthropic.ToolUnionParam{}, p.key("inputSchema").errorf(ProviderAnthropic, "%v", err)
	}
	if t.Description != nil {
		tp.Description = anthropic.String(*t.Description)
	}
	return anthropic.ToolUnionParam{OfTool: tp}, nil
}

func toAnthropicToolChoice(tc *mcp.ToolChoice) (anthropic.ToolChoiceUnionParam, error) {
	var out anthropic.ToolChoiceUnionParam
	noParallel, err := parallelToolUseDisabled(ProviderAnthropic, tc)
	if err != nil {
		return out, err
	}
	mode := mcp.ToolChoiceModeAuto
	if tc.Mode != nil {
		mode = *tc.Mode
	}
	switch mode {
	case mcp.ToolChoiceModeAuto:
		out.OfAuto = &anthropic.ToolChoiceAutoParam{}
		if noParallel {
			out.OfAuto.DisableParallelToolUse = anthropic.Bool(true)
		}
	case mcp.ToolChoiceModeRequired:
		out.OfAny = &anthropic.ToolChoiceAnyParam{}
		if noParallel {
			out.OfAny.DisableParallelToolUse = anthropic.Bool(true)
		}
	case mcp.ToolChoiceModeNone:
		out.OfNone = &anthropic.ToolChoiceNoneParam{}
	default:
		return out, pointer("/toolChoice/mode").errorf(ProviderAnthropic, "unknown mode %q (auto, required or none)", mode)
	}
	return out, nil
}

// FromAnthropicRequest converts a request of the Anthropic Messages API to sampling params and
// the model it names. Several system blocks are joined with blank lines; parameters MCP has no
// member for (top_k, top_p, thinking, metadata, cache control...) are left out; blocks and tools
// MCP cannot represent (documents, images by URL, server tools, a tool choice naming one tool)
// are a [*ConversionError] naming their place in r.
func FromAnthropicRequest(r *anthropic.MessageNewParams) (*mcp.CreateMessageRequestParams, string, error) {
	const prov = ProviderAnthropic
	p := &mcp.CreateMessageRequestParams{MaxTokens: r.MaxTokens, Messages: []mcp.SamplingMessage{}}
	p.SystemPrompt = joinSystem(nil, r.System)
	if r.StopSequences != nil {
		p.StopSequences = append([]string{}, r.StopSequences...)
	}
	for i := range r.Messages {
		mp := pointer("/messages").index(i)
		if sys := r.Messages[i].OfSystem; sys != nil {
			// MCP has one system prompt, before the conversation: system messages are joined
			// into it while no user or assistant message came before them.
			if len(p.Messages) > 0 {
				return nil, "", mp.errorf(prov, "MCP has one system prompt, before the conversation; a system message after the first user or assistant message has no MCP equivalent")
			}
			p.SystemPrompt = joinSystem(p.SystemPrompt, sys.Content)
			continue
		}
		m, err := fromAnthropicMessageParam(mp, &r.Messages[i])
		if err != nil {
			return nil, "", err
		}
		p.Messages = append(p.Messages, m)
	}
	for i, t := range r.Tools {
		tp := pointer("/tools").index(i)
		if t.OfTool == nil {
			return nil, "", tp.errorf(prov, "only client tools (name, description, input_schema) have an MCP equivalent")
		}
		schema, err := json.Marshal(t.OfTool.InputSchema)
		if err != nil {
			return nil, "", tp.key("input_schema").errorf(prov, "%v", err)
		}
		mt := mcp.Tool{Name: t.OfTool.Name}
		if mt.InputSchema, err = inputSchemaFromJSON(schema); err != nil {
			return nil, "", tp.key("input_schema").errorf(prov, "%v", err)
		}
		if t.OfTool.Description.Valid() {
			d := t.OfTool.Description.Value
			mt.Description = &d
		}
		p.Tools = append(p.Tools, mt)
	}
	tc := r.ToolChoice
	var choice *mcp.ToolChoice
	var noParallel bool
	switch {
	case tc.OfAuto != nil:
		choice = &mcp.ToolChoice{Mode: ptr(mcp.ToolChoiceModeAuto)}
		noParallel = tc.OfAuto.DisableParallelToolUse.Valid() && tc.OfAuto.DisableParallelToolUse.Value
	case tc.OfAny != nil:
		choice = &mcp.ToolChoice{Mode: ptr(mcp.ToolChoiceModeRequired)}
		noParallel = tc.OfAny.DisableParallelToolUse.Valid() && tc.OfAny.DisableParallelToolUse.Value
	case tc.OfNone != nil:
		choice = &mcp.ToolChoice{Mode: ptr(mcp.ToolChoiceModeNone)}
	case tc.OfTool != nil:
		return nil, "", pointer("/tool_choice").errorf(prov, "MCP cannot force one named tool (%q); its modes are auto, required and none", tc.OfTool.Name)
	}
	if noParallel {
		DisableParallelToolUse(choice)
	}
	p.ToolChoice = choice
	return p, string(r.Model), nil
}

// joinSystem appends system text blocks to a system prompt, with blank lines between them.
func joinSystem(prompt *string, blocks []anthropic.TextBlockParam) *string {
	if len(blocks) == 0 {
		return prompt
	}
	var texts []string
	if prompt != nil {
		texts = append(texts, *prompt)
	}
	for _, b := range blocks {
		texts = append(texts, b.Text)
	}
	return ptr(strings.Join(texts, "\n\n"))
}

func fromAnthropicMessageParam(p pointer, m *anthropic.MessageParam) (mcp.SamplingMessage, error) {
	const prov = ProviderAnthropic
	var out mcp.SamplingMessage
	var content []anthropic.ContentBlockParamUnion
	switch {
	case m.OfUser != nil:
		out.Role, content = mcp.RoleUser, m.OfUser.Content
	case m.OfAssistant != nil:
		out.Role, content = mcp.RoleAssistant, m.OfAssistant.Content
	default:
		return out, p.key("role").errorf(prov, "MCP messages are from the user or the assistant")
	}
	var bs []mcp.SamplingMessageContentBlock
	var thinking []thinkingBlock
	for j, c := range content {
		bp := p.key("content").index(j)
		if out.Role == mcp.RoleAssistant && (c.OfThinking != nil || c.OfRedactedThinking != nil) {
			// Kept in the _meta of the block that follows (see ThinkingMetaKey).
			if t := c.OfThinking; t != nil {
				thinking = append(thinking, thinkingBlock{Type: "thinking", Thinking: ptr(t.Thinking), Signature: ptr(t.Signature)})
			} else {
				thinking = append(thinking, thinkingBlock{Type: "redacted_thinking", Data: ptr(c.OfRedactedThinking.Data)})
			}
			continue
		}
		n := len(bs)
		switch {
		case c.OfText != nil:
			bs = append(bs, textBlock(c.OfText.Text))
		case c.OfImage != nil:
			img, err := fromAnthropicImage(bp, c.OfImage)
			if err != nil {
				return out, err
			}
			bs = append(bs, img)
		case c.OfToolUse != nil:
			raw, err := json.Marshal(c.OfToolUse.Input)
			if err != nil {
				return out, bp.key("input").errorf(prov, "%v", err)
			}
			input, err := decodeToolInput(raw)
			if err != nil {
				return out, bp.key("input").errorf(prov, "%v", err)
			}
			bs = append(bs, &mcp.ToolUseContent{Type: "tool_use", ID: c.OfToolUse.ID, Name: c.OfToolUse.Name, Input: input})
		case c.OfToolResult != nil:
			tr := &mcp.ToolResultContent{Type: "tool_result", ToolUseID: c.OfToolResult.ToolUseID, Content: []mcp.ContentBlock{}}
			if c.OfToolResult.IsError.Valid() {
				tr.IsError = ptr(c.OfToolResult.IsError.Value)
			}
			for k, rc := range c.OfToolResult.Content {
				switch {
				case rc.OfText != nil:
					tr.Content = append(tr.Content, textBlock(rc.OfText.Text))
				case rc.OfImage != nil:
					img, err := fromAnthropicImage(bp.key("content").index(k), rc.OfImage)
					if err != nil {
						return out, err
					}
					tr.Content = append(tr.Content, img)
				default:
					return out, bp.key("content").index(k).errorf(prov, "only text and image blocks of a tool result have an MCP equivalent")
				}
			}
			bs = append(bs, tr)
		default:
			return out, bp.errorf(prov, "this content block has no MCP equivalent (MCP has text, image, audio, tool_use and tool_result)")
		}
		if len(bs) > n {
			if err := withThinking(bs[n], &thinking); err != nil {
				return out, bp.errorf(prov, "%v", err)
			}
		}
	}
	out.Content = contentOf(bs, len(bs) != 1)
	return out, nil
}

func fromAnthropicImage(p pointer, img *anthropic.ImageBlockParam) (*mcp.ImageContent, error) {
	if img.Source.OfBase64 == nil {
		return nil, p.key("source").errorf(ProviderAnthropic, "MCP images carry base64 data; an image by URL or file id cannot be converted")
	}
	return &mcp.ImageContent{Type: "image", Data: img.Source.OfBase64.Data, MimeType: string(img.Source.OfBase64.MediaType)}, nil
}

// FromAnthropicMessage converts a response of the Anthropic Messages API to a sampling result:
// text and tool_use blocks become MCP content (one block alone as a single value, more as an
// array), the stop reason is mapped (end_turn→endTurn, max_tokens→maxTokens,
// stop_sequence→stopSequence, tool_use→toolUse; any other, such as refusal or pause_turn, kept as
// it is), and the message id, stop sequence and usage are recorded in _meta (see [Info]).
// Thinking blocks are left out; any other block is a [*ConversionError].
func FromAnthropicMessage(m *anthropic.Message) (*mcp.CreateMessageResult, error) {
	const prov = ProviderAnthropic
	var bs []mcp.SamplingMessageContentBlock
	var thinking []thinkingBlock
	for i, b := range m.Content {
		bp := pointer("/content").index(i)
		var blk mcp.SamplingMessageContentBlock
		switch b.Type {
		case "text":
			blk = textBlock(b.Text)
		case "tool_use":
			input, err := decodeToolInput(b.Input)
			if err != nil {
				return nil, bp.key("input").errorf(prov, "%v", err)
			}
			blk = &mcp.ToolUseContent{Type: "tool_use", ID: b.ID, Name: b.Name, Input: input}
		case "thinking":
			// The model's reasoning, which MCP has no block for: kept in the _meta of the
			// block that follows (see ThinkingMetaKey).
			thinking = append(thinking, thinkingBlock{Type: "thinking", Thinking: ptr(b.Thinking), Signature: ptr(b.Signature)})
			continue
		case "redacted_thinking":
			thinking = append(thinking, thinkingBlock{Type: "redacted_thinking", Data: ptr(b.Data)})
			continue
		default:
			return nil, bp.errorf(prov, "content block of type %q has no MCP equivalent", b.Type)
		}
		if err := withThinking(blk, &thinking); err != nil {
			return nil, bp.errorf(prov, "%v", err)
		}
		bs = append(bs, blk)
	}
	r := &mcp.CreateMessageResult{
		Role:       mcp.RoleAssistant,
		Content:    contentOf(bs, len(bs) != 1),
		Model:      string(m.Model),
		StopReason: fromProviderStopReason(anthropicStopReasons, string(m.StopReason)),
	}
	info := &ResultInfo{Provider: prov, ID: m.ID, StopSequence: m.StopSequence}
	if m.JSON.Usage.Valid() {
		info.Usage = &Usage{
			InputTokens:              m.Usage.InputTokens,
			OutputTokens:             m.Usage.OutputTokens,
			CacheReadInputTokens:     m.Usage.CacheReadInputTokens,
			CacheCreationInputTokens: m.Usage.CacheCreationInputTokens,
		}
	}
	if err := setInfo(r, info); err != nil {
		return nil, err
	}
	return r, nil
}

// ToAnthropicMessage converts a sampling result to a response of the Anthropic Messages API, as
// the SDK decodes it; the id, stop sequence and usage come from _meta when the result carries a
// [ResultInfo]. Images and audio are a [*ConversionError]: Anthropic responses hold text and tool
// calls.
func ToAnthropicMessage(r *mcp.CreateMessageResult) (*anthropic.Message, error) {
	const prov = ProviderAnthropic
	info, err := Info(r)
	if err != nil {
		return nil, pointer("/_meta").key(MetaKey).errorf(prov, "%v", err)
	}
	if info == nil {
		info = &ResultInfo{}
	}
	type block struct {
		Type  string          `json:"type"`
		Text  *string         `json:"text,omitempty"`
		ID    string          `json:"id,omitempty"`
		Name  string          `json:"name,omitempty"`
		Input json.RawMessage `json:"input,omitempty"`
	}
	content := []any{}
	for i, b := range r.Content.List {
		bp := pointer("/content")
		if r.Content.IsList {
			bp = bp.index(i)
		}
		thinking, err := thinkingOf(bp, b)
		if err != nil {
			return nil, err
		}
		for _, t := range thinking {
			content = append(content, t)
		}
		switch b := b.(type) {
		case *mcp.TextContent:
			content = append(content, block{Type: "text", Text: &b.Text})
		case *mcp.ToolUseContent:
			input, err := encodeToolInput(b.Input)
			if err != nil {
				return nil, bp.key("input").errorf(prov, "%v", err)
			}
			content = append(content, block{Type: "tool_use", ID: b.ID, Name: b.Name, Input: input})
		default:
			return nil, bp.errorf(prov, "a Messages API response holds text and tool_use blocks, not %s", blockType(b))
		}
	}
	type usage struct {
		InputTokens              int64 `json:"input_tokens"`
		OutputTokens             int64 `json:"output_tokens"`
		CacheCreationInputTokens int64 `json:"cache_creation_input_tokens"`
		CacheReadInputTokens     int64 `json:"cache_read_input_tokens"`
	}
	var u *usage
	if info.Usage != nil {
		u = &usage{info.Usage.InputTokens, info.Usage.OutputTokens, info.Usage.CacheCreationInputTokens, info.Usage.CacheReadInputTokens}
	}
	doc := struct {
		ID           string  `json:"id"`
		Type         string  `json:"type"`
		Role         string  `json:"role"`
		Model        string  `json:"model"`
		Content      []any   `json:"content"`
		StopReason   *string `json:"stop_reason"`
		StopSequence *string `json:"stop_sequence"`
		Usage        *usage  `json:"usage,omitempty"`
	}{ID: info.ID, Type: "message", Role: "assistant", Model: r.Model, Content: content, Usage: u}
	if s := toProviderStopReason(anthropicStopReasons, r.StopReason); s != "" {
		doc.StopReason = &s
	}
	if info.StopSequence != "" {
		doc.StopSequence = &info.StopSequence
	}
	data, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	var m anthropic.Message
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s: decoding the message: %v", prov, err)
	}
	return &m, nil
}
